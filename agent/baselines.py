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
from collections.abc import Callable

from agent.cli_support import interrupted, reader_left
from agent.rules import groups, move_name, play, top_left

BASELINE_NAMES = ("random", "greedy", "minimax3")

MINIMAX_DEPTH = 3
# CPU expected for a move process's start-up and exit (python -m, the rules module and
# the core), which the clock also charges.
STARTUP_COST = 0.05
# The time manager reads a search speed only for the table's size and the alpha-beta node
# model of depth 4 and beyond, neither of which plain minimax to depth 3 has.
MINIMAX_NODES_PER_SECOND = 1e5


def random_move(grid, time_left: float, seed=None):
    import random  # here: the other baselines need not pay for its import

    rng = random.Random("\n".join(grid) if seed is None else f"{seed}\n" + "\n".join(grid))
    return top_left(rng.choice(groups(grid)))


def greedy_move(grid, time_left: float = 0.0):
    return top_left(max(groups(grid), key=len))


def minimax3_move(grid, time_left: float, startup: float = STARTUP_COST, in_process: bool = False):
    """Iterative deepening 1..3 of plain minimax under the agent's time policy (agent.move.timing):
    no depth is started past the budget's optimum, and the search stops at its maximum;
    the deepest completed depth's move wins. `in_process`: the clock was not started with
    this process (see agent.move.timing.TimeManager.in_process)."""
    import agent._core as core  # only this baseline needs the compiled core
    from agent.move import timing

    board = core.Bitboard(grid)
    groups, now = board.group_count(), time.process_time()
    if in_process:
        manager = timing.TimeManager.in_process(time_left, groups, now, MINIMAX_NODES_PER_SECOND)
    else:
        manager = timing.TimeManager.for_move_process(time_left, groups, startup, now, MINIMAX_NODES_PER_SECOND)
    searcher = core.Searcher(board, alpha_beta=False, eval_kind=core.EVAL_NONE)
    best = greedy_move(grid)
    for depth in range(1, MINIMAX_DEPTH + 1):
        if depth > 1 and manager.should_stop(time.process_time()):
            break
        start = time.process_time()
        result = searcher.search(depth, deadline=manager.deadline)
        if not result.completed:
            break
        assert result.move is not None  # a completed search of a board with fruit
        best = tuple(result.move)
        manager.update(time.process_time() - start, False)
    return best


CHOOSERS: dict[str, Callable[..., tuple]] = {"random": random_move, "greedy": greedy_move, "minimax3": minimax3_move}


USAGE = f"usage: python -m agent.baselines {{{','.join(BASELINE_NAMES)}}}"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv in (["-h"], ["--help"]):  # no argparse: each move pays for its imports
        try:
            print(USAGE + "\n" + __doc__, flush=True)
        except BrokenPipeError:  # `--help | head`: end as fruit-rage does
            return reader_left()
        return 0
    if len(argv) != 1 or argv[0] not in CHOOSERS:
        print(USAGE + "\nagent.baselines: " + _misuse(argv), file=sys.stderr)
        return 2
    name = argv[0]

    def baseline_choice(game) -> tuple:
        cell = CHOOSERS[name](game.grid, game.time_left)
        return move_name(cell), play(game.grid, cell)[0]

    from agent.move.protocol import answer_files

    try:
        return answer_files("input.txt", "output.txt", baseline_choice, program=name)
    except KeyboardInterrupt:  # end as fruit-rage does: one line, exit code 130
        return interrupted(name)


def _misuse(argv) -> str:
    """What is wrong with the words given, when they name no baseline."""
    names = f"{', '.join(BASELINE_NAMES[:-1])} or {BASELINE_NAMES[-1]}"
    if not argv:
        return f"name the baseline to play: {names}"
    if len(argv) > 1:
        return f"one baseline at a time, not {len(argv)} words: {' '.join(argv)!r}"
    return f"no baseline is called {argv[0]!r}: {names}"


if __name__ == "__main__":
    sys.exit(main())
