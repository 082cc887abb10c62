"""A game between a person in the browser and a built-in player, judged as the referee
judges a match: the person's clock runs in wall time on their turns, the player's is
charged the CPU its moves use; a clock at zero loses, an emptied board goes to the higher
score, then to the more time left."""

from __future__ import annotations

from dataclasses import dataclass

from agent.web.library import Board, Move, decide

HUMAN, AGENT = "you", "agent"


class GameError(Exception):
    """A move the game cannot take now; `status` is the HTTP status that says why."""

    status = 409


class IllegalMove(GameError):
    status = 422


@dataclass(frozen=True)
class PlayedMove:
    side: str  # HUMAN or AGENT
    name: str  # the group's name on the board it was taken from, e.g. "B3"
    points: int
    cells: tuple  # the group taken, (row, col) pairs in reading order
    seconds: float  # charged to the mover's clock

    def to_json(self, with_cells: bool = False) -> dict:
        shown = {"side": self.side, "move": self.name, "points": self.points, "seconds": round(self.seconds, 3)}
        if with_cells:  # what the page animates
            shown["cells"] = [list(cell) for cell in self.cells]
        return shown


class Game:
    def __init__(self, board: Board, opponent: str, clocks: dict, first: str, seed: int, now: float):
        self.board = board
        self.opponent = opponent  # a name from library.PLAYER_NAMES
        self.seed = seed
        self.first = first
        self.clocks = dict(clocks)  # seconds left, HUMAN's as of turn_started
        self.scores = {HUMAN: 0, AGENT: 0}
        self.turn: str | None = first  # None once the game is over
        self.turn_started = now
        self.moves: list[PlayedMove] = []
        self.winner: str | None = None
        self.reason = ""
        self.start_rows = board.rows  # for the game's record
        self.start_clocks = dict(clocks)
        self.fault: str | None = None  # how the loser lost, when not on points: "time", "invalid" or "stalled"
        self.hinted: set[int] = set()  # the positions (moves played before them) the person asked a hint in

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def under_way(self) -> bool:
        """Begun and not over: a game someone is playing, not one left before or after."""
        return bool(self.moves) and not self.over

    def clock_left(self, side: str, now: float) -> float:
        """A side's time left at `now`: the person's runs down while it is their turn."""
        if side == HUMAN and self.turn == HUMAN:
            return self.clocks[HUMAN] - (now - self.turn_started)
        return self.clocks[side]

    def check_human_clock(self, now: float) -> None:
        """The person loses once their clock is out, whether or not they move again."""
        if self.turn == HUMAN and self.clock_left(HUMAN, now) <= 0:
            self.clocks[HUMAN] = self.clock_left(HUMAN, now)
            self._lose(HUMAN, "ran out of time", "time")

    def play_human(self, name: str, now: float) -> PlayedMove | None:
        """The person's move, a cell name such as B3; None when their clock ran out first
        (they lose)."""
        self.expect_turn(HUMAN)
        if self.clock_left(HUMAN, now) <= 0:
            self.check_human_clock(now)
            return None
        try:
            move = Move.from_name(name)
            self.board.group_at(move)
        except ValueError as error:
            raise IllegalMove(str(error)) from None
        return self._take(HUMAN, move, now - self.turn_started, now)

    def play_agent(self, cell: tuple, cpu: float, now: float) -> PlayedMove | None:
        """The agent's chosen cell, `cpu` seconds charged; None when it loses instead (past
        its clock, or a cell that is no move)."""
        self.expect_turn(AGENT)
        if cpu >= self.clocks[AGENT]:
            self.clocks[AGENT] -= cpu
            self._lose(AGENT, f"ran out of time: used {cpu:.3f} s with {cpu + self.clocks[AGENT]:.3f} s left", "time")
            return None
        try:
            move = Move(*cell)
            self.board.group_at(move)
        except (TypeError, ValueError) as error:
            self.clocks[AGENT] -= cpu
            self._lose(AGENT, f"answered with no move: {error}", "invalid")
            return None
        return self._take(AGENT, move, cpu, now)

    def agent_failed(self, reason: str, cpu: float, fault: str | None = None) -> None:
        """The agent's move never came: the referee's rule stopped it (`fault` "time" or
        "stalled"), or its process died ("invalid", "time" when the `cpu` charged ran its
        clock out). It loses."""
        self.expect_turn(AGENT)
        self.clocks[AGENT] -= cpu
        self._lose(AGENT, reason, fault or ("time" if self.clocks[AGENT] <= 0 else "invalid"))

    def take_hint(self) -> None:
        """The person asked for a hint in this position: the game says so from now on."""
        self.expect_turn(HUMAN)
        self.hinted.add(len(self.moves))

    def expect_turn(self, side: str) -> None:
        """GameError unless it is `side`'s turn."""
        if self.over:
            raise GameError("the game is over")
        if self.turn != side:
            raise GameError("it is the agent's turn" if side == HUMAN else "it is your turn")

    def _take(self, side: str, move: Move, seconds: float, now: float) -> PlayedMove:
        group = self.board.group_at(move)
        self.board, points = self.board.play(move)
        self.clocks[side] -= seconds
        played = PlayedMove(side, group.move.name, points, tuple(sorted(group.cells)), seconds)
        self.moves.append(played)
        self.scores[side] += points
        if self.board.is_over:
            self._finish()
        else:
            self.turn = AGENT if side == HUMAN else HUMAN
            self.turn_started = now
        return played

    def _lose(self, side: str, reason: str, fault: str) -> None:
        self.turn = None
        self.fault = fault
        self.winner = AGENT if side == HUMAN else HUMAN
        self.reason = f"{'you' if side == HUMAN else 'the agent'} {reason}"

    def _finish(self) -> None:
        self.turn = None
        winner, self.reason = decide([self.scores[HUMAN], self.scores[AGENT]], [self.clocks[HUMAN], self.clocks[AGENT]])
        self.winner = None if winner is None else (HUMAN, AGENT)[winner]

    def to_json(self, game_id: str, now: float) -> dict:
        groups = [] if self.over else self.board.groups()
        return {
            "id": game_id,
            "size": self.board.size,
            "types": self.board.types,
            "seed": self.seed,
            "opponent": self.opponent,
            "first": self.first,
            "rows": list(self.board.rows),
            "groups": [
                {"move": group.move.name, "points": group.points, "cells": [list(cell) for cell in sorted(group.cells)]}
                for group in groups
            ],
            "scores": dict(self.scores),
            "clocks": {side: round(max(self.clock_left(side, now), 0.0), 3) for side in (HUMAN, AGENT)},
            "turn": self.turn,
            "over": self.over,
            "winner": self.winner,
            "reason": self.reason,
            "moves": [move.to_json() for move in self.moves],
            "hints": len(self.hinted),
            "last_move": self.moves[-1].to_json(with_cells=True) if self.moves else None,
        }
