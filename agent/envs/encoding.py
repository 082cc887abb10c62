"""The observation, action and reward encoding every environment shares.

An observation is ``types + 4`` planes of ``size x size`` cells, ``float32``, planes
first: plane ``k`` (0 <= k < types) is 1 where fruit ``k`` lies, plane ``types`` is 1 on
the holes; plane ``types + 1`` is 1 everywhere when player 1 (the second to move) is to
move; planes ``types + 2`` and ``types + 3`` hold player 0's and player 1's points so far
divided by the game's most points, ``size**4`` (below), so in [0, 1]. Row 0 is the top row, as in
input.txt. With the mover and the points the tensor says everything a value depends on:
the final margin is the points so far plus the value of the board to its mover.

An action is a cell, ``row * size + col``; the legal ones are the groups' naming cells
(`agent.Board.normalize`, the cell ``output.txt`` names): one action per group.

Rewards come in three kinds (REWARD_KINDS), the same names in every interface:
``"points"``, a move's points (its group's size squared) to the mover and their negative
to the other, so a return is the final margin in points; ``"normalised"``, the same
divided by the game's most points, so a return lies in [-1, 1]; ``"outcome"``, 1, 0 or
-1 at the end for a win, a draw or a loss. The game's most points, ``size**4`` (the whole
box taken as one group), bound every margin of every board of that size.

An illegal action forfeits: the game ends, and its mover loses the most points the fruit
left could give (`most_points` of the board) in points, that divided by the most points when
normalised, or the game (-1) in outcomes; the other player gains the same (the returns
always add up to 0). Any legal play ends better for the mover, so an illegal action is
never the cheapest way out of a game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from agent import rules
from agent.board import Board, Move

OBSERVATION_DTYPE = np.float32
REWARD_KINDS = ("points", "normalised", "outcome")
DEFAULT_TYPES = 4
# the planes after the fruit types' and the holes': who moves, each player's points
STATUS_PLANES = 3


def observation_shape(size: int, types: int) -> tuple[int, int, int]:
    return types + 1 + STATUS_PLANES, size, size


def board_planes(board: Board, types: int) -> np.ndarray:
    """The fruit planes and the holes' plane, as int8 (see the module's docstring)."""
    out = np.empty((types + 1, board.size, board.size), dtype=np.int8)
    board.core().write_planes(out)
    return out


def observation(board: Board, types: int, mover: int, scores: Sequence[int], most_points: int) -> np.ndarray:
    """The observation of `board` with player `mover` (0 or 1) to move and `scores`, each
    player's points so far (see the module's docstring)."""
    out = np.zeros(observation_shape(board.size, types), dtype=OBSERVATION_DTYPE)
    out[: types + 1] = board_planes(board, types)
    write_status(out, types, mover, scores, most_points)
    return out


def write_status(out: np.ndarray, types: int, mover: int, scores: Sequence[int], most_points: int) -> None:
    """The planes after the board's in `out`: who moves and each player's scaled points."""
    out[types + 1] = mover
    out[types + 2] = scores[0] / most_points
    out[types + 3] = scores[1] / most_points


def action_of(move: Move, size: int) -> int:
    return move.row * size + move.col


def move_of(action: int, size: int) -> Move:
    return Move(*divmod(int(action), size))


def action_index(action: object, size: int) -> int:
    """The cell index that `action` gives: an int, a numpy integer or a 0-d integer array
    (what Stable-Baselines3's predict returns). TypeError for anything else (a bool, a
    float, a string, an array of several), ValueError outside 0..size*size-1."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is a whole number (a cell, row * size + col), not {action!r}")
    if not 0 <= action < size * size:
        raise ValueError(f"action {action} is outside the {size}x{size} board's cells 0..{size * size - 1}")
    return int(action)


def legal_actions(board: Board) -> list[int]:
    """The groups' naming cells as actions, in increasing order (none once the box is
    empty)."""
    return np.flatnonzero(action_mask(board)).tolist()


