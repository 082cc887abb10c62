"""One turn of an in-process player, judged as a referee judges a program: it is charged
the process CPU time its `choose` uses (the wall time, under a wall clock), stopped the
moment that passes its clock or when the referee's watchdog finds it idle (the rule is
agent.arena.processes.referee_clock's), and loses the game by raising or by answering with
something that is not a legal move.

The charge is time.process_time() around the call, so it is exact only while nothing
else runs in the process: run_match plays one game per process at a time. A player is
stopped by interval timers (SIGPROF on CPU time; SIGALRM on wall time, to look at what
it uses for the watchdog and the wall clock), which Python delivers to the main thread
only; from another thread the turn is charged and judged afterwards but cannot be cut
short. A player stuck in one long C call runs no handler: its process is watched from
outside as well (agent.arena.matches.game_processes)."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Optional

from agent.arena.processes.referee_clock import CPU_CLOCK, MoveWatch, RefereeClock
from agent.arena.processes.stop_signals import stops_the_run
from agent.arena.processes.usage import DemandMeter, Usage, threads_of
from agent.arena.turns import FAULT_TIME


class OutOfTime(BaseException):
    """Raised inside a player's choose() when the referee's clock stops it. A
    BaseException, so that a player's own `except Exception` does not swallow it."""


class _Timers:
    """Arms SIGPROF at the move's CPU limit (under a CPU clock) and SIGALRM to look at what
    the move uses, which raise OutOfTime on a verdict of `watch`; restored on exit. Does
    nothing outside the main thread."""

    def __init__(self, watch: MoveWatch, cpu_start: float):
        self.watch, self.cpu_start = watch, cpu_start
        self.meter = DemandMeter()
        self.active = threading.current_thread() is threading.main_thread()

    def __enter__(self):
        if self.active:
            self.saved = {
                signal.SIGPROF: signal.signal(signal.SIGPROF, self._out_of_cpu),
                signal.SIGALRM: signal.signal(signal.SIGALRM, self._look),
            }
            if self.watch.clock.kind == CPU_CLOCK:
                signal.setitimer(signal.ITIMER_PROF, max(self.watch.time_limit, 1e-6))
            signal.setitimer(signal.ITIMER_REAL, self.watch.next_look(Usage(0.0, 0.0), self.watch.started))
        return self

    def _out_of_cpu(self, signum, frame):
        self.watch.verdict = FAULT_TIME
        raise OutOfTime

    def _look(self, signum, frame):
        usage = Usage(time.process_time() - self.cpu_start, self.meter.look(threads_of([os.getpid()])))
        now = time.monotonic()
        if self.watch.observe(usage, now):
            raise OutOfTime
        signal.setitimer(signal.ITIMER_REAL, self.watch.next_look(usage, now))

    def __exit__(self, *exc):
        # A timer may fire while it is being disarmed: then disarm again. Its verdict is
        # not lost: the charge shows an overrun to the referee.
        while self.active:
            try:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
                for number, handler in self.saved.items():
                    signal.signal(number, handler)
                self.active = False
            except OutOfTime:
                pass
        return False


def timed_choose(player, board, clock_left: float, clock: RefereeClock) -> tuple:
    """(what choose returned or the exception it raised, the seconds charged, the MoveWatch
    that stopped it or None) for `player`'s turn under the rule `clock`. A
    KeyboardInterrupt is the player's own unless a stop signal or Ctrl-C raised it."""
    start, cpu_start = time.monotonic(), time.process_time()
    watch = clock.watch(clock_left, start)
    stopped: Optional[MoveWatch] = None
    try:
        with _Timers(watch, cpu_start):
            answer = player.choose(board, clock_left)
    except OutOfTime:
        answer, stopped = None, watch
    except BaseException as error:
        if stops_the_run(error):
            raise
        answer = error  # the player's (sys.exit too): it loses the game
    finally:
        _reopen_closed_standard_descriptors()
    return answer, clock.charge(time.process_time() - cpu_start, time.monotonic() - start), stopped


def _reopen_closed_standard_descriptors() -> None:
    """/dev/null on whichever of descriptors 0, 1 and 2 the player closed: else the next
    file the referee opens takes that number, and the player's next close or write to
    it (or a program started with it as its stdout) hits the referee's file."""
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: `descriptor`
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)
            os.set_inheritable(descriptor, True)
