"""`analyse` and `audit` with --jobs: one game a task in worker processes, the same output in
the same order as one at a time, no more workers than games, a game whose worker dies
reviewed again once (then named as not reviewed), and Ctrl-C or the review's own death
ending the workers, as they end a match's. (On a Dask cluster:
tests/arena/test_arena_cluster.py.)"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import psutil
import pytest
from arena_helpers import fruit_rage, random_game_record
from paths import PROJECT_ROOT

from agent.arena.matches.review_runner import NotReviewed, review_games
from agent.arena.processes.referee_clock import BACKSTOP_SLACK

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


def start_long_review(tmp_path, review=("analyse",), **options):
    """`REVIEW --jobs 2` of three games that take minutes each, once both its workers
    run: (its Popen, its workers)."""
    games = write_records(tmp_path / "big.jsonl", [{**random_game_record(s, 20, 4), "game": s} for s in (1, 2, 3)])
    command, *review_options = review
    process = subprocess.Popen(
        [sys.executable, "-m", "agent", command, games, *review_options, "--jobs", "2"], cwd=PROJECT_ROOT, **options
    )
    parent = psutil.Process(process.pid)
    workers = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:
        workers = parent.children()  # not the workers' guards (agent.arena.processes.worker_guard)
        time.sleep(0.01)
    return process, workers


# Each worker deep in a search in C, where its stop signal's handler cannot run until the
# search's step ends: it is killed by the stop rule, a second of CPU later (it searched on
# for 10 s before).
@pytest.mark.parametrize("review", [("analyse", "--nodes", "1000000000"), ("audit", "--seconds", "600")])
def test_ctrl_c_stops_the_review_and_its_workers_with_130(tmp_path, review):
    # a group of its own, which a terminal's Ctrl-C signals whole
    process, workers = start_long_review(
        tmp_path, review, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert len(workers) >= 2
        while min(cpu_seconds(worker) for worker in workers) < SEARCHED_FOR and process.poll() is None:
            time.sleep(0.1)
        at_stop = {worker.pid: cpu_seconds(worker) for worker in workers}
        os.killpg(process.pid, signal.SIGINT)
        last = wait_for_the_end(workers, at_stop, timeout=60)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.strip().endswith(f"fruit-rage {review[0]}: interrupted") and "Traceback" not in err
    assert out.count("\n") <= 1  # an audit's heading alone: no game reviewed
    assert not alive_pids(workers)
    assert max(last[pid] - at_stop[pid] for pid in at_stop) < BACKSTOP_SLACK + 2.0, (at_stop, last)


# A review whose second game kills its worker: once, when the marker file named on the
# command line is not there yet (it is made then), or every time when the name is "".
DYING_REVIEW = textwrap.dedent(
    """
    import os, signal, sys
    from agent.arena.matches.review_runner import review_games

    def review(record, marker):
        if record["game"] == 2 and not (marker and os.path.exists(marker)):
            if marker:
                open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return record["game"] * 10

    records = [{"game": game} for game in (1, 2, 3)]
    review_games(review, records, (sys.argv[1],), lambda r, result: print(r["game"], result), jobs=2)
    """
)


def run_dying_review(tmp_path, marker: str) -> str:
    script = tmp_path / "dying_review.py"
    script.write_text(DYING_REVIEW)
    done = subprocess.run(
        [sys.executable, str(script), marker],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        timeout=60,  # a review that waits for ever for a dead worker's game fails here
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_game_whose_worker_is_killed_is_reviewed_again_on_a_fresh_one(tmp_path):
    assert run_dying_review(tmp_path, str(tmp_path / "killed")) == "1 10\n2 20\n3 30\n"
    assert (tmp_path / "killed").exists()


def test_a_game_whose_worker_is_killed_twice_is_handed_on_as_not_reviewed(tmp_path):
    not_reviewed = "NotReviewed(reason='worker died twice (killed by signal 9)')"
    assert run_dying_review(tmp_path, "") == f"1 10\n2 {not_reviewed}\n3 30\n"


# A review whose second game stops its worker (SIGSTOP), which never runs again.
STOPPED_REVIEW = textwrap.dedent(
    """
    import os, signal
    from agent.arena.matches.review_runner import review_games

    def review(record):
        if record["game"] == 2:
            os.kill(os.getpid(), signal.SIGSTOP)
        return record["game"] * 10

    records = [{"game": game} for game in (1, 2, 3)]
    review_games(review, records, (), lambda r, result: print(r["game"], result), jobs=2)
    """
)


def test_a_game_whose_worker_is_stopped_is_handed_on_as_not_reviewed_once_idle_past_the_grace(tmp_path):
    script = tmp_path / "stopped_review.py"
    script.write_text(STOPPED_REVIEW)
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        timeout=120,  # a review that waits for ever for a stopped worker's game fails here
    )
    assert done.returncode == 0, done.stderr
    first, second, third = done.stdout.splitlines()
    assert first == "1 10" and third == "3 30"
    assert second.startswith("2 NotReviewed(reason='its worker was stopped: used ")
    assert "(asleep, blocked or stopped)" in second


@pytest.mark.parametrize("command, verb", [("analyse", "analysed"), ("audit", "audited")])
def test_a_game_not_reviewed_is_named_on_stderr_and_the_review_exits_1(small_games, monkeypatch, capsys, command, verb):
    from agent.commands import cli, reviews

    def reviews_that_lose_game_2(function, records, arguments, finished, **options):
        for record in records:
            finished(
                record,
                NotReviewed("worker died twice (exit code 3)") if record["game"] == 2 else function(record, *arguments),
            )

    monkeypatch.setattr(reviews, "review_games", reviews_that_lose_game_2)
    assert cli.main([command, small_games, "--jobs", "2"]) == 1
    out, err = capsys.readouterr()
    assert f"fruit-rage {command}: game 2 not {verb}: worker died twice (exit code 3)" in err
    assert "game 1" in out and "game 3" in out and "game 2" not in out


def test_jobs_start_no_more_workers_than_there_are_games():
    workers_seen = []

    def finished(record, result):
        workers_seen.append(len(multiprocessing.active_children()))

    review_games(len, [{"game": 1}, {"game": 2}], (), finished, jobs=10**30)
    assert 1 <= max(workers_seen) <= 2


# Each worker deep in a search in C, where its parent-death signal's handler cannot run
# until the search's step ends: left alone, it searches on for seconds of CPU, or minutes.
@pytest.mark.parametrize("review", [("analyse", "--nodes", "1000000000"), ("audit", "--seconds", "600")])
def test_a_review_killed_outright_leaves_no_worker_running(tmp_path, review):
    process, workers = start_long_review(tmp_path, review, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert len(workers) >= 2
        while min(cpu_seconds(worker) for worker in workers) < SEARCHED_FOR and process.poll() is None:
            time.sleep(0.1)
        at_kill = {worker.pid: cpu_seconds(worker) for worker in workers}
        process.kill()
        process.wait()
        # generous for a machine running two suites at once: a worker left behind would
        # review its three games for minutes
        last = wait_for_the_end(workers, at_kill, timeout=60)
        assert not alive_pids(workers)
        # by the stop rule: a second of CPU, and a look's worth, whatever the machine's load
        assert max(last[pid] - at_kill[pid] for pid in at_kill) < BACKSTOP_SLACK + 2.0, (at_kill, last)
    finally:
        process.kill()
        process.wait()
        for worker in workers:
            with contextlib.suppress(psutil.NoSuchProcess):
                worker.kill()


SEARCHED_FOR = 4.0  # CPU seconds each worker of a long review has searched when it is killed


def cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def alive_pids(processes) -> list:
    found = []
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process.pid)
    return found


def wait_for_the_end(processes, since: dict, timeout: float) -> dict:
    """The CPU seconds each of `processes` had used when last seen (`since`: as seen
    before), looking until all are gone or `timeout` seconds have passed."""
    last = dict(since)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for process in processes:
            with contextlib.suppress(psutil.NoSuchProcess, psutil.ZombieProcess):
                last[process.pid] = cpu_seconds(process)
        if not alive_pids(processes):
            break
        time.sleep(0.05)
    return last
