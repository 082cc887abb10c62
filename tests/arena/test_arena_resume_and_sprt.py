"""`match --resume` (a match killed mid-run goes on where it stopped, every game once) and
`match --sprt` / `--sprt-margin` (a paired match that stops at its verdict)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest
from arena_helpers import fruit_rage
from paths import PROJECT_ROOT

pytestmark = pytest.mark.slow

MATCH = ["greedy", "random", "--games", "8", "--size", "6", "--types", "3", "--time", "5", "--paired"]


def games(path) -> list:
    """(game, moves, scores) of every record in the file, in file order."""
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return [(r["game"], [m["move"] for m in r["moves"]], r["scores"]) for r in records]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    path = tmp_path_factory.mktemp("full") / "full.jsonl"
    done = fruit_rage("match", *MATCH, "--seed", "4", "--out", path)
    assert done.returncode == 0, done.stderr
    return sorted(games(path))


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT])
def test_a_match_stopped_mid_run_resumes_with_every_game_once(tmp_path, uninterrupted, stop):
    path = tmp_path / "games.jsonl"
    match = subprocess.Popen(
        [sys.executable, "-m", "agent", "match", *MATCH, "--seed", "4", "--out", str(path)],
        cwd=PROJECT_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not path.exists() or path.read_text().count("\n") < 3):
        time.sleep(0.02)
    match.send_signal(stop)
    match.wait(timeout=30)
    before = games(path)
    assert 3 <= len(before) < 8
    done = fruit_rage("match", *MATCH, "--resume", path)  # the seed comes from the file
    assert done.returncode == 0, done.stderr
    assert f"{len(before)} games already played" in done.stdout and "seed 4" in done.stdout
    after = games(path)
    assert after[: len(before)] == before  # appended, nothing rewritten
    assert sorted(after) == uninterrupted  # each game once, as if never stopped
    assert "[8/8]" in done.stderr  # the table and progress count all eight


def test_a_line_cut_short_is_dropped_and_its_game_played_again(tmp_path, uninterrupted):
    path = tmp_path / "games.jsonl"
    assert fruit_rage("match", *MATCH, "--seed", "4", "--out", path).returncode == 0
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:5]) + lines[5][:40])  # the sixth write cut mid-line
    done = fruit_rage("match", *MATCH, "--resume", path)
    assert done.returncode == 0, done.stderr
    assert "5 games already played" in done.stdout
    assert sorted(games(path)) == uninterrupted


def test_a_finished_match_resumed_plays_nothing_more(tmp_path, uninterrupted):
    path = tmp_path / "games.jsonl"
    assert fruit_rage("match", *MATCH, "--seed", "4", "--out", path).returncode == 0
    done = fruit_rage("match", *MATCH, "--resume", path)
    assert done.returncode == 0 and "8 games already played" in done.stdout
    assert sorted(games(path)) == uninterrupted


def test_a_results_file_saved_with_a_byte_order_mark_resumes_as_the_other_commands_read_it(tmp_path, uninterrupted):
    """read_records skips the mark; so does the resume, and the file cut back keeps it."""
    path = tmp_path / "games.jsonl"
    assert fruit_rage("match", *MATCH, "--seed", "4", "--out", path).returncode == 0
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"\xef\xbb\xbf" + lines[0] + lines[1][:10])  # the second write cut short
    done = fruit_rage("match", *MATCH, "--resume", path)
    assert done.returncode == 0 and "1 game already played" in done.stdout, done.stderr
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf" + lines[0])
    records = [json.loads(line) for line in data[3:].splitlines()]
    assert sorted((r["game"], [m["move"] for m in r["moves"]], r["scores"]) for r in records) == uninterrupted


@pytest.mark.parametrize(
    "change, message",
    [
        (["--size", "7"], "size differ"),
        (["--seed", "5"], "seed differ"),
        (["--time-b", "9"], "time_b differ"),
    ],
)
def test_resuming_with_other_arguments_is_refused(tmp_path, change, message):
    path = tmp_path / "games.jsonl"
    assert fruit_rage("match", *MATCH, "--seed", "4", "--out", path).returncode == 0
    original = path.read_text()
    done = fruit_rage("match", *MATCH, *change, "--resume", path)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert path.read_text() == original


def test_a_file_that_is_no_match_record_is_refused(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text("hello\n{}\n")
    done = fruit_rage("match", *MATCH, "--resume", path)
    assert done.returncode == 2 and "line 1 is not a game record" in done.stderr
    assert path.read_text() == "hello\n{}\n"


@pytest.mark.parametrize(
    "test, verdict",
    [
        (["--sprt-margin", "0", "10"], "H1 accepted"),
        (["--sprt-margin", "1000", "1010"], "H0 accepted"),
        (["--sprt", "0", "20"], "H1 accepted"),
    ],
)
def test_a_sequential_match_stops_at_its_verdict(tmp_path, test, verdict):
    out = tmp_path / "games.jsonl"
    done = fruit_rage(
        "match",
        "greedy",
        "random",
        "--in-process",
        "--paired",
        *test,
        "--size",
        "4",
        "--types",
        "3",
        "--time",
        "5",
        "--seed",
        "1",
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("SPRT"))
    assert verdict in line and "LLR:" in line
    pairs = int(line.split("after ")[1].split()[0])
    recorded = out.read_text().splitlines()
    assert 10 <= pairs < 1000 and len(recorded) == 2 * pairs  # stopped at once, every pair whole
    assert f"\nPairs: {pairs}\nPtnml(0-2): " in done.stdout
    # the report says what was played, and what was planned
    header = " ".join(done.stdout.split("\n", 3)[1:3])
    assert header.startswith("at most 2000 games (1000 boards, each played twice) on 4x4 boards"), header
    assert f"the test decided after {2 * pairs} games of at most 2000\n" in done.stdout


def test_a_sequential_test_needs_pairs():
    done = fruit_rage("match", "greedy", "random", "--sprt-margin", "0", "10")
    assert done.returncode == 2 and "add --paired" in done.stderr
    done = fruit_rage("match", "greedy", "random", "--paired", "--sprt", "5", "0")
    assert done.returncode == 2 and "elo0 (5) must be a number below elo1 (0)" in done.stderr
