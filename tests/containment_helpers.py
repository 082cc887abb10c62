"""For the tests of moves run as processes: the containments to run them in (a cgroup only
where one works here), a move's input, and the mark of tests that need root."""

from __future__ import annotations

import os

import pytest

from agent.arena.processes import containment
from agent.arena.processes.containment import cgroup_problem, own_cgroup_folder
from agent.gamefile import format_input
from agent.rules import random_board

CGROUP_PROBLEM = cgroup_problem(own_cgroup_folder())
CONTAINMENTS = [
    containment.SUBREAPER,  # everywhere, cgroups or not
    pytest.param(
        containment.CGROUP,
        marks=pytest.mark.skipif(CGROUP_PROBLEM is not None, reason=f"no cgroup for moves here: {CGROUP_PROBLEM}"),
    ),
]
INPUT = format_input(random_board(1, 4, 3), 3, 5.0)
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="isolating the sides needs root")
