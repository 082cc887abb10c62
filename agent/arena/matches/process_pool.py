"""A pool of worker processes that runs calls (a function of the module level and its
arguments, one per game) and hands their results back as they come: the reviews' `--jobs`
(analyse, audit). Matches run their games in agent.arena.matches.game_processes, which also
survives a worker's death."""

from __future__ import annotations

import functools
import multiprocessing
import multiprocessing.util
import queue
import signal
import threading
import time
from typing import Any, Optional

from agent.arena.matches.game_processes import SIGTERM_REPEAT, WORKER_STOP_GRACE, start_worker_session
from agent.arena.processes.stop_signals import INTERRUPTING, STOP_SIGNALS, ignore_signals, raise_lost_stop, signals_held


def run_in_processes(calls, jobs: int, finished) -> None:
    """Run `calls`, (game number, function, arguments) for each game, in `jobs` worker
    processes, one game per process at a time, handing each game's number and result to
    `finished` as it comes; stop when it returns False. The function must be picklable (a
    module-level one). Results come back through a queue that the main thread waits on in
    short steps, so that Ctrl-C reaches it at once."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    results: queue.Queue[tuple[Optional[int], Any, Optional[BaseException]]] = queue.Queue()  # game, result, error
    with signals_held():  # a signal then comes after the forks, not in a hook they run; see _worker_start
        pool = context.Pool(jobs, initializer=_worker_start)
    try:
        pending = 0
        while True:
            for game, function, arguments in calls:
                pool.apply_async(
                    function,
                    arguments,
                    callback=functools.partial(_put_result, results, game),
                    error_callback=functools.partial(_put_error, results),
                )
                pending += 1
                if pending == jobs:
                    break
            if not pending:
                break
            while True:
                try:
                    game, result, error = results.get(timeout=0.2)
                    break
                except queue.Empty:
                    raise_lost_stop()
            pending -= 1
            if error is not None:
                raise error
            if not finished(game, result):
                break
        pool.close()
    finally:
        _stop_pool(pool)


def _put_result(results: queue.Queue, game: int, result) -> None:
    results.put((game, result, None))


def _put_error(results: queue.Queue, error: BaseException) -> None:
    results.put((None, None, error))


def _stop_pool(pool) -> None:
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


def _press_workers(pool, stopped: threading.Event) -> None:
    # A worker that already runs its handler ignores the repeats (see _worker_stop).
    deadline = time.monotonic() + WORKER_STOP_GRACE
    while not stopped.wait(SIGTERM_REPEAT):
        late = time.monotonic() >= deadline
        for worker in list(pool._pool):  # the pool's worker processes; there is no public accessor
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
    lock. The worker starts with these signals blocked (see run_in_processes): a stop
    before its handlers are set waits for them."""
    start_worker_session(_worker_stop)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, INTERRUPTING)


def _worker_stop(signum, frame) -> None:
    ignore_signals(STOP_SIGNALS)  # a second one would break off the unwinding
    raise SystemExit(128 + signum)
