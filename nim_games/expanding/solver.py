"""Exact solver for Expanding Nim and the computer player's choice of move.

A position is what the player on move needs to know: stones left, the grown limit
(max(m, 1 + largest take so far), which is all the history the future depends on), whether
the opponent's reset restricts this move to m, and both players' resets.
"""

from __future__ import annotations

import time
from typing import NamedTuple, Optional

from .rules import Move


class Position(NamedTuple):
    stones: int
    limit: int  # grown limit; a pending reset caps only this move, at m
    reset_pending: bool
    my_resets: int
    their_resets: int


def start_position(stones: int, resets: int, init_max: int) -> Position:
    return Position(stones, init_max, False, resets, resets)


class OutOfTime(Exception):
    """The solver passed its deadline; what it had proved so far stays memoised."""


class Solver:
    def __init__(self, init_max: int):
        self.init_max = init_max
        self._wins: dict[Position, bool] = {}

    def canonical(self, position: Position) -> Position:
        # Any limit >= stones plays the same (every later limit also covers the stones left),
        # so capping it keeps the memo small.
        return position._replace(limit=min(position.limit, position.stones))

    def move_cap(self, position: Position) -> int:
        return self.init_max if position.reset_pending else position.limit

    def moves(self, position: Position) -> list[tuple[Move, Position | None]]:
        """Every useful legal move with the opponent's resulting position (None: the move wins).

        Taking more than remain is the same as taking them all, so takes stop at the stones left.
        """
        stones, limit, _, mine, theirs = position
        result = []
        for use_reset in [False, True] if mine else [False]:
            for take in range(1, min(self.move_cap(position), stones) + 1):
                child = None
                if take < stones:
                    child = self.canonical(
                        Position(stones - take, max(limit, take + 1), use_reset, theirs, mine - use_reset)
                    )
                result.append((Move(take, use_reset), child))
        return result

    def wins(self, position: Position, deadline: Optional[float] = None) -> bool:
        """Whether the player on move wins with perfect play (memoised, no recursion limit).
        With a `deadline` (time.monotonic()), OutOfTime once it has passed."""
        root = self.canonical(position)
        stack = [root]
        while stack:
            # every step: one lists up to 2 x limit moves, far dearer than reading the clock
            if deadline is not None and time.monotonic() >= deadline:
                raise OutOfTime
            current = stack[-1]
            if current in self._wins:
                stack.pop()
                continue
            unknown = []
            won = False
            for _, child in self.moves(current):
                if child is None or self._wins.get(child) is False:
                    won = True
                    break
                if child not in self._wins:
                    unknown.append(child)
            if won or not unknown:
                self._wins[current] = won
                stack.pop()
            else:
                stack.extend(unknown)
        return self._wins[root]

    def best_move(self, position: Position, deadline: Optional[float] = None) -> Move:
        """A winning move if there is one (smallest take, resets kept); else one that prolongs
        the game. Past the `deadline` (time.monotonic()) before the position is solved: the
        most prolonging of the moves not yet proved to lose (Expanding Nim grows too fast to
        solve a few thousand stones with resets in a player's time)."""
        if self.move_cap(position) >= position.stones:
            # Taking them all wins and is the first winning move in the order below; answered
            # at once, a limit in the millions costs no listing of every take (seconds of clock).
            return Move(position.stones, False)
        options = self.moves(position)
        try:
            for move, child in options:
                if child is None or not self.wins(child, deadline):
                    return move
        except OutOfTime:
            for move, child in options:
                if child is None or self._wins.get(child) is False:
                    return move
            # the children proved so far win for the opponent; the others may not
            unproved = [option for option in options if option[1] not in self._wins]
            return max(unproved or options, key=lambda option: self._prolonging(*option))[0]
        return max(options, key=lambda option: self._prolonging(*option))[0]

    def _prolonging(self, move: Move, child: Optional[Position]) -> tuple:
        """Rank moves in a lost position: no immediate loss, then most stones left, then keep resets."""
        assert child is not None  # best_move has returned a move that ends the game
        opponent_wins_at_once = self.move_cap(child) >= child.stones
        return (not opponent_wins_at_once, child.stones, not move.reset)
