"""Matches on a Dask cluster (agent.arena.matches.cluster): on a LocalCluster they give the records
a local run gives, each game once, with in-process players charged only their own CPU;
a real `dask scheduler` and two `dask worker`s on 127.0.0.1 finish a match when a worker
is killed mid-game, and stop it with ClusterLost when the scheduler is; an early stop and
Ctrl-C cancel the games left and stop those running; `analyse` and `audit` there print
what they print locally; an unreachable cluster, one without workers, and workers of other
versions are refused before any game; and the game process on its own."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing import resource_tracker

import library_players
import psutil
import pytest
from arena_helpers import fruit_rage, gone, random_game_record, scripted_agent
from distributed import Client, LocalCluster
from paths import PROJECT_ROOT, TESTS

from agent.arena.matches.cluster import (
    ClusterError,
    ClusterLost,
    ClusterMismatch,
    ClusterUnreachable,
    GameProcess,
    GameStopped,
    check_cluster,
    check_workers,
    run_on_worker,
    software_versions,
    version_differences,
)
from agent.arena.matches.games import MatchSettings, play_match_game
from agent.arena.matches.match import run_match
from agent.arena.player_specs import PlayerSpec
from agent.arena.processes.referee_clock import COMPETITION_CLOCK
from agent.engine import Limit
from agent.players import SearchPlayer

pytestmark = pytest.mark.slow

# Workers and their game processes import library_players (tests/) for ThreadTimeBurner.
WORKER_ENV = {"PYTHONPATH": os.pathsep.join(filter(None, [TESTS, os.environ.get("PYTHONPATH")]))}
GREEDY, RANDOM = PlayerSpec("greedy"), PlayerSpec("random")
# Where the schedulers and workers serve HTTP: a free port of 127.0.0.1, not 8787.
LOOPBACK_ANY_PORT = "127.0.0.1:0"


def moves_and_scores(records) -> list:
    return [
        (r.game, r.agents, r.first, [(side, turn.name) for side, turn in r.turns], r.scores, r.winner) for r in records
    ]


def cmdline_of(process) -> str:
    try:
        return " ".join(process.cmdline())
    except psutil.Error:
        return "?"


def end_processes(processes, timeout: float = 15.0) -> list:
    """Wait up to `timeout` seconds for `processes` to end; kill and return those that did not."""
    _, alive = psutil.wait_procs(processes, timeout=timeout)
    for process in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(alive, timeout=5)
    return alive


def watches_this_process(process) -> bool:
    """Whether `process` is the leftovers watcher of this process (agent.arena.processes.leftovers)."""
    try:
        command = process.cmdline()
    except psutil.Error:
        return False
    return "leftovers import watch" in " ".join(command) and command[-2] == str(os.getpid())


def new_descendants(before: set) -> list:
    return [p for p in psutil.Process().children(recursive=True) if p.pid not in before]


def runs(process, script: str) -> bool:
    """Whether `process` is running `script` (itself, or a shell running it)."""
    try:
        return script in " ".join(process.cmdline())
    except psutil.Error:
        return False


def playing_game_processes(script: str, within: float = 30.0) -> list:
    """The game processes running a move of `script`, once there is one (waiting up to
    `within` seconds); [] when none does by then."""
    deadline = time.monotonic() + within
    while True:
        playing = []
        for process in psutil.process_iter():
            with contextlib.suppress(psutil.Error):
                if runs(process, "serve_games") and any(
                    runs(child, script) for child in process.children(recursive=True)
                ):
                    playing.append(process)
        if playing or time.monotonic() > deadline:
            return playing
        time.sleep(0.05)


def braked_burner(tmp_path) -> tuple:
    """A command agent that burns 0.2 s of CPU a move, or 60 s once the brake file
    exists: (its command, the brake, what the command line of a braked move holds). A
    game that meets the brake lasts a minute more: stopped, it ends at once."""
    burn = scripted_agent(tmp_path, "burn")
    brake = tmp_path / "brake"
    move = f'if [ -e {shlex.quote(str(brake))} ]; then s=60; else s=0.2; fi; exec {burn} "$s"'
    return f"sh -c {shlex.quote(move)}", brake, f"{tmp_path / 'burn.py'} 60"


def scheduler_tasks(client) -> int:
    return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))


def wait_for_no_tasks(client, within: float = 15.0) -> int:
    deadline = time.monotonic() + within
    while scheduler_tasks(client) and time.monotonic() < deadline:
        time.sleep(0.1)
    return scheduler_tasks(client)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def local_cluster_of(workers: int, threads: int):
    """A LocalCluster on 127.0.0.1 and a client of it; afterwards every process it started
    (workers, game processes, moves) is gone."""
    resource_tracker.ensure_running()  # multiprocessing's helper: it stays until pytest ends
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=threads,
        processes=True,
        host="127.0.0.1",
        dashboard_address=LOOPBACK_ANY_PORT,
        env=WORKER_ENV,
    )
    client = Client(cluster, set_as_default=False)
    try:
        yield cluster.scheduler_address, client
    finally:
        # this process's own leftovers watcher (a referee of it ran) lives as long as it does
        started = [p for p in new_descendants(before) if not watches_this_process(p)]
        commands = {p.pid: cmdline_of(p) for p in started}
        client.close()
        cluster.close()
        left = end_processes(started)
        assert not left, f"left running after the cluster closed: {[commands[p.pid] for p in left]}"


@pytest.fixture(scope="module")
def local_cluster():
    """Two workers of one thread each."""
    with local_cluster_of(2, 1) as cluster:
        yield cluster


def test_a_paired_match_of_programs_on_a_cluster_gives_the_local_records(local_cluster):
    address, _ = local_cluster
    settings = MatchSettings(games=12, size=6, types=3, time=5, seed=3, paired=True)
    handed = []
    on_cluster = run_match(GREEDY, RANDOM, settings, cluster=address, on_record=lambda r: handed.append(r.game))
    local = run_match(GREEDY, RANDOM, settings, jobs=2)
    assert sorted(handed) == list(range(1, 13))
    assert [r.game for r in on_cluster.records] == list(range(1, 13))
    assert moves_and_scores(on_cluster.records) == moves_and_scores(local.records)
    assert [r.pair for r in on_cluster.records] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    assert on_cluster.summary() == local.summary()
    for record in on_cluster.records:
        for side in "AB":
            used = sum(turn.seconds for mover, turn in record.turns if mover == side)
            assert used > 0 and record.clocks[side] == pytest.approx(5 - used)


def test_a_match_of_in_process_players_on_a_cluster_gives_the_local_records(local_cluster):
    address, _ = local_cluster
    searcher = functools.partial(SearchPlayer, Limit(depth=2))
    settings = MatchSettings(games=6, size=5, types=3, time=5, seed=7, paired=True)
    on_cluster = run_match(searcher, PlayerSpec("greedy", in_process=True), settings, cluster=address)
    local = run_match(searcher, PlayerSpec("greedy", in_process=True), settings)
    assert [r.game for r in on_cluster.records] == list(range(1, 7))
    assert moves_and_scores(on_cluster.records) == moves_and_scores(local.records)
    assert all(r.agents == ("ours(depth=2)", "greedy") for r in on_cluster.records)

    def searches(records):
        return [[(turn.depth, turn.value) for side, turn in r.turns if side == "A"] for r in records]

    assert searches(on_cluster.records) == searches(local.records)


def test_in_process_players_are_charged_their_own_cpu_on_a_worker_of_two_threads():
    with local_cluster_of(1, 2) as (address, client):
        worker_pids = set(client.run(os.getpid).values())
        burner = functools.partial(library_players.ThreadTimeBurner, 0.2)
        settings = MatchSettings(games=4, size=4, types=3, time=30, seed=5)
        result = run_match(burner, PlayerSpec("greedy", in_process=True), settings, cluster=address)
    assert [r.game for r in result.records] == [1, 2, 3, 4]
    players_pids = {int(r.agents[0].split("-")[1]) for r in result.records}
    # Two game processes, one per worker thread, and neither of them the worker.
    assert len(players_pids) == 2 and not players_pids & worker_pids
    for record in result.records:
        charges = [turn.seconds for side, turn in record.turns if side == "A"]
        # Two games burned at once in one process would each be charged about 0.4 s.
        assert charges and all(0.2 <= seconds < 0.3 for seconds in charges), charges


def test_an_early_stop_cancels_the_games_left_and_stops_those_running(local_cluster, tmp_path):
    address, client = local_cluster
    burner, brake, braked_move = braked_burner(tmp_path)
    stopped, handed = [], []

    def stop_once_a_game_is_braked(record):
        handed.append(record.game)
        brake.touch()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            stopped.extend(playing_game_processes(braked_move, within=0.2))
            if stopped:
                return False
            if not any(client.processing().values()):
                return True  # no game runs now: the next one meets the brake
        raise AssertionError("no game met the brake")

    result = run_match(
        PlayerSpec(burner),
        GREEDY,
        MatchSettings(games=10, size=6, types=3, time=120, seed=4),
        cluster=address,
        on_record=stop_once_a_game_is_braked,
    )
    assert [r.game for r in result.records] == sorted(handed) and len(handed) < 10
    # A game process plays game after game: it ends only when its game is stopped.
    assert stopped and not end_processes(stopped)
    assert gone(braked_move)
    assert wait_for_no_tasks(client) == 0
    after = run_match(GREEDY, RANDOM, MatchSettings(games=2, size=4, types=3, time=10, seed=4), cluster=address)
    assert [r.game for r in after.records] == [1, 2]


def test_ctrl_c_in_the_client_cancels_the_match_and_stops_its_games(local_cluster, tmp_path):
    address, client = local_cluster
    burner, brake, braked_move = braked_burner(tmp_path)
    program = f"""
