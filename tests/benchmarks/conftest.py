"""Benchmarks run only when asked for:
    python -m pytest tests/benchmarks --benchmark-timer=time.process_time -s
(CPU time, so that a busy machine does not distort the figures). They share the
tests' helpers (tests/ is on the import path: pyproject's pythonpath)."""

import os
import random
import subprocess
import sys

import pytest
from fruit_helpers import random_grid

from agent import rules


def midgame_26():
    """A full 26x26 p9 board after 150 random moves."""
    rng = random.Random(26)
    grid = random_grid(rng, 26, 9)
    for _ in range(150):
        grid = rules.remove_and_fall(grid, rng.choice(rules.groups(grid)))
    return grid


BOARDS = {
    "26x26-p9": lambda: random_grid(random.Random(1), 26, 9),
    "15x15-p5": lambda: random_grid(random.Random(2), 15, 5),
    "10x10-p4": lambda: random_grid(random.Random(3), 10, 4),
    "26x26-p9-midgame": midgame_26,
}


@pytest.fixture(params=list(BOARDS), scope="module")
def board_case(request):
    return request.param, BOARDS[request.param]()


@pytest.fixture(params=["quiet", "busy"])
def machine_load(request):
    """ "quiet", or "busy": a process of the benchmark's own spinning on another core than
    the one the benchmark is pinned to, for as long as the test runs. Figures taken on a
    busy machine are what a referee that runs two agents at once would see."""
    if request.param == "quiet":
        yield "quiet"
        return
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("one CPU available: no other core to keep busy")
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        os.sched_setaffinity(spinner.pid, {cpus[1]})
        os.sched_setaffinity(0, {cpus[0]})
        yield "busy"
    finally:
        os.sched_setaffinity(0, cpus)
        spinner.kill()
        spinner.wait()
