"""The referee's clock rule (agent.arena.processes.referee_clock): a move is stopped by its
CPU, not the wall clock, when its charge passes its clock; the watchdog stops a move that
asks for no CPU, and never one that a loaded machine keeps waiting; `--clock wall` charges
wall time. The rule itself on made-up readings, then every way a move runs: a program,
a Python player in its game's process, that process watched from outside."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from arena_helpers import scripted_agent
from containment_helpers import CONTAINMENTS, INPUT
from paths import PROJECT_ROOT

from agent.arena.matches.game_processes import WatchedGames, play_noted_game
from agent.arena.matches.games import MatchSettings
from agent.arena.player_specs import PlayerSpec
from agent.arena.processes.move_runner import MoveRunner
from agent.arena.processes.referee_clock import (
    BACKSTOP_SLACK,
    FAULT_STALLED,
    FAULT_TIME,
    MAX_LOOK,
    MIN_LOOK,
    WALL_CLOCK,
    RefereeClock,
)
from agent.arena.processes.usage import Usage

# 1. The rule, on readings made up: (wall seconds since the start, CPU, demand).


def verdicts(clock: RefereeClock, clock_left: float, readings, slack: float = 0.0) -> list:
    """The watch's verdict at each reading, for a move begun at 0."""
    watch = clock.watch(clock_left, 0.0, slack)
    return [watch.observe(Usage(cpu, demand), wall) for wall, cpu, demand in readings]


def test_a_move_kept_waiting_by_a_loaded_machine_runs_on_until_its_cpu_passes_its_clock():
    # a fifth of a core for 60 s: it runs or waits all the time; its 2 s clock goes at 10 s of wall
    readings = [(t, 0.2 * t, 1.0 * t) for t in range(1, 60)]
    found = verdicts(RefereeClock(grace=1.0), 2.0, readings)
    assert found[:9] == [None] * 9  # 9 s of wall, 1.8 s of CPU: long past clock + grace in wall time
    assert found[9] == FAULT_TIME  # 2.0 s of CPU


def test_a_move_that_sleeps_is_stalled_once_idle_past_its_clock_and_grace():
    readings = [(t / 10, 0.05, 0.06) for t in range(1, 200)]  # started, then asleep
    found = verdicts(RefereeClock(grace=2.0), 3.0, readings)
    first = found.index(FAULT_STALLED)
    assert 4.9 <= readings[first][0] <= 5.2  # 3 + 2 s idle, less its start


def test_idle_time_is_counted_only_while_the_move_neither_runs_nor_waits():
    # a second of sleep, a second of work, over and over: half its wall time is idle
    readings, cpu = [], 0.0
    for t in range(1, 41):
        cpu += 1.0 if t % 2 == 0 else 0.0
        readings.append((float(t), cpu, cpu))
    watch = RefereeClock(grace=30.0).watch(100.0, 0.0)
    for wall, used, demand in readings:
        watch.observe(Usage(used, demand), wall)
    assert watch.idle == pytest.approx(20.0) and watch.verdict is None


def test_a_wall_clock_charges_the_wall_time_whatever_the_cpu():
    found = verdicts(RefereeClock(WALL_CLOCK), 1.5, [(0.5, 0.0, 0.0), (1.0, 0.0, 0.0), (1.6, 0.0, 0.0)])
    assert found == [None, None, FAULT_TIME]
    assert RefereeClock(WALL_CLOCK).charge(cpu=0.1, wall=2.0) == 2.0 and RefereeClock().charge(0.1, 2.0) == 0.1


def test_a_backstop_watch_gives_its_slack_to_both_limits():
    assert verdicts(RefereeClock(grace=1.0), 1.0, [(1.0, 1.5, 1.5)], slack=1.0) == [None]
    assert verdicts(RefereeClock(grace=1.0), 1.0, [(1.0, 2.0, 2.0)], slack=1.0) == [FAULT_TIME]
    watch = RefereeClock(grace=1.0).watch(1.0, 0.0, slack=1.0)
    assert watch.idle_limit == 3.0 and watch.time_limit == 2.0


def test_a_watch_looks_again_when_the_clock_could_be_gone_and_within_its_bounds():
    watch = RefereeClock().watch(100.0, 0.0)
    assert watch.next_look(Usage(0.0, 0.0), 0.0) == MAX_LOOK
    assert watch.next_look(Usage(99.999, 99.999), 100.0) == MIN_LOOK


@pytest.mark.parametrize("bad", [{"kind": "sand"}, {"grace": 0}, {"grace": float("inf")}, {"grace": float("nan")}])
def test_a_clock_rule_is_refused_unless_it_makes_sense(bad):
    with pytest.raises(ValueError):
        RefereeClock(**bad)


# 2. A program's move.


@pytest.mark.parametrize("name", CONTAINMENTS)
def test_a_program_that_spins_is_stopped_at_its_cpu_clock(tmp_path, name):
    with MoveRunner(containment=name) as runner:
        run = runner.run(scripted_agent(tmp_path, "spin"), True, INPUT, 0.6)
    assert run.stopped == FAULT_TIME and run.exit_code == -9
    assert 0.6 <= run.cpu < 0.6 + 0.2  # the look comes when the clock could be gone
    assert run.stop_reason.startswith("ran out of time: stopped at ") and run.stop_reason.endswith("its clock 0.600 s")


