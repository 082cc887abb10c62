"""The referee's clock: what a move is charged, when it is stopped, and the watchdog. Every
way a game's moves run (a program per move, agent.arena.processes.move_runner; a Python player
in its game's process, agent.arena.inprocess; that process watched from outside, in a
match's workers or on a cluster) applies this one rule.

- A move is charged its CPU time, user + system, of every process it started, start-up
  included (`--clock wall`: the wall time from its start to its answer, a person's clock).
- It loses on time when its charge passes the clock it had, and it is stopped right then:
  the referee watches the charge while the move runs.
- The watchdog ends a move that does not use its CPU: asleep, blocked on something that
  never comes, or stopped (SIGSTOP). It counts the wall time in which no thread of the move
  either ran or waited in a run queue for a processor; a move that a loaded machine keeps
  waiting is always waiting, so only a move that asks for no CPU is idle. One idle for
  longer than its clock and the grace is stopped, a fault of its own ("stalled"), shown
  apart from a time loss. On a quiet machine that is the old rule: a move that sleeps is
  stopped `grace` seconds after its clock ran out.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Optional

from agent.arena.processes.usage import Usage

# The two verdicts on a move the referee stops, as its record names them (agent.arena.turns)
FAULT_TIME = "time"  # its charge passed its clock
FAULT_STALLED = "stalled"  # the watchdog found it idle

CPU_CLOCK, WALL_CLOCK = "cpu", "wall"  # what a clock charges: the move's CPU, or the wall time it takes
CLOCK_KINDS = (CPU_CLOCK, WALL_CLOCK)
DEFAULT_GRACE = 10.0  # seconds a move may idle past its clock before the watchdog stops it

# A watch looks again when the move could have used what is left of its clock, with every
# processor: never sooner than MIN_LOOK (its CPU is a look, not a bill: the charge is
# read when the move ends), never later than MAX_LOOK (for the watchdog's count).
MIN_LOOK = 0.005
MAX_LOOK = 0.5
PROCESSORS = os.cpu_count() or 1

# A player in its game's process stops itself by its own timers (agent.arena.inprocess);
# watched from outside as well, for a player stuck in one long C call or with its timers
# disarmed, it is stopped this many seconds (CPU, idle) after them.
BACKSTOP_SLACK = 1.0


@dataclass(frozen=True)
class RefereeClock:
    """The clock rule of a match: `kind` CPU_CLOCK or WALL_CLOCK, and `grace`, the seconds a
    move may idle past its clock before the watchdog stops it."""

    kind: str = CPU_CLOCK
    grace: float = DEFAULT_GRACE

    def __post_init__(self) -> None:
        if self.kind not in CLOCK_KINDS:
            raise ValueError(f"no clock {self.kind!r}: {CPU_CLOCK} or {WALL_CLOCK}")
        if not 0 < self.grace < float("inf"):
            raise ValueError(f"the grace must be a number of seconds above 0, not {self.grace!r}")

    def charge(self, cpu: float, wall: float) -> float:
        """What a move that took `cpu` CPU seconds in `wall` seconds is charged."""
        return wall if self.kind == WALL_CLOCK else cpu

    def watch(self, clock_left: float, started: float, slack: float = 0.0) -> MoveWatch:
        """A watch on a move begun at `started` (time.monotonic) with `clock_left`; `slack`:
        seconds more of each limit (a backstop behind the move's own timers)."""
        return MoveWatch(self, clock_left, started, slack)

    def idle_watch(self, started: float) -> MoveWatch:
        """A watch on work that has no clock (a review's game, a hint on the page), begun at
        `started`: never out of time, stopped once idle past the grace."""
        return MoveWatch(self, math.inf, started)


COMPETITION_CLOCK = RefereeClock()  # the competition's rule: CPU time, DEFAULT_GRACE

# A worker told to stop (SIGTERM) ends its task by its own handler, which cannot run while
# it is inside one long C call, has the signal blocked or is stopped: it is held to the rule
# as a move with no clock left, BACKSTOP_SLACK behind, that may idle for STOP_GRACE, and
# killed once it has used BACKSTOP_SLACK of CPU since, or idled past that.
STOP_GRACE = 10.0


def stop_watch(started: float) -> MoveWatch:
    """The watch on a worker told to stop at `started` (time.monotonic)."""
    return RefereeClock(grace=STOP_GRACE).watch(0.0, started, BACKSTOP_SLACK)


class MoveWatch:
    """One move watched against its clock: told what the move has used at each look
    (observe), it says when the move must be stopped and why."""

    def __init__(self, clock: RefereeClock, clock_left: float, started: float, slack: float = 0.0):
        self.clock = clock
        self.clock_left = max(clock_left, 0.0)
        self.time_limit = self.clock_left + slack
        # work with no clock (math.inf, idle_watch) may idle for the grace alone
        self.idle_limit = (self.clock_left if math.isfinite(self.clock_left) else 0.0) + clock.grace + slack
        self.started = started
        self.idle = 0.0  # wall seconds in which the move neither ran nor waited to run
        self.verdict: Optional[str] = None  # FAULT_TIME or FAULT_STALLED, once given
        self._last = Usage(0.0, 0.0)
        self._last_look = started

    def observe(self, usage: Usage, now: float) -> Optional[str]:
        """FAULT_TIME or FAULT_STALLED when the move, having used `usage` by `now`
        (time.monotonic), must be stopped; None while it may go on."""
        gained = max(usage.demand - self._last.demand, usage.cpu - self._last.cpu, 0.0)
        self.idle += max(now - self._last_look - gained, 0.0)
        self._last, self._last_look = usage, now
        if self.charged(usage, now) >= self.time_limit:
            self.verdict = FAULT_TIME
        elif self.idle > self.idle_limit:
            self.verdict = FAULT_STALLED
        return self.verdict

    def charged(self, usage: Usage, now: float) -> float:
        return self.clock.charge(usage.cpu, now - self.started)

    def next_look(self, usage: Usage, now: float) -> float:
        """Seconds until the next look: when the move could have used the rest of its clock."""
        left = self.time_limit - self.charged(usage, now)
        if self.clock.kind == CPU_CLOCK:
            left /= PROCESSORS
        return min(max(left, MIN_LOOK), MAX_LOOK)

    def reason(self, charged: Optional[float] = None) -> str:
        """What the verdict says, for the record; `charged`: the move's charge once it ended
        (the last look's, when None)."""
        cpu, wall = self._last.cpu, self._last_look - self.started
        if charged is not None:
            cpu, wall = (cpu, charged) if self.clock.kind == WALL_CLOCK else (charged, wall)
        if self.verdict == FAULT_STALLED:
            return (
                f"stopped: used {cpu:.1f} s of CPU in {wall:.1f} s of wall time, neither running nor "
                f"waiting to run for {self.idle:.1f} s of it (asleep, blocked or stopped)"
            )
        if self.clock.kind == WALL_CLOCK:
            return f"ran out of time: stopped after {wall:.3f} s of wall time, its clock {seconds(self.clock_left)}"
        return f"ran out of time: stopped at {cpu:.3f} s of CPU, its clock {seconds(self.clock_left)}"


def seconds(value: float) -> str:
    """A clock in seconds, to the millisecond, or in two figures below one."""
    return f"{value:.3f} s" if value >= 0.001 else f"{value:.1e} s"
