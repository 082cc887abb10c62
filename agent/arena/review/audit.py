"""Endgame audit of a recorded game: from the point where the rest of the game can be
solved exactly, how many points did each player's moves give away?

Walking back from the end, every position is solved exactly (with a CPU cap per solve)
until one is too big. In that solved stretch a move gives away what its position's exact
value exceeds the move's own worth: its points minus the exact value of the position it
leaves, which belongs to the opponent. Together with the score at the stretch's start,
the first solved value also says how the game ends with best play from there, i.e.
whether it was still open when it became solvable or already decided."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from agent.rules import fruit_count, is_empty, move_name, parse_move_name, play


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


def solve_exactly(grid, seconds: float):
    """(exact value for the mover, a best move) of `grid`, or None if it takes longer than
    `seconds` of CPU. The value of an empty board is 0 (and there is no move)."""
    if is_empty(grid):
        return 0, None
    from agent._core import Board, Searcher  # here: reading records needs no core

    result = Searcher(Board(grid), tt_bits=22).search(999, deadline=time.process_time() + seconds)
    if not (result.completed and result.exact):
        return None
    assert result.move is not None  # an exact search of a board with fruit has a move
    return result.value, tuple(result.move)


def game_positions(record: dict) -> list:
    """(side to move, grid, move name, points) before every legal move, then (side to move,
    final grid, None, 0). A faulted last move (time, invalid) is not a move: the game ends
    before it."""
    grid = tuple(record["board"])
    positions = []
    side = record["first"]
    for move in record["moves"]:
        if move.get("fault"):
            break
        next_grid, points = play(grid, parse_move_name(move["move"]))
        positions.append((move["player"], grid, move["move"], points))
        grid = next_grid
        side = "B" if move["player"] == "A" else "A"
    positions.append((side, grid, None, 0))
    return positions


def audit_game(record: dict, seconds: float, solve=solve_exactly) -> GameAudit:
    positions = game_positions(record)
    audit = GameAudit(moves=len(positions) - 1)
    if audit.moves == 0:  # the first move lost: nothing to audit, no full board to solve
        return audit
    solved = solve(positions[-1][1], seconds)
    if solved is None:
        return audit
    later_value = solved[0]  # exact value of the position after the move being looked at
    index = len(positions) - 1
    while index > 0:
        side, grid, name, points = positions[index - 1]
        solved = solve(grid, seconds)
        if solved is None:
            break
        value, best = solved
        index -= 1
        given = value - (points - later_value)
        audit.moves_audited[side] += 1
        if given:
            audit.given_away[side] += given
            audit.slips.append(Slip(index + 1, side, name, points, given, move_name(best)))
        later_value = value
    audit.slips.reverse()
    audit.solved_from = index
    audit.fruit_left = fruit_count(positions[index][1])
    score = {"A": 0, "B": 0}
    for side, _, _, points in positions[:index]:
        score[side] += points
    audit.score_then = score
    own = later_value if positions[index][0] == "A" else -later_value
    audit.best_play_margin = score["A"] - score["B"] + own
    return audit
