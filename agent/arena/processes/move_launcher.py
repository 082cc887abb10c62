"""The launcher of moves where no cgroup can hold them: one supervisor per move, a child
subreaper, so that every process the move orphans becomes its child, whatever session or
group it moved to.

Run once per runner as `python -I -S move_launcher.py SOCKET_FD`: a server that forks a
supervisor for each request the referee sends on that socket (a JSON line: argv, cwd, env,
uid, gid; uid -1 keeps ours) with three descriptors: the move's stderr, a pipe for the
report and a pipe for orders. The supervisor writes "started PID" (its own) on the report
pipe when it is about to start the command. A fork costs a millisecond where starting Python costs
tens. The supervisor starts the command, in a session of its own, and when the command
ends, or an order comes (any byte, or the referee gone), kills every process left, reaps
them all and writes one more line to the report pipe: the command's exit code (negative: the
signal) and the user and system CPU seconds of every process reaped; or, if it could not
supervise the move, "failed: " and why.

Standard library only, imported without `site`."""

import ctypes
import errno
import json
import os
import resource
import select
import signal
import socket
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
REQUEST_LIMIT = 1 << 20  # bytes: the argv and environment of one move
_DEFAULT_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGCHLD)  # as Python found them


def serve(sock: socket.socket) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    while True:
        try:
            message, descriptors, _, _ = socket.recv_fds(sock, REQUEST_LIMIT, 3, socket.MSG_CMSG_CLOEXEC)
        except ConnectionError:
            return 0
        if not message:  # the referee closed the socket, or is gone
            return 0
        if len(descriptors) == 3 and os.fork() == 0:
            sock.close()
            os._exit(_supervise_reporting_failure(libc, json.loads(message), *descriptors))
        for descriptor in descriptors:
            os.close(descriptor)
        _reap_finished()


def _reap_finished() -> None:
    """The supervisors that have ended, so that none stays a zombie for long."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def _supervise_reporting_failure(libc, request: dict, stderr: int, report: int, orders: int) -> int:
    """supervise(); if it fails (the move's folder gone, say), "failed: why" on the report."""
    try:
        return supervise(libc, request, stderr, report, orders)
    except BaseException as error:  # noqa: BLE001 - a forked child must never return to serve()
        try:
            os.write(report, f"failed: {type(error).__name__}: {error}\n".encode(errors="replace"))
        except OSError:
            pass
        return 1


def supervise(libc, request: dict, stderr: int, report: int, orders: int) -> int:
    os.setsid()  # apart from the server and the other moves: a move's kill(0) hits itself
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    signal.set_wakeup_fd(wake_write)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDWR)
    for target, source in ((0, null), (1, null), (2, stderr)):
        os.dup2(source, target)
    command = request["argv"]
    os.write(report, f"started {os.getpid()}\n".encode())
    try:
        pid = spawn(command, request["uid"], request["gid"])
        exit_code = _wait_for_main(pid, orders, wake_read)
    except OSError as error:  # exit as a shell would: 127 not found, 126 found but not runnable
        os.write(2, f"cannot run {command[0]}: {error.strerror}\n".encode(errors="replace"))
        exit_code = 127 if error.errno == errno.ENOENT else 126
    kill_and_reap_all(os.getpid())
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        os.write(report, f"{exit_code} {usage.ru_utime!r} {usage.ru_stime!r}\n".encode())
    except BrokenPipeError:  # the referee is gone
        return 1
    return 0


def spawn(command: list, uid: int, gid: int) -> int:
    """COMMAND's pid, in a session of its own; OSError when it cannot run. posix_spawn
    copies no page of ours (the move would pay for the copies it touched); running as
    another user needs a fork, to change ids before the exec."""
    if uid < 0:
        return os.posix_spawnp(command[0], command, os.environ, setsid=True, setsigdef=_DEFAULT_SIGNALS, setsigmask=())
    errors_read, errors_write = os.pipe()  # close-on-exec: left empty when the exec works
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
    """In the forked child: a session and ids of its own, then COMMAND; on failure, say why
    on `errors`."""
    try:
        for number in _DEFAULT_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        os.setsid()
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        os.execvp(command[0], command)
    except OSError as error:
        os.write(errors, f"{error.errno} {error.strerror}".encode())
    finally:
        os._exit(127)


def _wait_for_main(pid: int, orders: int, wake: int) -> int:
    """Reap whatever exits until `pid` does, and return its exit code. An order (a byte, or
    the end of the pipe when the referee is gone) kills it first. SIGCHLD wakes the wait
    through `wake`."""
    watched = [orders, wake]
    while True:
        while True:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if info is None:
                break
            if info.si_pid == pid:
                return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
            os.waitpid(info.si_pid, 0)
        ready, _, _ = select.select(watched, [], [])
        if orders in ready:
            os.kill(pid, signal.SIGKILL)  # still unreaped: the pid is still the move's
            watched.remove(orders)
        if wake in ready:
            while True:
                try:
                    if not os.read(wake, 512):
                        break
                except BlockingIOError:
                    break


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
        except OSError:  # gone meanwhile
            continue
        # "pid (name) state ppid ...": the name may hold spaces and parentheses
        if int(stat[stat.rindex(b")") + 2 :].split()[1]) == pid:
            found.append(int(entry))
    return found


def children_of(pid: int) -> list:
    try:
        return children_listed(pid)
    except FileNotFoundError:  # a kernel without CONFIG_PROC_CHILDREN
        return children_scanned(pid)


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
        if pid == 0:  # a child came after the list was read
            time.sleep(0.001)


if __name__ == "__main__":
    sys.exit(serve(socket.socket(fileno=int(sys.argv[1]))))
