"""`fruit-rage perft FILE DEPTH`: for each depth d up to DEPTH, the number of move sequences
of exactly d moves (perft as chess programs count it: a game that ends sooner adds none),
and the speed of counting them."""

from __future__ import annotations

import sys
import time

from agent.cli_support import plural
from agent.commands.options import positive_int
from agent.gamefile import InputError, read_input
from agent.rules import perft

DESCRIPTION = (
    "For the position in FILE (input.txt format), print at each depth d of 1..DEPTH the number "
    "of move sequences of exactly d moves (the leaves of the move tree, as chess programs count "
    "perft: a game that ends in fewer moves adds none, so a board one move empties counts 0 at "
    "depth 2), and the speed."
)


def add_arguments(p) -> None:
    p.add_argument("file", metavar="FILE", help="a position in input.txt format")
    p.add_argument("depth", metavar="DEPTH", type=positive_int, help="deepest depth to count, >= 1")
    p.add_argument(
        "--reference", action="store_true", help="count with the pure-Python reference rules instead of the core (slow)"
    )


def run(args) -> int:
    try:
        game = read_input(args.file)
    except InputError as error:
        print(f"fruit-rage perft: {args.file}: {error}", file=sys.stderr)
        return 2
    if args.reference:
        count = _timed(lambda depth: perft(game.grid, depth))
    else:
        from agent._core import Bitboard

        count = _interruptible(_timed(Bitboard(game.grid).perft))
    print(f"{'depth':>5} {'leaves':>16} {'seconds':>9} {'leaves/s':>12}", flush=True)
    for depth in range(1, args.depth + 1):
        leaves, elapsed = count(depth)
        rate = leaves / elapsed if elapsed > 0 else float("inf")
        print(f"{depth:>5} {leaves:>16,} {elapsed:>9.3f} {rate:>12,.0f}", flush=True)
        if leaves == 0 and depth < args.depth:
            # every move takes a fruit, so this comes by the depth of the fruit count + 1
            deeper = (
                f"the count of depth {args.depth} is"
                if depth + 1 == args.depth
                else f"the counts of depths {depth + 1}..{args.depth} are"
            )
            print(f"(every game from here ends within {plural(depth - 1, 'move')}: {deeper} 0 too)")
            break
    return 0


def _timed(count):
    """`count` that also returns the seconds the count alone took: not the start of the
    thread it may run in, which would be most of depth 1's time."""

    def timed(depth):
        start = time.perf_counter()
        leaves = count(depth)
        return leaves, time.perf_counter() - start

    return timed


def _interruptible(count):
    """`count` run in a thread of its own. The core counts without the interpreter: Ctrl-C
    would wait for a count that can take hours (depth 5 of a full 26x26 board). The main
    thread only waits, and a wait is where Ctrl-C reaches it."""
    import threading

    def counted(depth):
        outcome = []

        def work():
            try:
                outcome.append((count(depth), None))
            except BaseException as error:  # re-raised in the main thread
                outcome.append((None, error))

        worker = threading.Thread(target=work, daemon=True)  # daemon: an interrupted count ends with us
        worker.start()
        worker.join()
        result, error = outcome[0]
        if error is not None:
            raise error
        return result

    return counted
