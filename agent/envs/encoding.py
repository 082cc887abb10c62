"""The observation and action encoding every environment shares.

An observation is ``types + 1`` planes of ``size x size`` cells, planes first: plane
``k`` (0 <= k < types) is 1 where fruit ``k`` lies, plane ``types`` is 1 on the holes.
Row 0 is the top row, as in input.txt. Fruit Rage has no pieces of a player's own, so
both players see the same planes.

An action is a cell, ``row * size + col``; the legal ones are the groups' naming cells
(`agent.Board.normalize`, the cell ``output.txt`` names): one action per group.
"""

from __future__ import annotations

import numpy as np

from agent import rules
from agent.board import Board, Move

OBSERVATION_DTYPE = np.int8
REWARD_KINDS = ("points", "outcome")
DEFAULT_TYPES = 4


def observation_shape(size: int, types: int) -> tuple[int, int, int]:
    return types + 1, size, size


def planes(board: Board, types: int) -> np.ndarray:
    """The board as its fruit planes and the holes' plane (see the module's docstring)."""
    out = np.empty(observation_shape(board.size, types), dtype=OBSERVATION_DTYPE)
    board.core().write_planes(out)
    return out


def action_of(move: Move, size: int) -> int:
    return move.row * size + move.col


def move_of(action: int, size: int) -> Move:
    return Move(*divmod(int(action), size))


def legal_actions(board: Board) -> list[int]:
    """The groups' naming cells as actions, in increasing order (none once the box is
    empty)."""
    return np.flatnonzero(action_mask(board)).tolist()


def action_mask(board: Board) -> np.ndarray:
    """1 at each group's naming cell, 0 elsewhere."""
    mask = np.empty(board.size * board.size, dtype=np.int8)
    board.core().write_naming_cells(mask)
    return mask


def is_legal(mask: np.ndarray, action: object) -> bool:
    """True when `action` is one that `mask` (action_mask's) allows: a group's naming
    cell, not another of its cells."""
    return bool(isinstance(action, (int, np.integer)) and 0 <= action < len(mask) and mask[action])


def game_shape(size: int, types: int | None, board: Board | None) -> tuple[int, int]:
    """(size, types) of an environment's games: those of `board` when one is given (its
    types unless `types` says more), else `size` and `types` (4 when not given).
    ValueError when they make no game."""
    if board is None:
        types = DEFAULT_TYPES if types is None else types
        Board.random(0, size, types)  # the ValueError of a size or types out of range
        return size, types
    types = board.types if types is None else types
    check_board(board, types)
    return board.size, types


def check_board(board: Board, types: int) -> None:
    """ValueError when `board` holds a fruit type outside 0..types-1 or no fruit."""
    highest = max((ch for row in board.rows for ch in row if ch != rules.EMPTY), default=None)
    if highest is None:
        raise ValueError("the board is empty: a game starts with fruit in the box")
    if int(highest) >= types:
        raise ValueError(f"the board holds fruit type {highest}: more than its {types} types")


def check_reward_kind(reward: str) -> None:
    if reward not in REWARD_KINDS:
        raise ValueError(f"reward must be one of {', '.join(REWARD_KINDS)}, not {reward!r}")


def outcome(margin: int) -> int:
    """1, 0 or -1: a win, draw or loss for the side whose margin it is (with no clocks, equal
    scores are a draw)."""
    return (margin > 0) - (margin < 0)
