"""The page's analyses of games (agent.arena.review.analysis through library.analyse): each runs in
a process of its own at a low priority, reports its progress, can be cancelled (its process
is killed at once), and once done is kept, so a game is analysed once.

A few run at a time and a few more wait their turn, a few at most for one client; past
that a new one makes room by cancelling the client's own least recently asked for, or with
every place taken that of the client with the most. The finished ones are kept up to a
count, the least recently asked for going first."""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from dataclasses import dataclass, field

from agent.web import library
from agent.web.jobs import TaskFailed, run_in_own_process

NICENESS = 10  # an analysis yields the processors to the agents' thinking


@dataclass
class Analysis:
    nodes: int
    owner: str  # who asked for it (a client's address)
    state: str = "queued"  # then "running", and "done" or "failed"
    done: int = 0  # positions searched
    total: int = 0
    result: dict | None = None
    error: str = ""
    task: asyncio.Task | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed")

    def to_json(self) -> dict:
        return {
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "nodes": self.nodes,
            "analysis": self.result,
            "error": self.error,
        }


class Analyses:
    def __init__(self, at_once: int, waiting: int, per_owner: int, kept: int):
        self._running = asyncio.Semaphore(at_once)
        self.pending_limit = at_once + waiting
        self.per_owner = per_owner
        self.kept = kept
        # key -> Analysis, the least recently asked for first
        self._items: OrderedDict[object, Analysis] = OrderedDict()

    def start(self, key, record: dict, nodes: int, owner: str) -> Analysis:
        """The analysis of `record` under `key` with `nodes` nodes a position: the one
        there is (done or under way) unless it failed or had another budget."""
        analysis = self.get(key)
        if analysis is not None and analysis.nodes == nodes and analysis.state != "failed":
            return analysis
        self.cancel(key)
        while len(self._pending(owner)) >= self.per_owner:
            self.cancel(self._pending(owner)[0])
        while len(self._pending()) >= self.pending_limit:
            holders = Counter(self._items[key].owner for key in self._pending())
            self.cancel(self._pending(max(holders, key=lambda owner: holders[owner]))[0])
        analysis = Analysis(nodes, owner)
        analysis.task = asyncio.get_running_loop().create_task(self._run(analysis, record))
        self._items[key] = analysis
        self._forget_old()
        return analysis

    def _pending(self, owner: str | None = None) -> list[object]:
        """The keys of the analyses under way or waiting (of `owner`), least recently asked for first."""
        return [
            key for key, item in self._items.items() if not item.finished and (owner is None or item.owner == owner)
        ]

    def get(self, key) -> Analysis | None:
        analysis = self._items.get(key)
        if analysis is not None:
            self._items.move_to_end(key)
        return analysis

    def cancel(self, key) -> Analysis | None:
        """Stop and forget the analysis under `key` (its process is killed); it is returned."""
        analysis = self._items.pop(key, None)
        if analysis is not None and not analysis.finished:
            assert analysis.task is not None  # an unfinished analysis runs in its task
            analysis.task.cancel()
            analysis.state = "cancelled"
        return analysis

    async def close(self) -> None:
        tasks = [item.task for item in self._items.values() if not item.finished and item.task is not None]
        for key in list(self._items):
            self.cancel(key)
        await asyncio.gather(*tasks, return_exceptions=True)

    def _forget_old(self) -> None:
        finished = [key for key, item in self._items.items() if item.finished]
        for key in finished[: max(0, len(self._items) - self.kept)]:
            del self._items[key]

    async def _run(self, analysis: Analysis, record: dict) -> None:
        def progress(message):
            analysis.done, analysis.total = message

        async with self._running:
            analysis.state = "running"
            try:
                analysis.result = await run_in_own_process(
                    library.analyse, (record, analysis.nodes), on_message=progress, niceness=NICENESS
                )
            except TaskFailed as error:
                analysis.state, analysis.error = "failed", f"the analysis failed: {error}"
                return
            analysis.state = "done"
        self._forget_old()
