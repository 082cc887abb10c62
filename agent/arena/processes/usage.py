"""What a running move uses, read from /proc: the CPU it has been charged, and its demand
for the CPU, the time its threads ran or waited in a run queue. The demand tells a move
that a loaded machine keeps waiting (its demand grows with the wall clock) from one that
is asleep, blocked or stopped (its demand stands still): see agent.arena.processes.referee_clock.

Each look reads a thread's /proc/TID/schedstat (run and run-queue wait, in nanoseconds);
where the kernel keeps no such figures, a thread found runnable (state R) counts as
demanding the CPU since the last look."""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from agent.arena.processes.descendants import below

TICK = 1.0 / os.sysconf("SC_CLK_TCK")  # the unit of /proc/PID/stat's CPU times


@dataclass(frozen=True)
class Usage:
    """A move's use of the machine so far."""

    cpu: float  # CPU seconds charged, user + system
    demand: float  # seconds its threads ran or waited to run, summed over its threads


@functools.cache
def schedstat_works() -> bool:
    """Whether this kernel keeps each thread's run and wait times (CONFIG_SCHED_INFO):
    this process has run, so its own figures are not all zero."""
    try:
        with open("/proc/thread-self/schedstat") as handle:
            return int(handle.read().split()[0]) > 0
    except (OSError, ValueError, IndexError):
        return False


class DemandMeter:
    """The demand of a changing set of threads, added up over the looks: each look adds
    what each thread it finds has gained since the last (all it has, met for the first
    time). A thread that ends between two looks takes its last gain with it; the CPU the
    move was charged meanwhile makes up for that (MoveWatch takes the larger)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.total = 0.0
        self._clock = clock
        self._seen: dict[int, float] = {}  # thread id -> its run + wait at the last look
        self._last_look = clock()

    def look(self, threads: Iterable[int]) -> float:
        """The demand so far, with `threads` (thread ids) read now."""
        now = self._clock()
        if schedstat_works():
            seen = {}
            for tid in threads:
                figure = _run_and_wait(tid)
                if figure is not None:
                    seen[tid] = figure
                    self.total += max(figure - self._seen.get(tid, 0.0), 0.0)
            self._seen = seen
        elif any(_state(tid) == "R" for tid in threads):
            self.total += now - self._last_look
        self._last_look = now
        return self.total


def _run_and_wait(tid: int):
    """Seconds thread `tid` has run and waited to run, or None when it is gone."""
    try:
        with open(f"/proc/{tid}/schedstat", "rb") as handle:
            run, wait = handle.read().split()[:2]
    except (OSError, ValueError):
        return None
    return (int(run) + int(wait)) / 1e9


def _state(tid: int) -> str:
    try:
        with open(f"/proc/{tid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return ""


def process_cpu(pid: int, children: bool = True) -> float:
    """CPU seconds of process `pid` (every thread), and with `children` those of the
    children it has reaped; 0 when it is gone. Counted in clock ticks: a look, not a bill."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # after the name: state ppid ... utime (12th) stime cutime cstime
    ticks = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if children else 0)
    return ticks * TICK


def threads_of(pids: Iterable[int]) -> list[int]:
    """The thread ids of these processes (those gone meanwhile left out)."""
    found: list[int] = []
    for pid in pids:
        try:
            found.extend(int(tid) for tid in os.listdir(f"/proc/{pid}/task"))
        except OSError:
            pass
    return found


class TreeProbe:
    """Looks at the processes below `root` (and at `root` itself unless it is only their
    keeper, as a move's supervisor is): their CPU and demand. `own_cpu`: the CPU charged is
    `root`'s own (a worker whose player runs in it), not the tree's."""

    def __init__(self, root: int, keeper: bool = False, own_cpu: bool = False):
        self.root, self.keeper, self.own_cpu = root, keeper, own_cpu
        self.meter = DemandMeter()

    def usage(self) -> Usage:
        tree = below(self.root)
        members = tree if self.keeper else [self.root, *tree]
        if self.own_cpu:
            cpu = process_cpu(self.root, children=False)
        else:  # the dead the keeper reaped, and the living with the dead they reaped
            cpu = sum(process_cpu(pid) for pid in members)
            if self.keeper:
                cpu += process_cpu(self.root) - process_cpu(self.root, children=False)
        demand = self.meter.look(threads_of(members))
        return Usage(cpu, demand)
