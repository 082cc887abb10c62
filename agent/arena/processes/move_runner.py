"""Run one move of a command agent as its own processes, in a fresh folder, and charge it
the CPU time of every process it started: a containment (containment.py) holds them all,
however they fork, orphan or leave their session, and kills them all when the move ends, so
that games running in parallel threads never mix their clocks and no move outlives itself.
While it runs, the referee's clock (agent.arena.processes.referee_clock) watches what it uses and
stops it the moment its charge passes its clock, or when its watchdog finds it idle."""

from __future__ import annotations

import os
import signal
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Optional

from agent.arena.processes.containment import ContainmentFailed, RunningMove, Start, pick_containment
from agent.arena.processes.leftovers import watch_this_process
from agent.arena.processes.move_folders import SHARED_SIDE, FolderFailed, MatchFolders
from agent.arena.processes.referee_clock import COMPETITION_CLOCK, RefereeClock
from agent.arena.processes.side_users import SideUsers
from agent.arena.processes.stop_signals import raise_lost_stop

# Bytes read from the end of a move's stderr, however much it wrote: they bound its last
# line, which is kept whole (the error a program prints comes last, and cut it says less).
STDERR_TAIL = 4000


class Stopped(Exception):
    """The runner was stopped (Ctrl-C) while or before this move ran."""


class SetupFailed(Exception):
    """The referee could not prepare a move (a full disk, a temporary folder gone): no
    agent's fault, so no game can go on."""


@dataclass(frozen=True)
class ProcessRun:
    cpu: float  # user + system seconds, of every process the move started
    wall: float  # seconds from its start to its end
    exit_code: int  # negative: killed by that signal; 127/126: not found/cannot run
    output: Optional[str]  # output.txt, None when absent or not a regular file
    stderr_tail: str  # its last non-empty stderr line, for the loss reason
    output_problem: str = "no output.txt"  # why output is None (when it is)
    stopped: Optional[str] = None  # the fault it was stopped for (FAULT_TIME, FAULT_STALLED)
    stop_reason: str = ""  # and what the referee's clock says of it


class MoveRunner:
    """Starts moves, stops each by the referee's `clock` (RefereeClock: when its charge
    passes its time, or its watchdog finds it idle), and can stop every running move at
    once.

    Each side (run's `side`, e.g. "A") has a private folder under one folder per runner (a
    match), in which each move gets a fresh folder. `isolate` (root only) runs each side as
    a user of its own, so that no move can reach the other side's folder, processes or
    files. `containment`: "cgroup", "subreaper", or None to pick what works here (the
    chosen one's name is self.containment.name). close() removes the match folder."""

    def __init__(
        self, clock: RefereeClock = COMPETITION_CLOCK, isolate: bool = False, containment: Optional[str] = None
    ):
        if isolate and os.geteuid() != 0:
            raise ValueError("isolating the sides runs each as a user of its own, which needs root")
        self.clock = clock
        self.isolate = isolate
        self.containment = pick_containment(containment)
        self._users = SideUsers() if isolate else None
        self._folders = MatchFolders(shared_with_others=isolate)
        weakref.finalize(self, self._folders.remove)  # close() forgotten, or never reached
        weakref.finalize(self, self.containment.close)
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)  # notified as each run() ends
        self._running: set[RunningMove] = set()
        self._active = 0  # calls of run() under way
        self._stopped = False

    @property
    def match_folder(self) -> Optional[str]:
        """Where the sides' folders are, once a move has run."""
        return self._folders.path

    def close(self) -> None:
        """Remove the match folder once the moves under way have ended (stop() ends them at
        once): until then each is removing its own folder in it, through its side's."""
        with self._idle:
            self._idle.wait_for(lambda: self._active == 0)
        self.containment.close()
        self._folders.remove()

    def __enter__(self) -> MoveRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            running = list(self._running)
        for move in running:
            move.kill()

    def run(
        self,
        command,
        shell: bool,
        input_text: str,
        time_left: float,
        env: Optional[dict] = None,
        side: Optional[str] = None,
    ) -> ProcessRun:
        raise_lost_stop()
        with self._lock:  # counted where close() waits: once stopped, no run makes the folders again
            if self._stopped:
                raise Stopped
            self._active += 1
        try:
            return self._run(command, shell, input_text, time_left, env, side)
        finally:
            with self._idle:
                self._active -= 1
                self._idle.notify_all()

    def _run(self, command, shell: bool, input_text: str, time_left: float, env, side) -> ProcessRun:
        side = SHARED_SIDE if side is None else side
        user = self._users.of(side) if self._users else None
        watch_this_process()  # from the first move on, its folders and cgroups go with this process
        try:
            folder = self._folders.new_move(side, user, input_text)
            try:
                stderr_file = self._folders.stderr_file()
            except BaseException:
                folder.remove()
                raise
        except FolderFailed as error:
            raise SetupFailed(str(error)) from None
        with folder, stderr_file:
            argv = ["/bin/sh", "-c", command] if shell else list(command)
            if user is not None:  # its home and temporary files in its own folder
                side_folder = self._folders.side_folder(side)[0]
                env = {**(os.environ if env is None else env), "HOME": side_folder, "TMPDIR": side_folder}
            if self._stopped:
                raise Stopped
            try:  # not under the lock: the moves of parallel games start at once
                started = time.monotonic()
                move = self.containment.start(Start(argv, folder.path, env, stderr_file, user))
            except ContainmentFailed as error:
                raise SetupFailed(str(error)) from None
            with self._lock:
                self._running.add(move)
                stopped_meanwhile = self._stopped
            if stopped_meanwhile:
                move.kill()
            try:
                end, watch = self._finish(move, self.clock.watch(time_left, started))
                wall = time.monotonic() - started
            except ContainmentFailed as error:
                raise SetupFailed(str(error)) from None
            finally:
                with self._lock:
                    self._running.discard(move)
            if self._stopped:
                raise Stopped
            output, output_problem = (None, end.problem) if end.problem else folder.read_output()
            stopped = watch.verdict if watch.verdict and end.exit_code == -signal.SIGKILL else None
            return ProcessRun(
                cpu=end.cpu,
                wall=wall,
                exit_code=end.exit_code,
                output=output,
                stderr_tail=_last_line(stderr_file),
                output_problem=output_problem,
                stopped=stopped,
                stop_reason=watch.reason(self.clock.charge(end.cpu, wall)) if stopped else "",
            )

    @staticmethod
    def _finish(move, watch) -> tuple:
        """(how the move ended, its watch): the watch looks at it from a thread of its own
        while it runs, and kills it on a verdict."""
        ended = threading.Event()

        def look_until_ended() -> None:
            probe = move.probe()
            wait = 0.0
            while not ended.wait(wait):
                usage, now = probe.usage(), time.monotonic()
                if watch.observe(usage, now):
                    move.kill()
                    return
                wait = watch.next_look(usage, now)

        looker = threading.Thread(target=look_until_ended, daemon=True)
        looker.start()
        try:
            end = move.finish()
        finally:
            ended.set()
        looker.join()
        return end, watch


def _last_line(stderr_file) -> str:
    size = stderr_file.seek(0, os.SEEK_END)
    stderr_file.seek(max(0, size - STDERR_TAIL))
    lines = stderr_file.read().decode("utf-8", errors="replace").splitlines()
    return next((line.strip() for line in reversed(lines) if line.strip()), "")
