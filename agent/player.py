"""One move of the agent: from a parsed input to the chosen move and the next board.
Glue between the time policy, the search and the rules core; no file I/O here."""
import sys
import time

from agent import timing
from agent._core import Board
from agent.calibration import Calibration, load
from agent.rules import move_name
from agent.deepening import search_options, think

TT_BITS_RANGE = (12, 22)    # 2^22 entries of 16 bytes = 64 MiB, the memory ceiling


class Choice:
    __slots__ = ("name", "next_grid")

    def __init__(self, name: str, next_grid: tuple):
        self.name = name              # e.g. "G8"
        self.next_grid = next_grid    # the board after the move and gravity


def choose_move(game, calibration_path=None, verbose=False, clock=time.process_time,
                greedy_opponent=False, depth=None) -> Choice:
    """The move for `game`; `greedy_opponent`: search as if the opponent always takes a
    largest group (opt-in, for a known greedy player) instead of its best move; `depth`:
    search exactly that deep, whatever the clock says (for reproducible comparisons)."""
    calibration = load(calibration_path) if calibration_path else Calibration()
    board = Board(game.grid)
    if depth is None:
        budget = timing.plan(game.time_left, board.group_count(), calibration.startup, clock())
        expected_nodes = calibration.nodes_per_second * max(budget.maximum - clock(), 0.0)
    else:
        budget = timing.Budget(clock(), float("inf"), float("inf"), False)
        expected_nodes = 1 << TT_BITS_RANGE[1]
    decision = think(board, budget, tt_bits=table_bits(expected_nodes), clock=clock,
                     report=_print_iteration if verbose else None,
                     searcher_options=search_options(board.n, greedy_opponent),
                     nodes_per_second=calibration.nodes_per_second, max_depth=depth)
    next_board, points = board.play(decision.move)
    if verbose:
        outcome = (f"exact final margin {decision.value:+d}" if decision.exact
                   else f"value {decision.value:+d} at depth {decision.depth}")
        if greedy_opponent:
            outcome += " against a greedy opponent"
        print(f"{budget}; chose {move_name(decision.move)} ({points} points), {outcome}, "
              f"CPU {clock():.3f} s, TT hit rate {decision.tt_hit_rate:.1%}", file=sys.stderr)
    return Choice(move_name(decision.move), next_board.rows())


def in_process_budget(board: Board, clock_left: float, now: float) -> timing.Budget:
    """The time policy's budget for a player that runs inside a longer-lived process: no
    start-up is paid per move, and the clock reads `now` as the move begins."""
    return timing.plan(clock_left, board.group_count(), 0.0, 0.0).shifted(now)


def table_bits(expected_nodes: float) -> int:
    """A table about as large as the nodes the search can visit: a fresh process pays for
    every page of it that gets touched."""
    bits = max(int(expected_nodes), 1).bit_length()
    return min(max(bits, TT_BITS_RANGE[0]), TT_BITS_RANGE[1])


def _print_iteration(iteration, searcher) -> None:
    pv = " ".join(move_name(cell) for cell in searcher.principal_variation(iteration.depth))
    tag = "exact" if iteration.exact else ("partial" if not iteration.completed else "")
    print(f"depth {iteration.depth:3d}  value {iteration.value:+7d}  nodes {iteration.nodes:10,d}"
          f"  cpu {time.process_time():7.3f}s  {tag:7s} pv {pv}", file=sys.stderr)
