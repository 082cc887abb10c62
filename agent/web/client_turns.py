"""The places of a pool of workers, handed out to clients in turn: while others wait, a
client runs one job at a time, so that one client's flood of moves or hints keeps another
waiting for no more than the jobs already running when it came."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter, deque


class ClientTurns:
    def __init__(self, places: int):
        self._free = places
        self._running: Counter[str] = Counter()  # client -> jobs it runs
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}  # client -> its waiting jobs' futures
        self._served: dict[str, int] = {}  # client -> when it was last given a place (a count), while it has jobs
        self._ticks = itertools.count()

    async def acquire(self, client: str) -> None:
        """Waits for a place for `client`; release(client) gives it back."""
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(granted)
        self._hand_out()
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self.release(client)  # given a place as it was cancelled: the next in turn has it
            else:
                self._withdraw(client, granted)
            raise

    def release(self, client: str) -> None:
        self._running[client] -= 1
        if not self._running[client]:
            del self._running[client]
        self._free += 1
        self._forget_if_idle(client)
        self._hand_out()

    def _hand_out(self) -> None:
        """Free places go to waiting clients, the one running the fewest jobs first, then
        the one served longest ago (or never)."""
        while self._free and self._waiting:
            client = min(self._waiting, key=lambda waiting: (self._running[waiting], self._served.get(waiting, -1)))
            queue = self._waiting[client]
            granted = queue.popleft()
            if not queue:
                del self._waiting[client]
            self._free -= 1
            self._running[client] += 1
            self._served[client] = next(self._ticks)
            granted.set_result(None)

    def _withdraw(self, client: str, granted: asyncio.Future[None]) -> None:
        queue = self._waiting.get(client)
        if queue is not None and granted in queue:
            queue.remove(granted)
            if not queue:
                del self._waiting[client]
        self._forget_if_idle(client)

    def _forget_if_idle(self, client: str) -> None:
        """A client with no job running or waiting is forgotten (addresses are many)."""
        if client not in self._running and client not in self._waiting:
            self._served.pop(client, None)
