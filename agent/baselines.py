"""Baseline opponents in the competition protocol: `python -m agent.baselines NAME` reads
./input.txt and writes ./output.txt.

random    a random legal move (seeded by the position, so matches replay exactly)
greedy    the largest group (the first in reading order on ties)
minimax3  plain minimax on the score difference, no alpha-beta, depth 3, shallower when
          short of time; never loses on time (the original grading opponent)
"""
from __future__ import annotations

import sys
import time

from agent.gamefile import InputError, format_output, read_input, write_atomically
from agent.rules import groups, move_name, play, top_left

BASELINE_NAMES = ("random", "greedy", "minimax3")

MINIMAX_DEPTH = 3
# CPU kept back for this process's start-up and exit, which the clock also charges.
STARTUP_RESERVE = 0.15


def random_move(grid, time_left: float):
    import random  # here: the other baselines need not pay for its import

    return top_left(random.Random("\n".join(grid)).choice(groups(grid)))


def greedy_move(grid, time_left: float = 0.0):
    return top_left(max(groups(grid), key=len))


def minimax3_move(grid, time_left: float):
    """Iterative deepening 1..3 of plain minimax, stopped at a CPU deadline sized so that
    the whole game fits in the clock; the deepest completed depth's move wins."""
    import agent._core as core  # only this baseline needs the compiled core

    group_count = len(groups(grid))
    own_moves_left = max(2.0, group_count / 2)
    budget = (time_left - STARTUP_RESERVE) / own_moves_left
    deadline = time.process_time() + budget
    searcher = core.Searcher(core.Board(grid), alpha_beta=False, eval_kind=core.EVAL_NONE)
    best = greedy_move(grid)
    for depth in range(1, MINIMAX_DEPTH + 1):
        if time.process_time() >= deadline:
            break
        result = searcher.search(depth, deadline=deadline)
        if not result.completed:
            break
        best = tuple(result.move)
    return best


CHOOSERS = {"random": random_move, "greedy": greedy_move, "minimax3": minimax3_move}


USAGE = f"usage: python -m agent.baselines {{{','.join(BASELINE_NAMES)}}}"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv in (["-h"], ["--help"]):  # no argparse: each move pays for its imports
        try:
            print(USAGE + "\n" + __doc__, flush=True)
        except BrokenPipeError:  # `--help | head`: end as fruit-rage does
            from agent.cli import reader_left
            return reader_left()
        return 0
    if len(argv) != 1 or argv[0] not in CHOOSERS:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        game = read_input("input.txt")
    except InputError as error:
        print(f"{argv[0]}: input.txt: {error}", file=sys.stderr)
        return 2
    try:
        cell = CHOOSERS[argv[0]](game.grid, game.time_left)
    except KeyboardInterrupt:  # end as fruit-rage does: one line, exit code 130
        print(f"{argv[0]}: interrupted", file=sys.stderr)
        return 130
    next_grid, _ = play(game.grid, cell)
    try:
        write_atomically("output.txt", format_output(move_name(cell), next_grid))
    except OSError as error:
        print(f"{argv[0]}: cannot write output.txt: {error.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
