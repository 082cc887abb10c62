"""Holding every process of a move: charging all their CPU and killing them all when the
move ends, whatever session or process group they moved to.

Two ways, picked at run time (pick_containment):
- cgroup: a cgroup v2 per move. The move joins it before it runs its first instruction;
  cpu.stat counts the CPU of everything inside, cgroup.kill ends everything inside.
- subreaper: a supervisor per move (forked by a launcher server, move_launcher.py) that is
  a child subreaper, so every process the move orphans becomes its child; it kills and
  reaps them all, and their rusage is its own.

Either way a started move is a RunningMove: kill() and probe() (what it uses while it
runs, for the referee's clock) from any thread, finish() in the one that started it."""

from __future__ import annotations

import errno
import functools
import itertools
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import IO, Any, Optional, Union

from agent.arena.processes.referee_tags import TAG, left_by_gone_referee, own_tag
from agent.arena.processes.stop_signals import stop_signals_deferred
from agent.arena.processes.usage import DemandMeter, TreeProbe, Usage

CGROUP = "cgroup"
SUBREAPER = "subreaper"
LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "move_launcher.py")

# Says on stdout that it has started, then waits for stdin's line before it becomes the
# move: meanwhile the referee moves it into the move's cgroup, so that the move cannot fork
# before it is held, and the shell's own start-up is not charged to it.
_GATE = 'echo; read -r _ || exit 1; exec "$@" </dev/null >/dev/null'
EMPTYING_LIMIT = 10.0  # seconds for killed processes to go (one in the kernel may lag)
CGROUP_VANISHED = "its cgroup was removed while it ran, by a process other than the referee"


class ContainmentFailed(Exception):
    """A move could not be started or held: the referee's trouble, not the agent's."""


@dataclass(frozen=True)
class MoveEnd:
    exit_code: int  # of the move's command; negative: killed by that signal
    cpu: float  # user + system seconds of all its processes
    problem: str = ""  # set when the move broke its containment (killed its launcher)


@dataclass(frozen=True)
class Start:
    """What to run and how: argv is the whole command line (a shell command already
    wrapped in /bin/sh -c)."""

    argv: list
    cwd: str
    env: Optional[dict]
    stderr: Union[int, IO[Any]]  # a file for the move's stderr (the probe: subprocess.DEVNULL)
    user: Optional[tuple] = None  # (uid, gid) to run as; None: ours


def pick_containment(preferred: Optional[str] = None):
    """The containment to use: `preferred` (CGROUP or SUBREAPER) or, when None, a cgroup
    wherever one can be made and entered here, else the subreaper."""
    if preferred == SUBREAPER:
        return SubreaperContainment()
    if preferred not in (None, CGROUP):
        raise ValueError(f"no containment named {preferred!r}: {CGROUP} or {SUBREAPER}")
    parent = own_cgroup_folder()
    problem = cgroup_problem(parent)
    if problem is None:
        assert parent is not None  # cgroup_problem names its absence
        end_orphaned_cgroups(parent)
        return CgroupContainment(parent)
    if preferred == CGROUP:
        raise ContainmentFailed(f"cannot hold moves in cgroups here: {problem}")
    return SubreaperContainment()


def own_cgroup_folder() -> Optional[str]:
    """This process's cgroup v2 folder (where the moves' cgroups go), or None where there is
    no cgroup v2 hierarchy (cgroup v1 only, or /proc or /sys not mounted)."""
    try:
        with open("/proc/self/cgroup") as handle:
            path = next((line.strip()[3:] for line in handle if line.startswith("0::")), None)
        with open("/proc/self/mountinfo") as handle:
            mounts = [line.split() for line in handle]
    except OSError:
        return None
    # mountinfo: id parent dev root mountpoint options [tags] - fstype source options
    mount = next((fields[4] for fields in mounts if "-" in fields and fields[fields.index("-") + 1] == "cgroup2"), None)
    if path is None or mount is None:
        return None
    folder = os.path.join(mount, path.lstrip("/"))
    return folder if os.path.isdir(folder) else None


