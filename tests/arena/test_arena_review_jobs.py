"""`analyse` and `audit` with --jobs: one game a task in worker processes, the same output in
the same order as one at a time, and Ctrl-C ending them, and their workers, as it ends a
match. (On a Dask cluster: tests/arena/test_arena_cluster.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from arena_helpers import fruit_rage, random_game_record
from paths import PROJECT_ROOT

from agent.arena.matches.reviews import review_games

pytestmark = pytest.mark.slow


def write_records(path, records) -> str:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return str(path)


@pytest.fixture(scope="module")
def small_games(tmp_path_factory):
    """Three recorded games of random moves on 4x4 boards, each solved whole in moments."""
    records = [{**random_game_record(seed, 4, 3), "game": seed} for seed in range(1, 4)]
    return write_records(tmp_path_factory.mktemp("reviews") / "games.jsonl", records)


@pytest.mark.parametrize("review", [["analyse", "--json", "--nodes", "1000"], ["audit"]])
def test_two_jobs_print_what_one_job_prints_byte_for_byte(small_games, review):
    command, *options = review
    one = fruit_rage(command, small_games, *options, "--jobs", "1")
    two = fruit_rage(command, small_games, *options, "--jobs", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert two.stdout == one.stdout
    assert all(f"game {game}" in one.stdout or f'"game": {game}' in one.stdout for game in (1, 2, 3))


def wait_for_file(record: dict, folder: str) -> int:
    """A review's task: the first game's call waits for the second's to have run, so
    their results arrive second first."""
    mark = os.path.join(folder, "second-done")
    if record["game"] == 1:
        while not os.path.exists(mark):
            time.sleep(0.01)
    else:
        open(mark, "w").close()
    return record["game"] * 10


def test_results_are_handed_on_in_the_records_order_whatever_finishes_first(tmp_path):
    records = [{"game": 1}, {"game": 2}]
    handed = []
    review_games(wait_for_file, records, (str(tmp_path),), lambda r, result: handed.append((r["game"], result)), jobs=2)
    assert handed == [(1, 10), (2, 20)]


def test_ctrl_c_stops_the_review_and_its_workers_with_130(tmp_path):
    # 20x20 games with the default budget: minutes each, so still running when stopped
    games = write_records(tmp_path / "big.jsonl", [{**random_game_record(s, 20, 4), "game": s} for s in (1, 2, 3)])
    process = subprocess.Popen(
        [sys.executable, "-m", "agent", "analyse", games, "--jobs", "2"],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own, which a terminal's Ctrl-C signals whole
    )
    parent = psutil.Process(process.pid)
    try:
        while len(parent.children(recursive=True)) < 2 and process.poll() is None:
            time.sleep(0.01)
        workers = parent.children(recursive=True)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.strip().endswith("fruit-rage analyse: interrupted") and "Traceback" not in err
    assert out == ""
    _, alive = psutil.wait_procs(workers, timeout=15)
    assert not alive
