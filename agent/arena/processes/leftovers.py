"""What a referee process leaves behind when it is killed outright (SIGKILL, os._exit): its
match folders in the temporary folder, and its moves' cgroups with the moves still running
in them. Both are named with the referee's tag (referee_tags.py). Each referee that runs
moves has a watcher, a process of its own that removes them the moment the referee dies;
and the next referee to start removes any whose referee is gone (a watcher killed too)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from typing import Optional

from agent.arena.processes.containment import end_orphaned_cgroups, own_cgroup_folder
from agent.arena.processes.move_folders import remove_orphaned_match_folders
from agent.move.launch import package_root

_watched = None  # the pid whose watcher runs: a forked process needs one of its own
_watched_lock = threading.Lock()
_referee_end = None  # our end of the watcher's pipe, open as long as we live
_watcher = None  # the watcher's Popen, kept: it outlives us, not the other way round


def remove_leftovers(referee: Optional[int] = None, where: Optional[str] = None) -> None:
    """End and remove the moves' cgroups and the match folders of `referee`, or when None,
    of every referee that no longer runs; the folders in `where` (None: the temporary
    folder). What cannot be removed (another user's) stays."""
    parent = own_cgroup_folder()
    if parent is not None:
        try:
            end_orphaned_cgroups(parent, referee)
        except OSError:  # cgroups we may not change: none of ours there
            pass
    remove_orphaned_match_folders(where or tempfile.gettempdir(), referee)


def watch_this_process() -> None:
    """Once per process: remove what dead referees left, and start this one's watcher."""
    global _watched, _referee_end, _watcher
    with _watched_lock:
        if _watched == os.getpid():
            return
        remove_leftovers()
        watcher_end, referee_end = os.pipe()  # neither inherited by a program we start
        try:
            watcher = subprocess.Popen(
                # told the temporary folder: finding it, Python writes a probe file there,
                # which the watcher would do as the referee ends, beside its own cleanup
                [sys.executable, "-I", "-S", "-c", _WATCHER, package_root(), str(os.getpid()), tempfile.gettempdir()],
                stdin=watcher_end,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd="/",
                start_new_session=True,  # not ended with us by a signal to our process group
            )
        except OSError:  # no watcher: the next referee's sweep still removes what we leave
            os.close(referee_end)
            return
        finally:
            os.close(watcher_end)
        if _referee_end is not None:  # a forked copy of our parent's: theirs, not ours
            os.close(_referee_end)
        _watched, _referee_end, _watcher = os.getpid(), referee_end, watcher


def own_watcher() -> Optional[int]:
    """The pid of this process's watcher, once it has one (a forked copy of our parent's
    is not ours). Read without the lock: a process forked while another thread held it
    would wait for ever."""
    watched, watcher = _watched, _watcher
    return watcher.pid if watched == os.getpid() and watcher is not None else None


def watch(referee: int, where: str) -> None:
    """The watcher: wait until every copy of the pipe's other end is closed, which the
    kernel does as the referee dies however it dies, or until the referee is gone (a
    process it forked, a Dask worker's, may hold a copy for longer), then remove what it
    left (its match folders in `where`)."""
    import select

    while _running(referee):
        ready, _, _ = select.select([0], [], [], WATCH_POLL)
        if ready and not os.read(0, 4096):
            break
    remove_leftovers(referee, where)


WATCH_POLL = 1.0  # seconds between the watcher's looks at its referee


def _running(pid: int) -> bool:
    """Whether process `pid` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:  # no /proc here: the kernel is asked
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # someone else's
            pass
        return True


_WATCHER = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from agent.arena.processes.leftovers import watch; watch(int(sys.argv[2]), sys.argv[3])"
)
