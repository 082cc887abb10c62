"""Games with in-process players, played in worker processes (agent.arena.processes.
workers), one game at a time each: the CPU a player is charged is then its own, and a
player that ends its process (os._exit, a crash, SIGKILL from outside) ends its game, not
the match.

A worker tells the referee how its game stands after every turn. A game whose process
dies is played again once by a fresh worker; when that one dies too, the side that was to
move loses it, how the process ended in the reason. A player's own timers end a move
that runs past its clock; one that disarms or blocks them, or is stuck in a long C call,
is ended from outside: its worker is stopped once the move has run past clock and grace
in wall time by WALL_SLACK more, and the mover loses on time."""

from __future__ import annotations

import functools

from agent.arena.command_player import stop_shared_runners
from agent.arena.matches.games import in_match, play_match_game
from agent.arena.processes.runner import SetupFailed
from agent.arena.processes.stop_signals import STOP_SIGNALS, ignore_signals
from agent.arena.processes.workers import run_tasks
from agent.arena.referee import GameRecord, lost_by_the_mover
from agent.arena.turns import FAULT_TIME

# Wall seconds past a move's clock and grace that its worker is given before it is
# stopped: the player's own wall timer ends it at clock and grace, on a loaded machine late.
WALL_SLACK = 5.0


def run_games_in_processes(settings, factories, jobs: int, grace: float, numbers, finished) -> None:
    """Play the games `numbers` gives, `jobs` at a time, handing each record to finished()
    (which returns False to stop the match). The workers are handed what every game shares
    as they start (forked, nothing is pickled: factories may be lambdas), then game
    numbers."""
    run_tasks(
        numbers,
        jobs,
        functools.partial(_play_game, settings, factories, grace),
        lambda game, record: finished(record),
        functools.partial(_lost_game, settings),
        at_exit=_end_game_worker,
        patience=functools.partial(_move_patience, grace),
    )


def _play_game(settings, factories: tuple, grace: float, game: int, note) -> GameRecord:
    """In a worker: the game, told as it goes (its start, then each turn alone, not the
    whole record again after every move)."""
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


def _lost_game(settings, game: int, end, notes: list) -> GameRecord:
    """The record of a game whose process died twice, or was stopped for a move that ran
    past its time: the game as its notes left it, lost by the side to move."""
    if not notes:
        raise SetupFailed(f"game {game}'s process ended twice before the game began ({end.how})")
    so_far = _game_so_far(notes)
    if end.silent is not None:
        reason = f"ran out of time: no move after {end.silent:.1f} s of wall time, its process ended"
        return in_match(lost_by_the_mover(so_far, reason, FAULT_TIME), settings, game)
    return in_match(lost_by_the_mover(so_far, f"its process ended during its move ({end.how})"), settings, game)


def _move_patience(grace: float, game: int, notes: list):
    """Wall seconds the move under way may take before its worker is stopped: its
    mover's clock, the grace and WALL_SLACK (no limit before the game has begun)."""
    if not notes:
        return None
    so_far = notes[0]
    if len(notes) == 1:
        mover, clocks = so_far.first, so_far.clocks
    else:
        side, _, _, clocks = notes[-1]
        mover = "B" if side == "A" else "A"
    return max(clocks[mover], 0.0) + grace + WALL_SLACK


def _game_so_far(notes: list) -> GameRecord:
    """The record of the game as its notes left it: its start, then each turn."""
    so_far = notes[0]
    for side, turn, scores, clocks in notes[1:]:
        so_far.turns.append((side, turn))
        so_far.scores, so_far.clocks = scores, clocks
    return so_far


def _end_game_worker() -> None:
    """As a game's worker exits: its moves' runners stopped and their folders removed."""
    ignore_signals(STOP_SIGNALS)
    stop_shared_runners()
