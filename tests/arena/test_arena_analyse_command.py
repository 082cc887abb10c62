"""`fruit-rage analyse`: a labelled line per move of a recorded 12x12 match, a summary per
side, one JSON object per game with --json, and the usual refusals and exit codes."""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import time

import pytest
from arena_helpers import assert_refused, fruit_rage, random_game_record
from paths import PROJECT_ROOT

from agent.arena.records.reading import read_records
from agent.arena.review.analysis import LABELS
from agent.cli_support import LineProgress

NODES = "20000"  # a small budget: quick, and enough to tell the moves apart
MOVE_LINE = re.compile(r"^ *(\d+)  ([AB]) +(\S+) +(\d+)  (\S+) +([-+]\d+)[* ] +([-+]\d+)[* ] +(\d+)  (\w+)$")


@pytest.fixture(scope="module")
def match_12x12(tmp_path_factory):
    path = tmp_path_factory.mktemp("analyse") / "match.jsonl"
    done = fruit_rage(
        "match",
        "greedy",
        "random",
        "--games",
        "2",
        "--size",
        "12",
        "--types",
        "4",
        "--time",
        "10",
        "--seed",
        "12",
        "--in-process",
        "--out",
        path,
    )
    assert done.returncode == 0, done.stderr
    return path


def test_every_move_has_a_labelled_line_with_its_figures(match_12x12):
    record = read_records(str(match_12x12), 1)[0]
    done = fruit_rage("analyse", match_12x12, "--game", "1", "--nodes", NODES)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("game 1: A greedy, B random; 12x12, 4 types")
    moves = [MOVE_LINE.match(line) for line in lines if MOVE_LINE.match(line)]
    assert [int(m[1]) for m in moves] == list(range(1, len(record["moves"]) + 1))
    for found, move in zip(moves, record["moves"]):
        assert (found[2], found[3], int(found[4])) == (move["player"], move["move"], move["points"])
        assert found[9] in LABELS
        assert int(found[8]) == max(int(found[6]) - int(found[7]), 0)
    assert re.search(r"^B random: \d+ moves, \d+ points given away, accuracy [\d.]+%", done.stdout, re.M)


def test_json_has_one_object_per_game_with_every_figure_of_a_move(match_12x12):
    done = fruit_rage("analyse", match_12x12, "--nodes", NODES, "--json")
    assert done.returncode == 0, done.stderr
    games = [json.loads(line) for line in done.stdout.splitlines()]
    assert [game["game"] for game in games] == [1, 2]
    for key in ("move", "best_move", "best_value", "played_value", "points_lost", "label", "exact"):
        assert all(key in move for game in games for move in game["moves"])


def test_bad_input_is_refused_with_exit_2(tmp_path, match_12x12):
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not a record\n")
    assert_refused(
        "analyse",
        [
            ([tmp_path / "missing.jsonl"], "fruit-rage analyse: " + str(tmp_path / "missing.jsonl")),
            ([broken], "line 1 is not a game record"),
            ([match_12x12, "--game", "9"], "has no game 9"),
            ([match_12x12, "--nodes", "5"], "--nodes: must be 1000..1000000000"),
            ([match_12x12, "--game", "0"], "--game: must be >= 1"),
        ],
    )


def test_agent_names_from_the_file_reach_the_terminal_escaped(tmp_path):
    record = random_game_record(2, 4, 3)
    record["agents"]["A"] = "evil\x1b[2Jname"
    path = tmp_path / "evil.jsonl"
    path.write_text(json.dumps(record) + "\n")
    done = fruit_rage("analyse", path, "--nodes", "1000")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "evil\\x1b[2Jname" in done.stdout


def test_ctrl_c_ends_it_with_130(match_12x12):
    process = subprocess.Popen(
        [sys.executable, "-m", "agent", "analyse", str(match_12x12)],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2)  # imported and searching: the default budget takes seconds a game
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err.strip().endswith("fruit-rage analyse: interrupted") and "Traceback" not in err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_on_a_terminal_only_and_is_cleared():
    terminal = Terminal()
    progress = LineProgress(terminal)
    progress.reporter("analysing game 3")(5, 40)
    assert terminal.getvalue() == "\r\x1b[Kanalysing game 3: 5 of 40 positions"
    progress.clear()
    assert terminal.getvalue().endswith("\r\x1b[K") and not progress.shown
    assert LineProgress(io.StringIO()).reporter("analysing game 1") is None
