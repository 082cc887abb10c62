"""The core's Bitboard.perft against a plain-C perft (naive_perft.c, compiled here with the
system's `cc -O2`) on the same boards in the same run: CPU seconds, the minimum of 3
alternating runs each, and the ratio C time / core time (above 1: the core is faster).
Run it as the other benchmarks:
    python3 -m pytest tests/benchmarks/test_bench_perft_vs_c.py --benchmark-timer=time.process_time -s"""

import os
import random
import shutil
import subprocess
import time

import pytest
from fruit_helpers import random_grid

from agent import rules
from agent._core import Bitboard

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "naive_perft.c")
RUNS = 3


def half_played_26():
    """A full 26x26 p9 board after random moves until half of its fruit is gone."""
    rng = random.Random(26)
    grid = random_grid(rng, 26, 9)
    while rules.fruit_count(grid) > 26 * 26 // 2:
        grid = rules.remove_and_fall(grid, rng.choice(rules.groups(grid)))
    return grid


# name: (board, perft depth)
CASES = {
    "26x26-p9-d3": (lambda: random_grid(random.Random(1), 26, 9), 3),
    "15x15-p5-d4": (lambda: random_grid(random.Random(2), 15, 5), 4),
    "10x10-p4-d5": (lambda: random_grid(random.Random(3), 10, 4), 5),
    "26x26-p9-half-played-d3": (half_played_26, 3),
}


@pytest.fixture(scope="module")
def naive_perft(tmp_path_factory):
    compiler = shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler: `cc` is not on PATH")
    program = tmp_path_factory.mktemp("naive_perft") / "naive_perft"
    subprocess.run([compiler, "-O2", "-o", str(program), SOURCE], check=True)
    return str(program)


def c_perft(program, grid, depth):
    """(leaves, CPU seconds of the perft) as the C program reports them."""
    text = f"{len(grid)} {depth}\n" + "\n".join(grid) + "\n"
    done = subprocess.run([program], input=text, capture_output=True, text=True, check=True)
    leaves, seconds = done.stdout.split()
    return int(leaves), float(seconds)


def core_perft(grid, depth):
    board = Bitboard(grid)
    start = time.process_time()
    leaves = board.perft(depth)
    return leaves, time.process_time() - start


@pytest.mark.parametrize("case", list(CASES))
def test_core_perft_against_plain_c(benchmark, naive_perft, machine_load, case):
    make_board, depth = CASES[case]
    grid = make_board()
    c_times, core_times = [], []

    def alternating_runs():
        for _ in range(RUNS):
            c_leaves, c_seconds = c_perft(naive_perft, grid, depth)
            core_leaves, core_seconds = core_perft(grid, depth)
            assert c_leaves == core_leaves, "the C perft and the core count different leaves"
            c_times.append(c_seconds)
            core_times.append(core_seconds)

    benchmark.pedantic(alternating_runs, rounds=1, iterations=1)
    ratio = min(c_times) / min(core_times)
    benchmark.extra_info.update(
        case=case, load=machine_load, c_seconds=min(c_times), core_seconds=min(core_times), ratio=ratio
    )
    print(
        f"\nperft {case:24s} {machine_load:5s}  C {min(c_times):7.3f} s  core {min(core_times):7.3f} s"
        f"  C/core {ratio:5.2f}"
    )
