"""Objects kept on the server between requests under random ids, dropped when idle."""

from __future__ import annotations

import re
import secrets
import time
from typing import Callable

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")  # what secrets.token_urlsafe(16) gives


class StoreFull(Exception):
    """Every place is taken by an object still in use."""


class ExpiringStore:
    """At most `capacity` objects; one not asked for in `idle_seconds` is forgotten. The ids
    are unguessable, so that one tab cannot reach another's game by counting."""

    def __init__(self, capacity: int, idle_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.capacity = capacity
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._items = {}  # id -> [object, last used]

    def add(self, item) -> str:
        self.sweep()
        if len(self._items) >= self.capacity:
            raise StoreFull(f"the server holds {self.capacity} of these already; try again later")
        key = secrets.token_urlsafe(16)
        self._items[key] = [item, self.clock()]
        return key

    def get(self, key: str) -> object | None:
        """The object under `key`, or None when there is none (never was, or expired)."""
        entry = self._items.get(key) if ID_PATTERN.fullmatch(key) else None
        if entry is None or self.clock() - entry[1] > self.idle_seconds:
            self._items.pop(key, None)
            return None
        entry[1] = self.clock()
        return entry[0]

    def sweep(self) -> None:
        now = self.clock()
        for key in [key for key, (_, used) in self._items.items() if now - used > self.idle_seconds]:
            del self._items[key]

    def __len__(self) -> int:
        return len(self._items)
