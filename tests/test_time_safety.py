"""Never lose on time: real move processes, charged their CPU time (start-up included)
exactly as the referee charges it."""
import os
import random
import subprocess
import sys

import pytest

from agent import launch
from agent.arena.match import MatchSettings, play_match_game
from agent.arena.process import MoveRunner
from agent.gamefile import format_input
from fruit_helpers import random_grid

FULL_26 = random_grid(random.Random(2026), 26, 9)


def charged_cpu(folder, args=()) -> float:
    process = subprocess.Popen(launch.move_command() + list(args), env=launch.move_environment(), cwd=folder,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
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


def play_one(size, types, seconds, seed, hog=False):
    settings = MatchSettings(agents=("ours", "greedy"), games=1, size=size, types=types,
                             time=seconds, seed=seed)
    hog_process = None
    if hog:  # a CPU-bound neighbour: slows the wall clock, must not cost us the game
        hog_process = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        return play_match_game(settings, 1, MoveRunner(grace=10.0))
    finally:
        if hog_process is not None:
            hog_process.kill()
            hog_process.wait()


@pytest.mark.parametrize("size, types, seconds, hog", [
    (10, 4, 2.0, False),
    (16, 6, 5.0, False),
    (10, 4, 2.0, True),
])
def test_whole_games_at_small_budgets_have_no_time_loss(size, types, seconds, hog):
    record = play_one(size, types, seconds, seed=size, hog=hog)
    assert record["fault"] is None, record["reason"]
    ours = [m for m in record["moves"] if m["player"] == "A"]
    assert sum(m["cpu"] for m in ours) < seconds
    assert record["clocks"]["A"] > 0
