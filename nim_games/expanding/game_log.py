"""The readable game log (game-log.txt): setup, each move with the limit and stones left, the end."""
from __future__ import annotations

from pathlib import Path

from .rules import Game, GameConfig, resets_phrase


class GameLog:
    def __init__(self, path: str | Path):
        self._file = open(path, "w", encoding="utf-8")

    def write(self, line: str) -> None:
        # Flushed per line so the log survives whatever happens to the server afterwards.
        self._file.write(line + "\n")
        self._file.flush()

    def setup(self, config: GameConfig, names: tuple[str, str]) -> None:
        self.write(
            f"Expanding Nim: {config.stones} stones, {resets_phrase(config.resets)} each, "
            f"initial maximum {config.init_max}, {config.time_budget:g} s per player"
        )
        self.write(f"Player 0 (moves first): {names[0]}")
        self.write(f"Player 1: {names[1]}")

    def move(self, game: Game, mover: int) -> None:
        player = game.players[mover]
        reset = ", using a reset" if game.last_reset else ""
        self.write(
            f"{player.name} took {game.last_removed}{reset}; limit {game.current_max}; "
            f"{game.stones_left} stones left (its time so far {player.time_taken:.3f} s)"
        )

    def end(self, game: Game) -> None:
        self.write(f"Game over: {game.players[game.winner].name} wins; reason: {game.reason}")

    def close(self) -> None:
        self._file.close()
