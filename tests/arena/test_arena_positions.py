"""`match --positions`: games start from boards given in a file or a folder."""

from __future__ import annotations

import json
import os

import pytest
from arena_helpers import fruit_rage
from paths import PROJECT_ROOT

from agent.arena.matches.openings import load_positions
from agent.gamefile import read_input

TWO_POSITIONS = "2\n2\n1\n01\n10\n\n3\n2\n5.5\n*1*\n011\n100\n"


def test_a_file_of_positions_is_played_in_turn(tmp_path):
    (tmp_path / "openings.txt").write_text(TWO_POSITIONS)
    out = tmp_path / "games.jsonl"
    done = fruit_rage(
        "match",
        "greedy",
        "random",
        "--positions",
        tmp_path / "openings.txt",
        "--games",
        "6",
        "--paired",
        "--time",
        "5",
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    assert "2 positions from" in done.stdout
    records = sorted((json.loads(line) for line in out.read_text().splitlines()), key=lambda r: r["game"])
    assert [r["position"] for r in records] == [1, 1, 2, 2, 1, 1]
    assert [r["board"] for r in records[:4:2]] == [["01", "10"], ["*1*", "011", "100"]]
    assert [r["size"] for r in records[:4:2]] == [2, 3]


def test_a_folder_serves_every_input_txt_below_it():
    samples = os.path.join(PROJECT_ROOT, "io_samples")
    expected = sorted(
        os.path.join(folder, "input.txt") for folder, _, names in os.walk(samples) if "input.txt" in names
    )
    boards = load_positions(samples)
    assert [board.rows for board in boards] == [read_input(path).grid for path in expected]


def test_a_file_saved_by_a_windows_editor_is_read(tmp_path):
    (tmp_path / "openings.txt").write_bytes(b"\xef\xbb\xbf" + TWO_POSITIONS.replace("\n", "\r\n").encode())
    (tmp_path / "plain.txt").write_text(TWO_POSITIONS)
    with_mark, plain = load_positions(str(tmp_path / "openings.txt")), load_positions(str(tmp_path / "plain.txt"))
    assert len(with_mark) == 2 and [b.rows for b in with_mark] == [b.rows for b in plain]


@pytest.mark.parametrize(
    "text, message",
    [
        ("2\n2\n1\n01\n1x\n", "position 1 (from line 1): line 5"),
        (TWO_POSITIONS + "\nhello\n", "line 14: expected a board size n"),
        ("\n\n", "no position found"),
    ],
)
def test_positions_that_are_no_boards_are_refused(tmp_path, text, message):
    (tmp_path / "openings.txt").write_text(text)
    done = fruit_rage("match", "greedy", "random", "--positions", tmp_path / "openings.txt")
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_a_position_with_fruit_beyond_its_declared_types_is_played_and_its_records_replay(tmp_path):
    """The competition reads digits at or above p; the match declares types enough for
    them, so that its records are records the replay and the page take."""
    (tmp_path / "opening.txt").write_text("2\n1\n5\n01\n12\n")
    out = tmp_path / "games.jsonl"
    played = fruit_rage(
        "match", "greedy", "random", "--positions", tmp_path / "opening.txt", "--games", "2", "--out", out
    )
    assert played.returncode == 0, played.stderr
    assert [json.loads(line)["types"] for line in out.read_text().splitlines()] == [3, 3]
    replayed = fruit_rage("replay", out, "--game", "1", "--delay", "0")
    assert replayed.returncode == 0, replayed.stderr
