"""One move of the agent: from a parsed input to the chosen move and the next board.
Glue between the time policy, the search and the rules core; no file I/O here."""

import sys
import time

from agent._core import Bitboard
from agent.move import timing
from agent.move.calibration import Calibration
from agent.move.deepening import mergeable_groups, search_options, think
from agent.rules import move_name

VERBOSE_WIDTH = 80  # the columns of --verbose's lines, as a log or a pipe takes them


class Choice:
    __slots__ = ("name", "next_grid")

    def __init__(self, name: str, next_grid: tuple):
        self.name = name  # e.g. "G8"
        self.next_grid = next_grid  # the board after the move and gravity


def choose_move(
    game,
    calibration: "Calibration | None" = None,
    verbose=False,
    clock=time.process_time,
    greedy_opponent=False,
    depth=None,
) -> Choice:
    """The move for `game` (a parsed input.txt) in a move process of its own; `calibration`:
    this machine's measured speed and start-up cost; `greedy_opponent`: search as if the
    opponent always takes a largest group (opt-in, for a known greedy player) instead of
    its best move; `depth`: search exactly that deep, whatever the clock says."""
    calibration = calibration or Calibration()
    board = Bitboard(game.grid)
    options = search_options(board.n, greedy_opponent)
    root_moves, speed, reduction = board.group_count(), calibration.nodes_per_second, options.get("reduction", 0)
    mergeable = mergeable_groups(board)
    if depth is None:
        manager = timing.TimeManager.for_move_process(
            game.time_left, root_moves, calibration.startup, clock(), speed, reduction, mergeable, board.n
        )
    else:
        manager = timing.TimeManager.until(clock(), float("inf"), root_moves, speed, reduction, board.n)
    if verbose:
        print(
            f"{game.time_left:g} s left, {root_moves} groups ({mergeable} may merge): {manager.budget}",
            file=sys.stderr,
        )
    decision = think(
        board,
        manager,
        tt_bits=manager.table_bits(clock()),
        clock=clock,
        report=_print_iteration if verbose else None,
        searcher_options=options,
        max_depth=depth,
    )
    next_board, points = board.play(decision.move)
    if verbose:
        outcome = (
            f"exact final margin {decision.value:+d}"
            if decision.exact
            else f"value {decision.value:+d} at depth {decision.depth}"
        )
        if greedy_opponent:
            outcome += " against a greedy opponent"
        print(f"chose {move_name(decision.move)} ({points} points), {outcome}", file=sys.stderr)
        print(f"CPU {clock():.3f} s, TT hit rate {decision.tt_hit_rate:.1%}", file=sys.stderr)
    return Choice(move_name(decision.move), next_board.rows())


def _print_iteration(iteration, searcher) -> None:
    """A line an iteration, its principal variation going on indented lines where it
    passes VERBOSE_WIDTH columns (an endgame's runs to the end of the game)."""
    tag = "exact" if iteration.exact else ("partial" if not iteration.completed else "")
    line = (
        f"depth {iteration.depth:3d}  value {iteration.value:+7d}  nodes {iteration.nodes:10,d}"
        f"  cpu {time.process_time():7.3f}s  {tag:7s} pv"
    )
    for cell in searcher.principal_variation(iteration.depth):
        name = move_name(cell)
        if len(line) + 1 + len(name) > VERBOSE_WIDTH:
            print(line, file=sys.stderr)
            line = "   "
        line += " " + name
    print(line, file=sys.stderr)
