"""Moves that fork, orphan, leave their session, swap their folder or reach for the other
side: every process of a move is charged and dies with it, and (isolated) one side cannot
touch the other's folder, processes or the referee's files."""

from __future__ import annotations

import os
import shlex
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

import pytest
from arena_helpers import gone, processes_running
from containment_helpers import CGROUP_PROBLEM, CONTAINMENTS, INPUT, needs_root
from paths import PROJECT_ROOT

from agent.arena.command_player import CommandPlayer
from agent.arena.processes import containment, move_launcher
from agent.arena.processes.containment import pick_containment
from agent.arena.processes.move_runner import MoveRunner, Stopped
from agent.arena.processes.referee_clock import RefereeClock
from agent.arena.processes.side_users import SideUsers, ids_of_processes
from agent.arena.referee import FAULT_INVALID, FAULT_TIME, play_game
from agent.arena.turns import FAULT_STALLED
from agent.board import Board
from agent.rules import random_board

pytestmark = pytest.mark.slow


@pytest.fixture(params=CONTAINMENTS)
def runner(request):
    with MoveRunner(containment=request.param) as made:
        yield made


@pytest.fixture(params=CONTAINMENTS)
def isolated_runner(request):
    if os.geteuid() != 0:
        pytest.skip("isolating the sides needs root")
    with MoveRunner(isolate=True, containment=request.param) as made:
        yield made


# Agents as Python scripts: `python SCRIPT ARGS` runs `body` after this prologue.
_PROLOGUE = f"""\
import os, signal, sys, time
sys.path.insert(0, {PROJECT_ROOT!r})

def burn(seconds):
    while time.process_time() < seconds:
        pass

def answer_greedy():
    from agent.gamefile import format_output, read_input, write_atomically
    from agent.rules import groups, move_name, play, top_left
    grid = read_input("input.txt").grid
    cell = top_left(max(groups(grid), key=len))
    write_atomically("output.txt", format_output(move_name(cell), play(grid, cell)[0]))

def orphan(work):
    '''Run work() in a grandchild whose parent has already exited (a double fork).'''
    if os.fork() == 0:
        if os.fork() == 0:
            work()
        os._exit(0)
    os.wait()

def wait_for(name):
    while not os.path.exists(name):
        time.sleep(0.005)

def note(name, text):
    with open(name + ".part", "w") as handle:
        handle.write(text)
    os.rename(name + ".part", name)
"""

SCRIPTS = {
    # The double-fork burner: an orphan burns the CPU seconds given, then answers; the
    # move's own process only sleeps until the answer is there.
    "orphan_burner": """
        def work():
            burn(float(sys.argv[1]))
            answer_greedy()
            os._exit(0)
        orphan(work)
        wait_for("output.txt")
    """,
    # An orphan that burns the seconds given, says how many it burned, and burns on: the
    # move ends (and kills it) mid-burn.
    "orphan_burning_on": """
        def work():
            burn(float(sys.argv[1]))
            note("burned", repr(time.process_time()))
            burn(float("inf"))
        orphan(work)
        wait_for("burned")
        open("output.txt", "w").write("done\\n")
    """,
    # Burns until killed, writing every 10 ms how much CPU it has used into the file given.
    "burn_until_killed": """
        while True:
            burn(time.process_time() + 0.01)
            note(sys.argv[1], repr(time.process_time()))
    """,
    # An orphan in a session and process group of its own, sleeping, its pid noted.
    "setsid_straggler": """
        def work():
            os.setsid()
            note("straggler", str(os.getpid()))
            time.sleep(3600)
        orphan(work)
        wait_for("straggler")
        open("output.txt", "w").write(open("straggler").read())
    """,
    # An orphan that never keeps its pid: each process forks the next and exits.
    "pid_hopper": """
        def work():
            os.setsid()
            note("hopping", "")
            while True:
                if os.fork():
                    os._exit(0)
        orphan(work)
        wait_for("hopping")
        open("output.txt", "w").write("hopping\\n")
    """,
}


