"""Run one move of a command agent as its own process, in a fresh folder, and measure the
CPU time it used exactly: os.wait4 returns the rusage of that one child (including the
children it waited for), so games running in parallel threads never mix their clocks."""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Optional

OUTPUT_LIMIT = 100_000  # bytes of output.txt read: a 26x26 answer is under 1 kB
STDERR_LINE_LIMIT = 200
STDERR_TAIL = 4000      # bytes read from the end of a move's stderr, however much it wrote


class Stopped(Exception):
    """The runner was stopped (Ctrl-C) while or before this move ran."""


class SetupFailed(Exception):
    """The referee could not prepare a move (a full disk, a temporary folder gone): no
    agent's fault, so no game can go on."""


@dataclass(frozen=True)
class ProcessRun:
    cpu: float                 # user + system seconds
    exit_code: int             # negative: killed by that signal; 127/126: not found/cannot run
    killed: bool               # by the runner, for running past its time + grace
    output: Optional[str]      # output.txt, None when absent or not a regular file
    stderr_tail: str           # its last non-empty stderr line, for the loss reason
    output_problem: str = "no output.txt"   # why output is None (when it is)


class MoveRunner:
    """Starts move processes, kills any still running `grace` seconds (wall clock) after
    its remaining time, and can stop every running move at once."""

    def __init__(self, grace: float = 10.0):
        self.grace = grace
        self._lock = threading.Lock()
        self._running = set()  # process group ids
        self._stopped = False

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            running = list(self._running)
        for group in running:
            _kill_group(group)

    def run(self, command, shell: bool, input_text: str, time_left: float,
            env: Optional[dict] = None) -> ProcessRun:
        with _move_folder() as folder, tempfile.TemporaryFile() as stderr_file:
            _write_input(folder, input_text)
            with self._lock:
                if self._stopped:
                    raise Stopped
                try:
                    process = subprocess.Popen(command, shell=shell, cwd=folder, env=env,
                                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                               stderr=stderr_file, start_new_session=True)
                except OSError as error:
                    # exit codes as a shell's: 127 not found, 126 found but not runnable
                    code = 127 if isinstance(error, FileNotFoundError) else 126
                    return ProcessRun(0.0, code, False, None,
                                      f"cannot run {command[0] if not shell else command}: {error.strerror}")
                self._running.add(process.pid)
            usage, killed = self._wait(process, time_left + self.grace)
            if self._stopped:
                raise Stopped
            output, output_problem = _read_output(os.path.join(folder, "output.txt"))
            return ProcessRun(cpu=usage.ru_utime + usage.ru_stime,
                              exit_code=process.returncode,
                              killed=killed,
                              output=output,
                              stderr_tail=_last_line(stderr_file),
                              output_problem=output_problem)

    def _wait(self, process, wall_limit: float) -> tuple:
        timer_fired = threading.Event()

        def kill_late_process():
            timer_fired.set()
            _kill_group(process.pid)

        timer = threading.Timer(wall_limit, kill_late_process)
        timer.daemon = True
        timer.start()
        reaped = None
        try:
            reaped = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
            _kill_group(process.pid)  # leftovers it spawned; all of it when interrupted
            if reaped is None:
                os.waitpid(process.pid, 0)
                process.returncode = -signal.SIGKILL
            with self._lock:
                self._running.discard(process.pid)
        _, status, usage = reaped
        process.returncode = os.waitstatus_to_exitcode(status)
        killed = timer_fired.is_set() and process.returncode == -signal.SIGKILL
        return usage, killed


# Signals that end a session as Ctrl-C does: `timeout` and batch systems send SIGTERM, a
# closed terminal or a dropped ssh connection SIGHUP. Left to their default action they
# would end us at once, leaving the move running (it has a session of its own) and its
# folder behind.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def stop_signals_interrupt():
    """Within: the STOP_SIGNALS raise KeyboardInterrupt, so that the moves running are
    killed and their folders removed. A signal ignored (nohup) stays ignored."""
    previous = {}
    for number in STOP_SIGNALS:
        if signal.getsignal(number) is not signal.SIG_IGN:
            previous[number] = signal.signal(number, _raise_interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


@contextlib.contextmanager
def _move_folder():
    """A fresh folder for one move, removed afterwards. A process the move left behind (one
    that left its process group, or one not yet dead of the kill) may still be writing in
    it: then removal is tried again for a moment and at worst given up, rather than ending
    the match with the error."""
    try:
        folder = tempfile.TemporaryDirectory(prefix="fruit-rage-move-")
    except OSError as error:   # no filename: no usable temporary folder at all
        where = f" in {os.path.dirname(error.filename)}" if error.filename else ""
        raise SetupFailed(f"cannot make a folder for a move{where}: {error.strerror}") from None
    try:
        yield folder.name
    finally:
        try:
            folder.cleanup()
        except OSError:
            for _ in range(10):
                time.sleep(0.05)
                shutil.rmtree(folder.name, ignore_errors=True)
                if not os.path.lexists(folder.name):
                    break


def _write_input(folder: str, input_text: str) -> None:
    try:
        with open(os.path.join(folder, "input.txt"), "w", encoding="ascii", newline="\n") as handle:
            handle.write(input_text)
    except OSError as error:
        raise SetupFailed(f"cannot write a move's input.txt in {folder}: {error.strerror}") from None


def _kill_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read_output(path: str) -> tuple:
    """(output.txt's text, "") or (None, why there is none). Only a regular file is read:
    opening a FIFO the agent left would wait for a writer forever, and a link to a device
    (a terminal, /dev/zero) is no answer either. O_NONBLOCK keeps the open itself from
    waiting."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:  # absent (or unreadable): no answer
        return None, "no output.txt"
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None, "output.txt is not a regular file"
        try:
            return handle.read(OUTPUT_LIMIT).decode("ascii", errors="replace"), ""
        except OSError as error:
            return None, f"output.txt cannot be read: {error.strerror}"


def _last_line(stderr_file) -> str:
    size = stderr_file.seek(0, os.SEEK_END)
    stderr_file.seek(max(0, size - STDERR_TAIL))
    lines = stderr_file.read().decode("utf-8", errors="replace").splitlines()
    text = next((line.strip() for line in reversed(lines) if line.strip()), "")
    return text[:STDERR_LINE_LIMIT]
