"""`fruit-rage regret`: its figures are score_policy's, and bad arguments get one line and
exit code 2."""

import subprocess
import sys

import pytest

from agent import Board, GreedyPlayer
from agent.envs.regret import score_policy


def fruit_rage_regret(*words):
    return subprocess.run(
        [sys.executable, "-m", "agent", "regret", *words], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )


def test_the_table_gives_each_player_s_score_on_the_same_boards():
    done = fruit_rage_regret("greedy", "perfect", "ours", "--size", "4", "--types", "3", "--boards", "3", "--seed", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "3 boards 4x4 of 3 types, seeds 5.."
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    greedy = score_policy(GreedyPlayer(), [Board.random(seed, 4, 3) for seed in (5, 6, 7)])
    assert rows["greedy"] == [str(greedy.moves), f"{greedy.mean_regret:.2f}", f"{greedy.perfect_share:.0%}"]
    assert rows["perfect"][1:] == ["0.00", "100%"]
    moves, mean, perfect, solved, solved_mean = rows["ours"]  # the agent solves 4x4 boards
    assert (mean, perfect, solved, solved_mean) == ("0.00", "100%", moves, "0.00")


@pytest.mark.parametrize(
    "words, message",
    [
        (["alphazero"], "fruit-rage regret: no player 'alphazero': a PLAYER is ours, greedy, random, minimax3,"),
        (["--boards", "0"], "fruit-rage regret: argument --boards: must be >= 1, got 0"),
        (["--size", "27"], "fruit-rage regret: argument --size:"),
        (["py:no_such_module:player"], "fruit-rage regret: "),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_code_2(words, message):
    done = fruit_rage_regret(*words)
    assert done.returncode == 2 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(message) and "Traceback" not in done.stderr


def test_help_says_what_is_scored():
    done = fruit_rage_regret("--help")
    assert done.returncode == 0 and "regret" in done.stdout and "--simulations" in done.stdout