def script_agent(tmp_path, name: str, *args) -> str:
    """A shell command running script `name` (written into tmp_path)."""
    path = tmp_path / f"{name}.py"
    path.write_text(_PROLOGUE + textwrap.dedent(SCRIPTS[name]))
    return " ".join(shlex.quote(part) for part in (sys.executable, str(path), *map(str, args)))


def dead(pid: int) -> bool:
    """No such process, or a zombie waiting for its new parent to reap it."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat_line = handle.read()
    except FileNotFoundError:
        return True
    return stat_line[stat_line.rindex(b")") + 2 :].split()[0] in (b"Z", b"X")


# 1. Orphans are charged.


def test_a_double_forked_burner_is_charged_the_cpu_of_its_orphan(tmp_path, runner):
    run = runner.run(script_agent(tmp_path, "orphan_burner", 0.4), True, INPUT, 5.0)
    assert run.exit_code == 0 and run.output  # the orphan's answer
    assert run.cpu >= 0.4


def test_an_orphan_killed_mid_burn_when_the_move_ends_is_charged_what_it_burned(tmp_path, runner):
    run = runner.run(script_agent(tmp_path, "orphan_burning_on", 0.3), True, "", 5.0)
    assert run.output == "done\n" and run.exit_code == 0
    assert run.cpu >= 0.3


def test_the_double_fork_burner_loses_on_time_in_a_game(tmp_path, runner):
    """The attack as found: the orphan burns 0.4 s a move at a 1 s clock. Charged only its
    sleeping parent, it won; charged its orphan, it is out of time by its third move."""
    burner = CommandPlayer(script_agent(tmp_path, "orphan_burner", 0.4), name="burner", runner=runner)
    greedy = CommandPlayer("greedy", runner=runner)
    for first in ("A", "B"):
        record = play_game(burner, greedy, Board(random_board(5, 6, 3), 3), (1.0, 1.0), first)
        burner_turns = [turn for side, turn in record.turns if side == "A"]
        assert record.winner == "B" and record.fault == FAULT_TIME, record.reason
        assert len(burner_turns) <= 3 and all(turn.seconds >= 0.4 for turn in burner_turns[:-1])
        assert sum(turn.seconds for turn in burner_turns) > 1.0  # the last stopped at its clock


# 4. A move run through sh -c and killed: its program's CPU, not only the shell's.


@pytest.mark.parametrize("name", CONTAINMENTS)
def test_a_killed_shell_wrapped_move_is_charged_its_programs_cpu(tmp_path, name):
    progress = tmp_path / "progress"
    with MoveRunner(containment=name) as runner:
        # "; true": the shell waits for the program instead of becoming it
        run = runner.run(script_agent(tmp_path, "burn_until_killed", progress) + "; true", True, "", 1.0)
    assert run.stopped == FAULT_TIME and run.exit_code == -9
    assert run.cpu >= float(progress.read_text()) > 0.0


# 2. No process of a move outlives it.


def test_a_straggler_in_a_session_of_its_own_dies_with_the_move(tmp_path, runner):
    run = runner.run(script_agent(tmp_path, "setsid_straggler"), True, INPUT, 5.0)
    straggler = int(run.output)
    assert dead(straggler)  # at once: run() returns once every process of the move is gone


def test_a_straggler_that_keeps_changing_its_pid_dies_with_the_move(tmp_path, runner):
    command = script_agent(tmp_path, "pid_hopper")
    assert runner.run(command, True, INPUT, 5.0).output == "hopping\n"
    assert processes_running(str(tmp_path / "pid_hopper.py")) == []


@pytest.mark.parametrize("name", CONTAINMENTS)
def test_a_move_killed_for_time_takes_its_stragglers_with_it(name):
    with MoveRunner(RefereeClock(grace=0.5), containment=name) as runner:
        run = runner.run("(setsid sleep 3600 &) ; sleep 3600", True, INPUT, 0.1)
    assert run.stopped == FAULT_STALLED and run.exit_code == -9
    assert processes_running("sleep 3600") == []


def test_a_stopped_runner_kills_the_moves_running_and_their_stragglers(tmp_path, runner):
    command = f"(setsid sleep 3599 &) ; touch {tmp_path}/started; sleep 3599"
    outcome = []

    def run_move():
        try:
            runner.run(command, True, INPUT, 60.0)
        except Stopped:
            outcome.append("stopped")

    thread = threading.Thread(target=run_move)
    thread.start()
    while not (tmp_path / "started").exists():
        time.sleep(0.01)
    runner.stop()
    thread.join(30)
    assert outcome == ["stopped"] and not thread.is_alive()
    assert processes_running("sleep 3599") == []


def test_a_move_that_kills_its_launcher_loses_and_its_process_dies(tmp_path):
    # only a move running as the referee's own user can; an isolated one cannot (below)
    with MoveRunner(containment=containment.SUBREAPER) as runner:
        run = runner.run("echo answer > output.txt; kill -9 $PPID", True, INPUT, 5.0)
    assert run.output is None and run.exit_code == -9
    assert run.output_problem == "the move killed its launcher"


def test_a_launcher_server_killed_by_a_move_is_started_again_for_the_next_move():
    kill_server = "kill -9 $(awk '{print $4}' /proc/$PPID/stat); echo answer > output.txt"
    with MoveRunner(containment=containment.SUBREAPER) as runner:
        assert runner.run(kill_server, True, INPUT, 5.0).output == "answer\n"  # its supervisor lives on
        assert runner.run("echo next > output.txt", True, INPUT, 5.0).output == "next\n"


@pytest.mark.parametrize("name", CONTAINMENTS)
def test_the_moves_of_a_referee_killed_outright_die_too(tmp_path, name):
    """SIGKILL leaves the referee no time to stop anything. A supervisor sees its orders
    pipe close and ends the move; a cgroup's move is ended by the next runner made."""
    referee = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {PROJECT_ROOT!r})
        from agent.arena.processes.move_runner import MoveRunner
        MoveRunner(containment={name!r}).run("touch {tmp_path}/started; sleep 3597", True, "", 60.0)
    """),
        ],
        env={**os.environ, "TMPDIR": str(tmp_path)},  # its match folder stays, as nothing could remove it
    )
    try:
        for _ in range(3000):
            if (tmp_path / "started").exists() or referee.poll() is not None:
                break
            time.sleep(0.01)
        assert processes_running("sleep 3597")
    finally:
        referee.kill()
        referee.wait()
    if name == containment.CGROUP:
        MoveRunner(containment=name).close()
    assert gone("sleep 3597")


# 5 and 6. Links: output.txt, or the move's folder itself.


def test_an_output_txt_linked_to_a_file_elsewhere_is_not_read(tmp_path, runner):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN-4242\n")
    for link in ("ln -s", "ln"):  # a symbolic link, a hard link
        player = CommandPlayer(f"{link} {secret} output.txt", runner=runner)
        turn = player.take_turn(Board(random_board(1, 4, 3), 3), 5.0)
        assert turn.fault == FAULT_INVALID and "TOKEN" not in turn.reason
        assert turn.reason.startswith("output.txt is"), turn.reason
    assert secret.read_text() == "TOKEN-4242\n"


def test_a_move_folder_swapped_for_a_link_is_not_followed_and_is_cleaned_up(tmp_path, runner):
    planted = tmp_path / "planted"
    planted.mkdir()
    (planted / "output.txt").write_text("TOKEN-4343\n")
    swap = f'here=$(pwd); cd ..; mv "$here" "$here.moved"; ln -s {planted} "$here"'
    run = runner.run(swap, True, INPUT, 5.0, side="A")
    assert run.exit_code == 0
    assert run.output is None and run.output_problem == "no output.txt"
    assert os.listdir(os.path.join(runner.match_folder, "A")) == []  # link and folder gone
    assert (planted / "output.txt").read_text() == "TOKEN-4343\n"  # the target untouched


def test_what_a_move_leaves_goes_with_its_folder_and_the_rest_with_the_match(tmp_path, runner):
    run = runner.run("mkdir -p deep/er; touch deep/er/x ../beside; echo 1 > output.txt", True, INPUT, 5.0, side="B")
    assert run.output == "1\n"
    side = os.path.join(runner.match_folder, "B")
    assert os.listdir(side) == ["beside"]  # outside its move folder: kept for the match
    match_folder = runner.match_folder
    runner.close()
    assert not os.path.lexists(match_folder)


# 3. Sides in folders of their own; isolated, as users of their own.


def test_each_side_has_a_private_folder_and_each_move_a_fresh_one(runner):
    look = "found=$(ls -A); { pwd; echo $found; } > output.txt; touch left-behind"
    folders = []
    for side in ("A", "A", "B"):
        folder, listing = runner.run(look, True, INPUT, 5.0, side=side).output.splitlines()
        assert os.path.dirname(folder) == os.path.join(runner.match_folder, side)
        assert listing == "input.txt"  # nothing from an earlier move
        assert stat.S_IMODE(os.stat(os.path.dirname(folder)).st_mode) == 0o700
        folders.append(folder)
    assert len(set(folders)) == 3
    assert stat.S_IMODE(os.stat(runner.match_folder).st_mode) == 0o700


def test_isolated_sides_run_as_users_of_their_own(isolated_runner):
    ids = {
        side: isolated_runner.run(
            "id -u > output.txt; id -g >> output.txt; id -G >> output.txt", True, INPUT, 5.0, side=side
        ).output.split()
        for side in ("A", "B")
    }
    assert ids["A"] != ids["B"]
    for side, (uid, gid, groups) in ids.items():
        assert int(uid) != 0 and uid == gid == groups  # no supplementary group
        owner = os.stat(os.path.join(isolated_runner.match_folder, side))
        assert (owner.st_uid, stat.S_IMODE(owner.st_mode)) == (int(uid), 0o700)
    assert stat.S_IMODE(os.stat(isolated_runner.match_folder).st_mode) == 0o711


def test_an_isolated_side_cannot_touch_the_other_sides_folder(isolated_runner):
    isolated_runner.run("echo B-private > ../note; echo ok > output.txt", True, INPUT, 5.0, side="B")
    attack = (
        "{ ls ../../B && echo listed; cat ../../B/note && echo read; "
        "echo A-was-here > ../../B/note && echo wrote; rm -rf ../../B && echo removed; } "
        "> output.txt 2>&1"
    )
    run = isolated_runner.run(attack, True, INPUT, 5.0, side="A")
    for success in ("listed", "read", "wrote", "removed"):
        assert success not in run.output.split(), run.output
    assert "Permission denied" in run.output
    with open(os.path.join(isolated_runner.match_folder, "B", "note")) as note:
        assert note.read() == "B-private\n"


def test_an_isolated_side_cannot_kill_the_other_sides_move(isolated_runner):
    """B's move sleeps; A's, at the same time, looks for it among all processes and tries
    to kill it: not allowed, B's move answers."""
    answers = {}

    def b_move():
        answers["B"] = isolated_runner.run("sleep 1.41421; echo B-answer > output.txt", True, INPUT, 30.0, side="B")

    b_thread = threading.Thread(target=b_move)
    b_thread.start()
    # the marker split in two, so that A's own command line does not hold it
    hunt = (
        "for try in $(seq 200); do for p in /proc/[0-9]*; do "
        'if grep -q "1.414""21" $p/cmdline 2>/dev/null; then echo found > output.txt; '
        "kill -9 ${p#/proc/} 2>>output.txt && echo killed >> output.txt; exit; fi; done; "
        "sleep 0.01; done"
    )
    answers["A"] = isolated_runner.run(hunt, True, INPUT, 30.0, side="A")
    b_thread.join(30)
    assert answers["A"].output.startswith("found") and "killed" not in answers["A"].output.split()
    assert answers["B"].output == "B-answer\n" and answers["B"].exit_code == 0


