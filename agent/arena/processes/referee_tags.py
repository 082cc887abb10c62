"""The tag a referee puts in the names of what it leaves in shared places (its match
folders in the temporary folder, its moves' cgroups), and whether the referee of a tag is
gone, so that a sweep removes only what no running referee holds.

A pid alone cannot tell: a referee in another PID namespace (a container sharing the
temporary folder and the cgroup tree) has pids that mean nothing here, and pids are
reused. A tag is the referee's pid, the boot, its PID namespace and its start time: a
referee of this boot and namespace is gone when no process has that pid and start time;
one of another boot (another machine sharing the folder, say) or another namespace is not
ours to judge, and what it left is never touched."""

from __future__ import annotations

import functools
import os
import re
from typing import Optional

# pid, the boot's first 8 hex digits, the PID namespace's inode, the start time in ticks
TAG = r"\d+-[0-9a-f]{8}-\d+-\d+"
_FIELDS = re.compile(r"(\d+)-([0-9a-f]{8})-(\d+)-(\d+)")


def own_tag() -> str:
    """This process's tag."""
    return _tag_of(os.getpid())


@functools.cache  # per pid: a forked process has a tag of its own
def _tag_of(pid: int) -> str:
    return f"{pid}-{_boot()}-{_namespace()}-{start_time(pid) or 0}"


def left_by_gone_referee(tag: str, referee: Optional[int] = None) -> bool:
    """Whether what the referee tagged `tag` made is to be removed: it is of this boot and
    PID namespace, and its referee is `referee` or, when that is None, no longer runs."""
    fields = _FIELDS.fullmatch(tag)
    if fields is None:
        return False
    pid, boot, namespace, started = fields.groups()
    if boot != _boot() or int(namespace) != _namespace():
        return False
    if referee is not None:
        return int(pid) == referee
    # a start time of 0: its referee could not read its own (no /proc), nor can we judge it
    return int(started) != 0 and start_time(int(pid)) != int(started)


def start_time(pid: int) -> Optional[int]:
    """When process `pid` of this namespace started (clock ticks after boot; a zombie's
    too), or None when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[19])  # the 22nd field
    except (OSError, IndexError, ValueError):
        return None


@functools.cache
def _boot() -> str:
    try:
        with open("/proc/sys/kernel/random/boot_id") as handle:
            return handle.read().strip().replace("-", "")[:8].lower()
    except OSError:
        return "0" * 8


@functools.cache
def _namespace() -> int:
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0
