"""The cluster's overhead: one 40-game paired match of in-process players, played locally
by two worker processes (--jobs 2) and on a LocalCluster of two one-thread workers on
127.0.0.1, twice each in the order local, cluster, cluster, local (so that a change in
the machine's load weighs on both alike; the cluster is up only for its own two).
    python -m pytest tests/benchmarks/test_bench_cluster.py -s
Printed for each: games a minute; the CPU a game of this process and all its
descendants (the cluster's scheduler, workers and game processes, or the local pool)
and the part of it charged to the players; then the cluster's extra CPU a game beyond
the players' over the local CPU a game. A busy machine does not blur that figure as it
does the wall time, where the game processes, each in a session of its own, get a
bigger share of a machine shared with other sessions than the local pool does."""

import contextlib
import time

import psutil
from distributed import LocalCluster

from agent.arena.matches.match import MatchSettings, run_match
from agent.arena.player_specs import PlayerSpec

SETTINGS = MatchSettings(games=40, size=8, types=3, time=2, seed=29, paired=True)
PLAYERS = (PlayerSpec("ours", in_process=True), PlayerSpec("greedy", in_process=True))
LOCAL, CLUSTER = "local --jobs 2", "cluster, 2 workers"


def tree_cpu() -> float:
    """CPU seconds used so far by this process, the children it reaped, and each live
    descendant with the children that one reaped."""
    total = sum(psutil.Process().cpu_times()[:4])
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += sum(process.cpu_times()[:4])
    return total


def measured_match(**where) -> tuple:
    """(records, wall seconds, CPU seconds of the whole process tree) of one match."""
    cpu, start = tree_cpu(), time.perf_counter()
    records = run_match(*PLAYERS, SETTINGS, **where).records
    return records, time.perf_counter() - start, tree_cpu() - cpu


def test_cluster_overhead_against_local_processes():
    runs = {LOCAL: [measured_match(jobs=2)], CLUSTER: []}
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as cluster:
        # Measured from workers that are up; their game processes start within the first match.
        for _ in range(2):
            runs[CLUSTER].append(measured_match(cluster=cluster.scheduler_address))
    # The local runs outside the cluster's life: its idle CPU is not theirs.
    runs[LOCAL].append(measured_match(jobs=2))
    figures = {}
    for name, matches in runs.items():
        for records, _, _ in matches:
            assert [r.game for r in records] == list(range(1, 41)) and all(r.reason for r in records)
        games = sum(len(records) for records, _, _ in matches)
        wall = sum(seconds for _, seconds, _ in matches)
        cpu = sum(seconds for _, _, seconds in matches) / games
        charged = sum(turn.seconds for records, _, _ in matches for r in records for _, turn in r.turns) / games
        figures[name] = cpu, charged
        print(
            f"\n{name:20s} {games} games in {wall:6.1f} s: {60 * games / wall:5.1f} games a minute; "
            f"CPU a game {cpu:.3f} s, of which the players' {charged:.3f} s"
        )
    (local_cpu, local_charged), (cluster_cpu, cluster_charged) = figures[LOCAL], figures[CLUSTER]
    extra = (cluster_cpu - cluster_charged) - (local_cpu - local_charged)
    print(
        f"cluster overhead: {extra:+.3f} s CPU a game beyond the players', "
        f"{extra / local_cpu:+.1%} of the local CPU a game"
    )
