"""Games with in-process players, played by `jobs` worker processes, one game at a time
each: the CPU a player is charged is then its own, and a player that ends its process
(os._exit, a crash, SIGKILL from outside) ends its game, not the match.

A worker tells the referee how its game stands after every turn. When one dies before its
game's record comes, the game is played again once by a fresh worker; when that one dies
too, the side that was to move loses it, the exit code in the reason."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import multiprocessing.util
import os
import signal
import time
from collections import deque
from typing import Optional

from agent.arena.command_player import stop_shared_runners
from agent.arena.matches.games import in_match, play_match_game
from agent.arena.processes.leftovers import remove_leftovers
from agent.arena.processes.parent_death import end_with_parent
from agent.arena.processes.runner import SetupFailed
from agent.arena.processes.stop_signals import (
    INTERRUPTING,
    STOP_SIGNALS,
    Stopping,
    ignore_signals,
    raise_lost_stop,
    signals_held,
)
from agent.arena.referee import GameRecord, lost_by_the_mover

# Seconds a game's process has to end its game after SIGTERM before it is killed, and how
# often the SIGTERM is sent again meanwhile.
WORKER_STOP_GRACE = 10.0
SIGTERM_REPEAT = 0.5
POLL = 0.2  # seconds between looks for a lost stop signal while games run


class GameWorker:
    """A process that plays the games it is handed, one at a time, and what it told of the
    game it is playing."""

    def __init__(self, context, settings, factories: tuple, grace: float):
        self.game: Optional[int] = None  # the game it is playing
        self.so_far: Optional[GameRecord] = None  # that game's record as its last turn left it, from what it sent
        self.done: Optional[GameRecord] = None  # that game's finished record
        self.results, results = context.Pipe(duplex=False)
        tasks, self.tasks = context.Pipe(duplex=False)
        self.process = context.Process(
            target=_serve_games, args=(tasks, results, os.getpid(), settings, factories, grace)
        )
        with signals_held():  # a stop then comes after the fork, to the handlers _serve_games sets
            self.process.start()
        tasks.close()
        results.close()

    def play(self, game: int) -> None:
        self.game, self.so_far, self.done = game, None, None
        try:
            self.tasks.send(game)
        except OSError:  # it died while idle: seen as a death in this game, played again
            pass

    @property
    def waits_on(self) -> tuple:
        return self.results, self.process.sentinel

    def read(self) -> None:
        """Take in what the process has sent; SetupFailed when its game failed there."""
        try:
            while self.results.poll():
                kind, value = self.results.recv()
                if kind == "error":
                    raise SetupFailed(value)
                if kind == "done":
                    self.done = value
                elif kind == "start":
                    self.so_far = value
                else:  # a turn: sent alone, not the whole record again after every move
                    assert self.so_far is not None  # the game's start comes before its turns
                    side, turn, self.so_far.scores, self.so_far.clocks = value
                    self.so_far.turns.append((side, turn))
        except (EOFError, OSError):
            pass  # the process has ended: its sentinel says so

    def died(self) -> bool:
        """Whether it ended before its game's record came. What it sent between the last
        read and its end is read first, so a game it finished, or a turn it told, counts."""
        if self.done is None and self.process.exitcode is not None:
            self.read()
        return self.done is None and self.process.exitcode is not None

    def close(self) -> None:
        """End the process once its game is over (at once if it is idle) and wait for it.
        Told so, not left to see its task pipe close: the workers forked after it hold
        that pipe's other end too."""
        try:
            self.tasks.send(None)
        except OSError:  # it is gone
            pass
        self.tasks.close()
        self.results.close()
        self.process.join()


