"""Worker processes, for the arena (a match's games, a review's, a Python player's making
and moves) and the page: how one starts, how its parent stops it, and how its death is told.

A worker runs the tasks it is handed one at a time. It has a session of its own: the
signals sent to its parent's whole process group (Ctrl-C at a terminal, `timeout`) are the
parent's to handle. The parent's SIGTERM unwinds the task it runs (Stopping), and the
kernel's parent-death signal sends it that SIGTERM when the parent dies outright (SIGKILL),
so that no worker plays on for nobody; its guard (worker_guard.py) ends it when it cannot
end itself. The parent stops its workers with SIGTERM, repeated, and kills one by the stop
rule (referee_clock.stop_watch): once it has used a second of CPU since, or idled past the
grace, with every process below it. A worker ends every process its task started when the
task ends, wherever they went (descendants.py); a worker killed has them killed first. A
worker that ends before its task's result came has died: in run_tasks its task is run
again once on a fresh worker, and when that one dies too, the task is lost, with how its
process ended. A worker whose task is watched (a game's move by the referee's clock, a
review's game by the watchdog's idle rule) is stopped on the watch's verdict, and its task
lost at once: a player stuck in one long C call, its timer signals blocked, or the process
stopped."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import multiprocessing.util
import os
import signal
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

from agent.arena.processes.descendants import become_subreaper, end_descendants, end_tree
from agent.arena.processes.parent_death import end_with_parent
from agent.arena.processes.stop_signals import (
    INTERRUPTING,
    STOP_SIGNALS,
    Stopping,
    ignore_signals,
    raise_lost_stop,
    signals_held,
)
from agent.arena.processes.usage import TreeProbe, Usage
from agent.arena.processes.worker_guard import StopWatch, start_guard

SIGTERM_REPEAT = 0.5  # how often a stop's SIGTERM is sent again (one may come before its handler is set)
POLL = 0.2  # seconds between looks for a lost stop signal or a watched worker's verdict while tasks run
WATCHED_STOP_GRACE = 2.0  # seconds a worker stopped on a watch's verdict has to end before it is killed


def process_context(*, spawn: bool = False):
    """multiprocessing's context for workers: fork where there is one, so that a worker
    starts at once with what its parent imported; spawn when asked (a fork of a process
    running an event loop and threads, as the page's, may hang)."""
    forks = not spawn and "fork" in multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if forks else "spawn")


def ended_how(exit_code: int) -> str:
    """How a process ended, from its exit code (negative: the signal that killed it)."""
    return f"killed by signal {-exit_code}" if exit_code < 0 else f"exit code {exit_code}"


@dataclass(frozen=True)
class WorkerEnd:
    """How a task's worker ended before the task did."""

    how: str  # as ended_how says it: "exit code 3", "killed by signal 9"
    verdict: Optional[str] = None  # when its parent stopped it on its watch's verdict: the fault
    reason: str = ""  # and what the watch says of it


def begin_page_worker(server: int, niceness: int = 0) -> None:
    """In one of the page's workers, first: it ends with the server, even one killed
    outright (nothing of its work is wanted then); at `niceness`, when above 0."""
    end_with_parent(signal.SIGKILL, server)
    if niceness:
        os.nice(niceness)


def stop_processes(processes: list, grace: Optional[float] = None) -> list:
    """End these processes and wait for them: SIGTERM, sent again every SIGTERM_REPEAT
    seconds; SIGKILL, with every process below, to one still there after `grace` wall
    seconds, or when None, on the stop rule's verdict (StopWatch: a second of CPU since,
    or idle past STOP_GRACE; a process a loaded machine keeps waiting is given the time).
    Returns those killed so: what their watchers would have removed is left."""
    started = time.monotonic()
    running = [process for process in processes if process.exitcode is None]
    watches = {process: StopWatch(process.pid) for process in running} if grace is None else {}
    killed = []
    while running:
        for process in running:
            if process in killed:
                continue
            if grace is None:
                late = watches[process].verdict() is not None
            else:
                late = time.monotonic() - started >= grace
            if late:
                end_tree(process.pid)
                killed.append(process)
            else:
                process.terminate()
        multiprocessing.connection.wait([process.sentinel for process in running], SIGTERM_REPEAT)
        running = [process for process in running if process.exitcode is None]
    return killed


