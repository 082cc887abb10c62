"""A process that ends when the one that started it does: the kernel's parent-death
signal (Linux's prctl PR_SET_PDEATHSIG). A referee or server killed outright (SIGKILL) can
run no cleanup, and its workers, in sessions of their own, would play on for nobody."""

from __future__ import annotations

import ctypes
import os
import sys

PR_SET_PDEATHSIG = 1


def end_with_parent(signum: int, parent: int) -> None:
    """Have `signum` sent to this process when the thread that started it ends. `parent`:
    the starter's pid, as it knew it: when it is already gone (this process re-parented
    before the call), the signal is sent at once. Nothing where there is no such call."""
    if _set_parent_death_signal(signum) and os.getppid() != parent:
        os.kill(os.getpid(), signum)


def outlive_parent() -> None:
    """Undo end_with_parent: this process goes on when its parent ends."""
    _set_parent_death_signal(0)


def _set_parent_death_signal(signum: int) -> bool:
    """prctl(PR_SET_PDEATHSIG, signum); whether it was done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    return bool(prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0)
