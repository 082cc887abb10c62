"""The review's one road to the search, for analyse, audit, the page's analyses and hints
and `play`'s note on best play: a position (an agent.board.Board) solved exactly, or
searched by the agent under a node budget.

The agent's search goes through the library (agent.engine.search). The exact solve cannot:
the library's search deepens iteratively under the agent's options, while a solve is one
search to the end of the game with the core's defaults, given up when it passes a node or
CPU cap (a solve that does not fit is the common case in an opening, and the reviews walk
back until one fails). The library offers no such search, and searching to the end by
iterative deepening visits other nodes and may name another of two equal moves: the
reviews' figures would change. So the solve is written here once, on the Board's core."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

from agent.board import Board, Move
from agent.engine import Limit, search

SOLVER_TABLE_BITS = 22  # 64 MiB: room for the nodes of a solve within its budget
SOLVE_DEPTH = 999  # past the end of any game: a solve reaches the end or is given up
NO_DEADLINE = 1e300  # agent._core.Searcher.search's default: no CPU cap


@dataclass(frozen=True)
class PositionValue:
    """What a search found in one position: its best move and the position's value for the
    side to move, exact when the search reached the end of the game."""

    move: Optional[Move]  # None on an empty board
    value: int
    exact: bool


def solve(board: Board, *, max_nodes: Optional[int] = None, seconds: Optional[float] = None) -> Optional[PositionValue]:
    """The exact value of `board` and a best move, or None when solving it takes more than
    `max_nodes` nodes or `seconds` of CPU. The value of an empty board is 0."""
    if board.is_over:
        return PositionValue(None, 0, True)
    from agent._core import Searcher  # here: reading records needs no core

    searcher = Searcher(board.core(), tt_bits=SOLVER_TABLE_BITS)
    # the clock starts once the table is allocated, as the solve's own budget; without a
    # cap, the core's own "none" (a deadline never reached, max_nodes 0)
    deadline = NO_DEADLINE if seconds is None else time.process_time() + seconds
    result = searcher.search(SOLVE_DEPTH, deadline=deadline, max_nodes=max_nodes or 0)
    if not (result.completed and result.exact):
        return None
    assert result.move is not None  # an exact search of a board with fruit has a move
    return PositionValue(Move(*result.move), result.value, True)


def search_position(board: Board, nodes: int) -> PositionValue:
    """The agent's iterative deepening of `board`, stopped after the depth during which it
    has visited `nodes` nodes."""
    result = search(board, Limit(nodes=nodes))
    return PositionValue(result.move, result.value, result.exact)
