"""`fruit-rage perft FILE DEPTH`: leaf counts per depth and the speed of counting them."""
from __future__ import annotations

import sys
import time

from agent.gamefile import InputError, read_input
from agent.rules import fruit_count, perft


def run(args) -> int:
    try:
        game = read_input(args.file)
    except InputError as error:
        print(f"fruit-rage: {args.file}: {error}", file=sys.stderr)
        return 2
    if args.reference:
        count = lambda depth: perft(game.grid, depth)  # noqa: E731
    else:
        from agent._core import Board
        count = Board(game.grid).perft
    # every move takes at least one fruit: deeper than that, every count is the same
    deepest = min(args.depth, fruit_count(game.grid))
    print(f"{'depth':>5} {'leaves':>16} {'seconds':>9} {'leaves/s':>12}")
    for depth in range(1, deepest + 1):
        start = time.perf_counter()
        leaves = count(depth)
        elapsed = time.perf_counter() - start
        rate = leaves / elapsed if elapsed > 0 else float("inf")
        print(f"{depth:>5} {leaves:>16,} {elapsed:>9.3f} {rate:>12,.0f}", flush=True)
    if deepest < args.depth:
        print(f"(every game from here ends within {deepest} moves: the counts of depths "
              f"{deepest + 1}..{args.depth} are those of depth {deepest})")
    return 0
