"""A match: games between two players, each on its own seeded board (or, paired, each
board twice), first player alternating, run one or several at a time.

Players come from factories (callables with no arguments), one fresh player per game.
Games whose players are all programs (CommandPlayer) run in threads: each move is its own
process anyway. A game with an in-process player runs in a process of its own (a pool of
`jobs` processes), so that the CPU time it is charged is its own: factories must then be
picklable (classes, module-level functions, functools.partial of those)."""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import queue
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing.pool import Pool
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional

from agent.arena.command_player import stop_shared_runners
from agent.arena.matches.games import MatchSettings, play_match_game
from agent.arena.processes.stop_signals import INTERRUPTING, STOP_SIGNALS, ignore_signals, raise_lost_stop, signals_held
from agent.arena.referee import GameRecord
from agent.arena.turns import DEFAULT_GRACE

if TYPE_CHECKING:
    from agent.players import Player

    Factories = tuple[Callable[[], Player], Callable[[], Player]]


@dataclass
class MatchResult:
    """The games of a match, in game order."""

    settings: MatchSettings
    records: list[GameRecord]

    def json_records(self) -> list[dict[str, Any]]:
        return [record.to_dict() for record in self.records]

    def table(self) -> str:
        """The per-agent table of `fruit-rage match`."""
        from agent.arena.stats.summary import report_table

        return report_table(self.json_records())

    def summary(self) -> str:
        """One line: each side's W-L-D and mean margin, and pairs won when paired."""
        from agent.arena.stats.summary import pair_line, summarise

        records = self.json_records()
        parts = []
        for side in ("A", "B"):
            s = summarise(records, side)
            parts.append(f"{side} {s.label} {s.wins}-{s.losses}-{s.draws} ({s.mean_margin:+.1f} a game)")
        line = ", ".join(parts)
        if self.settings.paired:
            line += "; " + pair_line(records)
        return line


def run_match(
    factory_a: Callable[[], Player],
    factory_b: Callable[[], Player],
    settings: MatchSettings,
    *,
    jobs: int = 1,
    on_record: Optional[Callable[[GameRecord], object]] = None,
    grace: float = DEFAULT_GRACE,
    games: Optional[Iterable[int]] = None,
    cluster: Optional[str] = None,
) -> MatchResult:
    """Play the games of `settings` (or only the game numbers in `games`), `jobs` at a
    time or on the Dask cluster at address `cluster`, handing each GameRecord to
    on_record as it finishes (in the calling thread). on_record may return False to stop
    the match there (a sequential test that has decided): the games still running are
    abandoned. Games are started as others finish, not queued up front. On Ctrl-C the
    moves running are killed and KeyboardInterrupt is raised."""
    factories = (factory_a, factory_b)
    numbers = iter(range(1, settings.games + 1) if games is None else games)
    records: list[GameRecord] = []

    def finished(record: GameRecord) -> bool:
        records.append(record)
        return on_record is None or on_record(record) is not False

    if cluster is not None:
        from agent.arena.matches.cluster import run_on_cluster

        run_on_cluster(cluster, settings, factories, grace, numbers, finished)
    elif jobs <= 1:
        try:
            for game in numbers:
                raise_lost_stop()
                if not finished(play_match_game(settings, game, factories, grace)):
                    break
        except BaseException:
            stop_shared_runners()
            raise
    elif all(_charges_itself(factory) for factory in factories):
        _run_in_threads(settings, factories, jobs, grace, numbers, finished)
    else:
        _run_in_processes(settings, factories, jobs, grace, numbers, finished)
    stop_shared_runners(kill=False)  # the match's folders go with it
    records.sort(key=lambda record: record.game or 0)  # every record of a match has its number
    return MatchResult(settings, records)


def _charges_itself(factory: Callable[[], Player]) -> bool:
    """Whether the factory's players are programs run per move (CommandPlayer)."""
    declared = getattr(factory, "charges_itself", None)
    return bool(declared) if declared is not None else hasattr(factory(), "take_turn")


def _run_in_threads(
    settings: MatchSettings,
    factories: Factories,
    jobs: int,
    grace: float,
    numbers: Iterator[int],
    finished: Callable[[GameRecord], bool],
) -> None:
    running: set[Future[GameRecord]] = set()
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        while True:
            for game in numbers:
                running.add(pool.submit(play_match_game, settings, game, factories, grace))
                if len(running) == jobs:
                    break
            if not running:
                return
            done: set[Future[GameRecord]] = set()
            while not done:
                done, running = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
                raise_lost_stop()
            for future in done:
                if not finished(future.result()):
                    _stop_games(running)
                    return
    except BaseException:
        _stop_games(running)
        raise
    finally:
        pool.shutdown(wait=True)