@functools.cache  # tried once per process, not for every runner
def cgroup_problem(parent: Optional[str]) -> Optional[str]:
    """Why moves cannot be held in cgroups under `parent`, or None: tried for real, with a
    move that does nothing."""
    if parent is None:
        return "no cgroup v2 hierarchy is mounted"
    try:
        # A stop signal (it may come before the command's own handlers are set) waits for the
        # probe's cgroup to be removed, instead of leaving it behind.
        with stop_signals_deferred():
            CgroupContainment(parent).start(Start(["true"], "/", None, subprocess.DEVNULL)).finish()
    except ContainmentFailed as error:
        return str(error)
    except OSError as error:  # a cgroup file missing or unreadable
        return f"{error.filename}: {error.strerror}"
    return None


class RunningMove:
    def kill(self) -> None:
        raise NotImplementedError

    def probe(self):
        """What looks at the move's use of the machine while it runs: its usage() -> Usage."""
        raise NotImplementedError

    def finish(self) -> MoveEnd:
        raise NotImplementedError


MOVE_CGROUP_PREFIX = "fruit-rage-move-"  # then the referee's tag and the move's number
_MOVE_CGROUP = re.compile(rf"{MOVE_CGROUP_PREFIX}({TAG})-\d+")


def end_orphaned_cgroups(parent: str, referee: Optional[int] = None) -> None:
    """Kill and remove the moves' cgroups whose referee is gone (`referee`'s only, when
    given, gone or not): killed outright (SIGKILL), it could not end its moves, which
    would otherwise run on. Those of referees this process cannot judge (another PID
    namespace's) are left alone."""
    for name in os.listdir(parent):
        match = _MOVE_CGROUP.fullmatch(name)
        if match is None or not left_by_gone_referee(match.group(1), referee):
            continue
        folder = os.path.join(parent, name)
        try:
            _write(os.path.join(folder, "cgroup.kill"), "1")
        except OSError:  # removed meanwhile
            continue
        for _ in range(100):
            if _remove_cgroup(folder):
                break
            time.sleep(0.01)


class CgroupContainment:
    name = CGROUP

    def __init__(self, parent: str):
        self.parent = parent
        self._numbers = itertools.count()

    def close(self) -> None:
        """Nothing is held between moves: each move's cgroup goes with it."""

    def start(self, start: Start) -> CgroupMove:
        folder = os.path.join(self.parent, f"{MOVE_CGROUP_PREFIX}{own_tag()}-{next(self._numbers)}")
        try:  # made inside the try: a Ctrl-C just after the mkdir still removes it
            try:
                os.mkdir(folder)
            except OSError as error:
                raise ContainmentFailed(f"cannot make a cgroup in {self.parent}: {error.strerror}") from None
            if not os.path.exists(os.path.join(folder, "cgroup.kill")):
                raise ContainmentFailed("this kernel's cgroups have no cgroup.kill (Linux 5.14)")
            return CgroupMove(folder, start)
        except BaseException:
            _remove_cgroup(folder)
            raise


