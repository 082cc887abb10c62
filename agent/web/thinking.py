"""Work that must not run on the event loop: the agent's thinking and reading records.

It runs in pools of worker processes, so one long search leaves the other tabs served;
records are read in a pool of their own at a lower priority, so that a file being checked
neither holds up a move nor takes its processor. No more tasks are handed out than there
are workers, so a task's wall time is its own and not the queue's: the guard on the
agent's move measures the agent alone. The workers are handed out to clients in turn
(agent.web.client_turns), so that one client's flood delays another's move by a task at most."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from agent.arena.processes.workers import begin_page_worker, process_context
from agent.web import library
from agent.web.client_turns import ClientTurns

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
        self._turns = ClientTurns(workers)

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=process_context(spawn=True),
            initializer=begin_page_worker,
            initargs=(os.getpid(), self.niceness),
        )

    async def run(self, timeout: float | None, function, *args, client: str = ""):
        """function(*args) in a worker once it is `client`'s turn; asyncio.TimeoutError
        after `timeout` wall seconds (the worker finishes the task anyway, and only then
        takes another)."""
        await self._turns.acquire(client)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._executor, function, *args)
        except BaseException:
            self._turns.release(client)
            raise
        del args  # the worker has them; a failure's traceback keeps this frame alive for a while
        future.add_done_callback(lambda _: self._turns.release(client))
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except BrokenProcessPool:
            broken, self._executor = self._executor, self._new_executor()
            broken.shutdown(wait=False)
            raise WorkerDied("a worker process died") from None

    async def think(self, player: str, rows: tuple, types: int, clock_left: float, client: str = "") -> Thought:
        """The built-in player's move on the board `rows` under its clock, with a
        wall-clock guard; the clock runs from `client`'s turn."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            cell, cpu = await self.run(
                clock_left + self.wall_grace, library.choose_move, player, rows, types, clock_left, client=client
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
