"""A worker's whole process tree, ended when its task ends: the worker is a child
subreaper (Linux's prctl PR_SET_CHILD_SUBREAPER), so every process started below it that
is orphaned becomes its child, whatever session or process group it moved to, and none
outlives the task (a helper a player forked, holding the match's --out lock open). A
worker its parent kills has its tree ended first (end_tree): killed alone, it would leave
that tree to init."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from typing import Optional

from agent.arena.processes.move_launcher import PR_SET_CHILD_SUBREAPER, children_scanned


def become_subreaper() -> None:
    """Make this process the subreaper of all it starts; nothing where there is no such call."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _kill_each(pids: list, left_alone: set) -> None:
    """SIGKILL each of `pids`; one we may not signal (another user's now: a set-user-id
    program) goes to `left_alone`, never to be waited for."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        except PermissionError:
            left_alone.add(pid)


def end_descendants(spared: frozenset = frozenset()) -> None:
    """SIGKILL every child of this process but the `spared` pids, and reap them, until none
    is left: as each dies, its own children become ours, so the tree comes down level by
    level. One we may not signal (a set-user-id program's) is left."""
    left_alone = set(spared)
    while True:
        doomed = [pid for pid in _children() if pid not in left_alone]
        if not doomed:
            return
        _kill_each(doomed, left_alone)
        for pid in set(doomed) - left_alone:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:  # reaped meanwhile (a Popen's wait in another thread)
                pass


def end_tree(pid: int, spared: frozenset = frozenset()) -> None:
    """SIGKILL process `pid`, one of ours, and every process below it but the `spared`
    pids: those below first, while `pid`, stopped (SIGSTOP), still holds them; the orphans
    of those killed go to it (a worker is their subreaper), not to init. One we may not
    signal is left, as is one that takes longer than TREE_LIMIT to die (stuck in the
    kernel)."""
    try:
        os.kill(pid, signal.SIGSTOP)
    except ProcessLookupError:
        return
    left_alone: set = set(spared)
    deadline = time.monotonic() + TREE_LIMIT
    while time.monotonic() < deadline:
        living = [process for process in below(pid) if process not in left_alone and _alive(process)]
        if not living:
            break
        _kill_each(living, left_alone)
        time.sleep(0.001)  # for them to die (their own children then come to `pid`)
    os.kill(pid, signal.SIGKILL)


TREE_LIMIT = 5.0  # seconds for end_tree's killed processes to die


def below(pid: int) -> list[int]:
    """Every process below `pid`, at any depth."""
    found, level = [], [pid]
    while level:
        level = [child for parent in level for child in _children(parent)]
        found.extend(level)
    return found


def _alive(pid: int) -> bool:
    """Whether `pid` runs (is not a zombie waiting for its parent)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _children(pid: Optional[int] = None) -> set[int]:
    """The children of process `pid` (this one when None), of all its threads: an orphan
    is given to any of them."""
    pid = os.getpid() if pid is None else pid
    try:
        found: set[int] = set()
        for thread in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{thread}/children") as handle:
                found.update(int(word) for word in handle.read().split())
        return found
    except FileNotFoundError:  # no /proc, it or a thread gone meanwhile, or no CONFIG_PROC_CHILDREN
        return set(children_scanned(pid)) if os.path.isdir("/proc") else set()
