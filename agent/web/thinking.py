"""Work that must not run on the event loop: the agent's thinking and reading records.

It runs in pools of worker processes, so one long search leaves the other tabs served;
records are read in a pool of their own at a lower priority, so that a file being checked
neither holds up a move nor takes its processor. No more tasks are handed out than there
are workers, so a task's wall time is its own and not the queue's: the guard on the
agent's move measures the agent alone."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from agent.web import engine

# Wall seconds an agent may run past its clock before its move is given up on (the
# search keeps its own CPU budget; this is for a machine too loaded to keep up).
WALL_GRACE = 5.0


class WorkerDied(Exception):
    """A worker process ended in the middle of a task (killed, out of memory)."""


@dataclass(frozen=True)
class Thought:
    """What an agent's turn gave: a cell and its CPU seconds, or why there is no move."""

    cell: tuple | None = None
    cpu: float = 0.0
    failure: str = ""
    wall: float = 0.0


class WorkerPool:
    """`workers` processes; with `niceness` above 0 they run at a lower priority, so that
    their work yields the processors to the other pools' (reading records to thinking)."""

    def __init__(self, workers: int, wall_grace: float = WALL_GRACE, niceness: int = 0):
        self.workers = workers
        self.wall_grace = wall_grace
        self.niceness = niceness
        self._executor = self._new_executor()
        self._free = asyncio.Semaphore(workers)

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn, not fork: a fork of a process running an event loop and threads may hang
        context = multiprocessing.get_context("spawn")
        if self.niceness:
            return ProcessPoolExecutor(self.workers, mp_context=context, initializer=os.nice, initargs=(self.niceness,))
        return ProcessPoolExecutor(self.workers, mp_context=context)

    async def run(self, timeout: float | None, function, *args):
        """function(*args) in a worker; asyncio.TimeoutError after `timeout` wall seconds
        (the worker finishes the task anyway, and only then takes another)."""
        await self._free.acquire()
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._executor, function, *args)
        except BaseException:
            self._free.release()
            raise
        del args  # the worker has them; a failure's traceback keeps this frame alive for a while
        future.add_done_callback(lambda _: self._free.release())
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except BrokenProcessPool:
            broken, self._executor = self._executor, self._new_executor()
            broken.shutdown(wait=False)
            raise WorkerDied("a worker process died") from None

    async def think(self, player: str, rows: tuple, types: int, clock_left: float) -> Thought:
        """The built-in player's move on the board `rows` under its clock, with a
        wall-clock guard."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            cell, cpu = await self.run(
                clock_left + self.wall_grace, engine.choose_move, player, rows, types, clock_left
            )
        except asyncio.TimeoutError:
            return Thought(
                failure=f"was still thinking {self.wall_grace:g} s after its clock ran out", wall=loop.time() - started
            )
        except WorkerDied:
            return Thought(failure="lost its process in the middle of the move", wall=loop.time() - started)
        except Exception as error:  # noqa: BLE001 - the player raised: it loses, as a crashing program would
            return Thought(failure=f"failed: {type(error).__name__}: {error}", wall=loop.time() - started)
        return Thought(tuple(cell), cpu, wall=loop.time() - started)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
