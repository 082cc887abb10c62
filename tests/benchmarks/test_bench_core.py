"""Core speed: "apply a move, then enumerate all groups of the new position", core and
reference, each round the same work; and the cold start of one move process, timed by
the child's CPU. Compare runs with --benchmark-json=F and pytest-benchmark compare."""

import resource
import subprocess
import time

import pytest

from agent import rules
from agent._core import Bitboard
from agent.gamefile import format_input
from agent.move import launch
from agent.rules import random_board

# Every round of both play-and-enumerate benchmarks does the same work: play this many
# moves of the start position, enumerating the groups of each position they leave, so
# their times per round compare directly (the rate is in extra_info).
POSITIONS_PER_ROUND = 20


def children_cpu() -> float:
    """User + system CPU of the waited-for children: the timer of a benchmark whose work
    is another process (the parent's own clock would show only its wait)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # os.times() counts in 10 ms ticks
    return usage.ru_utime + usage.ru_stime


def test_core_play_and_enumerate(benchmark, board_case):
    name, grid = board_case
    board = Bitboard(grid)
    done = benchmark(board.bench_play_enumerate, POSITIONS_PER_ROUND)
    rate = done / benchmark.stats.stats.mean
    benchmark.extra_info.update(board=name, positions_per_second=round(rate))
    print(f"\ncore      {name:18s} {rate:12,.0f} positions/s")


def test_reference_play_and_enumerate(benchmark, board_case):
    name, grid = board_case
    moves = [min(group) for group in rules.groups(grid)[:POSITIONS_PER_ROUND]]

    def play_and_enumerate():
        for cell in moves:
            rules.groups(rules.play(grid, cell)[0])
        return len(moves)

    done = benchmark.pedantic(play_and_enumerate, rounds=3, iterations=1)
    rate = done / benchmark.stats.stats.mean
    benchmark.extra_info.update(board=name, positions_per_second=round(rate, 1))
    print(f"\nreference {name:18s} {rate:12,.1f} positions/s")


@pytest.mark.benchmark(timer=children_cpu)
def test_cold_start_of_one_move(benchmark, tmp_path):
    """CPU (user + system) of a whole move process on a full 26x26 p9 board with little
    time left, so that it answers at once: the fixed cost of every move. The benchmark's
    own figures are the child's CPU (timer=children_cpu); the wall time is in extra_info."""
    (tmp_path / "input.txt").write_text(format_input(random_board(7, 26, 9), 9, 0.5))
    walls = []

    def one_move():
        start = time.perf_counter()
        done = subprocess.run(
            launch.move_command(), env=launch.move_environment(), cwd=tmp_path, stdin=subprocess.DEVNULL
        )
        walls.append(time.perf_counter() - start)
        assert done.returncode == 0

    benchmark.pedantic(one_move, rounds=20, iterations=1)
    benchmark.extra_info.update(median_wall_seconds=sorted(walls)[len(walls) // 2])
    print(f"\ncold start: median CPU {benchmark.stats.stats.median * 1000:.1f} ms")
