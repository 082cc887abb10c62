"""Endgame audit of a recorded game: from the point where the rest of the game can be
solved exactly, how many points did each player's moves give away?

Walking back from the end, every position is solved exactly (with a CPU cap per solve)
until one is too big. In that solved stretch a move gives away what its position's exact
value exceeds the move's own worth: its points minus the exact value of the position it
leaves, which belongs to the opponent. Together with the score at the stretch's start,
the first solved value also says how the game ends with best play from there, i.e.
whether it was still open when it became solvable or already decided."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from agent.arena.review.replayed import game_positions
from agent.arena.review.searches import PositionValue, solve
from agent.board import Board


@dataclass(frozen=True)
class Slip:
    """A move that gave points away."""

    number: int  # from 1, as in `replay`
    side: str  # "A" or "B"
    move: str  # as played, e.g. "K3"
    points: int
    given_away: int
    best: str  # a move that keeps the exact value


@dataclass
class GameAudit:
    moves: int  # legal moves in the game
    solved_from: int | None = None  # index of the first solved position (None: none solved)
    fruit_left: int = 0  # fruit on the board there
    score_then: dict | None = None  # {"A": points, "B": points} at that position
    best_play_margin: int | None = None  # A's final margin with best play from there
    moves_audited: dict = field(default_factory=lambda: {"A": 0, "B": 0})
    given_away: dict = field(default_factory=lambda: {"A": 0, "B": 0})
    slips: list = field(default_factory=list)


def solve_exactly(board: Board, seconds: float) -> Optional[PositionValue]:
    """The exact value of `board` for the mover and a best move, or None if solving it
    takes more than `seconds` of CPU. The value of an empty board is 0 (and there is no
    move)."""
    return solve(board, seconds=seconds)


def audit_game(record: dict, seconds: float, solve=solve_exactly) -> GameAudit:
    positions = game_positions(record)
    audit = GameAudit(moves=len(positions) - 1)
    if audit.moves == 0:  # the first move lost: nothing to audit, no full board to solve
        return audit
    solved = solve(positions[-1].board, seconds)
    if solved is None:
        return audit
    later_value = solved.value  # exact value of the position after the move being looked at
    index = len(positions) - 1
    while index > 0:
        side, board, name, points = positions[index - 1]
        solved = solve(board, seconds)
        if solved is None:
            break
        value, best = solved.value, solved.move
        index -= 1
        given = value - (points - later_value)
        audit.moves_audited[side] += 1
        if given:
            audit.given_away[side] += given
            assert name is not None and best is not None  # a move played here, and a best one
            audit.slips.append(Slip(index + 1, side, name, points, given, best.name))
        later_value = value
    audit.slips.reverse()
    audit.solved_from = index
    audit.fruit_left = positions[index].board.fruit
    score = {"A": 0, "B": 0}
    for side, _, _, points in positions[:index]:
        score[side] += points
    audit.score_then = score
    own = later_value if positions[index].side == "A" else -later_value
    audit.best_play_margin = score["A"] - score["B"] + own
    return audit
