"""A recorded game replayed on the library's Board: the position before every move, as the
reviews (analysis, audit, phases) walk it."""

from __future__ import annotations

from typing import NamedTuple, Optional

from agent.board import Board, Move


class Position(NamedTuple):
    side: str  # the side to move, "A" or "B"
    board: Board
    move: Optional[str]  # the move played here, as recorded; None after the last
    points: int  # what it scored; 0 after the last


def game_positions(record: dict) -> list[Position]:
    """The Position before every legal move of a checked record, then the final one. A
    faulted last move (time, invalid) is not a move: the game ends before it."""
    board = Board(record["board"])  # the fruit types play no part in a walk
    positions = []
    side = record["first"]
    for move in record["moves"]:
        if move.get("fault"):
            break
        after, points = board.play(Move.from_name(move["move"]))
        positions.append(Position(move["player"], board, move["move"], points))
        board = after
        side = "B" if move["player"] == "A" else "A"
    positions.append(Position(side, board, None, 0))
    return positions
