"""A match's results file (`--out`, `--resume`) under attack: a file that is no record is
never erased, a hand-edited line is refused before the first game naming its line and
field, a file of any size or kind is refused without being read whole or blocking, and
two commands never write the same file at once."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time

import pytest
from arena_helpers import fruit_rage
from paths import PROJECT_ROOT

# Runs ARGV as a child and prints its exit code and peak RSS (KiB), the match's stdout
# going nowhere.
SMALL_LAUNCHER = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)\n"
    "    os.execv(sys.argv[1], sys.argv[1:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n"
)
MATCH = ["greedy", "random", "--games", "4", "--size", "5", "--types", "3", "--time", "5"]


@pytest.fixture(scope="module")
def match_lines(tmp_path_factory) -> list:
    """The lines of a finished 4-game match (--seed 3), each with its newline."""
    path = tmp_path_factory.mktemp("match") / "games.jsonl"
    done = fruit_rage("match", *MATCH, "--seed", "3", "--out", path)
    assert done.returncode == 0, done.stderr
    return path.read_text().splitlines(keepends=True)


def assert_resume_refused(path, *messages: str) -> None:
    """`match --resume path` exits 2 naming the problem (each of `messages`), before any
    game, without a traceback, and leaves the file byte for byte as it was."""
    before = path.read_bytes()
    done = fruit_rage("match", *MATCH, "--resume", path)
    assert done.returncode == 2 and all(message in done.stderr for message in messages), done.stderr
    assert "Traceback" not in done.stderr and "[1/4]" not in done.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "text",
    [
        "just some notes\n",
        "just some notes",
        '{"a": 1}',  # a whole JSON object, no newline after it
        '{"notes": "to self',  # JSON cut short, but no record's start
    ],
)
def test_resume_never_erases_a_file_that_is_not_a_record(tmp_path, text):
    path = tmp_path / "notes.txt"
    path.write_text(text)
    assert_resume_refused(path, f"--resume {path}: line 1 is not a game record")


def test_resume_drops_only_a_last_line_that_is_a_record_cut_short(tmp_path, match_lines):
    path = tmp_path / "games.jsonl"
    path.write_text(match_lines[0] + "some notes")
    assert_resume_refused(path, f"{path}: line 2 is not a game record")
    path.write_text(match_lines[0] + match_lines[1][:-40])  # a write cut short
    done = fruit_rage("match", *MATCH, "--resume", path)
    assert done.returncode == 0 and "1 game already played" in done.stdout, done.stderr
    lines = path.read_text().splitlines(keepends=True)
    assert lines[0] == match_lines[0] and sorted(map(moves_and_scores, lines)) == sorted(
        map(moves_and_scores, match_lines)
    )


def moves_and_scores(line: str) -> tuple:
    record = json.loads(line)
    return record["game"], [move["move"] for move in record["moves"]], record["scores"]


def test_every_start_of_a_record_line_and_nothing_else_counts_as_cut_short(match_lines):
    from agent.arena.records.reading import MATCH_FIELDS, OPTIONAL_MATCH_FIELDS, is_record_cut_short

    fields = MATCH_FIELDS + OPTIONAL_MATCH_FIELDS
    line = match_lines[1].rstrip("\n").encode()
    assert all(is_record_cut_short(line[:end], fields) for end in range(1, len(line)))
    others = [b"notes", b'{"a": 1}', b'{"notes": "x', b'{"game": 1}x', b'{"game": [1,]', b"[" * 1000, line]
    assert not any(is_record_cut_short(text, fields) for text in others)


def _forge_time_loss(record, keep_points: bool):
    """The last move turned into a time loss by its mover (scores and winner made to fit
    unless `keep_points`)."""
    last = record["moves"][-1]
    if not keep_points:
        record["scores"][last["player"]] -= last["points"]
        last["points"] = 0
    last.update(fault="time", reason="ran out of time")
    record.update(fault="time", winner="B" if last["player"] == "A" else "A")


def _forge_invalid_move(record):
    last = record["moves"][-1]
    record["scores"][last["player"]] -= last["points"]
    last.update(points=0, fault="invalid", reason="illegal move")
    record.update(fault="invalid", winner="B" if last["player"] == "A" else "A")


HAND_EDITS = {
    "winner C": (lambda r: r.update(winner="C"), "the record names no winner A or B"),
    "no winner": (lambda r: r.pop("winner"), "the record has no 'winner'"),
    "pair x": (lambda r: r.update(pair="x"), "the record's 'pair' is not a whole number"),
    "no scores": (lambda r: r.pop("scores"), "the record has no 'scores'"),
    "scores lots": (lambda r: r["scores"].update(A="lots"), "'scores' are not a whole number for A and one for B"),
    "scores of C": (lambda r: r["scores"].update(C=0), "'scores' are not a whole number for A and one for B"),
    "moves null": (lambda r: r.update(moves=None), "the record's 'moves' is not a list of moves"),
    "cpu fast": (lambda r: r["moves"][0].update(cpu="fast"), "move 1's 'cpu' is not a number"),
    "scores 1000000": (lambda r: r["scores"].update(A=1_000_000), "not the A 1000000 - B"),
    "first Z": (lambda r: r.update(first="Z"), "the record names no first mover A or B"),
    "moves []": (lambda r: r.update(moves=[]), "the record has no moves"),
    "time loss with points": (lambda r: _forge_time_loss(r, True), "lost the game, yet it has points"),
    "time loss with time left": (lambda r: _forge_time_loss(r, False), "lost on time with"),
    "invalid legal move": (_forge_invalid_move, "lost the game as invalid, yet"),
    "cpu raised": (lambda r: r["moves"][0].update(cpu=4.0), "its moves leave"),
    "fault of its own": (
        lambda r: r.update(fault="bored"),
        "the record's 'fault' is not 'time', 'invalid', 'stalled' or null",
    ),
    "field of its own": (lambda r: r.update(note="x"), "the record has a field no match writes, 'note'"),
}


@pytest.mark.parametrize("name", HAND_EDITS)
def test_resume_refuses_a_hand_edited_line_naming_line_and_field(tmp_path, match_lines, name):
    change, problem = HAND_EDITS[name]
    record = json.loads(match_lines[1])
    change(record)
    path = tmp_path / "games.jsonl"
    path.write_text(match_lines[0] + json.dumps(record) + "\n")
    assert_resume_refused(path, f"--resume {path}: line 2, game 2: ", problem)


def test_resume_refuses_a_duplicated_line_and_a_game_out_of_range(tmp_path, match_lines):
    path = tmp_path / "games.jsonl"
    path.write_text(match_lines[0] + match_lines[1] + match_lines[1])
    assert_resume_refused(path, f"--resume {path}: line 3: game 2 is on line 2 already")
    record = json.loads(match_lines[1])
    record["game"] = 9
    path.write_text(match_lines[0] + json.dumps(record) + "\n")
    assert_resume_refused(path, f"--resume {path}: line 2: game 9 is not one of this match's 4 games")


def test_resume_refuses_a_game_whose_sides_were_swapped_throughout(tmp_path, match_lines):
    """Every field made to fit: only the match's seed, which decides who moves first, tells."""
    record, other = json.loads(match_lines[1]), {"A": "B", "B": "A"}
    for move in record["moves"]:
        move["player"] = other[move["player"]]
    for key in ("scores", "clocks"):
        record[key] = {side: record[key][other[side]] for side in "AB"}
    record.update(first=other[record["first"]], winner=other[record["winner"]])
    path = tmp_path / "games.jsonl"
    path.write_text(match_lines[0] + json.dumps(record) + "\n")
    assert_resume_refused(path, f"--resume {path}: line 2: game 2 was played with other match arguments (first differ)")


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "folder"])
def test_resume_refuses_what_is_not_a_regular_file_without_reading_it(tmp_path, kind):
    path = tmp_path / "games.jsonl"
    if kind == "fifo":
        os.mkfifo(path)  # read, it would wait for a writer forever
    elif kind == "folder":
        path.mkdir()
    else:
        path = "/dev/zero"
    done = fruit_rage("match", *MATCH, "--resume", path)
    what = "is a folder" if kind == "folder" else "is not a regular file"
    assert done.returncode == 2 and f"--resume {path} {what}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_resume_refuses_a_line_of_300_mb_without_reading_it_whole_or_cutting_it(tmp_path):
    path = tmp_path / "games.jsonl"
    with open(path, "wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # one line of zeros (sparse: no disk used)
    # A child's peak RSS counts the memory of the process it was forked from: start the
    # match from a small launcher, not from this test process, which may be larger.
    done = subprocess.run(
        [sys.executable, "-c", SMALL_LAUNCHER, sys.executable, "-m", "agent", "match", *MATCH, "--resume", str(path)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    exit_code, peak_kib = map(int, done.stdout.split())
    assert exit_code == 2 and "line 1 is not a game record (longer than 16 MB)" in done.stderr
    assert peak_kib < 150 * 1024  # the 16 MB read and the interpreter, not the 300 MB
    assert os.path.getsize(path) == 300 * 1024 * 1024


@pytest.mark.slow
def test_a_second_command_given_a_results_file_in_use_is_refused_and_leaves_it_alone(tmp_path):
    path = tmp_path / "same.jsonl"
    games = ["greedy", "random", "--games", "8", "--size", "8", "--types", "3", "--time", "5"]
    first = subprocess.Popen(
        [sys.executable, "-m", "agent", "match", *games, "--out", str(path)],
        cwd=PROJECT_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not path.exists() or not path.read_text().endswith("\n")):
        time.sleep(0.02)
    seconds = ["random", "greedy", "--games", "3", "--size", "8", "--types", "3", "--time", "5"]
    for command, option in [("match", "--out"), ("match", "--resume"), ("tournament", "--out")]:
        done = fruit_rage(command, *seconds, option, path)
        assert done.returncode == 2, (command, option, done.stderr)
        assert f"{option} {path} is in use by another command" in done.stderr
    assert first.poll() is None  # the lock was tried while the first match held it
    assert first.wait(timeout=120) == 0
    lines = path.read_text().splitlines()
    assert sorted(json.loads(line)["game"] for line in lines) == list(range(1, 9))
    assert {json.loads(line)["agents"]["A"] for line in lines} == {"greedy"}
    assert fruit_rage("replay", path, "--game", 8, "--delay", 0).returncode == 0  # every line whole


def test_a_record_is_written_by_one_write_of_a_whole_line(tmp_path, monkeypatch):
    from agent.arena.records.results_file import RecordsFile

    writes = []
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: writes.append(data) or real_write(fd, data))
    out = RecordsFile(str(tmp_path / "games.jsonl"))
    out.write({"game": 1, "moves": [{"move": "A1"}] * 1000})
    out.close()
    assert len(writes) == 1 and writes[0].endswith(b"\n") and json.loads(writes[0])["game"] == 1


def test_play_out_takes_the_lock_that_match_and_tournament_honour(tmp_path):
    path = tmp_path / "held.jsonl"
    path.write_text("a match's game 1\n")
    with open(path, "a") as held:  # a match writing it holds this lock
        fcntl.flock(held, fcntl.LOCK_EX)
        done = fruit_rage(*PLAY_ONE_CELL, "--out", path, stdin_text="A1\n")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"--out {path} is in use by another command" in done.stderr
    assert path.read_text() == "a match's game 1\n"


def test_a_match_given_the_file_a_game_at_play_writes_is_refused(tmp_path):
    path = tmp_path / "playing.jsonl"
    playing = subprocess.Popen(
        [sys.executable, "-m", "agent", *map(str, PLAY_ONE_CELL), "--out", str(path)],
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):  # the file is made (and locked) before the first prompt
            if path.exists():
                break
            time.sleep(0.05)
        done = fruit_rage("match", "greedy", "random", "--games", 2, "--size", 3, "--types", 2, "--out", path)
        assert done.returncode == 2 and f"--out {path} is in use by another command" in done.stderr, done.stderr
        playing.stdin.write(b"A1\n")
        playing.stdin.close()
        assert playing.wait(timeout=60) == 0
    finally:
        playing.kill()
        playing.wait()
    assert json.loads(path.read_text())["moves"][0]["move"] == "A1"  # play's game, whole


# A 1x1 board of one type: the person's A1 ends the game.
PLAY_ONE_CELL = ("play", "--size", 1, "--types", 1, "--first", "you", "--agent", "greedy")
