"""A worker's guard: what ends a worker whose parent died outright (SIGKILL) when the worker
cannot end itself. The kernel then sends the worker its parent-death signal, SIGTERM, whose
Python handler unwinds its task and ends what the task started; but no handler runs while
the worker is inside one long C call (a search; a player's own), has the signal blocked or
is stopped (SIGSTOP). The guard, a child of the worker forked as it starts, waits for the
parent's death on a pidfd, then holds the worker to the stop rule (referee_clock.stop_watch:
BACKSTOP_SLACK of CPU, or STOP_GRACE idle) and, on its verdict, kills the worker's whole tree
and removes what it left (its moves' folders and cgroups), as the parent would have. It
ends with the worker (its own parent-death signal, SIGKILL), which ends the stop signals'
way; blocked on the pidfd meanwhile, it uses no CPU."""

from __future__ import annotations

import os
import select
import signal
import time
from typing import Optional

from agent.arena.processes.descendants import end_tree
from agent.arena.processes.parent_death import end_with_parent, outlive_parent
from agent.arena.processes.referee_clock import stop_watch
from agent.arena.processes.usage import TreeProbe, Usage


def start_guard(parent: int) -> Optional[int]:
    """In a worker as it starts, while it has one thread: its guard forked, watching
    `parent` (the pid of the process that started it, as it knew it). The guard's pid; None
    where the kernel has no pidfd (Linux before 5.3) or the parent is gone already (its
    parent-death signal has come): the parent-death signal alone then."""
    try:
        parent_handle = os.pidfd_open(parent)
    except (AttributeError, OSError):
        return None
    worker, guard = os.getpid(), None
    try:
        if os.getppid() == parent:  # else the handle may be another process's, which took the pid
            guard = os.fork()
    except OSError:
        pass
    if guard == 0:
        try:
            _guard(worker, parent_handle)
        finally:
            os._exit(0)  # nothing of the worker's (its finalizers, its at-exit cleanup) runs here
    os.close(parent_handle)
    return guard


def _guard(worker: int, parent_handle: int) -> None:
    """The guard of `worker`, the process that forked it: it ends with it, at once when the
    worker is gone already (its pid is never read again after the fork: an orphan's parent
    is another process)."""
    end_with_parent(signal.SIGKILL, worker)
    select.select([parent_handle], [], [])  # readable once the parent has ended
    stopping = StopWatch(worker)
    while stopping.verdict() is None:
        time.sleep(stopping.next_look())
    # Stopped, the worker cannot end by itself; killing it must not end the guard before it
    # has cleaned up. One that ended meanwhile has ended the guard, or orphaned it.
    os.kill(worker, signal.SIGSTOP)
    outlive_parent()
    if os.getppid() != worker:
        return
    end_tree(worker, spared=frozenset({os.getpid()}))
    from agent.arena.processes.leftovers import remove_leftovers

    remove_leftovers(worker)


class StopWatch:
    """A process told to stop now, held to the stop rule (referee_clock.stop_watch) by what
    its whole tree uses from now on."""

    def __init__(self, pid: int):
        self.probe = TreeProbe(pid)
        self.since = self.probe.usage()
        self.watch = stop_watch(time.monotonic())
        self.used = Usage(0.0, 0.0)

    def verdict(self) -> Optional[str]:
        """The stop rule's verdict, looking now: None while the process may go on ending."""
        usage = self.probe.usage()
        self.used = Usage(usage.cpu - self.since.cpu, usage.demand - self.since.demand)
        return self.watch.observe(self.used, time.monotonic())

    def next_look(self) -> float:
        return self.watch.next_look(self.used, time.monotonic())
