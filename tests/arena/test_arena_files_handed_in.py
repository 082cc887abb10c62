"""Every command that reads a file a user hands in (records, positions, weights, labels)
refuses a FIFO, which would wait for a writer for ever, and a device, which may never end,
before reading a byte: exit 2, a message naming the file, no traceback."""

import os
import subprocess
import sys

import pytest
from paths import PROJECT_ROOT

PLAYERS = ("py:agent.tuning.two_ply:fitted_player", "py:agent.tuning.two_ply:greedy_pair_player")
READERS = {
    "replay": lambda f: ["-m", "agent", "replay", f],
    "analyse": lambda f: ["-m", "agent", "analyse", f],
    "audit": lambda f: ["-m", "agent", "audit", f],
    "phases": lambda f: ["-m", "agent", "phases", f],
    "tune-eval": lambda f: ["-m", "agent", "tune-eval", f],
    "match --positions": lambda f: ["-m", "agent", "match", "greedy", "random", "--positions", f, "--games", "2"],
    "gate --param weights": lambda f: ["-m", "agent", "gate", *PLAYERS, "--param", f"weights={f}", "--games", "2"],
    "labels --load": lambda f: ["-m", "agent.tuning.labels", "--load", f],
}


def run(arguments: list):
    return subprocess.run([sys.executable, *arguments], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60)


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "records.jsonl"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("reader", READERS)
def test_a_fifo_and_a_device_are_refused_unread(reader, fifo):
    for path, kind in ((fifo, "a FIFO"), ("/dev/zero", "a device")):
        done = run(READERS[reader](path))
        assert done.returncode == 2, (path, done.stderr)
        assert f"{path}: {kind}, not a regular file" in done.stderr and "Traceback" not in done.stderr


def test_a_file_of_positions_too_large_is_refused_unparsed(tmp_path):
    huge = tmp_path / "positions.txt"
    with open(huge, "wb") as handle:
        handle.truncate(81 * 1024 * 1024)  # sparse: no disk written
    done = run(READERS["match --positions"](str(huge)))
    assert done.returncode == 2 and f"{huge}: larger than 80 MB" in done.stderr, done.stderr


def test_a_weights_file_too_large_is_refused_unparsed(tmp_path):
    huge = tmp_path / "weights.json"
    huge.write_text("[" * 70_000)
    done = run(READERS["gate --param weights"](str(huge)))
    assert done.returncode == 2 and f"{huge}: larger than 64 KB: not a weights file" in done.stderr, done.stderr
