"""The review's one road to the search, for analyse, audit, the page's analyses and hints
and `play`'s note on best play: a position (an agent.board.Board) solved exactly
(agent.engine.solve), or searched by the agent under a node budget (agent.engine.search).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import agent.engine as engine
from agent.board import Board, Move


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
    solved = engine.solve(board, cpu=seconds, max_nodes=max_nodes)
    return None if solved is None else PositionValue(solved.move, solved.value, True)


def search_position(board: Board, nodes: int) -> PositionValue:
    """The agent's iterative deepening of `board`, stopped after the depth during which it
    has visited `nodes` nodes."""
    result = engine.search(board, engine.Limit(nodes=nodes))
    return PositionValue(result.move, result.value, result.exact)
