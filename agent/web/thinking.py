"""Work that must not run on the event loop: the agent's thinking and reading records.

It runs in pools of worker processes (agent.arena.processes.workers), so one long search
leaves the other tabs served; records are read in a pool of their own at a lower priority,
so that a file being checked neither holds up a move nor takes its processor. No more
tasks are handed out than there are workers. The workers are handed out to clients in
turn (agent.web.client_turns), so that one client's flood delays another's move by a task
at most.

Each task is watched as the referee watches a move (agent.arena.processes.referee_clock):
its worker is stopped once the task has used its CPU limit (an agent's move: its clock),
BACKSTOP_SLACK behind the player's own time management, or has idled past that and the
grace (stopped, blocked); a worker that a loaded machine keeps waiting is never stopped. A
worker that dies or is stopped loses its own task alone: the other workers' tasks run on,
and the next task starts a fresh worker. A task whose worker died before the task began
(killed while idle) is run on a fresh one."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from agent.arena.processes.referee_clock import BACKSTOP_SLACK, COMPETITION_CLOCK, MoveWatch
from agent.arena.processes.workers import Worker, WorkerEnd, process_context, sendable, stop_processes
from agent.web import library
from agent.web.client_turns import ClientTurns

PAGE_CLOCK = COMPETITION_CLOCK  # the referee's rule for the page's tasks: CPU, its grace


class TaskLost(Exception):
    """A task's worker died in the middle of it, or was stopped on its watch's verdict: `end`
    says how (agent.arena.processes.workers.WorkerEnd); `cpu`: the seconds the task had
    used, as last seen."""

    def __init__(self, end: WorkerEnd, cpu: float):
        super().__init__(end.reason if end.verdict is not None else f"its worker process died ({end.how})")
        self.end, self.cpu = end, cpu


@dataclass(frozen=True)
class Thought:
    """What an agent's turn gave: a cell and its CPU seconds, or why there is no move (and
    its fault, when the referee's rule stopped it)."""

    cell: tuple | None = None
    cpu: float = 0.0
    failure: str = ""
    fault: str | None = None


class WorkerPool:
    """Up to `workers` processes, started as tasks need them; with `niceness` above 0 they
    run at a lower priority, so that their work yields the processors to the other pools'
    (reading records to thinking)."""

    def __init__(self, workers: int, niceness: int = 0):
        self.workers = workers
        self.niceness = niceness
        self._context = process_context(spawn=True)  # a fork of the server's threads may hang
        self._idle: list[Worker] = []
        self._all: set[Worker] = set()
        self._turns = ClientTurns(workers)
        self._waiting = ThreadPoolExecutor(workers, thread_name_prefix="page-task")  # a thread a running task

    async def run(self, limit: float | None, function, *args, client: str = ""):
        """function(*args) in a worker once it is `client`'s turn: what it returns, or the
        exception it raises; TaskLost when its worker died in the middle of it, or was
        stopped: `limit` CPU seconds used (None: no limit), or idle past that and the
        grace. The place is given back when the task ends, not when the caller stops
        waiting for it: a task's worker is never shared."""
        await self._turns.acquire(client)
        try:
            job = asyncio.ensure_future(self._run_task((function, args, limit)))
        except BaseException:
            self._turns.release(client)
            raise
        del args  # the worker has them; a failure's traceback keeps this frame alive for a while
        job.add_done_callback(lambda _: self._turns.release(client))
        job.add_done_callback(lambda done: done.cancelled() or done.exception())  # retrieved if nobody waits
        return await asyncio.shield(job)

    async def _run_task(self, task: tuple):
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            worker = self._take() if attempt == 1 else self._start()
            outcome = await loop.run_in_executor(self._waiting, worker.run, task)
            if not isinstance(outcome, WorkerEnd):
                self._idle.append(worker)
                succeeded, value = outcome
                if not succeeded:
                    raise value
                return value
            self._drop(worker)
            if outcome.verdict is not None or worker.notes or attempt == 2:
                raise TaskLost(outcome, worker.watch.used.cpu if worker.watch is not None else 0.0)
        # (a worker that died before the task began, killed while idle: the task once more, on a fresh one)

    def _take(self) -> Worker:
        """An idle worker (one whose process has ended is dropped), or a new one."""
        while self._idle:
            worker = self._idle.pop()
            if worker.process.exitcode is None:
                return worker
            self._drop(worker)
        return self._start()

    def _start(self) -> Worker:
        worker = Worker(self._context, _call, watching=_watching, niceness=self.niceness)
        self._all.add(worker)
        return worker

    def _drop(self, worker: Worker) -> None:
        self._all.discard(worker)
        worker.close()

    async def think(self, player: str, rows: tuple, types: int, clock_left: float, client: str = "") -> Thought:
        """The built-in player's move on the board `rows` under its clock, watched by the
        referee's rule; the clock runs from `client`'s turn."""
        try:
            cell, cpu = await self.run(clock_left, library.choose_move, player, rows, types, clock_left, client=client)
        except TaskLost as lost:
            end = lost.end
            if end.verdict is not None:
                return Thought(failure=end.reason, cpu=lost.cpu, fault=end.verdict)
            return Thought(failure=f"lost its process in the middle of the move ({end.how})", cpu=lost.cpu)
        except Exception as error:  # noqa: BLE001 - the player raised: it loses, as a crashing program would
            return Thought(failure=f"failed: {type(error).__name__}: {error}")
        return Thought(tuple(cell), cpu)

    def close(self) -> None:
        """Every worker killed at once, busy or not (nothing of theirs is wanted any more,
        and a stopped one would never end by itself), and waited for."""
        workers = list(self._all)
        stop_processes([worker.process for worker in workers], 0.0)
        self._waiting.shutdown(wait=True)  # each running task's thread sees its worker end
        for worker in workers:
            worker.close()
        self._idle.clear()
        self._all.clear()


def _call(task: tuple, note) -> tuple:
    """In a worker: (True, what the task's function returns) or (False, the exception it
    raised), which ends the task, not the worker."""
    function, args, _ = task
    note(None)  # begun: the task's watch starts here, not while the worker was starting
    try:
        return True, function(*args)
    except Exception as error:  # noqa: BLE001 - the caller raises it
        return False, sendable(error)


def _watching(task: tuple, notes: list) -> MoveWatch:
    """The watch of a task: from its start, its limit BACKSTOP_SLACK behind (none: the idle
    rule alone); before it, while its worker starts, the idle rule alone."""
    limit, started = task[2], time.monotonic()
    if not notes or limit is None:
        return PAGE_CLOCK.idle_watch(started)
    return PAGE_CLOCK.watch(limit, started, BACKSTOP_SLACK)
