"""The readable game log (game-log.txt): setup, each move with the limit and stones left, the end."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from nim_games.console import plural

from .rules import Game, GameConfig


class LogWriteError(OSError):
    """The log could not be written (e.g. a full disk): told apart from the network's errors."""


class GameLog:
    """The log file; with `echo`, the setup and every move are shown there too as they come
    (the server's window). An echo that fails stops echoing, not the game: `echo_error`
    keeps what went wrong."""

    def __init__(self, path: str | Path, echo: TextIO | None = None):
        self._file = open(path, "w", encoding="utf-8")
        self._echo = echo
        self.echo_error: OSError | None = None

    def write(self, line: str, echo: bool = False) -> None:
        # Flushed per line so the log survives whatever happens to the server afterwards.
        try:
            self._file.write(line + "\n")
            self._file.flush()
        except OSError as error:
            raise LogWriteError(error.errno, error.strerror) from error
        if echo and self._echo is not None:
            try:
                self._echo.write(line + "\n")
                self._echo.flush()
            except OSError as error:  # the window's reader left, or its disk is full
                self._echo, self.echo_error = None, error

    def setup(self, config: GameConfig, names: tuple[str, str]) -> None:
        self.write(
            f"Expanding Nim: {plural(config.stones, 'stone')}, {plural(config.resets, 'reset')} each, "
            f"initial maximum {config.init_max}, {config.time_budget:g} s per player",
            echo=True,
        )
        self.write(f"Player 0 (moves first): {names[0]}", echo=True)
        self.write(f"Player 1: {names[1]}", echo=True)

    def move(self, game: Game, mover: int) -> None:
        player = game.players[mover]
        reset = ", using a reset" if game.last_reset else ""
        self.write(
            f"{player.name} took {game.last_removed}{reset}; limit {game.current_max}; "
            f"{plural(game.stones_left, 'stone')} left (its time so far {player.time_taken:.3f} s)",
            echo=True,
        )

    def end(self, game: Game) -> None:
        assert game.winner is not None  # the game has ended
        self.write(f"Game over: {game.players[game.winner].name} wins; reason: {game.reason}")

    def interrupted(self) -> None:
        """Note a Ctrl-C and close the log; nothing if it is closed already (the game had
        ended, or the interruption was noted)."""
        if not self._file.closed:
            try:
                self.write("Interrupted: the server was stopped before the game ended")
            except LogWriteError:  # stopping anyway; the log's trouble is not the news
                pass
            self.close()

    def close(self) -> None:
        try:
            self._file.close()
        except OSError:  # the last line's flush failed again; that write already raised
            pass
