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
    """No room can be made: the object alone is larger than what may be kept."""


class OwnerFull(StoreFull):
    """The owner's share is taken by objects it is still using."""


@dataclass
class _Entry(Generic[Item]):
    item: Item
    used: float  # when it was last asked for
    owner: str  # who added it (a client's address)
    size: int  # bytes it holds, as its adder counted them


class ExpiringStore(Generic[Item]):
    """At most `capacity` objects holding at most `budget` bytes, and of them at most
    `owner_capacity` objects and `owner_budget` bytes added by one owner; one not asked for
    in `idle_seconds` (a number, or a function of the object) is forgotten. The ids are
    unguessable, so that one tab cannot reach another's game by counting.

    A new object is made room for rather than refused: at the owner's share, by dropping
    the owner's least recently used object that is not `in_use`; with the store full, by
    dropping the least recently used object of whoever holds the most (those not in use
    first), so that one client filling the store pushes out only its own."""

    def __init__(
        self,
        capacity: int,
        idle_seconds: Union[float, Callable[[Item], float]],
        clock: Callable[[], float] = time.monotonic,
        budget: float = math.inf,
        owner_capacity: float = math.inf,
        owner_budget: float = math.inf,
        in_use: Callable[[Item], bool] = lambda item: False,
    ):
        self.capacity = capacity
        self.budget = budget
        self.owner_capacity = owner_capacity
        self.owner_budget = owner_budget
        self.clock = clock
        self._idle_seconds = idle_seconds if callable(idle_seconds) else lambda item: idle_seconds
        self._in_use = in_use
        self._entries: dict[str, _Entry[Item]] = {}  # id -> _Entry

    def add(self, item: Item, owner: str = "", size: int = 0) -> str:
        """`item`'s new id; OwnerFull when the owner's share is all in use, StoreFull when
        `item` alone is larger than the budgets."""
        if size > min(self.budget, self.owner_budget):
            raise StoreFull(f"the server keeps at most {min(self.budget, self.owner_budget) / 2**20:.3g} MB of these")
        self.sweep()
        while self._over(self._owned_by(owner), self.owner_capacity, self.owner_budget, size):
            spare = [key for key in self._owned_by(owner) if not self._in_use(self._entries[key].item)]
            if not spare:
                raise OwnerFull(f"this address holds {len(self._owned_by(owner))} of these, all in use")
            self.drop(spare[0])
        while self._over(list(self._entries), self.capacity, self.budget, size):
            self.drop(self._owned_by(self._largest_owner(by_bytes=len(self._entries) < self.capacity))[0])
        key = secrets.token_urlsafe(16)
        self._entries[key] = _Entry(item, self.clock(), owner, size)
        return key

    def get(self, key: str) -> Item | None:
        """The object under `key`, or None when there is none (never was, or expired)."""
        entry = self._entries.get(key) if ID_PATTERN.fullmatch(key) else None
        if entry is None or self._expired(entry, self.clock()):
            self.drop(key)
            return None
        entry.used = self.clock()
        return entry.item

    def drop(self, key: str) -> None:
        self._entries.pop(key, None)

    def sweep(self) -> None:
        now = self.clock()
        for key in [key for key, entry in self._entries.items() if self._expired(entry, now)]:
            self.drop(key)

    def _owned_by(self, owner: str) -> list[str]:
        """The ids of what `owner` added, those not in use first, each least recently used
        (then least recently added) first."""
        mine = [key for key, entry in self._entries.items() if entry.owner == owner]
        return sorted(mine, key=lambda key: (self._in_use(self._entries[key].item), self._entries[key].used))

    def _over(self, keys: list[str], capacity: float, budget: float, size: int) -> bool:
        """Whether one more object of `size` bytes beside `keys` passes `capacity` or `budget`."""
        return len(keys) >= capacity or sum(self._entries[key].size for key in keys) + size > budget

    def _largest_owner(self, by_bytes: bool) -> str:
        """The owner of the most objects (of the most bytes), the earliest used first on a tie."""
        holdings: dict[str, tuple[int, int]] = {}
        for entry in sorted(self._entries.values(), key=lambda entry: entry.used):
            count, size = holdings.get(entry.owner, (0, 0))
            holdings[entry.owner] = (count + 1, size + entry.size)
        return max(holdings, key=lambda owner: holdings[owner][::-1] if by_bytes else holdings[owner])

    def _expired(self, entry: _Entry[Item], now: float) -> bool:
        return now - entry.used > self._idle_seconds(entry.item)

    def __len__(self) -> int:
        return len(self._entries)