class Worker:
    """A worker process, and what it has told of the task it runs: notes on the way, then
    the task's result, or how it ended first (end). `watching(task, notes)`, when given,
    makes the MoveWatch of what the task does from its last note (see run_tasks); the
    process runs at `niceness` when above 0."""

    def __init__(
        self,
        context,
        serve: Callable,
        at_exit: Optional[Callable] = None,
        watching: Optional[Callable] = None,
        niceness: int = 0,
    ):
        self.task: Optional[tuple[int, Any]] = None  # (number in the run, task)
        self.notes: list = []  # what the task told so far
        self.done = False
        self.result: Any = None
        self.end: Optional[WorkerEnd] = None  # how its process ended before the task did
        self.results, results = context.Pipe(duplex=False)
        tasks, self.tasks = context.Pipe(duplex=False)
        self.process = context.Process(target=_serve, args=(tasks, results, os.getpid(), serve, at_exit, niceness))
        with signals_held():  # a stop then comes after the fork, to the handlers _serve sets
            self.process.start()
        tasks.close()
        results.close()
        self.watch = TaskWatch(self.process.pid, watching) if watching else None

    def hand(self, task: tuple[int, Any]) -> None:
        self.task, self.notes, self.done, self.result, self.end = task, [], False, None, None
        if self.watch is not None:
            self.watch.restart()
        try:
            self.tasks.send(task[1])
        except OSError:  # it died while idle: seen as a death in this task
            pass

    @property
    def waits_on(self) -> tuple:
        return self.results, self.process.sentinel

    def read(self) -> None:
        """Take in what the process has sent; the task's exception when it raised one."""
        try:
            while self.results.poll():
                kind, value = self.results.recv()
                if kind == "error":
                    raise value
                if kind == "done":
                    self.done, self.result = True, value
                else:
                    self.notes.append(value)
        except (EOFError, OSError):
            pass  # the process has ended: its sentinel says so

    def verdict(self) -> Optional[str]:
        """The fault its task's watch finds, looking now; None while it may go on."""
        if self.watch is None or self.task is None or self.done or self.process.exitcode is not None:
            return None
        return self.watch.verdict(self.task[1], self.notes)

    def died(self) -> bool:
        """Whether it ended before its task's result came. What it sent between the last
        read and its end is read first, so a result it sent counts."""
        if not self.done and self.process.exitcode is not None:
            self.read()
        return not self.done and self.process.exitcode is not None

    def look(self) -> bool:
        """Whether its task is over, looking now: its result came (done), or its process
        ended first, stopped here on its watch's verdict or not (end says how). The task's
        exception when it raised one."""
        self.read()
        verdict = self.verdict()
        if verdict is not None:
            stop_processes([self.process], WATCHED_STOP_GRACE)
        if verdict is not None or self.died():
            reason = self.watch.reason() if self.watch is not None and verdict is not None else ""
            self.end = WorkerEnd(ended_how(self.process.exitcode), verdict, reason)
            return True
        return self.done

    def run(self, task: Any) -> Any:
        """`task` run on this worker alone, waited for: its result, or the WorkerEnd of a
        process that ended first."""
        self.hand((0, task))
        while not self.look():
            multiprocessing.connection.wait(self.waits_on, POLL)
            raise_lost_stop()
        return self.result if self.done else self.end

    def close(self) -> None:
        """End the process once its task is over (at once if it is idle) and wait for it.
        Told so, not left to see its task pipe close: the workers forked after it hold
        that pipe's other end too."""
        try:
            self.tasks.send(None)
        except OSError:  # it is gone
            pass
        self.tasks.close()
        self.results.close()
        self.process.join()


class TaskWatch:
    """A process that runs watched tasks, looked at from outside (its own CPU, the demand of
    its whole tree): a new MoveWatch from watching(task, notes) as each task begins and
    whenever a note has come (a new move), held to what the process has used since."""

    def __init__(self, pid: int, watching: Callable):
        self.probe = TreeProbe(pid, own_cpu=True)
        self.watching = watching
        self.watch: Any = None  # the MoveWatch of what the task does now; None: nothing to watch
        self.notes_seen = -1  # how many notes had come when it was made; -1: a task begins
        self.since = Usage(0.0, 0.0)  # and what the process had used by then
        self.used = Usage(0.0, 0.0)  # and what it has used since, at the last look

    def restart(self) -> None:
        """A new task begins: its watch is made at the next look."""
        self.watch, self.notes_seen, self.used = None, -1, Usage(0.0, 0.0)

    def verdict(self, task: Any, notes: list) -> Optional[str]:
        """The watch's verdict, looking now; None while the task may go on."""
        if len(notes) != self.notes_seen:
            self.watch, self.notes_seen = self.watching(task, notes), len(notes)
            self.since = self.probe.usage()
        if self.watch is None:
            return None
        usage = self.probe.usage()
        self.used = Usage(usage.cpu - self.since.cpu, usage.demand - self.since.demand)
        return self.watch.observe(self.used, time.monotonic())

    def reason(self) -> str:
        return self.watch.reason() if self.watch is not None else ""


