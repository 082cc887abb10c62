"""Referees sharing the temporary folder and the cgroup tree: a sweep by a referee in
another PID namespace (a container), to which this one's pids mean nothing, leaves a
running match's folder and moves alone; and a move whose cgroup another process removes
loses that move, while its match goes on."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from containment_helpers import CGROUP_PROBLEM, INPUT, needs_root
from paths import PROJECT_ROOT

from agent.arena.processes.containment import CGROUP, CGROUP_VANISHED, MOVE_CGROUP_PREFIX, own_cgroup_folder
from agent.arena.processes.move_folders import MATCH_FOLDER_PREFIX
from agent.arena.processes.move_runner import MoveRunner
from agent.arena.processes.referee_tags import own_tag

WAIT_SECONDS = 60  # for a move to start on a loaded machine

# Notes that it runs (argv[1]), waits for the release file (argv[2]), then plays greedy.
WAITING_AGENT = textwrap.dedent(
    f"""
    import os, sys, time
    sys.path.insert(0, {str(PROJECT_ROOT)!r})
    from agent.gamefile import format_output, read_input, write_atomically
    from agent.rules import groups, move_name, play, top_left
    game = read_input("input.txt")
    open(sys.argv[1], "w").close()
    while not os.path.exists(sys.argv[2]):
        time.sleep(0.05)
    cell = top_left(max(groups(game.grid), key=len))
    write_atomically("output.txt", format_output(move_name(cell), play(game.grid, cell)[0]))
    """
)
SWEEP = "from agent.arena.processes.leftovers import remove_leftovers; remove_leftovers()"


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen"
        time.sleep(0.05)


def move_cgroups(referee: int) -> list:
    """The cgroups of `referee`'s moves (other tests' referees may run beside it)."""
    parent = own_cgroup_folder()
    prefix = f"{MOVE_CGROUP_PREFIX}{referee}-"
    return [] if parent is None else sorted(name for name in os.listdir(parent) if name.startswith(prefix))


def other_pid_namespace() -> list:
    """The command prefix that runs a command in a PID namespace of its own (with its own
    /proc, as a container has), or a skip where that cannot be done here."""
    command = [shutil.which("unshare") or "unshare", "--pid", "--fork", "--mount-proc"]
    try:
        tried = subprocess.run([*command, "true"], capture_output=True, timeout=WAIT_SECONDS)
    except OSError as error:
        pytest.skip(f"unshare: {error.strerror}")
    if tried.returncode != 0:
        pytest.skip(f"no PID namespace of its own here: {tried.stderr.decode(errors='replace').strip()}")
    return command


@needs_root
def test_a_sweep_from_another_pid_namespace_leaves_a_running_match_alone(tmp_path):
    namespace = other_pid_namespace()
    temporary, marker, release = tmp_path / "tmp", tmp_path / "running", tmp_path / "release"
    temporary.mkdir()
    agent = tmp_path / "waiting.py"
    agent.write_text(WAITING_AGENT)
    env = {**os.environ, "TMPDIR": str(temporary), "PYTHONPATH": str(PROJECT_ROOT)}
    out = tmp_path / "games.jsonl"
    referee = subprocess.Popen(
        [sys.executable, "-m", "agent", "match", f"{sys.executable} {agent} {marker} {release}", "greedy"]
        + ["--games", "1", "--size", "3", "--types", "2", "--time", "60", "--seed", "1", "--out", str(out)],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: marker.exists() or referee.poll() is not None, "the agent's first move")
        folders, cgroups = sorted(os.listdir(temporary)), move_cgroups(referee.pid)
        assert [name for name in folders if name.startswith(MATCH_FOLDER_PREFIX)], folders
        swept = subprocess.run(
            [*namespace, sys.executable, "-c", SWEEP], cwd=PROJECT_ROOT, env=env, capture_output=True, timeout=60
        )
        assert swept.returncode == 0, swept.stderr
        assert (sorted(os.listdir(temporary)), move_cgroups(referee.pid)) == (folders, cgroups)
        release.touch()
        _, stderr = referee.communicate(timeout=WAIT_SECONDS)
    finally:
        release.touch()
        if referee.poll() is None:
            referee.kill()
            referee.wait()
    assert referee.returncode == 0, stderr
    assert len(out.read_text().splitlines()) == 1


@pytest.mark.skipif(CGROUP_PROBLEM is not None, reason=f"no cgroup for moves here: {CGROUP_PROBLEM}")
def test_a_move_whose_cgroup_another_process_removes_loses_and_the_runner_goes_on():
    parent = own_cgroup_folder()
    assert parent is not None  # CGROUP_PROBLEM names its absence
    prefix = f"{MOVE_CGROUP_PREFIX}{own_tag()}-"
    ended = {}
    with MoveRunner(containment=CGROUP) as runner:
        move = threading.Thread(target=lambda: ended.update(run=runner.run("sleep 600", True, INPUT, 600.0)))
        move.start()
        try:

            def held() -> list:
                names = [name for name in os.listdir(parent) if name.startswith(prefix)]
                return [name for name in names if open(os.path.join(parent, name, "cgroup.procs")).read().strip()]

            wait_until(held, "the move's start in its cgroup")
            folder = os.path.join(parent, held()[0])
            # Removed under the running move: only an empty cgroup can be, so its processes
            # are moved out first, and killed only then, before the runner can see it.
            with open(os.path.join(folder, "cgroup.procs")) as procs:
                pids = [int(pid) for pid in procs.read().split()]
            for pid in pids:
                with open(os.path.join(parent, "cgroup.procs"), "w") as procs:
                    procs.write(str(pid))
            os.rmdir(folder)
            for pid in pids:
                os.kill(pid, signal.SIGKILL)
        finally:
            move.join(WAIT_SECONDS)
        after = runner.run("echo", True, INPUT, 30.0)
    run = ended["run"]
    assert (run.output, run.output_problem, run.exit_code) == (None, CGROUP_VANISHED, -9)
    assert after.exit_code == 0 and after.output_problem == "no output.txt"
