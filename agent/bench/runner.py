"""Searching a benchmark set: each position through the public `agent.search`, its value
checked against the file's, its nodes and process CPU counted.

mode exact: `search(board, Limit(depth=<fruit left>), evaluation="none",
core_options={"reduction": 0})`, whose value must be exact; mode depth D: the same with
Limit(depth=D), the plain depth-D value (horizon worth 0, no reductions). Without a time
limit both searches are the same on any machine, and so are their node counts."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Optional

from agent.bench.positions import BenchSet


@dataclass(frozen=True)
class PositionResult:
    number: int  # counted from 1 in its set
    value: int  # what the search found
    expected: int  # what the file says
    depth: int  # the deepest depth the search completed
    exact: bool  # the search reached the end of the game
    nodes: int
    cpu_s: float  # process CPU of the search
    finished: bool  # searched as the set asks (to the end, or to its depth) within the time limit


@dataclass(frozen=True)
class Failure:
    set_name: str
    number: int  # the position, counted from 1 in its set
    reason: str

    def __str__(self) -> str:
        return f"{self.set_name} position {self.number}: {self.reason}"


@dataclass(frozen=True)
class SetResult:
    bench_set: BenchSet
    positions: tuple  # of PositionResult
    time_limit: Optional[float]

    @property
    def nodes(self) -> int:
        return sum(result.nodes for result in self.positions)

    @property
    def cpu_s(self) -> float:
        return sum(result.cpu_s for result in self.positions)

    @property
    def nodes_per_s(self) -> Optional[float]:
        return self.nodes / self.cpu_s if self.cpu_s > 0 else None

    @property
    def ratio(self) -> Optional[float]:
        """Our CPU over the reference's for the set: 2.0 is twice as slow; None when there
        is none (ratio_note says why)."""
        reference = self.bench_set.reference_cpu_s_total
        return None if self.ratio_note or reference is None else self.cpu_s / reference

    @property
    def ratio_note(self) -> str:
        """Why the set has no ratio to the reference, or "" when it has one."""
        reference = self.bench_set.reference_cpu_s_total
        if reference is None:
            return "the positions file gives no reference time"
        if not all(result.finished for result in self.positions):
            # a search cut off by the time limit did less work than the reference's
            return "a search did not finish: its CPU is not the whole search's"
        if not reference or not math.isfinite(self.cpu_s / reference):
            return f"the reference time, {reference:g} s, is too small to divide by"
        return ""

    @property
    def failures(self) -> list:
        """A Failure for every position not searched as the set asks or whose value is not the file's."""
        found = []
        for result in self.positions:
            if not result.finished:
                within = f" within {self.time_limit:g} s" if self.time_limit else ""
                goal = "solved" if self.bench_set.mode == "exact" else f"searched to depth {self.bench_set.depth}"
                reason = f"not {goal}{within} (depth {result.depth} completed)"
                found.append(Failure(self.bench_set.name, result.number, reason))
            elif result.value != result.expected:
                found.append(
                    Failure(
                        self.bench_set.name,
                        result.number,
                        f"the search's value is {result.value}, the file's {result.expected}",
                    )
                )
        return found


def run_set(
    bench_set: BenchSet,
    time_limit: Optional[float] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> SetResult:
    """Every position of `bench_set` searched as it says; `time_limit`: CPU seconds a
    position's search may take (None: no limit; a timed search sizes its table to the
    time and may stop early, so its nodes are not those of an untimed one);
    `progress(done, total)` after each position."""
    from agent.board import Board
    from agent.engine import Limit, search

    results = []
    for number, position in enumerate(bench_set.positions, 1):
        board = Board(position.grid)
        depth = board.fruit if bench_set.mode == "exact" else bench_set.depth
        assert depth is not None  # a set of mode depth names its depth (positions.py checks it)
        start = time.process_time()
        found = search(board, Limit(depth=depth, cpu=time_limit), evaluation="none", core_options={"reduction": 0})
        cpu_s = time.process_time() - start
        # a search cut off by the clock may end on a partial iteration: its value is no depth's
        completed = max((iteration.depth for iteration in found.iterations if iteration.completed), default=0)
        finished = found.exact or (bench_set.mode == "depth" and completed >= depth)
        results.append(
            PositionResult(number, found.value, position.value, completed, found.exact, found.nodes, cpu_s, finished)
        )
        if progress:
            progress(number, len(bench_set.positions))
    return SetResult(bench_set, tuple(results), time_limit)