def _stop_games(running: set[Future[GameRecord]]) -> None:
    """End the games of these futures: each stops at its move under way, killed. A game
    that was only starting may make a new runner after the others were stopped: it is
    stopped in turn, until every game has ended."""
    for future in running:
        future.cancel()
    while running:
        stop_shared_runners()
        _, running = wait(running, timeout=0.2)


def _run_in_processes(
    settings: MatchSettings,
    factories: Factories,
    jobs: int,
    grace: float,
    numbers: Iterator[int],
    finished: Callable[[GameRecord], bool],
) -> None:
    """One game per worker process at a time; results come back through a queue that the
    main thread waits on in short steps, so that Ctrl-C reaches it at once."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    results: queue.Queue[tuple[Optional[GameRecord], Optional[BaseException]]] = queue.Queue()
    with signals_held():  # a signal then comes after the forks, not in a hook they run; see _worker_start
        pool = context.Pool(jobs, initializer=_worker_start)
    try:
        pending = 0
        while True:
            for game in numbers:
                pool.apply_async(
                    play_match_game,
                    (settings, game, factories, grace),
                    callback=lambda record: results.put((record, None)),
                    error_callback=lambda error: results.put((None, error)),
                )
                pending += 1
                if pending == jobs:
                    break
            if not pending:
                break
            while True:
                try:
                    record, error = results.get(timeout=0.2)
                    break
                except queue.Empty:
                    raise_lost_stop()
            pending -= 1
            if error is not None:
                raise error
            assert record is not None  # a game sends its record or its error
            if not finished(record):
                break
        pool.close()
    finally:
        _stop_pool(pool)


# Seconds a worker has to end its game after the pool's SIGTERM before it is killed, and
# how often the SIGTERM is sent again meanwhile.
WORKER_STOP_GRACE = 10.0
SIGTERM_REPEAT = 0.5


def _stop_pool(pool: Pool) -> None:
    """Terminate the pool: SIGTERM, so each worker ends its game and removes its folders
    (see _worker_start). A worker the signal cannot stop would keep terminate() waiting
    forever: an idle one the signal reached just before it blocked on the task queue's
    lock, where Python never runs the handler, and one whose player set SIGTERM ignored.
    The first ends on a repeated SIGTERM, the second is killed after WORKER_STOP_GRACE."""
    stopped = threading.Event()
    threading.Thread(target=_press_workers, args=(pool, stopped), daemon=True).start()
    try:
        pool.terminate()
        pool.join()
    finally:
        stopped.set()


def _press_workers(pool: Pool, stopped: threading.Event) -> None:
    # A worker that already runs its handler ignores the repeats (see _worker_stop).
    deadline = time.monotonic() + WORKER_STOP_GRACE
    while not stopped.wait(SIGTERM_REPEAT):
        late = time.monotonic() >= deadline
        for worker in list(pool._pool):  # type: ignore[attr-defined]  # the workers: private, no public accessor
            if worker.exitcode is None and late:
                worker.kill()
            elif worker.exitcode is None:
                worker.terminate()


def _worker_start() -> None:
    """In a match's worker process. A session of its own: the signals sent to the match's
    whole process group (Ctrl-C at a terminal, `timeout`) are the parent's to handle; a
    worker that died of one by itself would be replaced by the pool, or leave the pool's
    queue locked. The parent's terminate (SIGTERM) ends the worker: its game unwinds, its
    move killed and that move's folder removed, and as it exits its match folders go too.
    The handler itself cleans nothing: it may have cut into code that holds a runner's
    lock. The worker starts with these signals blocked (see _run_in_processes): a stop
    before its handlers are set waits for them."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in STOP_SIGNALS:
        signal.signal(number, _worker_stop)
    multiprocessing.util.Finalize(None, _worker_exit, exitpriority=0)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, INTERRUPTING)


def _worker_stop(signum: int, frame: Optional[FrameType]) -> None:
    ignore_signals(STOP_SIGNALS)  # a second one would break off the unwinding
    raise SystemExit(128 + signum)


def _worker_exit() -> None:
    ignore_signals(STOP_SIGNALS)
    stop_shared_runners()
