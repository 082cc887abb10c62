"""The launcher of one move where no cgroup can hold it: a child subreaper.

Run as `python -I -S move_launcher.py REPORT_FD REFEREE_PID UID GID -- COMMAND...` (UID and
GID -1: keep the referee's). It starts COMMAND as its child and, being a subreaper, becomes
the parent of every process the move orphans, whatever session or group it moved to. When
COMMAND ends (or SIGTERM asks, or the referee dies) it kills every process left, reaps them
all, and writes one line to REPORT_FD: COMMAND's exit code (negative: the signal) and the
user and system CPU seconds of every process reaped, COMMAND's descendants included.

Standard library only, imported without `site`: it is started once per move."""
import ctypes
import errno
import os
import resource
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36

# COMMAND's pid, and whether it has exited: from then on that pid may be another process's.
_main = {"pid": 0, "ended": False}


def children_listed(pid: int) -> list:
    """The children of single-threaded process `pid`, from /proc/PID/task/PID/children."""
    with open(f"/proc/{pid}/task/{pid}/children") as handle:
        return [int(word) for word in handle.read().split()]


def children_scanned(pid: int) -> list:
    """The same from every process's parent in /proc/*/stat: slow, needs no kernel option."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:   # gone meanwhile
            continue
        # "pid (name) state ppid ...": the name may hold spaces and parentheses
        if int(stat[stat.rindex(b")") + 2:].split()[1]) == pid:
            found.append(int(entry))
    return found


def children_of(pid: int) -> list:
    try:
        return children_listed(pid)
    except FileNotFoundError:   # a kernel without CONFIG_PROC_CHILDREN
        return children_scanned(pid)


def _end_now(signum, frame):
    if not _main["ended"]:
        os.kill(_main["pid"], signal.SIGKILL)


_DEFAULT_SIGNALS = (signal.SIGTERM, signal.SIGPIPE, signal.SIGXFSZ)   # as Python found them


def spawn(command: list, uid: int, gid: int) -> int:
    """COMMAND's pid; OSError when it cannot run. posix_spawn copies no page of ours (the
    move would pay for the copies it touched); running as another user needs a fork, to
    change ids before the exec."""
    if uid < 0:
        return os.posix_spawnp(command[0], command, os.environ, setsigdef=_DEFAULT_SIGNALS, setsigmask=())
    errors_read, errors_write = os.pipe()   # close-on-exec: left empty when the exec works
    pid = os.fork()
    if pid == 0:
        _become(command, uid, gid, errors_write)
    os.close(errors_write)
    with open(errors_read, "rb") as errors:
        failure = errors.read()
    if not failure:
        return pid
    os.waitpid(pid, 0)
    number, _, strerror = failure.decode().partition(" ")
    raise OSError(int(number), strerror)


def _become(command: list, uid: int, gid: int, errors: int) -> None:
    """In the forked child: take the ids, then be COMMAND; on failure, say why on `errors`."""
    try:
        for number in _DEFAULT_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        os.execvp(command[0], command)
    except OSError as error:
        os.write(errors, f"{error.errno} {error.strerror}".encode())
    finally:
        os._exit(127)


def _wait_for_main(pid: int) -> int:
    """Reap whatever exits until `pid` does; return its exit code, leaving it a zombie so
    that its pid stays unused while _end_now may still signal it."""
    while True:
        info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)
        if info.si_pid == pid:
            return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
        os.waitpid(info.si_pid, 0)


def kill_and_reap_all(me: int) -> None:
    """SIGKILL every child until none is left. A dying process's children become ours (we
    are their subreaper), so the move's whole tree comes down level by level."""
    while True:
        children = children_of(me)
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            pid, _, _ = os.wait4(-1, 0 if children else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:   # a child came after the list was read
            time.sleep(0.001)


def main(argv: list) -> int:
    report_fd, referee, uid, gid = (int(word) for word in argv[1:5])
    command = argv[6:]
    os.set_inheritable(report_fd, False)
    libc = ctypes.CDLL(None, use_errno=True)
    signal.signal(signal.SIGTERM, _end_now)
    if (libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0
            or libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0):
        os.write(2, f"move launcher: prctl: {os.strerror(ctypes.get_errno())}\n".encode())
        return 1
    if os.getppid() != referee:   # the referee died before PDEATHSIG was set
        return 1
    # blocked while _main has no pid: a SIGTERM then would kill(0), our own group
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        _main["pid"] = spawn(command, uid, gid)
    except OSError as error:   # exit as a shell would: 127 not found, 126 found but not runnable
        os.write(2, f"cannot run {command[0]}: {error.strerror}\n".encode(errors="replace"))
        _main["ended"] = True
        exit_code = 127 if error.errno == errno.ENOENT else 126
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    if not _main["ended"]:
        exit_code = _wait_for_main(_main["pid"])
        _main["ended"] = True
    kill_and_reap_all(os.getpid())
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        os.write(report_fd, f"{exit_code} {usage.ru_utime!r} {usage.ru_stime!r}\n".encode())
    except BrokenPipeError:   # the referee is gone
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