def run_tasks(
    tasks: Iterable,
    jobs: int,
    serve: Callable,
    finished: Callable,
    lost: Callable,
    at_exit: Optional[Callable] = None,
    watching: Optional[Callable] = None,
) -> None:
    """Run `tasks`, each in a worker process, `jobs` at a time. A worker starts when a
    task is there for it, so there are never more workers than tasks. In a worker,
    serve(task, note) gives the task's result; each note(value) it makes is kept for the
    task. Each result goes to finished(task, result) as it comes, which returns False to
    stop the run. A task whose worker dies is run again once, on a fresh worker; when that
    one dies too, finished(task, lost(task, end, notes)): end (a WorkerEnd) says how its
    process ended, notes are what the task told there. watching(task, notes), when given,
    makes the MoveWatch (agent.arena.processes.referee_clock) of what the task does from its
    last note (None: nothing to watch), which looks at the worker's own CPU and the demand
    of its whole tree; on its verdict the worker is stopped and its task lost at once,
    end.verdict and end.reason set. An exception the task raised is raised here. at_exit(),
    when given, runs in each worker as it exits. serve and at_exit go to each worker as it
    starts (pickled only where processes are spawned, not forked), each task through a
    pipe: tasks must be picklable."""
    from agent.arena.processes.leftovers import remove_leftovers  # here: the page's workers need none of it

    context = process_context()
    workers: list[Worker] = []
    again: deque[tuple[int, Any]] = deque()  # tasks to run again, their first worker having died
    lost_once: set[int] = set()
    numbered = enumerate(tasks)
    try:
        while True:
            idle = [worker for worker in workers if worker.task is None]
            while idle or len(workers) < jobs:
                task = again.popleft() if again else next(numbered, None)
                if task is None:
                    break
                if idle:
                    worker = idle.pop()
                else:
                    worker = Worker(context, serve, at_exit, watching)
                    workers.append(worker)
                worker.hand(task)
            busy = [worker for worker in workers if worker.task is not None]
            if not busy:
                break
            multiprocessing.connection.wait([handle for worker in busy for handle in worker.waits_on], POLL)
            raise_lost_stop()
            for worker in busy:
                assert worker.task is not None  # only a busy worker is looked at
                handed = worker.task
                number, task = handed
                if not worker.look():
                    continue
                if worker.end is not None:
                    workers.remove(worker)
                    worker.close()
                    remove_leftovers(worker.process.pid)  # what the task left: moves, folders
                    if worker.end.verdict is None and number not in lost_once:
                        lost_once.add(number)
                        again.append(handed)
                        continue
                    result = lost(task, worker.end, worker.notes)
                else:
                    result, worker.task = worker.result, None
                if not finished(task, result):
                    return
        while workers:  # every task done: each worker told to end
            workers.pop().close()
    finally:
        for process in stop_processes([worker.process for worker in workers]):
            remove_leftovers(process.pid)
        for worker in workers:
            worker.close()


def _serve(tasks, results, parent: int, serve: Callable, at_exit: Optional[Callable], niceness: int) -> None:
    """In a worker: run each task handed in on `tasks`, sending its notes and its result
    (or the exception it raised) on `results`, until told None. The process starts with
    the stop signals blocked (see Worker): one that comes before the handlers are set
    waits for them."""
    global _guard
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in STOP_SIGNALS:
        signal.signal(number, _stop_task)
    if at_exit is not None:
        multiprocessing.util.Finalize(None, at_exit, exitpriority=0)
    end_with_parent(signal.SIGTERM, parent)
    become_subreaper()
    _guard = start_guard(parent)
    if niceness:
        os.nice(niceness)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, INTERRUPTING)
    try:  # again as it exits: a stop may have cut the last task's ending short
        while True:
            try:
                task = tasks.recv()
            except EOFError:
                return
            if task is None:
                return
            try:
                result = serve(task, lambda value: results.send(("note", value)))
            except Exception as error:  # the parent raises it: a fault of the run, not of a task's player
                results.send(("error", sendable(error)))
                return
            finally:
                _end_task_processes()
            results.send(("done", result))
    finally:
        _end_task_processes()


_guard: Optional[int] = None  # in a worker: the pid of its guard, once it has one


def _end_task_processes() -> None:
    """Every process the task started and left, wherever it went; not the watcher, which
    removes what this worker leaves when it dies (a command move started by the next task
    starts its own move launcher again), nor the worker's guard."""
    from agent.arena.processes.leftovers import own_watcher

    end_descendants(frozenset(pid for pid in (own_watcher(), _guard) if pid is not None))


def _stop_task(signum, frame) -> None:
    """The parent's stop: the task unwinds (its moves killed, their folders removed as the
    process exits). The handler cleans nothing itself: it may have cut into code that
    holds a runner's lock."""
    ignore_signals(STOP_SIGNALS)  # a second one would break off the unwinding
    raise Stopping(128 + signum)


def sendable(error: Exception) -> Exception:
    """`error`, or when it cannot be pickled, a RuntimeError that says what it was."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - whatever stops it from crossing, its text can
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error