import sys
from agent.arena.player_specs import PlayerSpec
from agent.arena.matches.match import MatchSettings, run_match
try:
    run_match(PlayerSpec({burner!r}), PlayerSpec("greedy"), MatchSettings(games=8, size=6, types=3, time=120, seed=2),
              cluster={address!r})
except KeyboardInterrupt:
    print("interrupted")
    sys.exit(130)
"""
    match = subprocess.Popen(
        [sys.executable, "-c", program], cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        brake.touch()
        playing = playing_game_processes(braked_move, within=60)
        assert playing
        match.send_signal(signal.SIGINT)
        out, err = match.communicate(timeout=60)
    finally:
        match.kill()
        match.wait()
    assert match.returncode == 130 and out.strip() == "interrupted", err
    assert "Traceback" not in err
    assert not end_processes(playing)
    assert gone(braked_move)
    assert wait_for_no_tasks(client) == 0


def test_workers_of_other_versions_are_refused_naming_what_differs(local_cluster):
    address, client = local_cluster
    here = software_versions()
    assert set(here) == {"fruit-rage", "Python", "dask", "distributed", "cloudpickle"}
    assert here["Python"] == "{}.{}".format(*sys.version_info[:2])
    check_workers(client, address, here)
    with pytest.raises(
        ClusterMismatch,
        match=r"worker tcp://127\.0\.0\.1:\d+ of .* than the client: "
        r"Python 3\.\d+ there, 2\.7 here\. Every worker needs",
    ):
        check_workers(client, address, {**here, "Python": "2.7"})


def test_a_game_sent_to_a_worker_of_other_versions_is_refused_there():
    """As by a worker that joined after the client checked the others."""
    elsewhere = {**software_versions(), "dask": "1.0"}
    with pytest.raises(ClusterMismatch, match=r"runs other versions than the client: dask \S+ there, 1\.0 here"):
        settings = MatchSettings(games=1, size=4, types=3)
        run_on_worker("a-match", elsewhere, 1, play_match_game, (settings, 1, (GREEDY, RANDOM), COMPETITION_CLOCK))


def test_version_differences_name_each_entry_that_differs_or_is_missing():
    here = {"Python": "3.11", "dask": "2024.1.0", "fruit-rage": "0.2 (source abc)"}
    assert version_differences(here, dict(here)) == []
    assert version_differences(here, {"Python": "3.12", "dask": "2024.1.0"}) == [
        "Python 3.12 there, 3.11 here",
        "fruit-rage missing there, 0.2 (source abc) here",
    ]


def test_check_cluster_counts_the_workers_and_their_threads(local_cluster):
    address, _ = local_cluster
    info = check_cluster(address)
    assert (info.address, info.workers, info.threads) == (address, 2, 2)


def test_an_unreachable_cluster_is_refused_before_any_game():
    address = f"tcp://127.0.0.1:{closed_port()}"
    handed = []
    with pytest.raises(ClusterUnreachable, match=f"no Dask scheduler answers at {address} within 5 s"):
        run_match(GREEDY, RANDOM, MatchSettings(games=2, size=4, types=3), cluster=address, on_record=handed.append)
    assert handed == []
    with pytest.raises(ClusterUnreachable, match="'nowhere://x' is not a Dask scheduler address"):
        check_cluster("nowhere://x")


def test_without_distributed_a_cluster_is_refused_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # what a missing package imports as
    with pytest.raises(ClusterError, match=r"python3 -m pip install '\.\[cluster\]' \(distributed is missing\)"):
        check_cluster("tcp://127.0.0.1:8786")
    with pytest.raises(ClusterError, match=r"python3 -m pip install '\.\[cluster\]'"):
        run_match(GREEDY, RANDOM, MatchSettings(games=2, size=4, types=3), cluster="tcp://127.0.0.1:8786")


def test_a_scheduler_without_workers_is_refused():
    with LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=LOOPBACK_ANY_PORT) as cluster:
        with pytest.raises(ClusterUnreachable, match="has no workers .*dask worker tcp://127.0.0.1"):
            check_cluster(cluster.scheduler_address, timeout=1)


@pytest.fixture
def cli_cluster(tmp_path):
    """A `dask scheduler` and two `dask worker` processes (nanny and worker, each in its
    own process group) on 127.0.0.1: (address, a client, the scheduler's process, the two
    workers' processes)."""
    scheduler_file = tmp_path / "scheduler.json"
    env = {**os.environ, **WORKER_ENV}
    processes = []

    def start(module, *args):
        with open(tmp_path / f"{module.rsplit('.', 1)[1]}-{len(processes)}.log", "w") as log:
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", module, *args],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    client = None
    try:
        start(
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--dashboard-address",
            LOOPBACK_ANY_PORT,
            "--scheduler-file",
            str(scheduler_file),
        )
        for _ in range(2):
            start(
                "distributed.cli.dask_worker",
                "--scheduler-file",
                str(scheduler_file),
                "--host",
                "127.0.0.1",
                "--nthreads",
                "1",
                "--dashboard-address",
                LOOPBACK_ANY_PORT,
                "--death-timeout",
                "60",
            )
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        client = Client(scheduler_file=str(scheduler_file), timeout=30, set_as_default=False)
        client.wait_for_workers(2, timeout=60)
        yield client.scheduler.address, client, processes[0], processes[1:]
    finally:
        started = [
            child
            for process in processes
            if psutil.pid_exists(process.pid)
            for child in psutil.Process(process.pid).children(recursive=True)
        ]
        if client is not None:
            client.close()
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        left = end_processes(started)
        assert not left, f"left running after the cluster was killed: {[p.pid for p in left]}"


def test_analyse_and_audit_on_a_cluster_print_what_one_job_prints_byte_for_byte(cli_cluster, tmp_path):
    address, client, _, _ = cli_cluster
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps({**random_game_record(s, 4, 3), "game": s}) + "\n" for s in (1, 2, 3, 4)))
    for review in (["analyse", "--json", "--nodes", "1000"], ["audit"]):
        local = fruit_rage(*review, games, "--jobs", "1")
        on_cluster = fruit_rage(*review, games, "--cluster", address)
        assert local.returncode == 0 and on_cluster.returncode == 0, local.stderr + on_cluster.stderr
        assert on_cluster.stdout == local.stdout
    assert wait_for_no_tasks(client) == 0


