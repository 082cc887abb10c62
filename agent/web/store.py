"""Objects kept on the server between requests under random ids, dropped when idle."""

from __future__ import annotations

import math
import re
import secrets
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar, Union

Item = TypeVar("Item")
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")  # what secrets.token_urlsafe(16) gives


class StoreFull(Exception):
    """Every place is taken by an object still in use."""


@dataclass
class _Entry(Generic[Item]):
    item: Item
    used: float  # when it was last asked for
    owner: str  # who added it (a client's address)
    size: int  # bytes it holds, as its adder counted them


class ExpiringStore(Generic[Item]):
    """At most `capacity` objects holding at most `budget` bytes; one not asked for in
    `idle_seconds` (a number, or a function of the object) is forgotten. The ids are
    unguessable, so that one tab cannot reach another's game by counting."""

    def __init__(
        self,
        capacity: int,
        idle_seconds: Union[float, Callable[[Item], float]],
        clock: Callable[[], float] = time.monotonic,
        budget: float = math.inf,
    ):
        self.capacity = capacity
        self.budget = budget
        self.clock = clock
        self._idle_seconds = idle_seconds if callable(idle_seconds) else lambda item: idle_seconds
        self._entries: dict[str, _Entry[Item]] = {}  # id -> _Entry
        self._bytes = 0

    def add(self, item: Item, owner: str = "", size: int = 0) -> str:
        self.sweep()
        if len(self._entries) >= self.capacity:
            raise StoreFull(f"the server holds {self.capacity} of these already; try again later")
        if self._bytes + size > self.budget:
            raise StoreFull(f"the server holds {self.budget / 2**20:.3g} MB of these already; try again later")
        key = secrets.token_urlsafe(16)
        self._entries[key] = _Entry(item, self.clock(), owner, size)
        self._bytes += size
        return key

    def get(self, key: str) -> Item | None:
        """The object under `key`, or None when there is none (never was, or expired)."""
        entry = self._entries.get(key) if ID_PATTERN.fullmatch(key) else None
        if entry is None or self._expired(entry, self.clock()):
            self.drop(key)
            return None
        entry.used = self.clock()
        return entry.item

    def owned_by(self, owner: str) -> list[tuple[str, Item]]:
        """(id, object) of what `owner` added and is still kept, least recently used first."""
        self.sweep()
        mine = sorted((entry.used, key) for key, entry in self._entries.items() if entry.owner == owner)
        return [(key, self._entries[key].item) for _, key in mine]

    def drop(self, key: str) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._bytes -= entry.size

    def sweep(self) -> None:
        now = self.clock()
        for key in [key for key, entry in self._entries.items() if self._expired(entry, now)]:
            self.drop(key)

    def _expired(self, entry: _Entry, now: float) -> bool:
        return now - entry.used > self._idle_seconds(entry.item)

    def __len__(self) -> int:
        return len(self._entries)
