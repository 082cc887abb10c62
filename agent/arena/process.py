"""Run one move of a command agent as its own process, in a fresh folder, and measure the
CPU time it used exactly: os.wait4 returns the rusage of that one child (including the
children it waited for), so games running in parallel threads never mix their clocks."""
from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from typing import Optional

OUTPUT_LIMIT = 100_000  # bytes of output.txt read: a 26x26 answer is under 1 kB
STDERR_LINE_LIMIT = 200


class Stopped(Exception):
    """The runner was stopped (Ctrl-C) while or before this move ran."""


@dataclass(frozen=True)
class ProcessRun:
    cpu: float                 # user + system seconds
    exit_code: int             # negative: killed by that signal; 127/126: not found/cannot run
    killed: bool               # by the runner, for running past its time + grace
    output: Optional[str]      # output.txt, None when absent
    stderr_tail: str           # its last non-empty stderr line, for the loss reason


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
        with tempfile.TemporaryDirectory(prefix="fruit-rage-move-") as folder, \
                tempfile.TemporaryFile() as stderr_file:
            with open(os.path.join(folder, "input.txt"), "w", encoding="ascii", newline="\n") as handle:
                handle.write(input_text)
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
            return ProcessRun(cpu=usage.ru_utime + usage.ru_stime,
                              exit_code=process.returncode,
                              killed=killed,
                              output=_read_output(os.path.join(folder, "output.txt")),
                              stderr_tail=_last_line(stderr_file))

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


def _kill_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read_output(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as handle:
            return handle.read(OUTPUT_LIMIT).decode("ascii", errors="replace")
    except OSError:  # absent (or unreadable): no answer
        return None


def _last_line(stderr_file) -> str:
    stderr_file.seek(0)
    lines = stderr_file.read()[-4000:].decode("utf-8", errors="replace").splitlines()
    text = next((line.strip() for line in reversed(lines) if line.strip()), "")
    return text[:STDERR_LINE_LIMIT]
