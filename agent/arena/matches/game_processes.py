"""Games with in-process players, played in worker processes (agent.arena.processes.
workers), one game at a time each: the CPU a player is charged is then its own, and a
player that ends its process (os._exit, a crash, SIGKILL from outside) ends its game, not
the match.

A worker tells the referee how its game stands after every turn. A game whose process
dies is played again once by a fresh worker; when that one dies too, the side that was to
move loses it, how the process ended in the reason."""

from __future__ import annotations

from agent.arena.command_player import stop_shared_runners
from agent.arena.matches.games import in_match, play_match_game
from agent.arena.processes.runner import SetupFailed
from agent.arena.processes.stop_signals import STOP_SIGNALS, ignore_signals
from agent.arena.processes.workers import run_tasks
from agent.arena.referee import GameRecord, lost_by_the_mover


def run_games_in_processes(settings, factories, jobs: int, grace: float, numbers, finished) -> None:
    """Play the games `numbers` gives, `jobs` at a time, handing each record to finished()
    (which returns False to stop the match)."""
    run_tasks(
        ((settings, game, factories, grace) for game in numbers),
        jobs,
        _play_game,
        lambda task, record: finished(record),
        _lost_game,
        at_exit=_end_game_worker,
    )


def _play_game(task: tuple, note) -> GameRecord:
    """In a worker: the game, told as it goes (its start, then each turn alone, not the
    whole record again after every move)."""
    settings, game, factories, grace = task
    try:
        return play_match_game(
            settings,
            game,
            factories,
            grace,
            on_start=note,
            on_move=lambda side, turn, so_far: note((side, turn, so_far.scores, so_far.clocks)),
        )
    except SetupFailed:
        raise
    except Exception as error:  # the referee's code failed, not a player (whose faults lose its game)
        raise SetupFailed(f"game {game} failed: {type(error).__name__}: {error}") from None


def _lost_game(task: tuple, ended: str, notes: list) -> GameRecord:
    """The record of a game whose process died twice: the game as its notes left it, lost
    by the side to move."""
    settings, game = task[0], task[1]
    if not notes:
        raise SetupFailed(f"game {game}'s process ended twice before the game began ({ended})")
    so_far = notes[0]
    for side, turn, scores, clocks in notes[1:]:
        so_far.turns.append((side, turn))
        so_far.scores, so_far.clocks = scores, clocks
    return in_match(lost_by_the_mover(so_far, f"its process ended during its move ({ended})"), settings, game)


def _end_game_worker() -> None:
    """As a game's worker exits: its moves' runners stopped and their folders removed."""
    ignore_signals(STOP_SIGNALS)
    stop_shared_runners()
