"""A user of its own for each side of a match (MoveRunner's isolate option, root only):
numeric user and group ids that no account names and no running process uses. Nothing is
added to /etc/passwd; files the moves leave show those numbers as their owner."""

from __future__ import annotations

import grp
import os
import pwd
import subprocess
import threading
from typing import Optional

# Far above the accounts (1000...) and the usual container ranges from 100000; each
# referee process starts at its own place so that two running at once rarely meet.
FIRST_ID = 1_500_000_000
SPREAD = 10_000
STRIDE = 16
_taken: set[int] = set()  # ids handed out in this process, by any runner
_taken_lock = threading.Lock()


class SideUsers:
    def __init__(self):
        self._ids = {}
        self._lock = threading.Lock()

    def of(self, side: str) -> tuple:
        """(uid, gid) of `side`: the same all through this runner's life."""
        with self._lock:
            if side not in self._ids:
                self._ids[side] = (_free_id(),) * 2
            return self._ids[side]


# Wall seconds the interpreter's trial run may take (a loaded machine's start-up).
TRIAL_LIMIT = 60.0


def python_problem(python: str, env: Optional[dict]) -> str:
    """Why a side's own user (no groups, so what "others" may) cannot run this project
    with `python` in `env`, or "": tried for real, importing the package. An interpreter
    or package under a folder only we may enter (/root) fails so."""
    user = _free_id()
    try:
        done = subprocess.run(
            [python, "-c", "import agent"],
            env=env,
            cwd="/",
            user=user,
            group=user,
            extra_groups=[],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=TRIAL_LIMIT,
        )
    except OSError as error:
        return f"{python}: {error.strerror}"
    except subprocess.TimeoutExpired:
        return ""  # slow, not refused: the games will tell
    if done.returncode == 0:
        return ""
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else f"{python} -c 'import agent' exited with {done.returncode}"


def _free_id() -> int:
    with _taken_lock:
        in_use = ids_of_processes()
        candidate = FIRST_ID + (os.getpid() % SPREAD) * STRIDE
        while candidate in _taken or candidate in in_use or _named(candidate):
            candidate += 1
        _taken.add(candidate)
        return candidate


def _named(number: int) -> bool:
    for lookup in (pwd.getpwuid, grp.getgrgid):
        try:
            lookup(number)
            return True
        except KeyError:
            pass
    return False


def ids_of_processes() -> set:
    """Every user and group id some running process has (real, effective, saved, fs)."""
    found: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as handle:
                for line in handle:
                    if line.startswith(("Uid:", "Gid:")):
                        found.update(int(word) for word in line.split()[1:])
        except (OSError, ValueError):  # gone meanwhile
            continue
    return found
