"""One turn of an in-process player, judged as a referee judges a program: it is charged
the process CPU time its `choose` uses, stopped when it overruns its clock, and loses the
game by raising or by answering with something that is not a legal move.

The charge is time.process_time() around the call, so it is exact only while nothing
else runs in the process: run_match plays one game per process at a time. An overrun is
stopped by interval timers (SIGPROF on CPU time, SIGALRM on wall time for a player that
sleeps or blocks), which Python delivers to the main thread only; from another thread
the turn is charged and judged afterwards but cannot be cut short."""

from __future__ import annotations

import os
import signal
import threading
import time

from agent.arena.processes.stop_signals import stops_the_run


class OutOfTime(BaseException):
    """Raised inside a player's choose() when its clock has run out. A BaseException, so
    that a player's own `except Exception` does not swallow it."""


class _Timers:
    """SIGPROF after `cpu` seconds of process CPU and SIGALRM after `wall` seconds, both
    raising OutOfTime, restored on exit. Does nothing outside the main thread."""

    def __init__(self, cpu: float, wall: float):
        self.cpu, self.wall = cpu, wall
        self.active = threading.current_thread() is threading.main_thread()

    def __enter__(self):
        if self.active:
            self.saved = {
                number: signal.signal(number, _raise_out_of_time) for number in (signal.SIGPROF, signal.SIGALRM)
            }
            signal.setitimer(signal.ITIMER_PROF, self.cpu)
            signal.setitimer(signal.ITIMER_REAL, self.wall)
        return self

    def __exit__(self, *exc):
        # A timer may fire while it is being disarmed: then disarm again. Its verdict is
        # not lost: the CPU charge shows the overrun to the referee.
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


def _raise_out_of_time(signum, frame):
    raise OutOfTime


# Timers fire a little after the clock is gone, so that a move that ends right at its
# limit is charged, not cut; the referee's own check then rules on the charge.
CPU_SLACK = 0.05


def timed_choose(player, board, clock_left: float, grace: float) -> tuple:
    """(what choose returned or the exception it raised, CPU seconds, True when it was
    stopped for overrunning). `grace`: wall seconds a player may block past its clock.
    A KeyboardInterrupt is the player's own unless a stop signal or Ctrl-C raised it."""
    start = time.process_time()
    try:
        with _Timers(clock_left + CPU_SLACK, clock_left + grace):
            answer = player.choose(board, clock_left)
    except OutOfTime:
        return None, time.process_time() - start, True
    except BaseException as error:
        if stops_the_run(error):
            raise
        return error, time.process_time() - start, False  # the player's (sys.exit too): it loses the game
    finally:
        _reopen_closed_standard_descriptors()
    return answer, time.process_time() - start, False


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