@pytest.mark.parametrize("name", CONTAINMENTS)
@pytest.mark.parametrize("script", ["hang", "stop_itself"])
def test_a_program_that_sleeps_or_stops_itself_is_stalled(tmp_path, name, script):
    with MoveRunner(RefereeClock(grace=0.5), containment=name) as runner:
        run = runner.run(scripted_agent(tmp_path, script), True, INPUT, 0.3)
    assert run.stopped == FAULT_STALLED and run.exit_code == -9
    assert run.cpu < 0.3 and run.wall >= 0.8
    assert run.stop_reason.startswith("stopped: used 0.") and "(asleep, blocked or stopped)" in run.stop_reason


# The match of a program that needs 1.2 s of CPU on a 2 s clock, run on one processor shared
# with four burners in sessions of their own: the move gets a fifth of it, and 6 s of wall.
SHARED_PROCESSOR = """
import json, os, subprocess, sys
os.sched_setaffinity(0, {0})
burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(4)]
try:
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
finally:
    for burner in burners:
        burner.kill()
print(done.stdout, done.stderr)
"""


@pytest.mark.slow
def test_a_program_within_its_cpu_clock_is_never_stopped_however_slow_a_loaded_machine_runs_it(tmp_path):
    out = tmp_path / "games.jsonl"
    match = [sys.executable, "-m", "agent", "match", scripted_agent(tmp_path, "burn", 1.2), "greedy"]
    match += ["--games", "1", "--size", "4", "--types", "3", "--time", "2", "--grace", "0.5", "--seed", "1"]
    done = subprocess.run(
        [sys.executable, "-c", SHARED_PROCESSOR, *match, "--out", str(out)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    burner = "A" if record["agents"]["A"] != "greedy" else "B"
    first = next(move for move in record["moves"] if move["player"] == burner)
    assert "fault" not in first and first["cpu"] >= 1.2  # the old rule: killed after 2.5 s of wall
    # its second move burns 1.2 s again: past the 0.8 s left, and stopped there by CPU
    assert record["fault"] == FAULT_TIME and record["winner"] != burner
    stopped_at, clock = stop_figures(record["reason"])
    assert clock < 0.81 and clock <= stopped_at < clock + 0.1


def stop_figures(reason: str) -> tuple:
    """(CPU seconds it was stopped at, its clock) from a time loss's reason."""
    found = re.fullmatch(
        r"ran out of time: stopped at ([\d.]+) s of CPU, its clock ([\d.]+) s(; its process ended)?", reason
    )
    assert found, reason
    return float(found.group(1)), float(found.group(2))


def test_a_match_on_the_wall_clock_says_so_and_charges_the_wall_time(tmp_path):
    out = tmp_path / "games.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "agent", "match", scripted_agent(tmp_path, "hang"), "greedy", "--clock", "wall"]
        + ["--games", "1", "--size", "4", "--types", "3", "--time", "0.5", "--seed", "1", "--out", str(out)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["clock"] == {"A": "wall", "B": "wall"} and record["fault"] == FAULT_TIME
    sleeper = "A" if record["agents"]["A"] != "greedy" else "B"
    (last,) = [move for move in record["moves"] if move["player"] == sleeper]
    assert 0.5 <= last["cpu"] < 1.5 and last["reason"].startswith("ran out of time: stopped after 0.")
    assert "wall time a move" in done.stdout


# 3. A Python player, in its game's process, watched from outside too.

STUCK = """
import signal, time
from agent.players import GreedyPlayer

class Stuck(GreedyPlayer):
    name = "stuck"
    def __init__(self, how):
        self.how = how
    def choose(self, board, clock_left):
        if self.how == "c_call":
            sum(range(10**11))  # one C call: no handler runs until it returns
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF})
        while True:
            time.sleep(0.05)
"""


@pytest.mark.parametrize("how, fault", [("c_call", FAULT_TIME), ("blocked", FAULT_STALLED)])
def test_a_game_process_on_a_cluster_worker_is_stopped_from_outside_by_the_same_rule(tmp_path, monkeypatch, how, fault):
    from agent.arena.matches.cluster import GameProcess

    (tmp_path / "stuck.py").write_text(STUCK)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), str(PROJECT_ROOT)]))
    settings = MatchSettings(games=1, size=4, types=3, time=0.5, seed=1)
    clock = RefereeClock(grace=0.5)
    player = PlayerSpec("py:stuck:Stuck", params=(("how", how),))
    process = GameProcess()
    try:
        record = process.run(
            1, play_noted_game, (settings, (player, PlayerSpec("greedy")), clock, 1), WatchedGames(settings, clock)
        )
    finally:
        process.stop()
    assert record.fault == fault and record.winner is not None
    if how == "c_call":  # no handler can run: the process is stopped from outside, BACKSTOP_SLACK later
        stopped_at, clock = stop_figures(record.reason)
        assert clock == 0.5 and clock + BACKSTOP_SLACK <= stopped_at < clock + BACKSTOP_SLACK + 0.5
        assert record.reason.endswith("; its process ended") and not process.usable
    else:  # its timers blocked in one thread are another's to take (the game process reads its jobs in one)
        assert record.reason.startswith("stopped: used 0.0 s of CPU")


def test_a_match_with_burners_loads_the_machine_says_how_much_and_leaves_none_running(tmp_path):
    from arena_helpers import processes_running

    from agent.arena.processes.burners import BURN

    others = set(processes_running(BURN))  # burners of another match on this machine
    done = subprocess.run(
        [sys.executable, "-m", "agent", "match", "greedy", "random", "--games", "2", "--size", "5", "--types", "3"]
        + ["--seed", "3", "--burners", "2"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    load = re.search(r"load: 2 CPU burners; ([\d.]+) runnable processes on average, ([\d.]+) a core", done.stdout)
    assert load and float(load.group(1)) >= 2.0, done.stdout
    assert "max clock share" in done.stdout
    assert set(processes_running(BURN)) <= others
