"""The games of a review (`fruit-rage analyse`, `audit`) run as a match's are, one game a
task: in line, in `jobs` worker processes, or on a Dask cluster; each game's result handed
on in the order of the records whatever order they finish in, so that the output is the
same for any number of jobs. Each worker is held to the watchdog's idle rule: one that asks
for no CPU for longer than the grace (stopped, or blocked) is stopped, and its game named
as not reviewed."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional

from agent.arena.processes.referee_clock import COMPETITION_CLOCK, MoveWatch


@dataclass(frozen=True)
class NotReviewed:
    """A game's result when its review could not be done: its worker process died, and
    died again when the game was reviewed once more, or was stopped, idle."""

    reason: str


def review_games(
    function: Callable,
    records: list,
    arguments: tuple,
    finished: Callable,
    *,
    jobs: int = 1,
    cluster: Optional[str] = None,
) -> None:
    """`function(record, *arguments)` for every record (a module-level function: it may
    run in another process or on another machine), handing `finished(record, result)`
    each result in the records' order, as soon as those before it are in; a NotReviewed
    as the result of a game whose worker died twice or idled past the grace (a review has
    no clock: it is never stopped for the CPU it uses). Ctrl-C stops the games running and
    raises KeyboardInterrupt; on a cluster, a ClusterError says why it cannot run them."""
    if cluster is None and jobs <= 1:
        for record in records:
            finished(record, function(record, *arguments))
        return
    # a task is named by its place in the review: a file may hold a game number twice
    calls = ((place, function, (record, *arguments)) for place, record in enumerate(records, start=1))
    arrived = {}
    handed = [0]  # how many results finished has had

    def in_order(place: int, result) -> bool:
        arrived[place] = result
        while handed[0] + 1 in arrived:
            handed[0] += 1
            finished(records[handed[0] - 1], arrived.pop(handed[0]))
        return True

    if cluster is not None:
        from agent.arena.matches.cluster import run_on_cluster

        run_on_cluster(cluster, calls, in_order)
    else:
        from agent.arena.processes.workers import run_tasks

        run_tasks(
            calls,
            jobs,
            _review_one,
            lambda call, result: in_order(call[0], result),
            _not_reviewed,
            watching=_watched_review,
        )


def _review_one(call: tuple, note):
    """In a worker: one game's review."""
    _, function, arguments = call
    return function(*arguments)


def _watched_review(call: tuple, notes: list) -> MoveWatch:
    return COMPETITION_CLOCK.idle_watch(time.monotonic())


def _not_reviewed(call: tuple, end, notes: list) -> NotReviewed:
    if end.verdict is not None:
        return NotReviewed(f"its worker was {end.reason}")
    return NotReviewed(f"worker died twice ({end.how})")
