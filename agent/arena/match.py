"""A match: games between two agent commands, each on its own seeded board (or, paired,
each board twice), first player alternating, run one or several at a time; every game
becomes one JSON-ready record."""
from __future__ import annotations

import random
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Optional

from agent.arena.agents import agent_spec
from agent.arena.process import MoveRunner
from agent.arena.records import SIDES
from agent.arena.referee import CommandPlayer, play_game
from agent.rules import random_board


@dataclass(frozen=True)
class MatchSettings:
    agents: tuple          # the two agent specs as typed, A then B
    games: int
    size: int
    types: int
    time: float            # seconds per player per game (A's, when time_b is set)
    seed: int
    paired: bool = False   # games 2k-1 and 2k share board k, each agent moving first once
    time_b: Optional[float] = None   # B's clock in a time-odds match

    @property
    def clocks(self) -> tuple:
        return self.time, self.time if self.time_b is None else self.time_b


def board_number(settings: MatchSettings, game: int) -> int:
    """The board game `game` (from 1) is played on: its own, or its pair's."""
    return (game + 1) // 2 if settings.paired else game


def game_seed(match_seed: int, board: int) -> int:
    """The seed of board `board` (from 1), so any game can be replayed alone."""
    return match_seed * 100_000 + board


def first_mover(match_seed: int, game: int) -> int:
    """Game 1's first player is drawn at random (from the seed); then they alternate, so
    the two games of a pair have different first players."""
    return (random.Random(match_seed).randrange(2) + game - 1) % 2


def play_match_game(settings: MatchSettings, game: int, runner: MoveRunner) -> dict:
    seed = game_seed(settings.seed, board_number(settings, game))
    board = random_board(seed, settings.size, settings.types)
    first = first_mover(settings.seed, game)
    players = [CommandPlayer(agent_spec(label), runner) for label in settings.agents]
    result = play_game(players, board, settings.types, settings.clocks, first)
    record = {
        "game": game,
        "seed": seed,
        "size": settings.size,
        "types": settings.types,
        "time": settings.time,
        "agents": dict(zip(SIDES, settings.agents)),
        "first": SIDES[first],
        "board": list(board),
        "moves": [_move_record(player, move) for player, move in result.moves],
        "scores": dict(zip(SIDES, result.scores)),
        "clocks": {side: round(clock, 6) for side, clock in zip(SIDES, result.clocks)},
        "winner": None if result.winner is None else SIDES[result.winner],
        "reason": result.reason,
        "fault": result.fault,
    }
    if settings.time_b is not None:
        record["time_b"] = settings.time_b
    if settings.paired:
        record["pair"] = board_number(settings, game)
    return record


def _move_record(player: int, move) -> dict:
    record = {"player": SIDES[player], "move": move.name, "cpu": round(move.seconds, 6),
              "points": move.points}
    if move.fault is not None:
        record.update(fault=move.fault, reason=move.reason)
    return record


def run_match(settings: MatchSettings, jobs: int, runner: MoveRunner,
              on_record: Callable[[dict], None]) -> None:
    """Play every game, `jobs` at a time, handing each record to on_record as it finishes
    (in the calling thread). On Ctrl-C, kills the running moves and re-raises. Games are
    started as others finish, not queued up front: a long series costs no memory."""
    games = iter(range(1, settings.games + 1))
    running = set()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            while True:
                for game in games:
                    running.add(pool.submit(play_match_game, settings, game, runner))
                    if len(running) == jobs:
                        break
                if not running:
                    return
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    on_record(future.result())
        except BaseException:
            runner.stop()
            for future in running:
                future.cancel()
            raise