def test_an_isolated_side_cannot_write_the_referees_files(isolated_runner):
    shared = tempfile.mkdtemp()  # as --out is: the referee's own, readable by anyone
    try:
        os.chmod(shared, 0o755)
        out = os.path.join(shared, "results.jsonl")
        with open(out, "w") as handle:
            handle.write("{}\n")
        run = isolated_runner.run(f"echo x >> {out} || echo refused > output.txt", True, INPUT, 5.0)
        with open(out) as results:
            assert run.output == "refused\n" and results.read() == "{}\n"
    finally:
        subprocess.run(["rm", "-rf", shared], check=True)


def test_an_isolated_move_cannot_kill_its_launcher(isolated_runner):
    run = isolated_runner.run("kill -9 $PPID 2>/dev/null || echo alive > output.txt", True, INPUT, 5.0)
    assert run.output == "alive\n" and run.exit_code == 0


def test_an_isolated_straggler_dies_with_the_move(tmp_path, isolated_runner):
    run = isolated_runner.run("(setsid sleep 3598 &); echo ok > output.txt", True, INPUT, 5.0)
    assert run.output == "ok\n"
    assert processes_running("sleep 3598") == []


def test_isolate_needs_root(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(ValueError, match="needs root"):
        MoveRunner(isolate=True)


@needs_root
def test_side_users_are_unnamed_unused_and_fixed_per_side():
    users = SideUsers()
    a, b = users.of("A"), users.of("B")
    assert a != b and users.of("A") == a and a[0] == a[1]
    in_use = ids_of_processes()
    for uid, _ in (a, b):
        assert uid not in in_use and uid > 65535
        with pytest.raises(KeyError):
            __import__("pwd").getpwuid(uid)
    assert SideUsers().of("A") not in (a, b)  # another runner, other users


def test_a_side_name_is_a_plain_word(runner):
    for side in ("../B", "", "A/B", ".."):
        with pytest.raises(ValueError, match="letters, digits"):
            runner.run("true", True, INPUT, 1.0, side=side)


# Picking a containment; the launcher's fast listing against its slow twin.


def test_the_containment_picked_is_a_cgroup_exactly_where_one_works():
    expected = containment.SUBREAPER if CGROUP_PROBLEM else containment.CGROUP
    assert pick_containment().name == expected
    assert pick_containment(containment.SUBREAPER).name == containment.SUBREAPER
    with pytest.raises(ValueError, match="no containment named"):
        pick_containment("jail")


def test_children_listed_by_the_kernel_are_those_found_by_scanning_every_process():
    sleepers = [subprocess.Popen(["sleep", "30"]) for _ in range(3)]
    try:
        me = os.getpid()
        assert sorted(move_launcher.children_listed(me)) == sorted(move_launcher.children_scanned(me))
        assert {process.pid for process in sleepers} <= set(move_launcher.children_scanned(me))
    finally:
        for process in sleepers:
            process.kill()
            process.wait()


@pytest.mark.skipif(CGROUP_PROBLEM is not None, reason=f"no cgroup for moves here: {CGROUP_PROBLEM}")
def test_a_stop_during_the_cgroup_probe_leaves_no_cgroup_behind(tmp_path):
    # The probe runs `true` from PATH: here one that waits, so that the stop lands in it,
    # before the match has set its handlers.
    bin_folder, probing = tmp_path / "bin", tmp_path / "probing"
    bin_folder.mkdir()
    slow_true = bin_folder / "true"
    slow_true.write_text(f"#!/bin/sh\ntouch {shlex.quote(str(probing))}\nsleep 2\n")
    slow_true.chmod(0o755)
    match = subprocess.Popen(
        [sys.executable, "-m", "agent", "match", "greedy", "random", "--games", "2", "--size", "3", "--types", "2"],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PATH": f"{bin_folder}:{os.environ['PATH']}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(600):
        if probing.exists():
            break
        time.sleep(0.05)
    match.send_signal(signal.SIGTERM)
    assert match.wait(timeout=60) == 130  # interrupted, once the probe is over
    assert probing.exists() and gone(str(slow_true))
    parent = containment.own_cgroup_folder()
    assert [name for name in os.listdir(parent) if name.startswith(f"fruit-rage-move-{match.pid}-")] == []
