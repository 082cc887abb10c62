"""A match of two jobs stopped as `timeout` stops it (SIGTERM to the match, then to its
whole process group, worker processes included) or as Ctrl-C does (SIGINT to the group)
leaves no folder in TMPDIR and no cgroup behind, whether its games run in threads (every
player a program) or in worker processes (an in-process player)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from containment_helpers import CGROUP_PROBLEM
from paths import PROJECT_ROOT

from agent.arena.processes.containment import own_cgroup_folder
from agent.arena.processes.move_launcher import children_of

pytestmark = pytest.mark.slow

# A move that fills its folder with files, so that removing it takes a while, then waits,
# its command line saying so: `python SCRIPT waiting`.
FILL_THEN_WAIT = """\
import os, sys, time
if sys.argv[1:] != ["waiting"]:
    for number in range(30000):
        open(f"f{number}", "w").close()
    os.execv(sys.executable, [sys.executable, sys.argv[0], "waiting"])
time.sleep(3600)
"""


def moves_waiting(script) -> int:
    """How many moves run `python SCRIPT waiting`."""
    argv = f"{sys.executable}\0{script}\0waiting\0".encode()
    count = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                count += handle.read() == argv
        except OSError:  # gone meanwhile
            pass
    return count


def cgroups_of(pids) -> list:
    """The moves' cgroups that the referees `pids` made and left."""
    if CGROUP_PROBLEM is not None:
        return []
    prefixes = tuple(f"fruit-rage-move-{pid}-" for pid in pids)
    return [name for name in os.listdir(own_cgroup_folder()) if name.startswith(prefixes)]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("games_in", ["threads", "processes"])
def test_a_match_of_two_jobs_stopped_twice_leaves_no_folder_and_no_cgroup(tmp_path, games_in, stop):
    moves_folder = tmp_path / "tmp"
    moves_folder.mkdir()
    script = tmp_path / "fill_then_wait.py"
    script.write_text(FILL_THEN_WAIT)
    agent = f"{sys.executable} {script}"
    agents = (agent, "greedy") if games_in == "threads" else ("greedy", agent, "--in-process")
    settings = ("--games", "6", "--size", "3", "--types", "2", "--time", "60", "--jobs", "2")
    match = subprocess.Popen(
        [sys.executable, "-m", "agent", "match", *agents, *settings],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(moves_folder)},
        start_new_session=True,  # a process group of its own, to signal as a whole
    )
    for _ in range(1200):  # until both games' moves wait, their folders full
        if moves_waiting(script) == 2:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the two games' moves never got to wait")
    referees = [match.pid, *children_of(match.pid)]
    match.send_signal(stop)
    time.sleep(0.1)  # the folders are being removed
    os.killpg(match.pid, stop)  # as `timeout` does after signalling the match
    stdout, stderr = match.communicate(timeout=60)
    assert list(moves_folder.iterdir()) == []
    assert cgroups_of(referees) == []
    assert moves_waiting(script) == 0
    assert match.returncode == 130, stderr
    assert stderr.endswith(": interrupted\n") and "Traceback" not in stderr
