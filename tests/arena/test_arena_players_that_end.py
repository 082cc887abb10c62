"""Python players that end their process (sys.exit, os._exit, SIGKILL from outside), that
their timers cannot stop, or that cannot be made: the game is lost with the reason
recorded (or the player refused before the first game), the match, tournament and tuning
run go on to their table, and nothing is left in TMPDIR."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from copy import deepcopy

import pytest
from paths import PROJECT_ROOT

from agent import Board, GreedyPlayer
from agent.arena.referee import lost_by_the_mover, play_game, take_turn
from agent.arena.turns import FAULT_INVALID

pytestmark = pytest.mark.slow

PLAYERS = textwrap.dedent(
    """
    import functools, os, signal, sys, time
    from agent.players import GreedyPlayer

    class Ender(GreedyPlayer):
        name = "ender"
        def __init__(self, how):
            self.how = how
        def choose(self, board, clock_left):
            if self.how == "exit":
                sys.exit(0)
            if self.how == "os_exit":
                os._exit(3)
            if self.how == "kill":
                marker = os.environ["KILLED_ONCE"]  # SIGKILL its own process, in one game only
                if not os.path.exists(marker):
                    open(marker, "w").close()
                    os.kill(os.getpid(), signal.SIGKILL)
                return super().choose(board, clock_left)
            if self.how == "closes":
                os.close(1)
                os.close(2)
                return super().choose(board, clock_left)
            if self.how == "interrupts":
                raise KeyboardInterrupt
            if self.how == "base_exception":
                raise Odd("odd")
            if self.how in ("forks", "escapes"):
                leave_a_sleeper(self.how == "escapes")
                return super().choose(board, clock_left)
            if self.how == "escapes_and_hangs":
                leave_a_sleeper(True)
                sum(range(10**11))
            # the others are players their own timers cannot stop
            if self.how == "blocks":
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF})
            elif self.how == "disarms":
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
            else:
                sum(range(10**11))  # one C call: no handler runs until it returns
            while True:
                time.sleep(0.05)

    class Odd(BaseException):
        pass

    def leave_a_sleeper(escapes):
        # a process that sleeps for long, its pid in $SLEEPERS; `escapes`: in a session of
        # its own, its parent gone; its stdio /dev/null, so as not to hold the test's pipes
        if os.fork():
            return
        null = os.open(os.devnull, os.O_RDWR)
        for descriptor in (0, 1, 2):
            os.dup2(null, descriptor)
        if escapes:
            os.setsid()
            if os.fork():
                os._exit(0)
        with open(os.environ["SLEEPERS"], "a") as pids:
            pids.write(f"{os.getpid()}\\n")
        time.sleep(600)
        os._exit(0)

    exits = functools.partial(Ender, "exit")
    closes = functools.partial(Ender, "closes")
    interrupts = functools.partial(Ender, "interrupts")
    base_exception = functools.partial(Ender, "base_exception")
    forks = functools.partial(Ender, "forks")
    escapes = functools.partial(Ender, "escapes")
    escapes_and_hangs = functools.partial(Ender, "escapes_and_hangs")
    os_exits = functools.partial(Ender, "os_exit")
    killed_once = functools.partial(Ender, "kill")

    def boom():
        raise RuntimeError("boom\\x1b[2J")

    def ends_in_factory():
        os._exit(0)

    def interrupts_in_factory():
        raise KeyboardInterrupt

    blocks = functools.partial(Ender, "blocks")
    disarms = functools.partial(Ender, "disarms")
    c_call = functools.partial(Ender, "c_call")

    class Named(GreedyPlayer):
        name = "greedy, named"

    # players whose making hangs: one long C call, asleep, asleep with SIGTERM blocked (its
    # pid in $SLEEPERS), and one made at once the first time (the match's check) only
    def made_in_c_call():
        sum(range(10**11))

    def made_asleep():
        time.sleep(3600)

    def made_deaf():
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
        with open(os.environ["SLEEPERS"], "a") as pids:
            pids.write(f"{os.getpid()}\\n")
        time.sleep(3600)

    def made_once():
        if os.path.exists(os.environ["KILLED_ONCE"]):
            sum(range(10**11))
        open(os.environ["KILLED_ONCE"], "w").close()
        return GreedyPlayer()
    """
)


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "enders.py").write_text(PLAYERS)
    (tmp_path / "tmp").mkdir()
    return tmp_path


def run_in(folder, *args):
    """`fruit-rage ARGS` in `folder` (where py:enders is found), its TMPDIR a folder of its
    own; a run that hangs fails at the timeout."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])),
        "TMPDIR": str(folder / "tmp"),
        "KILLED_ONCE": str(folder / "killed"),
        "SLEEPERS": str(folder / "sleepers"),
    }
    return subprocess.run(
        [sys.executable, "-m", "agent", *map(str, args)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


# Seeded: one 3x3 board in 256 is of one type, and a first move would clear it.
GAMES = ("--games", 2, "--size", 3, "--types", 2, "--time", 30, "--seed", 1)


@pytest.mark.parametrize(
    "player, jobs, reason",
    [
        ("exits", 1, "tried to end its process: SystemExit(0)"),
        ("os_exits", 1, "its process ended during its move (exit code 3)"),
        ("os_exits", 2, "its process ended during its move (exit code 3)"),
        ("os_exits", 10**30, "its process ended during its move (exit code 3)"),  # a worker per game, no more
    ],
)
def test_a_player_that_ends_its_process_loses_its_games_and_the_match_ends_with_its_table(folder, player, jobs, reason):
    out = folder / "games.jsonl"
    done = run_in(folder, "match", f"py:enders:{player}", "greedy", *GAMES, "--jobs", jobs, "--out", out)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "W-L-D" in done.stdout and "0-2-0" in done.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(record["game"] for record in records) == [1, 2]
    assert all(record["winner"] == "B" and record["reason"] == reason for record in records), records
    assert os.listdir(folder / "tmp") == []  # greedy's match folders went with the processes that made them
    assert run_in(folder, "replay", out, "--game", 2, "--delay", 0).returncode == 0  # records that read back


def test_a_player_that_closes_its_stdout_and_stderr_harms_none_of_the_referees_files(folder):
    out = folder / "games.jsonl"
    done = run_in(folder, "match", "py:enders:closes", "greedy", *GAMES, "--out", out)  # stopped the match before
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(record["game"] for record in records) == [1, 2]
    assert not any(record["fault"] for record in records)  # it plays on: stdout is not the referee's
    assert os.listdir(folder / "tmp") == []


@pytest.mark.parametrize(
    "player, reason",
    [("interrupts", "raised KeyboardInterrupt"), ("base_exception", "raised Odd: odd")],
)
def test_a_player_that_raises_a_base_exception_loses_its_games_in_one_line(folder, player, reason):
    out = folder / "games.jsonl"
    done = run_in(folder, "match", f"py:enders:{player}", "greedy", *GAMES, "--out", out)
    assert done.returncode == 0 and "W-L-D" in done.stdout, done.stderr
    assert "Traceback" not in done.stderr and f"invalid answers (1, 2): {reason}\n" in done.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(record["winner"], record["reason"]) for record in records] == [("B", reason)] * 2


# a game that ends in a C call: its worker is stopped by the referee's clock from outside
HANGS = ("--games", 1, "--size", 4, "--types", 3, "--time", 1, "--grace", 1, "--seed", 1)


@pytest.mark.parametrize(
    "player, games, sleepers_at_least",
    [("forks", GAMES, 2), ("escapes", GAMES, 2), ("escapes_and_hangs", HANGS, 1)],
)
def test_what_a_player_starts_ends_with_its_game_and_leaves_the_records_file_free(
    folder, player, games, sleepers_at_least
):
    out = folder / "games.jsonl"
    try:
        done = run_in(folder, "match", f"py:enders:{player}", "greedy", *games, "--out", out)
        assert done.returncode == 0 and "W-L-D" in done.stdout, done.stderr
        sleepers = [int(pid) for pid in (folder / "sleepers").read_text().split()]
        assert len(sleepers) >= sleepers_at_least  # one a move
        assert not [pid for pid in sleepers if _running(pid)]
        with open(out, "a") as records:
            fcntl.flock(records, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the lock --out took: free
    finally:
        for pid in (folder / "sleepers").read_text().split() if (folder / "sleepers").exists() else ():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)


def _running(pid: int) -> bool:
    """Whether `pid` is a process that is not a zombie (one its new parent has yet to reap)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False


def test_a_game_whose_process_is_killed_is_played_again_on_a_fresh_one(folder):
    out = folder / "games.jsonl"
    done = run_in(folder, "match", "py:enders:killed_once", "greedy", *GAMES, "--jobs", 2, "--out", out)
    assert done.returncode == 0 and "W-L-D" in done.stdout, done.stderr
    assert (folder / "killed").exists()
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(record["game"] for record in records) == [1, 2]  # each once
    assert not any("process ended" in record["reason"] for record in records)


@pytest.mark.parametrize(
    "command",
    [
        ("tournament", "py:enders:os_exits", "greedy", "random", "--games", 2, "--size", 3, "--types", 2, "--seed", 1),
        ("gate", "py:enders:os_exits", "greedy", "--games", 2, "--size", 3, "--types", 2, "--jobs", 2, "--seed", 1),
    ],
    ids=["tournament", "gate"],
)
def test_tournament_and_gate_go_on_past_a_player_that_ends_its_process(folder, command):
    done = run_in(folder, *command)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.count("\n") > 3  # its table or verdict, not just the header
    assert os.listdir(folder / "tmp") == []


def test_a_player_that_exits_at_import_or_whose_factory_fails_is_refused_with_its_message_escaped(folder):
    (folder / "exits_at_import.py").write_text("raise SystemExit(3)\n")
    done = run_in(folder, "match", "py:exits_at_import:player", "greedy", *GAMES)
    assert done.returncode == 2 and "importing exits_at_import raised SystemExit: 3" in done.stderr, done.stderr
    done = run_in(folder, "match", "py:enders:boom", "greedy", *GAMES)
    assert done.returncode == 2 and "raised RuntimeError: boom\\x1b[2J" in done.stderr
    assert "\x1b" not in done.stderr and "Traceback" not in done.stderr
    done = run_in(folder, "match", "py:enders:interrupts_in_factory", "greedy", *GAMES)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.endswith("interrupts_in_factory() raised KeyboardInterrupt\n")


@pytest.mark.parametrize("where", ["import", "factory"])
def test_a_player_that_ends_the_process_making_it_is_refused_and_the_match_says_so(folder, where):
    (folder / "ends_at_import.py").write_text("import os\nos._exit(0)\n")
    player = "py:ends_at_import:player" if where == "import" else "py:enders:ends_in_factory"
    done = run_in(folder, "match", player, "greedy", *GAMES)
    assert done.returncode == 2, done.stderr
    assert f"{player[3:]}': ended its process when made (exit code 0)" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "player, fault, reason",
    [
        ("blocks", "stalled", "stopped: used "),  # its timers blocked, it sleeps
        ("disarms", "stalled", "stopped: used "),
        ("c_call", "time", "ran out of time: stopped at "),  # it burns its CPU in one C call
    ],
)
def test_a_player_its_timers_cannot_stop_is_stopped_from_outside_by_the_same_rule(folder, player, fault, reason):
    out = folder / "games.jsonl"
    games = ("--games", 1, "--size", 4, "--types", 3, "--time", 1, "--grace", 1, "--seed", 1)
    done = run_in(folder, "match", f"py:enders:{player}", "greedy", *games, "--out", out)  # hung for ever before
    assert done.returncode == 0 and "W-L-D" in done.stdout, done.stderr
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert (record["winner"], record["fault"]) == ("B", fault)
    assert record["reason"].startswith(reason) and record["reason"].endswith("; its process ended")
    assert record["moves"][-1]["player"] == "A" and record["moves"][-1]["fault"] == fault
    assert os.listdir(folder / "tmp") == []


@pytest.mark.parametrize(
    "player, reason",
    [
        ("made_in_c_call", "its making was stopped, ran out of time: stopped at "),
        ("made_asleep", "its making was stopped, stopped: used "),
    ],
)
@pytest.mark.parametrize("command", ["match", "gate"])
def test_a_player_whose_making_hangs_is_refused_before_the_first_game(folder, command, player, reason):
    games = ("--games", 2, "--size", 4, "--types", 3, "--time", 1, "--grace", 1, "--seed", 1)
    done = run_in(folder, command, f"py:enders:{player}", "greedy", *games)  # hung for ever before
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"'py:enders:{player}': {reason}" in done.stderr


def test_a_game_whose_players_hang_when_made_stops_the_match_in_one_line(folder):
    games = ("--games", 1, "--size", 4, "--types", 3, "--time", 1, "--grace", 1, "--seed", 1)
    done = run_in(folder, "match", "py:enders:made_once", "greedy", *games)  # hung for ever before
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "game 1's players were not made: ran out of time: stopped at " in done.stderr
    assert done.stderr.endswith("; match stopped\n")


def test_a_match_stopped_by_sigterm_while_a_player_that_blocks_it_is_made_leaves_nothing_running(folder):
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "SLEEPERS": str(folder / "sleepers")}
    match = subprocess.Popen(
        [sys.executable, "-m", "agent", "match", "py:enders:made_deaf", "greedy", "--time", "600", "--games", "1"],
        cwd=folder,
        env={key: str(value) for key, value in env.items()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while not (folder / "sleepers").exists():  # the maker is asleep, SIGTERM blocked
            assert match.poll() is None, match.stderr.read() if match.stderr else ""
            time.sleep(0.1)
        (maker,) = map(int, (folder / "sleepers").read_text().split())
        match.send_signal(signal.SIGTERM)
        match.wait(timeout=60)  # generous for a loaded machine; it waited for the maker for ever before
        assert match.returncode != 0
        assert _gone(maker, timeout=60)
    finally:
        match.kill()
        match.wait()
        for pid in (folder / "sleepers").read_text().split() if (folder / "sleepers").exists() else ():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)


def _gone(pid: int, timeout: float) -> bool:
    """Whether process `pid` is gone within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while _running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_match_whose_player_has_a_name_of_its_own_resumes(folder):
    out = folder / "games.jsonl"
    games = ("--size", 4, "--types", 3, "--time", 5, "--seed", 1)
    assert run_in(folder, "match", "py:enders:Named", "greedy", "--games", 1, *games, "--out", out).returncode == 0
    assert json.loads(out.read_text())["agents"] == {"A": "greedy, named", "B": "greedy"}
    done = run_in(folder, "match", "py:enders:Named", "greedy", "--games", 2, *games, "--resume", out)
    assert done.returncode == 0 and "1 game already played" in done.stdout, done.stderr  # "agents differ" before
    assert len(out.read_text().splitlines()) == 2


def test_a_game_cut_short_is_lost_by_the_side_to_move_unless_the_board_was_already_played_out():
    starts = []
    whole = play_game(
        GreedyPlayer(), GreedyPlayer(), Board.random(3, 4, 3), first="B", on_start=lambda r: starts.append(deepcopy(r))
    )
    cut = starts[0]
    cut.turns = whole.turns[:1]  # B moved, then the worker died in A's turn
    lost = lost_by_the_mover(cut, "its process ended during its move (exit code 3)")
    assert lost.winner == "B" and lost.fault == "invalid" and lost.turns[-1][0] == "A" and lost.date
    assert lost.reason == "its process ended during its move (exit code 3)" == lost.turns[-1][1].reason
    played_out = deepcopy(whole)
    played_out.winner, played_out.reason = None, ""  # every move made, the record not yet sent
    lost_by_the_mover(played_out, "its process ended during its move (exit code 3)")
    assert played_out.fault is None and len(played_out.turns) == len(whole.turns)
    assert (played_out.winner, played_out.reason) == (whole.winner, whole.reason)


def test_a_keyboard_interrupt_is_the_players_own_unless_ctrl_c_can_have_raised_it():
    class Interrupter(GreedyPlayer):
        def choose(self, board, clock_left):
            raise KeyboardInterrupt

    board = Board.random(3, 3, 2)
    with pytest.raises(KeyboardInterrupt):  # Python's own Ctrl-C handler raises it: the user's
        take_turn(Interrupter(), board, 10.0)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as in a game's worker
    try:
        turn = take_turn(Interrupter(), board, 10.0)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert (turn.fault, turn.reason) == (FAULT_INVALID, "raised KeyboardInterrupt")
