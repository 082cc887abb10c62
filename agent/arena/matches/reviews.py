"""The games of a review (`fruit-rage analyse`, `audit`) run as a match's are, one game a
task: in line, in `jobs` worker processes, or on a Dask cluster; each game's result handed
on in the order of the records whatever order they finish in, so that the output is the
same for any number of jobs."""

from __future__ import annotations

from typing import Callable, Optional


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
    each result in the records' order, as soon as those before it are in. Ctrl-C stops
    the games running and raises KeyboardInterrupt; on a cluster, a ClusterError says
    why it cannot run them."""
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
        from agent.arena.matches.process_pool import run_in_processes

        run_in_processes(calls, jobs, in_order)