class CgroupMove(RunningMove):
    def __init__(self, folder: str, start: Start):
        self.folder = folder
        gate_read, gate_write = os.pipe()
        ready_write: Optional[int]
        ready_read, ready_write = os.pipe()
        try:
            uid, gid = start.user or (None, None)
            try:
                self.process = subprocess.Popen(
                    ["/bin/sh", "-c", _GATE, "sh", *start.argv],
                    cwd=start.cwd,
                    env=start.env,
                    stdin=gate_read,
                    stdout=ready_write,
                    stderr=start.stderr,
                    start_new_session=True,
                    user=uid,
                    group=gid,
                    extra_groups=[] if start.user else None,
                )
            except OSError as error:
                raise ContainmentFailed(f"cannot start a move: {error.strerror}") from None
            os.close(ready_write)
            ready_write = None
            try:
                os.read(ready_read, 1)
                _write(os.path.join(folder, "cgroup.procs"), str(self.process.pid))
            except BaseException as error:
                self.process.kill()
                self.process.wait()
                if not isinstance(error, OSError):
                    raise
                raise ContainmentFailed(f"cannot move a move into its cgroup {folder}: {error.strerror}") from None
            os.write(gate_write, b"\n")
        finally:
            for descriptor in (gate_read, gate_write, ready_read, ready_write):
                if descriptor is not None:
                    os.close(descriptor)

    def kill(self) -> None:
        try:
            _write(os.path.join(self.folder, "cgroup.kill"), "1")
        except OSError:  # removed: the move is over
            pass

    def probe(self) -> CgroupProbe:
        return CgroupProbe(self.folder)

    def finish(self) -> MoveEnd:
        """How the move ended. A cgroup removed while the move ran (by another referee's
        sweep, which killed the move with it) loses the move, charged its own process's
        CPU, the rest being unknown; the match goes on."""
        cpu: Optional[float]
        try:
            _, status, usage = _reap(self.process.pid, self.kill)
        finally:
            self.kill()  # what it left; all of it when interrupted
            try:
                self._wait_empty()
                cpu = self._cpu()
            except OSError as error:
                if error.errno not in (errno.ENOENT, errno.ENODEV):
                    raise
                cpu = None
            finally:
                if not _remove_cgroup(self.folder):  # interrupted while its processes were dying
                    self._wait_empty()
                    _remove_cgroup(self.folder)
        self.process.returncode = os.waitstatus_to_exitcode(status)
        if cpu is None:
            return MoveEnd(self.process.returncode, usage.ru_utime + usage.ru_stime, problem=CGROUP_VANISHED)
        return MoveEnd(self.process.returncode, cpu)

    def _wait_empty(self) -> None:
        """Until the cgroup holds no live process: the kernel tells through cgroup.events."""
        events = os.open(os.path.join(self.folder, "cgroup.events"), os.O_RDONLY)
        try:
            poller = select.poll()
            poller.register(events, select.POLLPRI | select.POLLERR)
            deadline = time.monotonic() + EMPTYING_LIMIT
            while b"populated 0" not in os.pread(events, 200, 0):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ContainmentFailed(f"the processes of cgroup {self.folder} do not die")
                poller.poll(left * 1000)
        finally:
            os.close(events)

    def _cpu(self) -> float:
        return cgroup_cpu(self.folder)


def cgroup_cpu(folder: str) -> float:
    """CPU seconds of every process that has been in cgroup `folder`."""
    with open(os.path.join(folder, "cpu.stat")) as handle:
        fields = dict(line.split() for line in handle)
    return int(fields["usage_usec"]) / 1e6


class CgroupProbe:
    """A move's use while it runs, from its cgroup: the CPU of all it ever held, the demand
    of the threads it holds at each look (the last look's once the cgroup is gone)."""

    def __init__(self, folder: str):
        self.folder = folder
        self.meter = DemandMeter()
        self.last = Usage(0.0, 0.0)

    def usage(self) -> Usage:
        try:
            cpu = cgroup_cpu(self.folder)
            with open(os.path.join(self.folder, "cgroup.threads")) as handle:
                threads = [int(word) for word in handle.read().split()]
        except (OSError, ValueError, KeyError):  # the move is over, its cgroup removed
            return self.last
        self.last = Usage(cpu, self.meter.look(threads))
        return self.last