def test_a_match_goes_on_when_a_worker_is_killed_mid_game(cli_cluster, tmp_path):
    address, client, _, workers = cli_cluster
    burn = scripted_agent(tmp_path, "burn", 0.2)
    script = str(tmp_path / "burn.py")
    victim = workers[0]
    victim_address = next(
        worker
        for worker, pid in client.run(os.getpid).items()
        if pid in {p.pid for p in psutil.Process(victim.pid).children(recursive=True)}
    )
    killed = {}

    def kill_victim_mid_game():
        """Once a move of the victim's game process runs, kill the victim's nanny and worker."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            keys = client.processing()[victim_address]
            tree = psutil.Process(victim.pid).children(recursive=True)
            if keys and any(runs(process, script) for process in tree):
                os.killpg(victim.pid, signal.SIGKILL)
                killed.update(games=[int(key.split("-")[3]) for key in keys], tree=tree)
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_victim_mid_game)
    killer.start()
    handed = []
    try:
        result = run_match(
            PlayerSpec(burn),
            GREEDY,
            MatchSettings(games=6, size=6, types=3, time=60, seed=9),
            cluster=address,
            on_record=lambda record: handed.append(record.game),
        )
    finally:
        killer.join()
    assert killed, "the victim never ran a move"
    assert len(killed["games"]) == 1
    assert sorted(handed) == [1, 2, 3, 4, 5, 6]
    assert [r.game for r in result.records] == [1, 2, 3, 4, 5, 6]
    assert killed["games"][0] in handed
    assert all(r.winner is not None or r.scores["A"] == r.scores["B"] for r in result.records)
    # The killed worker's game process saw its pipe close and stopped, with its move.
    assert not end_processes([p for p in killed["tree"] if p.pid != victim.pid])
    assert gone(script)


def test_the_game_process_plays_game_after_game_as_a_local_call_does():
    process = GameProcess()
    try:
        settings = MatchSettings(games=2, size=5, types=3, time=10, seed=11)
        played = [
            process.run(game, play_match_game, (settings, game, (GREEDY, RANDOM), COMPETITION_CLOCK)) for game in (1, 2)
        ]
        local = [play_match_game(settings, game, (GREEDY, RANDOM), COMPETITION_CLOCK) for game in (1, 2)]
        assert moves_and_scores(played) == moves_and_scores(local)
        with pytest.raises(ValueError, match="opponent must be 'best' or 'greedy'"):
            factories = (functools.partial(SearchPlayer, opponent="nobody"), GREEDY)
            process.run(1, play_match_game, (settings, 1, factories, COMPETITION_CLOCK))
        assert process.usable
    finally:
        process.stop()
    assert process.process.wait(timeout=10) is not None


def test_a_stopped_game_process_kills_its_move_and_exits(tmp_path):
    burn = scripted_agent(tmp_path, "burn", 0.2)
    script = str(tmp_path / "burn.py")
    process = GameProcess()
    outcome = []

    def play():
        try:
            settings = MatchSettings(games=1, size=6, types=3, time=60, seed=1)
            process.run(1, play_match_game, (settings, 1, (PlayerSpec(burn), GREEDY), COMPETITION_CLOCK))
        except GameStopped as error:
            outcome.append(str(error))

    player = threading.Thread(target=play)
    player.start()
    try:
        assert [p.pid for p in playing_game_processes(script)] == [process.process.pid]
    finally:
        process.stop()
        player.join(timeout=30)
    assert outcome and outcome[0].startswith("game 1: its game process ended")
    assert process.process.wait(timeout=10) is not None and not process.usable
    assert gone(script)


def test_a_lost_scheduler_stops_the_match_with_cluster_lost(cli_cluster, tmp_path):
    address, _, scheduler, _ = cli_cluster
    burn = scripted_agent(tmp_path, "burn", 0.2)
    script = str(tmp_path / "burn.py")

    def kill_scheduler_mid_game():
        playing_game_processes(script, within=60)
        os.killpg(scheduler.pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_scheduler_mid_game)
    killer.start()
    handed = []
    try:
        with pytest.raises(
            ClusterLost,
            match=f"game [12] was lost with the Dask scheduler at {address} "
            r"\(scheduler-connection-lost\)",
        ):
            run_match(
                PlayerSpec(burn),
                GREEDY,
                MatchSettings(games=6, size=6, types=3, time=60, seed=9),
                cluster=address,
                on_record=handed.append,
            )
    finally:
        killer.join()
    assert handed == []
