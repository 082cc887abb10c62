"""Corrupt game records: `replay`, `audit` and `phases` refuse them with a message naming
the file, the game and the problem (exit 2, no traceback); a last line cut short by an
interrupted match is skipped with a warning and the other games stay usable."""

from __future__ import annotations

import copy
import json
import math
import os
import re

import pytest
from arena_helpers import assert_refused, fruit_rage, random_game_record

from agent.rules import EMPTY, move_name, parse_move_name, play

GOOD = [random_game_record(seed, 4, 3) for seed in (1, 2, 3)]  # games 1, 2, 3
COMMANDS = (("replay", "--game", 2, "--delay", 0), ("audit",), ("phases",))


def write_records(path, records, tail: str = ""):
    path.write_text("".join(json.dumps(record) + "\n" for record in records) + tail)
    return path


def empty_cell_after_first_move(record: dict) -> str:
    """A cell that the first move of `record` leaves empty (the top of a column it took from)."""
    grid = play(tuple(record["board"]), parse_move_name(record["moves"][0]["move"]))[0]
    return move_name(next((0, col) for col, ch in enumerate(grid[0]) if ch == EMPTY))


EMPTY_CELL = empty_cell_after_first_move(GOOD[1])
WINNER = GOOD[1]["winner"]
LOSER = "B" if WINNER == "A" else "A"
FIRST_MOVE = GOOD[1]["moves"][0]


def _set(key, value):
    return lambda record: record.__setitem__(key, value)


def _set_move(number, key, value):
    return lambda record: record["moves"][number - 1].__setitem__(key, value)


CORRUPTIONS = {
    "off the board": (_set_move(3, "move", "Z99"), "move 3: Z99 is off the 4x4 board"),
    "too few rows": (lambda r: r.__setitem__("board", r["board"][:3]), "the board has 3 rows, not 4"),
    "short row": (lambda r: r["board"].__setitem__(1, "xx"), "board row 2 is 'xx', not 4 digits or '*'"),
    "null move": (lambda r: r["moves"].__setitem__(1, None), "move 2 is not a move record"),
    "player C": (_set_move(1, "player", "C"), "move 1 is played by 'C', but it is"),
    "no cpu": (lambda r: r["moves"][1].pop("cpu"), "move 2 has no 'cpu'"),
    "empty cell": (_set_move(2, "move", EMPTY_CELL), f"move 2: {EMPTY_CELL} is an empty cell"),
    "no moves": (_set("moves", []), "the record has no moves"),
    "moves stop early": (lambda r: r["moves"].pop(), "its moves stop with"),
    "wrong points": (
        _set_move(1, "points", 999),  # "scores 1 point" or "scores 9 points"
        f"move 1 ({FIRST_MOVE['move']}) scores {FIRST_MOVE['points']} point",
    ),
    "time not a number": (_set("time", "ten"), "the record's 'time' is not a number"),
    # Python's json writes and reads NaN and Infinity: numbers no clock can show
    "cpu NaN": (_set_move(2, "cpu", math.nan), "move 2's 'cpu' is not a number of seconds from 0"),
    "cpu negative": (_set_move(2, "cpu", -1), "move 2's 'cpu' is not a number of seconds from 0"),
    "time infinite": (_set("time", math.inf), "the record's 'time' is not a number of seconds above 0"),
    "time_b zero": (_set("time_b", 0), "the record's 'time_b' is not a number of seconds above 0"),
    "wrong scores": (
        lambda r: r["scores"].__setitem__("A", r["scores"]["A"] + 100),
        f"its moves score A {GOOD[1]['scores']['A']} - B {GOOD[1]['scores']['B']}, not the "
        f"A {GOOD[1]['scores']['A'] + 100} - B {GOOD[1]['scores']['B']} recorded",
    ),
    "fruit beyond its types": (
        lambda r: r["board"].__setitem__(0, "9" + r["board"][0][1:]),
        "board row 1 holds fruit 9, but the record's 'types' is 3 (fruit 0..2)",
    ),
    "no types": (_set("types", 0), "the record's 'types' is 0, not 1 or more"),
    "wrong winner": (_set("winner", LOSER), f"the record names {LOSER} winner, but {WINNER} won"),
    "no winner": (_set("winner", None), f"the record names no winner, but {WINNER} won"),
}


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_a_corrupt_game_is_refused_naming_file_game_and_problem(tmp_path, name):
    corrupt, problem = CORRUPTIONS[name]
    records = copy.deepcopy(GOOD)
    corrupt(records[1])
    path = write_records(tmp_path / "results.jsonl", records)
    for command, *args in COMMANDS:
        assert_refused(command, (((path, *args), f"{path}: game 2: {problem}"),))