def action_mask(board: Board) -> np.ndarray:
    """1 at each group's naming cell, 0 elsewhere."""
    mask = np.empty(board.size * board.size, dtype=np.int8)
    board.core().write_naming_cells(mask)
    return mask


def whole_number(name: str, value: object, low: int, high: int) -> int:
    """`value` when it is a whole number in low..high; else TypeError or ValueError that
    names the parameter."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number of {low}..{high}, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be a whole number of {low}..{high}, not {value!r}")
    return int(value)


def game_shape(size: object, types: object, board: object) -> tuple[int, int]:
    """(size, types) of an environment's games: those of `board` when one is given (its
    types unless `types` says more), else `size` and `types` (4 when not given).
    TypeError or ValueError, naming the parameter, when they make no game."""
    if board is None:
        size = whole_number("size", size, 1, rules.MAX_SIZE)
        types = whole_number("types", DEFAULT_TYPES if types is None else types, 1, rules.MAX_TYPES)
        return size, types
    if not isinstance(board, Board):
        raise TypeError(f"board must be an agent.Board, not {type(board).__name__}")
    types = board.types if types is None else whole_number("types", types, 1, rules.MAX_TYPES)
    check_board(board, types)
    return board.size, types


def check_board(board: Board, types: int) -> None:
    """ValueError when `board` holds a fruit type outside 0..types-1 or no fruit."""
    highest = max((ch for row in board.rows for ch in row if ch != rules.EMPTY), default=None)
    if highest is None:
        raise ValueError("the board is empty: a game starts with fruit in the box")
    if int(highest) >= types:
        raise ValueError(f"the board holds fruit type {highest}: more than its {types} types")


def most_points(board: Board) -> int:
    """The most points the fruit on `board` could ever give: each fruit type's fruit taken
    as one group. No margin from here on is larger."""
    return sum(count * count for count in Counter(ch for row in board.rows for ch in row if ch != rules.EMPTY).values())


def game_most_points(size: int) -> int:
    """The most points a game on a `size` x `size` board can give, size**4 (the whole box
    as one group): no margin of any board of that size is larger."""
    return size**4


def outcome(margin: float) -> int:
    """1, 0 or -1: a win, draw or loss for the side whose margin it is (with no clocks, equal
    scores are a draw)."""
    return (margin > 0) - (margin < 0)


@dataclass(frozen=True)
class Rewards:
    """The rewards of one kind (REWARD_KINDS) in a game whose margins `most_points` bounds."""

    kind: str
    most_points: int

    def __post_init__(self) -> None:
        if self.kind not in REWARD_KINDS:
            raise ValueError(f"reward must be one of {', '.join(REWARD_KINDS)}, not {self.kind!r}")

    def of_points(self, points: int) -> float:
        """The reward of a net gain of `points` (a move's, or a move's less the replies'):
        the points, scaled, or 0 with outcome rewards (paid at the end)."""
        if self.kind == "outcome":
            return 0.0
        scale = 1 if self.kind == "points" else self.most_points
        return points / scale + 0.0  # + 0.0: -0.0 becomes 0.0

    def at_end(self, margin: int) -> float:
        """What the end of a game adds for the side whose final `margin` it is: its outcome
        with outcome rewards, else nothing (the points were paid move by move)."""
        return float(outcome(margin)) if self.kind == "outcome" else 0.0

    def of_illegal(self, board: Board) -> float:
        """The mover's reward for an illegal action on `board` (a forfeit); the other
        player's is its negative."""
        if self.kind == "outcome":
            return -1.0
        # Any legal move ends better: it takes at least one point, and leaves the other
        # player less than most_points(board) to take.
        return self.of_points(-most_points(board))

    def largest_return(self) -> float:
        """The largest return of a game in either direction."""
        return float(self.most_points) if self.kind == "points" else 1.0
