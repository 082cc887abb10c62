"""A referee killed outright (SIGKILL) in the middle of a move: the move's processes die
with it, and its match folder goes, without waiting for the next command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from arena_helpers import gone, processes_running
from containment_helpers import CONTAINMENTS
from paths import PROJECT_ROOT

from agent.arena.processes.leftovers import remove_leftovers, watch
from agent.arena.processes.referee_tags import own_tag

pytestmark = pytest.mark.slow

# Says it runs (the marker file), then spins, and so does a child in a session of its own.
SPINNER = textwrap.dedent(
    """
    import os, sys
    open(sys.argv[1], "w").close()
    if os.fork() == 0:
        os.setsid()
    while True:
        pass
    """
)


def test_the_moves_of_a_referee_killed_mid_move_die_and_its_folder_goes(tmp_path):
    script, marker, temporary = tmp_path / "spinner.py", tmp_path / "running", tmp_path / "tmp"
    script.write_text(SPINNER)
    temporary.mkdir()
    referee = subprocess.Popen(
        [sys.executable, "-m", "agent", "match", f"{sys.executable} {script} {marker}", "greedy"]
        + ["--games", "1", "--size", "3", "--types", "2", "--time", "30", "--seed", "1"],
        cwd=PROJECT_ROOT,
        env={**os.environ, "TMPDIR": str(temporary)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert_killed_mid_move_leaves_nothing(referee, script, marker, temporary)


def assert_killed_mid_move_leaves_nothing(referee, script, marker, temporary) -> None:
    """SIGKILL `referee` once its move runs; then the move (and its child) must go, and
    the match folder in `temporary`, within a few seconds."""
    try:
        for _ in range(600):
            if marker.exists() or referee.poll() is not None:
                break
            time.sleep(0.05)
        assert marker.exists(), "the spinner never ran"
        referee.kill()
        referee.wait()
        assert gone(str(script)), "the move still runs"
        for _ in range(100):
            if not os.listdir(temporary):
                break
            time.sleep(0.05)
        assert os.listdir(temporary) == []
    finally:
        for pid in processes_running(str(script)):
            os.kill(int(pid), signal.SIGKILL)


# A referee of one move, held by the named containment.
RUNNER = textwrap.dedent(
    """
    import sys
    from agent.arena.processes.move_runner import MoveRunner
    from agent.gamefile import format_input
    MoveRunner(containment=sys.argv[1]).run(sys.argv[2], True, format_input(("00", "11"), 2, 30.0), 30.0)
    """
)


@pytest.mark.parametrize("containment", CONTAINMENTS)
def test_under_either_containment_a_killed_referee_s_move_dies_and_its_folder_goes(tmp_path, containment):
    script, marker, temporary = tmp_path / "spinner.py", tmp_path / "running", tmp_path / "tmp"
    script.write_text(SPINNER)
    temporary.mkdir()
    referee = subprocess.Popen(
        [sys.executable, "-c", RUNNER, containment, f"{sys.executable} {script} {marker}"],
        cwd=PROJECT_ROOT,
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    assert_killed_mid_move_leaves_nothing(referee, script, marker, temporary)


def test_a_sweep_removes_the_match_folders_of_referees_gone_and_no_others(tmp_path, monkeypatch):
    """Gone: no process has the tag's pid and start time in this boot and PID namespace.
    What another namespace or boot left, or a name with a pid alone, cannot be judged."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    gone_tag = tag_of_a_gone_process()
    pid, boot, namespace, started = gone_tag.split("-")
    other_boot = "0" * 8 if boot != "0" * 8 else "1" * 8
    mine = own_tag().split("-")
    gone = [f"fruit-rage-match-{gone_tag}-abc", f"fruit-rage-match-{'-'.join(mine[:3])}-{int(mine[3]) + 1}-pidreused"]
    kept = [
        f"fruit-rage-match-{own_tag()}-alive",
        f"fruit-rage-match-{pid}-{boot}-{int(namespace) + 1}-{started}-namespace",
        f"fruit-rage-match-{pid}-{other_boot}-{namespace}-{started}-boot",
        f"fruit-rage-match-{pid}-pidalone",
        "fruit-rage-match-notapid",
    ]
    (tmp_path / gone[0] / "A" / "move-1").mkdir(parents=True)
    (tmp_path / gone[0] / "A" / "move-1" / "input.txt").write_text("3\n")
    for name in gone[1:] + kept:
        (tmp_path / name).mkdir()
    remove_leftovers()
    assert sorted(os.listdir(tmp_path)) == sorted(kept)


def test_the_watcher_sweeps_the_folder_it_is_told_and_never_probes_for_one(tmp_path, monkeypatch):
    """Python finds the temporary folder by writing a probe file into it: a watcher doing
    that as its referee ended left a file there for an instant, beside the referee's own
    cleanup (a test that looked then found it)."""
    gone_tag = tag_of_a_gone_process()
    (tmp_path / f"fruit-rage-match-{gone_tag}-abc" / "A").mkdir(parents=True)

    def probe():
        raise AssertionError("the watcher looked for the temporary folder")

    monkeypatch.setattr("tempfile.gettempdir", probe)
    watch(int(gone_tag.split("-")[0]), str(tmp_path))
    assert os.listdir(tmp_path) == []


def tag_of_a_gone_process() -> str:
    """The tag of a process that ran here and ended."""
    return subprocess.run(
        [sys.executable, "-c", "from agent.arena.processes.referee_tags import own_tag; print(own_tag())"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
