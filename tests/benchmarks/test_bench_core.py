"""Core speed: positions per second for "apply a move, then enumerate all groups of the
new position", core and reference; and the cold start of one move process."""
import os
import subprocess
import time

from agent import launch, rules
from agent._core import Board
from agent.gamefile import format_input
from agent.rules import random_board

CORE_POSITIONS = 20_000


def test_core_play_and_enumerate(benchmark, board_case):
    name, grid = board_case
    board = Board(grid)
    done = benchmark(board.bench_play_enumerate, CORE_POSITIONS)
    rate = done / benchmark.stats.stats.mean
    benchmark.extra_info.update(board=name, positions_per_second=round(rate))
    print(f"\ncore      {name:18s} {rate:12,.0f} positions/s")


def test_reference_play_and_enumerate(benchmark, board_case):
    name, grid = board_case
    groups = rules.groups(grid)
    moves = [min(g) for g in groups[:20]]

    def play_and_enumerate():
        for cell in moves:
            rules.groups(rules.play(grid, cell)[0])
        return len(moves)

    done = benchmark.pedantic(play_and_enumerate, rounds=3, iterations=1)
    rate = done / benchmark.stats.stats.mean
    benchmark.extra_info.update(board=name, positions_per_second=round(rate, 1))
    print(f"\nreference {name:18s} {rate:12,.1f} positions/s")


def test_cold_start_of_one_move(benchmark, tmp_path):
    """CPU (user + system) and wall time of a whole move process on a full 26x26 p9 board
    with little time left, so that it answers at once: the fixed cost of every move."""
    (tmp_path / "input.txt").write_text(format_input(random_board(7, 26, 9), 9, 0.5))
    samples = []

    def one_move():
        start = time.perf_counter()
        process = subprocess.Popen(launch.move_command(), env=launch.move_environment(),
                                   cwd=tmp_path, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        samples.append((usage.ru_utime + usage.ru_stime, time.perf_counter() - start))
        assert status == 0

    benchmark.pedantic(one_move, rounds=20, iterations=1)
    cpu = sorted(s[0] for s in samples)[len(samples) // 2]
    wall = sorted(s[1] for s in samples)[len(samples) // 2]
    benchmark.extra_info.update(median_cpu_seconds=cpu, median_wall_seconds=wall)
    print(f"\ncold start: median CPU {cpu * 1000:.1f} ms, wall {wall * 1000:.1f} ms")