def run_games_in_processes(settings, factories, jobs: int, grace: float, numbers, finished) -> None:
    """Play the games `numbers` gives, `jobs` at a time, handing each record to finished()
    (which returns False to stop the match)."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    workers: list[GameWorker] = []
    again: deque[int] = deque()  # games to play again, their first process having died
    lost_once: set[int] = set()
    numbers = iter(numbers)
    try:
        while True:
            for worker in workers + [None] * (jobs - len(workers)):
                if worker is not None and worker.game is not None:
                    continue
                game = again.popleft() if again else next(numbers, None)
                if game is None:
                    break
                if worker is None:
                    worker = GameWorker(context, settings, factories, grace)
                    workers.append(worker)
                worker.play(game)
            playing = [worker for worker in workers if worker.game is not None]
            if not playing:
                break
            multiprocessing.connection.wait([handle for worker in playing for handle in worker.waits_on], POLL)
            raise_lost_stop()
            for worker in playing:
                worker.read()
                if worker.died():
                    workers.remove(worker)
                    worker.close()
                    record = _after_a_death(worker, settings, lost_once, again)
                elif worker.done is not None:
                    record, worker.game = worker.done, None
                else:
                    continue
                if record is not None and not finished(record):
                    return
        while workers:  # every game played: each worker told to end
            workers.pop().close()
    finally:
        _stop(workers)


def _after_a_death(worker: GameWorker, settings, lost_once: set[int], again: deque[int]) -> Optional[GameRecord]:
    """The record of a game whose process died, or None when it is to be played again."""
    remove_leftovers(worker.process.pid)  # its move, if one was running, and its folders
    game = worker.game
    assert game is not None  # only a worker handed a game is watched for its death
    if game not in lost_once:
        lost_once.add(game)
        again.append(game)
        return None
    code = worker.process.exitcode
    ended = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
    if worker.so_far is None:
        raise SetupFailed(f"game {game}'s process ended twice before the game began ({ended})")
    reason = f"its process ended during its move ({ended})"
    return in_match(lost_by_the_mover(worker.so_far, reason), settings, game)


def _stop(running: list) -> None:
    """End the workers still there: SIGTERM, so that each ends its game and removes its
    folders (see _serve_games), sent again every SIGTERM_REPEAT seconds (one may come
    before the handler is set); a process still there after WORKER_STOP_GRACE is killed."""
    deadline = time.monotonic() + WORKER_STOP_GRACE
    while running:
        for each in running:
            if each.process.exitcode is None and time.monotonic() >= deadline:
                each.process.kill()
            elif each.process.exitcode is None:
                each.process.terminate()
        multiprocessing.connection.wait([each.process.sentinel for each in running], SIGTERM_REPEAT)
        for each in [each for each in running if each.process.exitcode is not None]:
            running.remove(each)
            each.close()


def _serve_games(tasks, results, parent: int, settings, factories: tuple, grace: float) -> None:
    """In a game worker: play each game handed in on `tasks`, telling `results` how it
    stands after every turn, until the referee sends None. A session of its own: the
    signals sent to the match's whole process group (Ctrl-C at a terminal, `timeout`) are
    the referee's to handle. The referee's SIGTERM, or its death, ends the game: its move
    killed and that move's folder removed, and as the process exits its match folders go
    too. The handler itself cleans nothing: it may have cut into code that holds a
    runner's lock. The process starts with these signals blocked (see GameWorker): a stop
    before its handlers are set waits for them."""
    start_worker_session(_stop_game)
    end_with_parent(signal.SIGTERM, parent)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, INTERRUPTING)
    while True:
        try:
            game = tasks.recv()
        except EOFError:
            return
        if game is None:
            return
        try:
            record = play_match_game(
                settings,
                game,
                factories,
                grace,
                on_start=lambda so_far: results.send(("start", so_far)),
                on_move=lambda side, turn, so_far: results.send(("turn", (side, turn, so_far.scores, so_far.clocks))),
            )
        except SetupFailed as error:
            results.send(("error", str(error)))
            return
        except Exception as error:  # the referee's code failed, not a player (whose faults lose its game)
            results.send(("error", f"game {game} failed: {type(error).__name__}: {error}"))
            return
        results.send(("done", record))


def _stop_game(signum, frame) -> None:
    ignore_signals(STOP_SIGNALS)  # a second one would break off the unwinding
    raise Stopping(128 + signum)


def start_worker_session(stop_handler) -> None:
    """What every match worker process does first: a session of its own, Ctrl-C left to
    the parent, the stop signals to `stop_handler`, and `end_worker` as it exits. Its
    caller unblocks the signals once the rest of its set-up is done."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in STOP_SIGNALS:
        signal.signal(number, stop_handler)
    multiprocessing.util.Finalize(None, end_worker, exitpriority=0)


def end_worker() -> None:
    """As a worker process exits: its moves' runners stopped and their folders removed."""
    ignore_signals(STOP_SIGNALS)
    stop_shared_runners()
