"""Shared test helpers for Fruit Rage: random settled grids (plain and hypothesis), and
the command line run as `python3 -m agent`."""

from __future__ import annotations

import os
import random
import subprocess
import sys

from hypothesis import strategies as st
from paths import PROJECT_ROOT

from agent import rules


def fruit_rage(*args, cwd, timeout: float = 600):
    """`fruit-rage ARGS` run from `cwd` (this project on the path), no standard input."""
    return subprocess.run(
        [sys.executable, "-m", "agent", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": PROJECT_ROOT},
        timeout=timeout,
    )


def settle(columns, n):
    """Rows (top first) of a grid whose column c holds columns[c] bottom-up."""
    padded = [(col + rules.EMPTY * n)[:n] for col in columns]
    return tuple("".join(padded[c][n - 1 - r] for c in range(n)) for r in range(n))


def random_grid(rng: random.Random, n: int, types: int, emptiness: float = 0.0):
    """A settled grid; each column keeps a random share of its height when emptiness > 0."""
    columns = []
    for _ in range(n):
        height = n - sum(rng.random() < emptiness for _ in range(n))
        columns.append("".join(rng.choice(rules.DIGITS[:types]) for _ in range(height)))
    grid = settle(columns, n)
    if rules.is_empty(grid):
        grid = settle(["0"] + columns[1:], n)
    return grid


@st.composite
def grids(draw, max_size=26, max_types=9):
    """Settled, non-empty grids of every size and type count, full or partly empty."""
    n = draw(st.integers(1, max_size))
    types = draw(st.integers(1, max_types))
    seed = draw(st.integers(0, 2**32 - 1))
    emptiness = draw(st.sampled_from([0.0, 0.0, 0.2, 0.5, 0.9]))
    return random_grid(random.Random(seed), n, types, emptiness)


def mid_game(seed: int, size: int, types: int, share: float) -> tuple:
    """A full random board after random moves have taken about `share` of its fruit."""
    rng = random.Random(seed)
    grid = rules.random_board(seed, size, types)
    target = rules.fruit_count(grid) * (1 - share)
    while rules.fruit_count(grid) > target:
        grid = rules.remove_and_fall(grid, rng.choice(rules.groups(grid)))
    return grid