class SubreaperContainment:
    """Moves started by one launcher server per runner (move_launcher.py), started at the
    first move, and again if it is found gone (a move running as our user may kill it)."""

    name = SUBREAPER

    def __init__(self):
        self._lock = threading.Lock()
        self._server = None
        self._socket = None

    def start(self, start: Start) -> SubreaperMove:
        uid, gid = start.user or (-1, -1)
        request = json.dumps(
            {
                "argv": list(start.argv),
                "cwd": start.cwd,
                "uid": uid,
                "gid": gid,
                "env": dict(os.environ if start.env is None else start.env),
            }
        ).encode()
        assert not isinstance(start.stderr, int)  # a move's stderr is a file: DEVNULL is the cgroup probe's
        for _ in range(2):  # again once with a new server if this one is gone
            report_read, report_write = os.pipe()
            orders_read, orders_write = os.pipe()
            try:
                with self._lock:
                    try:
                        socket.send_fds(
                            self._connection(), [request], [start.stderr.fileno(), report_write, orders_read]
                        )
                    except OSError:
                        self._forget_server()
                os.close(report_write)
                os.close(orders_read)
                # the supervisor's first line: until it comes, the move is not running
                first, rest = _read_line(report_read)
            except BaseException:
                for descriptor in (report_read, report_write, orders_read, orders_write):
                    _close_quietly(descriptor)
                raise
            if first.startswith("started "):
                return SubreaperMove(report_read, orders_write, rest, int(first.split()[1]))
            os.close(report_read)
            os.close(orders_write)
            if first.startswith("failed: "):
                raise ContainmentFailed(f"the move launcher {first}")
            with self._lock:  # the server died with our request: no move ran
                self._forget_server()
        raise ContainmentFailed("the move launcher dies as it starts moves")

    def _connection(self) -> socket.socket:
        if self._server is None or self._server.poll() is not None:
            self._forget_server()
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                self._server = subprocess.Popen(
                    [sys.executable, "-I", "-S", LAUNCHER, str(theirs.fileno())],
                    pass_fds=(theirs.fileno(),),
                    cwd="/",
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            except OSError as error:
                ours.close()
                raise ContainmentFailed(f"cannot start the move launcher: {error.strerror}") from None
            finally:
                theirs.close()
            self._socket = ours
        return self._socket

    def _forget_server(self) -> None:
        """Close our end: the server then ends by itself, its moves going on to their end."""
        if self._socket is not None:
            self._socket.close()
        if self._server is not None:
            self._server.wait()
        self._server = self._socket = None

    def close(self) -> None:
        with self._lock:
            self._forget_server()


class SubreaperMove(RunningMove):
    def __init__(self, report: int, orders: int, report_so_far: bytes, supervisor: int):
        self.supervisor = supervisor  # the move's processes are below it, the dead reaped by it
        self._report = report
        self._orders: Optional[int] = orders
        self._report_so_far = report_so_far
        self._lock = threading.Lock()

    def kill(self) -> None:
        with self._lock:
            if self._orders is not None:
                try:
                    os.write(self._orders, b"k")
                except OSError:  # the supervisor is gone: the move is over
                    pass

    def probe(self) -> TreeProbe:
        return TreeProbe(self.supervisor, keeper=True)

    def finish(self) -> MoveEnd:
        try:
            report = self._report_so_far + _read_to_end(self._report)
        except BaseException:  # interrupted: the supervisor ends the move on the order
            self.kill()
            _read_to_end(self._report)
            raise
        finally:
            os.close(self._report)
            with self._lock:
                assert self._orders is not None  # closed here only, as the move ends
                os.close(self._orders)
                self._orders = None
        text = report.decode(errors="replace").strip()
        if text.startswith("failed: "):
            raise ContainmentFailed(f"the move launcher {text}")
        if not text:  # its supervisor killed once started: as our user, the move itself can
            return MoveEnd(-signal.SIGKILL, 0.0, problem="the move killed its launcher")
        exit_code, user, system = text.split()
        return MoveEnd(int(exit_code), float(user) + float(system))


def _read_line(descriptor: int) -> tuple:
    """(the first line read from `descriptor`, without its end, or "" at the end of the
    pipe; the bytes read after it)."""
    data = b""
    while b"\n" not in data:
        chunk = os.read(descriptor, 4096)
        if not chunk:
            return "", b""
        data += chunk
    line, _, rest = data.partition(b"\n")
    return line.decode(errors="replace"), rest


def _close_quietly(descriptor: int) -> None:
    try:
        os.close(descriptor)
    except OSError:  # closed already
        pass


def _read_to_end(descriptor: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.read(descriptor, 4096)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int, kill) -> tuple:
    """os.wait4(pid); interrupted (Ctrl-C), kills the move and still reaps it before
    re-raising."""
    try:
        return os.wait4(pid, 0)
    except BaseException:
        kill()
        os.wait4(pid, 0)
        raise


def _write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


def _remove_cgroup(folder: str) -> bool:
    """Whether it is gone now."""
    try:
        os.rmdir(folder)
    except FileNotFoundError:
        return True
    except OSError:  # still busy: a process the kernel has not let go of yet
        return False
    return True