def test_only_a_last_line_cut_short_is_skipped_with_a_warning_and_the_games_before_it_used(tmp_path):
    cut = json.dumps(random_game_record(4, 4, 3))[:60]  # a match interrupted mid-write
    path = write_records(tmp_path / "results.jsonl", GOOD, tail=cut)
    warning = f"{path}: line 4 is cut short, skipped"
    replayed = fruit_rage("replay", path, "--game", 2, "--delay", 0)
    assert replayed.returncode == 0 and replayed.stderr.strip().splitlines() == [
        f"fruit-rage replay: warning: {warning}"
    ]
    assert replayed.stdout.count("Move ") == len(GOOD[1]["moves"]) and "Result: " in replayed.stdout
    audited = fruit_rage("audit", path)
    assert audited.returncode == 0 and warning in audited.stderr
    assert "Over 3 games" in audited.stdout and "game 4:" not in audited.stdout
    phases = fruit_rage("phases", path)
    assert phases.returncode == 0 and warning in phases.stderr and "alpha CPU s a game" in phases.stdout
    # Only an unfinished last line is forgiven: a bad line in the middle, or one that
    # ends in a newline, is still an error.
    middle = tmp_path / "middle.jsonl"
    middle.write_text(json.dumps(GOOD[0]) + "\n" + json.dumps(GOOD[1])[:60] + "\n" + json.dumps(GOOD[2]) + "\n")
    ended = write_records(tmp_path / "ended.jsonl", GOOD[:1], tail=json.dumps(GOOD[1])[:60] + "\n")
    for command, *args in COMMANDS:
        assert_refused(
            command,
            (
                ((middle, *args), f"{middle}: line 2 is not a game record"),
                ((ended, *args), f"{ended}: line 2 is not a game record"),
            ),
        )


def test_a_file_saved_by_a_windows_editor_is_read(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(json.dumps(record).encode() + b"\r\n" for record in GOOD))
    for command, *args in COMMANDS:
        done = fruit_rage(command, path, *args)
        assert done.returncode == 0 and done.stderr == "", (command, done.stderr)
    assert "Result: " in fruit_rage("replay", path, "--delay", 0).stdout


def test_unreadable_files_are_named_with_their_problem(tmp_path):
    missing = tmp_path / "missing.jsonl"
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe{}\n")
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"game": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    surrogate = write_records(tmp_path / "surrogate.jsonl", [{**GOOD[0], "agents": {"A": "\ud800", "B": "b"}}])
    for command, *args in COMMANDS:
        assert_refused(
            command,
            (
                ((missing, *args), f"{missing}: no such file"),
                ((tmp_path, *args), f"{tmp_path}: a folder, not a regular file"),
                ((binary, *args), f"{binary}: line 1 is not UTF-8 text"),
                ((deep, *args), f"{deep}: line 1 is not a game record"),
                ((surrogate, *args), f"{surrogate}: line 1 holds an escaped character that is not text"),
            ),
        )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_file_of_one_endless_line_is_refused_not_read_whole(tmp_path):
    endless = tmp_path / "endless.jsonl"
    with open(endless, "wb") as handle:
        handle.truncate(64 * 1024 * 1024)  # sparse: 64 MB of zero bytes, no newline
    for command, *args in COMMANDS:
        assert_refused(command, (((endless, *args), f"{endless}: line 1 is not a game record (longer than 16 MB)"),))


@pytest.mark.parametrize("delay", ["-1", "nan", "inf"])
def test_replay_refuses_a_negative_or_non_finite_delay(tmp_path, delay):
    path = write_records(tmp_path / "results.jsonl", GOOD)
    done = fruit_rage("replay", path, "--delay", delay)
    assert done.returncode == 2 and "argument --delay: must be 0..3600" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_audit_of_a_game_lost_at_its_first_move_says_there_are_no_moves(tmp_path):
    path = write_records(tmp_path / "results.jsonl", [random_game_record(5, 4, 3, fault_at=0)])
    done = fruit_rage("audit", path)
    assert done.returncode == 0, done.stderr
    assert "no moves to audit: the first move lost the game" in done.stdout
    assert "could be solved" not in done.stdout


def test_counts_of_one_are_singular(tmp_path):
    # One type: A takes the pair in column A (4 points), B the single in column C (1 point).
    record = {
        "game": 1,
        "seed": 1,
        "size": 3,
        "types": 1,
        "time": 10.0,
        "agents": {"A": "alpha", "B": "beta"},
        "first": "A",
        "board": ["***", "0**", "0*0"],
        "moves": [
            {"player": "A", "move": "A3", "cpu": 0.5, "points": 4},
            {"player": "B", "move": "C3", "cpu": 0.5, "points": 1},
        ],
        "scores": {"A": 4, "B": 1},
        "winner": "A",
        "reason": "score 4 to 1",
        "fault": None,
    }
    faulted = random_game_record(6, 4, 3, fault_at=1)
    faulted["agents"] = record["agents"]
    path = write_records(tmp_path / "results.jsonl", [record, {**record, "game": 2}, faulted])
    replayed = fruit_rage("replay", path, "--delay", 0)
    assert "1 type, " in replayed.stdout and "1 fruit, 1 point, " in replayed.stdout
    audited = fruit_rage("audit", path)
    assert "B beta: 1 move, 0 points given away" in audited.stdout
    phases = fruit_rage("phases", path)
    assert "(left out: 1 game ended by a fault)" in phases.stdout
    for done in (replayed, audited, phases):
        assert done.returncode == 0, done.stderr
        assert not re.search(r"\b1 (types|points|moves|games|rows)\b", done.stdout), done.stdout
