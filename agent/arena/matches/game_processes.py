"""Games with in-process players, played in worker processes (agent.arena.processes.
workers), one game at a time each: the CPU a player is charged is then its own, and a
player that ends its process (os._exit, a crash, SIGKILL from outside) ends its game, not
the match.

A worker tells the referee how its game stands after every turn. A game whose process
dies is played again once by a fresh worker; when that one dies too, the side that was to
move loses it, how the process ended in the reason. A player's own timers end a move by
the referee's clock rule (agent.arena.inprocess); one that disarms or blocks them, is
stuck in a long C call, or whose process is stopped, is ended from outside by the same
rule with BACKSTOP_SLACK more (WatchedGames): its worker is stopped, and the mover loses
for what the watch found (on time, or stalled). The making of a game's players is watched
so too: one that hangs stops the match with a one-line error."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

from agent.arena.command_player import stop_shared_runners
from agent.arena.matches.games import MatchSettings, in_match, play_match_game
from agent.arena.processes.move_runner import SetupFailed
from agent.arena.processes.referee_clock import BACKSTOP_SLACK, MoveWatch, RefereeClock
from agent.arena.processes.stop_signals import STOP_SIGNALS, ignore_signals
from agent.arena.processes.workers import run_tasks
from agent.arena.referee import GameRecord, lost_by_the_mover
from agent.arena.turns import FAULT_INVALID


def run_games_in_processes(settings, factories, jobs: int, clock: RefereeClock, numbers, finished) -> None:
    """Play the games `numbers` gives, `jobs` at a time, handing each record to finished()
    (which returns False to stop the match). The workers are handed what every game shares
    as they start (forked, nothing is pickled: factories may be lambdas), then game
    numbers."""
    watched = WatchedGames(settings, clock)
    run_tasks(
        numbers,
        jobs,
        functools.partial(play_noted_game, settings, factories, clock),
        lambda game, record: finished(record),
        watched.lost,
        at_exit=_end_game_worker,
        watching=watched.watching,
    )


def play_noted_game(settings, factories: tuple, clock: RefereeClock, game: int, note) -> GameRecord:
    """In a worker: the game, told as it goes (its start, then each turn alone, not the
    whole record again after every move)."""
    try:
        return play_match_game(
            settings,
            game,
            factories,
            clock,
            on_start=note,
            on_move=lambda side, turn, so_far: note((side, turn, so_far.scores, so_far.clocks)),
        )
    except SetupFailed:
        raise
    except Exception as error:  # the referee's code failed, not a player (whose faults lose its game)
        raise SetupFailed(f"game {game} failed: {type(error).__name__}: {error}") from None


@dataclass(frozen=True)
class WatchedGames:
    """A match's games played in processes of their own, watched from outside from the
    notes they send (play_noted_game): the move under way held to the referee's `clock`
    rule BACKSTOP_SLACK behind the player's own timers, and the record of a game whose
    process ended before it did."""

    settings: MatchSettings
    clock: RefereeClock

    def watching(self, game: int, notes: list) -> MoveWatch:
        """The watch of the move under way; before the game has begun, of the making of its
        two players, held to the rule as a move with both clocks together (a making is
        charged to no move, but may take no more than its game)."""
        if not notes:
            return self.clock.watch(sum(self.settings.clocks), time.monotonic(), BACKSTOP_SLACK)
        so_far = notes[0]
        if len(notes) == 1:
            mover, clocks = so_far.first, so_far.clocks
        else:
            side, _, _, clocks = notes[-1]
            mover = "B" if side == "A" else "A"
        return self.clock.watch(clocks[mover], time.monotonic(), BACKSTOP_SLACK)

    def lost(self, game: int, end, notes: list) -> GameRecord:
        """The record of a game whose process died twice, or was stopped on its watch's
        verdict: the game as its notes left it, lost by the side to move."""
        if not notes and end.verdict is not None:
            raise SetupFailed(f"game {game}'s players were not made: {end.reason}")
        if not notes:
            raise SetupFailed(f"game {game}'s process ended twice before the game began ({end.how})")
        so_far = _game_so_far(notes)
        if end.verdict is not None:
            reason, fault = f"{end.reason}; its process ended", end.verdict
        else:
            reason, fault = f"its process ended during its move ({end.how})", FAULT_INVALID
        return in_match(lost_by_the_mover(so_far, reason, fault), self.settings, game)


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
