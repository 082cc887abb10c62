"""The games of a match, each on its own: its board (from the match's seed, or its given
positions), who moves first, and playing it with fresh players. What a worker needs,
locally or on a cluster, and nothing of how a match is run."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Optional

from agent.arena.processes.referee_clock import COMPETITION_CLOCK, RefereeClock
from agent.arena.referee import GameRecord, play_refereed_game
from agent.board import Board

if TYPE_CHECKING:
    from agent.arena.turns import Turn
    from agent.players import Player


@dataclass(frozen=True)
class MatchSettings:
    """What a match plays: `games` games on `size` x `size` boards of `types` fruit
    types drawn from `seed` (or the given `positions`, in turn), `time` CPU seconds a
    player a game (A's, when `time_b` gives B its own). `paired`: games 2k-1 and 2k share
    board k, each player moving first once."""

    games: int
    size: int
    types: int
    time: float = 300.0
    seed: int = 1
    paired: bool = False
    time_b: Optional[float] = None
    positions: Optional[tuple[Board, ...]] = None  # starting Boards to use in turn instead of random ones

    def __post_init__(self) -> None:
        if self.paired and self.games % 2:
            raise ValueError(f"a paired match plays every board twice: games must be even, not {self.games}")

    @property
    def clocks(self) -> tuple[float, float]:
        return self.time, self.time if self.time_b is None else self.time_b


def board_number(settings: MatchSettings, game: int) -> int:
    """The board game `game` (from 1) is played on: its own, or its pair's."""
    return (game + 1) // 2 if settings.paired else game


def game_seed(match_seed: int, board: int) -> int:
    """The seed of board `board` (from 1), so any game can be replayed alone."""
    return match_seed * 100_000 + board


def first_mover(match_seed: int, game: int) -> str:
    """Game 1's first player is drawn at random (from the seed); then they alternate, so
    the two games of a pair have different first players."""
    return "AB"[(random.Random(match_seed).randrange(2) + game - 1) % 2]


def play_match_game(
    settings: MatchSettings,
    game: int,
    factories: tuple[Callable[[], Player], Callable[[], Player]],
    clock: RefereeClock = COMPETITION_CLOCK,
    on_start: Optional[Callable[[GameRecord], None]] = None,
    on_move: Optional[Callable[[str, Turn, GameRecord], None]] = None,
) -> GameRecord:
    """Game `game` (from 1) of the match, with fresh players from the two factories, under
    the referee's `clock` rule; on_start and on_move as play_game calls them."""
    board, position = board_number(settings, game), _position(settings, game)
    if position is not None:
        assert settings.positions is not None  # a game has a position only from given ones
        start = settings.positions[position - 1]
    else:
        start = Board.random(game_seed(settings.seed, board), settings.size, settings.types)
    record = play_refereed_game(
        factories[0](),
        factories[1](),
        start,
        clock,
        settings.clocks,
        first_mover(settings.seed, game),
        on_move=on_move,
        on_start=on_start,
    )
    return in_match(record, settings, game)


def in_match(record: GameRecord, settings: MatchSettings, game: int) -> GameRecord:
    """`record` as game `game` of the match: its number, seed, pair and position."""
    board = board_number(settings, game)
    return replace(
        record,
        game=game,
        seed=game_seed(settings.seed, board),
        pair=board if settings.paired else None,
        position=_position(settings, game),
    )


def _position(settings: MatchSettings, game: int) -> Optional[int]:
    """Which of the match's given positions game `game` starts from (from 1), if any."""
    if not settings.positions:
        return None
    return (board_number(settings, game) - 1) % len(settings.positions) + 1
