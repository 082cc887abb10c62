"""Benchmarks run only when asked for:
    python -m pytest tests/benchmarks --benchmark-timer=time.process_time -s
(CPU time, so that a busy machine does not distort the figures). They share the
tests' helpers, one folder up."""
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agent import rules  # noqa: E402
from fruit_helpers import random_grid  # noqa: E402


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
