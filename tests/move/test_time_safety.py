"""Never lose on time: real move processes, charged their CPU time (start-up included)
exactly as the referee charges it."""

import os
import random
import resource
import subprocess
import sys
import time

import pytest
from fruit_helpers import random_grid

from agent.arena.matches.games import MatchSettings, play_match_game
from agent.arena.player_specs import PlayerSpec
from agent.arena.turns import check_output
from agent.gamefile import format_input
from agent.move import launch

FULL_26 = random_grid(random.Random(2026), 26, 9)


pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("bytecode_written")]


def charged_cpu(folder, args=(), timeout=60.0, preexec_fn=None) -> float:
    """CPU time of one move process; a move still running after `timeout` s of wall time
    (waiting on something) fails the test rather than hanging it. `preexec_fn` runs in the
    move's process before the agent starts (a limit, a closed stream)."""
    process = subprocess.Popen(
        launch.move_command() + list(args),
        env=launch.move_environment(),
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        preexec_fn=preexec_fn,
    )
    give_up = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > give_up:
            process.kill()
            process.wait()
            pytest.fail(f"the move was still running after {timeout:g} s")
        time.sleep(0.005)
    assert status == 0
    return usage.ru_utime + usage.ru_stime


@pytest.mark.parametrize("args", [(), ("move", "--opponent", "greedy")], ids=["default", "greedy-model"])
@pytest.mark.parametrize("remaining", [0.05, 0.2, 1.0])
def test_one_move_on_a_full_26x26_board_stays_within_the_clock(tmp_path, remaining, args):
    (tmp_path / "input.txt").write_text(format_input(FULL_26, 9, remaining))
    for _ in range(3):
        cpu = charged_cpu(tmp_path, args)
        assert cpu < remaining, f"charged {cpu:.3f} s of {remaining} s"
        assert (tmp_path / "output.txt").exists()


CALIBRATIONS = {
    "garbage": lambda path: path.write_bytes(b"\x00\xffnodes_per_second = many\nstartup_seconds =\n"),
    "insane": lambda path: path.write_text("nodes_per_second = 1e15\nstartup_seconds = -3\n"),
    # sane by the numbers, and far off: the search must still stop at its hard maximum
    "claims a fast machine": lambda path: path.write_text("nodes_per_second = 1e9\nstartup_seconds = 0.001\n"),
    "claims a slow machine": lambda path: path.write_text("nodes_per_second = 1000\nstartup_seconds = 1.9\n"),
    "a folder": lambda path: path.mkdir(),
    "a fifo no one writes": lambda path: os.mkfifo(path),  # opening it would wait forever
}


@pytest.mark.parametrize("make", CALIBRATIONS.values(), ids=CALIBRATIONS.keys())
def test_a_bad_or_wrong_calibration_still_gives_a_right_move_in_time(tmp_path, make):
    make(tmp_path / "calibration.txt")
    (tmp_path / "input.txt").write_text(format_input(FULL_26, 9, 1.0))
    cpu = charged_cpu(tmp_path)
    assert cpu < 1.0, f"charged {cpu:.3f} s of 1 s"
    check_output(FULL_26, (tmp_path / "output.txt").read_text())  # raises unless right


def cap_address_space(limit_bytes):
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


@pytest.mark.parametrize("remaining", [1.0, 20.0])  # an instant move, and one that searches
def test_a_memory_cap_below_the_table_still_gives_a_right_move_in_time(tmp_path, remaining):
    # a claimed fast machine asks for the largest table, 64 MiB, which cannot fit in 64 MiB
    # of address space beside the interpreter: the move must shrink it, not die
    (tmp_path / "calibration.txt").write_text("nodes_per_second = 1e9\nstartup_seconds = 0.01\n")
    (tmp_path / "input.txt").write_text(format_input(FULL_26, 9, remaining))
    cpu = charged_cpu(tmp_path, preexec_fn=cap_address_space(64 * 2**20))
    assert cpu < remaining, f"charged {cpu:.3f} s of {remaining} s"
    check_output(FULL_26, (tmp_path / "output.txt").read_text())


STRANGER = "raise SystemExit('a stranger')\n"


def stray_module(folder):
    (folder / "agent.py").write_text(STRANGER)


def stray_package(folder):
    (folder / "agent").mkdir()
    (folder / "agent" / "__init__.py").write_text(STRANGER)


@pytest.mark.parametrize("make", [stray_module, stray_package], ids=["agent.py", "agent/ package"])
def test_an_agent_module_in_the_move_folder_is_not_imported(tmp_path, make):
    # a referee may run every move in a folder of its own files (another agent.py)
    make(tmp_path)
    (tmp_path / "input.txt").write_text(format_input(FULL_26, 9, 1.0))
    assert charged_cpu(tmp_path) < 1.0
    check_output(FULL_26, (tmp_path / "output.txt").read_text())


def test_a_closed_stdout_and_stderr_still_answer_with_exit_code_0(tmp_path):
    # charged_cpu asserts the exit code: a referee may take a non-zero one for a crash
    (tmp_path / "input.txt").write_text(format_input(FULL_26, 9, 1.0))
    assert charged_cpu(tmp_path, preexec_fn=lambda: (os.close(1), os.close(2))) < 1.0
    check_output(FULL_26, (tmp_path / "output.txt").read_text())


def play_one(size, types, seconds, seed, hog=False):
    # the greedy opponent (a full interpreter a move) gets a clock it cannot run out of: the
    # game is played to its end on our small budget
    settings = MatchSettings(games=1, size=size, types=types, time=seconds, time_b=60.0, seed=seed)
    hog_process = None
    if hog:  # a CPU-bound neighbour: slows the wall clock, must not cost us the game
        hog_process = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        return play_match_game(settings, 1, (PlayerSpec("ours"), PlayerSpec("greedy"))).to_json()
    finally:
        if hog_process is not None:
            hog_process.kill()
            hog_process.wait()


@pytest.mark.parametrize(
    "size, types, seconds, hog",
    [
        (10, 4, 2.0, False),
        (16, 6, 5.0, False),
        (10, 4, 2.0, True),
    ],
)
def test_whole_games_at_small_budgets_have_no_time_loss(size, types, seconds, hog):
    record = play_one(size, types, seconds, seed=size, hog=hog)
    assert record["fault"] is None, record["reason"]
    ours = [m for m in record["moves"] if m["player"] == "A"]
    assert sum(m["cpu"] for m in ours) < seconds
    assert record["clocks"]["A"] > 0


# The quick move: a clock too short for Python is answered in C, in about a millisecond.

TINY_CLOCKS = [0.002, 0.005, 0.01, 0.02, 0.05]


def burners(count: int) -> list:
    """CPU burners, each in a session of its own (as a user's other programs): they share
    the processors with a move in a session of its own."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(count)]


@pytest.mark.parametrize("loaded", [False, True], ids=["quiet", "beside-burners"])
def test_moves_with_a_few_milliseconds_left_on_a_full_26x26_board_never_pass_their_clock(tmp_path, loaded):
    load = burners(2 * (os.cpu_count() or 1)) if loaded else []
    try:
        for remaining in TINY_CLOCKS:
            (tmp_path / "input.txt").write_text(format_input(FULL_26, 9, remaining))
            for _ in range(10):
                cpu = charged_cpu(tmp_path)
                assert cpu < remaining, f"charged {cpu * 1000:.2f} ms of {remaining * 1000:g} ms"
                check_output(FULL_26, (tmp_path / "output.txt").read_text())
    finally:
        for burner in load:
            burner.kill()
            burner.wait()
