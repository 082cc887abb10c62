"""`fruit-rage match` end to end: complete short matches, the results file, faults that
lose games while the match goes on, bad --out, Ctrl-C; and the statistics."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tempfile

import pytest
from arena_helpers import assert_refused, fruit_rage, gone, hangup_by_default, scripted_agent, wait_for_script
from paths import PROJECT_ROOT

from agent.arena.agent_commands import command_problem
from agent.arena.player_specs import PlayerSpec
from agent.arena.processes.move_runner import MoveRunner, Stopped
from agent.arena.stats.summary import (
    colour_lines,
    elo_difference,
    forfeit_lines,
    format_elo,
    pair_line,
    report_table,
    wilson_interval,
)
from agent.commands.cli import main


def read_records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.slow
def test_a_complete_short_match_between_baselines(tmp_path):
    out = tmp_path / "results.jsonl"
    done = fruit_rage(
        "match",
        "greedy",
        "minimax3",
        "--games",
        4,
        "--size",
        4,
        "--types",
        3,
        "--time",
        10,
        "--seed",
        5,
        "--jobs",
        2,
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    records = sorted(read_records(out), key=lambda r: r["game"])
    assert [r["game"] for r in records] == [1, 2, 3, 4]
    assert [r["seed"] for r in records] == [500001, 500002, 500003, 500004]
    assert all(r["agents"] == {"A": "greedy", "B": "minimax3"} for r in records)
    assert [r["first"] for r in records] in (["A", "B", "A", "B"], ["B", "A", "B", "A"])
    for r in records:
        assert r["fault"] is None and r["reason"]
        assert r["moves"][0]["player"] == r["first"]
        assert sum(m["points"] for m in r["moves"] if m["player"] == "A") == r["scores"]["A"]
        assert all(m["cpu"] > 0 for m in r["moves"])
    table = done.stdout
    assert "A: greedy" in table and "B: minimax3" in table and "Elo [95%]" in table
    row = next(line for line in table.splitlines() if line.startswith("W-L-D")).split()
    wins = [sum(r["winner"] == side for r in records) for side in ("A", "B", None)]
    assert row[1] == "-".join(map(str, wins)) and row[2] == "-".join(map(str, (wins[1], wins[0], wins[2])))
    assert "[4/4]" in done.stderr


@pytest.mark.slow
def test_a_paired_match_plays_every_board_once_with_each_agent_first(tmp_path):
    out = tmp_path / "results.jsonl"
    done = fruit_rage(
        "match",
        "greedy",
        "minimax3",
        "--games",
        6,
        "--size",
        5,
        "--types",
        3,
        "--time",
        10,
        "--seed",
        8,
        "--jobs",
        2,
        "--paired",
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    records = sorted(read_records(out), key=lambda r: r["game"])
    assert [r["pair"] for r in records] == [1, 1, 2, 2, 3, 3]
    assert [r["seed"] for r in records] == [800001, 800001, 800002, 800002, 800003, 800003]
    for one, two in zip(records[::2], records[1::2]):
        assert one["board"] == two["board"] and {one["first"], two["first"]} == {"A", "B"}
    assert "6 games (3 boards, each played twice) on 5x5 boards" in done.stdout
    assert colour_lines(records)[1] in done.stdout and "Pairs won on total score: " in done.stdout
    assert done.stdout.count("on total score") == 1


def test_a_time_odds_match_gives_b_its_own_clock_and_replay_shows_it(tmp_path):
    out = tmp_path / "results.jsonl"
    done = fruit_rage(
        "match",
        "greedy",
        "random",
        "--games",
        2,
        "--size",
        4,
        "--types",
        3,
        "--time",
        10,
        "--time-b",
        25,
        "--seed",
        3,
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    assert "A 10 s, B 25 s" in done.stdout
    assert "A: greedy (10 s)" in done.stdout and "B: random (25 s)" in done.stdout
    for record in read_records(out):
        assert (record["time"], record["time_b"]) == (10, 25)
        for side, start in (("A", 10), ("B", 25)):
            used = sum(m["cpu"] for m in record["moves"] if m["player"] == side)
            assert record["clocks"][side] == pytest.approx(start - used, abs=1e-4)
    replayed = fruit_rage("replay", out, "--game", 1, "--delay", 0)
    assert replayed.returncode == 0, replayed.stderr
    assert "A 10 s, B 25 s" in replayed.stdout
    record = next(r for r in read_records(out) if r["game"] == 1)
    assert f"B {record['clocks']['B']:.2f} s" in replayed.stdout


def test_paired_needs_an_even_number_of_games(tmp_path):
    out = tmp_path / "results.jsonl"
    done = fruit_rage("match", "greedy", "random", "--games", 3, "--paired", "--out", out)
    assert done.returncode == 2 and "--games must be even (got 3)" in done.stderr
    assert not out.exists() and "Traceback" not in done.stderr


def test_same_seed_same_match(tmp_path):
    outs = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    for out in outs:
        assert (
            fruit_rage(
                "match",
                "random",
                "greedy",
                "--games",
                2,
                "--size",
                4,
                "--types",
                3,
                "--time",
                10,
                "--seed",
                9,
                "--out",
                out,
            ).returncode
            == 0
        )
    strip = [
        [
            {k: v for k, v in r.items() if k not in ("moves", "clocks", "date")}
            | {"moves": [m["move"] for m in r["moves"]]}
            for r in read_records(out)
        ]
        for out in outs
    ]
    assert strip[0] == strip[1]


def test_faulty_agents_lose_every_game_and_the_match_goes_on(tmp_path):
    out = tmp_path / "results.jsonl"
    # a program the shell finds, whose own command is not found: only a move can tell
    done = fruit_rage(
        "match",
        scripted_agent(tmp_path, "garbage"),
        "sh -c no-such-fruit-rage-agent",
        "--games",
        2,
        "--size",
        3,
        "--types",
        2,
        "--time",
        5,
        "--seed",
        1,
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    records = read_records(out)
    assert len(records) == 2
    for r in records:  # whoever moves first loses at once
        assert r["winner"] != r["first"] and r["fault"] == "invalid" and len(r["moves"]) == 1
    reasons = {r["first"]: r["reason"] for r in records}
    assert reasons["A"].startswith("garbled output.txt")
    assert "command not found" in reasons["B"]
    game = {r["first"]: r["game"] for r in records}  # the table says why, briefly
    assert f"A lost 1 game on invalid answers ({game['A']}): garbled output.txt" in done.stdout
    assert f"B lost 1 game on invalid answers ({game['B']}): " in done.stdout


def test_an_unwritable_out_is_an_error_before_any_game(tmp_path):
    marker = tmp_path / "a-game-ran"
    done = fruit_rage(
        "match", f"touch {marker}", "greedy", "--games", 1, "--size", 3, "--out", tmp_path / "missing" / "results.jsonl"
    )
    assert done.returncode == 1
    assert "cannot write --out" in done.stderr
    assert not marker.exists() and "agent" not in done.stdout


def test_an_out_that_is_an_agent_s_own_file_is_refused_and_left_intact(tmp_path):
    script = tmp_path / "agent.py"
    script.write_text("print('my agent')\n")
    script.chmod(0o755)
    (tmp_path / "link.py").symlink_to(script)
    for agent, out in ((f"{sys.executable} {script} --fast", script), (str(tmp_path / "link.py"), script)):
        done = fruit_rage("match", "greedy", agent, "--games", 1, "--size", 3, "--out", out)
        assert done.returncode == 2, done.stderr
        assert f"--out {out} is a file that agent B ({agent}) uses: it would be overwritten" in done.stderr
        assert script.read_text() == "print('my agent')\n" and done.stdout == ""


def test_a_seed_too_long_to_record_is_refused_before_any_game(tmp_path):
    marker = tmp_path / "a-game-ran"
    out = tmp_path / "results.jsonl"
    done = fruit_rage(
        "match", f"touch {marker}", "greedy", "--games", 1, "--size", 3, "--seed", "9" * 4300, "--out", out
    )
    assert done.returncode == 2 and "--seed must have at most 18 digits (got 4300)" in done.stderr
    assert "Traceback" not in done.stderr and not marker.exists() and not out.exists()
    done = fruit_rage("match", "greedy", "random", "--games", 1, "--size", 3, "--seed", -(10**17), "--out", out)
    assert done.returncode == 0 and f"seed {-(10**17)}" in done.stdout


def test_an_empty_out_is_refused_not_taken_for_no_out(tmp_path):
    # `--out "$RESULTS"` with the variable unset: no silent match without its record
    marker = tmp_path / "a-game-ran"
    done = fruit_rage("match", f"touch {marker}", "greedy", "--games", 1, "--size", 3, "--out", "")
    assert done.returncode == 1
    assert "cannot write --out : No such file or directory" in done.stderr
    assert not marker.exists() and "agent" not in done.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_write_to_out_that_fails_stops_the_match_with_a_message():
    done = fruit_rage(
        "match",
        "greedy",
        "random",
        "--games",
        3,
        "--size",
        3,
        "--types",
        2,
        "--time",
        10,
        "--seed",
        1,
        "--out",
        "/dev/full",
    )
    assert done.returncode == 1
    assert "cannot write --out /dev/full: No space left on device; match stopped" in done.stderr
    assert "Traceback" not in done.stderr
    assert "stopped: 1 of 3 games finished" in done.stdout and "A: greedy" in done.stdout


@pytest.mark.parametrize(
    "args, stopped",
    [
        (("match", "greedy", "random", "--games", "2", "--size", "3"), "match stopped"),
        (("play", "--agent", "greedy", "--first", "agent", "--size", "3"), "game abandoned"),
    ],
)
def test_a_move_that_cannot_be_prepared_stops_with_a_message(tmp_path, monkeypatch, capsys, args, stopped):
    from agent.arena.command_player import stop_shared_runners

    missing = tmp_path / "missing"  # e.g. a batch job's TMPDIR removed, or /tmp full
    monkeypatch.setattr(tempfile, "tempdir", str(missing))
    stop_shared_runners()  # a runner an earlier test of this process made has its folder already
    try:
        assert main(list(args)) == 1
    finally:
        stop_shared_runners()
    err = capsys.readouterr().err
    assert (
        f"fruit-rage {args[0]}: cannot make a folder for a move in {missing}: No such file or directory; {stopped}"
    ) in err


def test_a_match_with_stderr_closed_plays_on_without_progress(tmp_path):
    out = tmp_path / "results.jsonl"
    match = [
        sys.executable,
        "-m",
        "agent",
        "match",
        "greedy",
        "random",
        "--games",
        "2",
        "--size",
        "3",
        "--types",
        "2",
        "--time",
        "10",
        "--seed",
        "1",
        "--out",
        str(out),
    ]
    done = subprocess.run(
        ["sh", "-c", '"$@" 2>&-', "sh", *match], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "A: greedy" in done.stdout
    assert len(read_records(out)) == 2


# Ctrl-C; `timeout`, batch systems; a closed terminal or ssh connection
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stopped_match_kills_the_running_move_and_removes_its_folder(tmp_path, stop):
    moves_folder = tmp_path / "tmp"
    moves_folder.mkdir()
    match = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agent",
            "match",
            "greedy",
            scripted_agent(tmp_path, "hang"),
            "--games",
            "3",
            "--size",
            "3",
            "--types",
            "2",
            "--time",
            "60",
            "--seed",
            "2",
        ],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(moves_folder)},
        preexec_fn=hangup_by_default,
    )
    wait_for_script(str(tmp_path / "hang.py"))
    match.send_signal(stop)
    stdout, stderr = match.communicate(timeout=30)
    assert match.returncode == 130
    assert "interrupted: 0 of 3 games finished" in stdout and stderr.endswith("fruit-rage match: interrupted\n")
    assert gone(str(tmp_path / "hang.py"))
    assert list(moves_folder.iterdir()) == []


@pytest.mark.parametrize(
    "agent, message",
    [
        ("no-such-fruit-rage-agent", "no-such-fruit-rage-agent: command not found"),
        ("", "the command is empty"),
        ("./agent.sh --fast", "./agent.sh is a relative path"),
        ("/no/such/agent.sh", "/no/such/agent.sh is not an executable file"),
        ("/usr --fast", "/usr is not an executable file"),  # a folder
    ],
)
def test_an_agent_that_cannot_run_is_refused_before_any_game(tmp_path, agent, message):
    for args in (("match", "greedy", agent, "--games", 1, "--size", 3), ("play", "--agent", agent)):
        done = fruit_rage(*args)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr and "Score" not in done.stdout and "[1/" not in done.stderr


def test_a_relative_path_in_an_agent_s_command_is_refused_before_any_game(tmp_path):
    (tmp_path / "g.py").write_text("print('my agent')\n")
    (tmp_path / "net.bin").write_text("")
    marker = tmp_path / "a-game-ran"
    for agent, path in (
        ("python3 g.py", "g.py"),
        ("python3 ./missing.py", "./missing.py"),
        (f"python3 {tmp_path / 'g.py'} --weights=net.bin", "net.bin"),
    ):
        for args in (("match", agent, f"touch {marker}", "--games", 1, "--size", 3), ("play", "--agent", agent)):
            done = subprocess.run(
                [sys.executable, "-m", "agent", *map(str, args)],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
                env={**os.environ, "PYTHONPATH": PROJECT_ROOT},
            )
            assert done.returncode == 2, done.stderr
            assert (
                f"{path} is a relative path, but every move runs in a fresh folder: give its absolute path, "
                f"{os.path.normpath(tmp_path / path)}"
            ) in done.stderr
            assert not marker.exists() and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "agent, message",
    [
        ("python3 {folder}/g.py", "{folder}/g.py: no such file"),
        ("python3 -u {folder}/g.py --fast", "{folder}/g.py: no such file"),
        ("python3 g.py", "g.py: no such file, and every move runs in a fresh folder: give the script's absolute path"),
    ],
)
def test_a_script_that_does_not_exist_is_refused_before_any_game_naming_it(tmp_path, agent, message):
    agent, message = agent.format(folder=tmp_path), message.format(folder=tmp_path)
    for args in (("match", "ours", agent, "--games", 2, "--size", 4), ("play", "--agent", agent)):
        done = fruit_rage(*args)
        assert done.returncode == 2 and done.stderr.splitlines()[-1].endswith(f"agent {agent!r}: {message}"), (
            done.stderr
        )
        assert "[1/" not in done.stderr and "Score" not in done.stdout


@pytest.mark.slow
def test_more_jobs_than_cpus_is_warned_of_and_played():
    from agent.arena.matches.preflight import available_cpus

    jobs = available_cpus() + 1
    done = fruit_rage("match", "greedy", "random", "--games", 2, "--size", 3, "--types", 2, "--seed", 1, "--jobs", jobs)
    assert done.returncode == 0 and "W-L-D" in done.stdout
    assert f"fruit-rage match: warning: --jobs {jobs} exceeds the {available_cpus()} CPU" in done.stderr.splitlines()[0]
    assert "warning" not in fruit_rage("match", "greedy", "random", "--games", 1, "--size", 3).stderr


def test_every_line_of_a_match_fits_80_columns(tmp_path):
    out = tmp_path / "results.jsonl"
    long_name = f"{sys.executable} -m agent.baselines greedy --and --a --long --tail --of --words"
    garbage = scripted_agent(tmp_path, "garbage")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agent",
            "match",
            long_name,
            garbage,
            "--games",
            "4",
            "--paired",
            "--sprt-margin",
            "0",
            "10",
            "--size",
            "4",
            "--types",
            "3",
            "--seed",
            "2",
            "--out",
            str(out),
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "80", "PYTHONPATH": PROJECT_ROOT},
    )
    assert done.returncode == 0, done.stderr
    assert "lost 2 games on invalid answers" in done.stdout
    too_wide = [line for line in (done.stdout + done.stderr).splitlines()[1:] if len(line) > 80]
    assert too_wide == []  # the first line names the agents as given


@pytest.mark.parametrize(
    "agent",
    [
        "python3 -m agent.baselines greedy",
        f"FRUIT=1 OTHER='a b' python3 {PROJECT_ROOT}/setup.py",
        "cd /tmp && ./agent",
        "$HOME/agent",
        "exec java -jar /x/agent.jar",
        "'unbalanced quote",
        "PYTHONPATH=/x python3 -m agent move --depth 2",  # a module, and a folder of that name here
        f"python3 {PROJECT_ROOT}/setup.py --data agent input.txt",  # a folder's name; the move's own input
        "python3 -c 'import x' /no/such/file.py",  # code, not a script
    ],
)
def test_commands_that_may_run_are_let_through(agent, monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)  # which holds agent/ and README.md
    assert command_problem(agent) is None
    assert command_problem("python3 /x/agent.py README.md").startswith("README.md is a relative path")


def test_a_long_match_does_not_queue_its_games_up_front(monkeypatch):
    """Only the games being played exist: a million games must not cost a million futures."""
    from agent.arena.matches import match

    pending, most_pending = set(), [0]

    class CountingPool(match.ThreadPoolExecutor):
        def submit(self, *args, **kwargs):
            future = super().submit(*args, **kwargs)
            pending.add(future)
            future.add_done_callback(pending.discard)
            most_pending[0] = max(most_pending[0], len(pending))
            return future

    monkeypatch.setattr(match, "ThreadPoolExecutor", CountingPool)
    monkeypatch.setattr(
        match,
        "play_match_game",
        lambda settings, game, factories, clock: match.GameRecord((), "A", (), 2, (), game=game),
    )
    settings = match.MatchSettings(500, 3, 2, 5.0, 1)
    games = []
    greedy = PlayerSpec("greedy")
    match.run_match(greedy, greedy, settings, jobs=3, on_record=lambda record: games.append(record.game))
    assert sorted(games) == list(range(1, 501))
    assert most_pending[0] <= 3


def test_a_stopped_runner_runs_no_more_moves():
    runner = MoveRunner()
    runner.stop()
    with pytest.raises(Stopped):
        runner.run(["true"], False, "", 1.0)


def test_wilson_interval():
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_difference():
    assert elo_difference(0.5) == 0
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf
    assert (format_elo(math.inf), format_elo(-math.inf), format_elo(190.85)) == (">+800", "<-800", "+191")


def test_report_table_counts_per_agent():
    def record(winner, fault, cpu_a):
        return {
            "agents": {"A": "x", "B": "y"},
            "time": 4.0,
            "winner": winner,
            "fault": fault,
            "scores": {"A": 10, "B": 4} if winner == "A" else {"A": 4, "B": 4},
            "moves": [{"player": "A", "cpu": cpu_a}, {"player": "B", "cpu": 0.5}],
        }

    records = [record("A", None, 1.0), record("B", "time", 3.0), record(None, None, 2.0), record("A", "stalled", 0.1)]
    table = report_table(records)
    rows = {line[:21].strip(): line[21:].split() for line in table.splitlines()[2:]}
    assert table.splitlines()[0].split() == ["A:", "x", "B:", "y"]
    assert rows["W-L-D"] == ["2-1-1", "1-2-1"]
    assert rows["score [95%]"][0] == "62%" and rows["mean margin"] == ["+3.0", "-3.0"]
    assert rows["lost on time"] == ["1", "0"] and rows["invalid answers"] == ["0", "0"]
    assert rows["stalled (watchdog)"] == ["0", "1"]
    assert rows["max clock share"] == ["75%", "12%"]  # 3 s of a 4 s clock; 0.5 of 4
    assert rows["CPU a move"] == ["1.525", "s", "(max", "3.000", "s)", "0.500", "s", "(max", "0.500", "s)"]


def test_the_table_fits_its_width_whatever_the_agents_are_called():
    def record(winner):
        return {
            "agents": {"A": "/opt/agents/a-very-long-path/to/the/agent --with options " * 2, "B": "y"},
            "time": 300.0,
            "winner": winner,
            "fault": None,
            "scores": {"A": 1, "B": 0},
            "moves": [{"player": "A", "cpu": 123.456}, {"player": "B", "cpu": 0.5}],
        }

    for width in (80, 60):
        table = report_table([record("A")] * 3 + [record("B")], width)
        assert max(map(len, table.splitlines())) <= width and "<-800" not in table


def test_forfeits_are_told_briefly_per_side_and_fault():
    def record(game, loser, fault, reason):
        return {"game": game, "winner": "A" if loser == "B" else "B", "fault": fault, "reason": reason, "moves": []}

    records = [
        record(4, "B", "invalid", "garbled output.txt: " + "x" * 200),
        record(1, "A", "time", "ran out"),
        record(2, "B", "invalid", "illegal move"),
        record(3, None, None, "score 3 to 1"),
        record(5, "B", "invalid", "other"),
        record(6, "B", "invalid", "other"),
    ]
    records[3]["winner"] = "A"
    lines = forfeit_lines(records, 80)
    assert lines == [
        "A lost 1 game on time (1): ran out",
        "B lost 4 games on invalid answers (2, 4, 5, ...): illegal move",
    ]
    wrapped = forfeit_lines(records[:1], 80)  # a reason too long for a line goes on, whole
    assert max(map(len, wrapped)) <= 80 and "x" * 200 in "".join(line.strip() for line in wrapped)


def test_an_agent_s_error_is_never_cut_in_the_match_report(tmp_path):
    """The last line an agent wrote to stderr is its reason for losing, whole, in the
    report at the end, even when it does not fit a line."""
    script = tmp_path / "fails.py"
    error = "ValueError: the weights file /opt/agents/some/deep/folder/weights-v2.json holds 12 values, not 13"
    script.write_text(
        f"import sys\nprint('Traceback (most recent call last):', file=sys.stderr)\nsys.exit({error!r})\n"
    )
    done = fruit_rage("match", "greedy", f"{sys.executable} {script}", "--games", 1, "--size", 3, "--seed", 1)
    assert done.returncode == 0, done.stderr
    report = done.stdout[done.stdout.index("B lost 1 game on invalid answers") :]
    assert " ".join(report.split()).startswith(
        f"B lost 1 game on invalid answers (1): no output.txt (exit code 1: {error})"
    )
    assert max(map(len, report.splitlines())) <= 80


def test_results_by_colour_and_by_pair():
    def record(pair, first, score_a, score_b):
        winner = "A" if score_a > score_b else "B" if score_b > score_a else None
        return {"pair": pair, "first": first, "winner": winner, "scores": {"A": score_a, "B": score_b}}

    records = [
        record(1, "A", 50, 40),
        record(1, "B", 30, 45),  # A +10, then -15: B's pair
        record(2, "B", 60, 20),
        record(2, "A", 70, 10),  # A wins both
        record(3, "A", 25, 25),
        record(3, "B", 40, 40),  # two draws: even
        record(4, "A", 90, 0),
    ]  # its twin never finished
    assert colour_lines(records) == [
        "moving first  (W-L-D): A 3-0-1, B 1-1-1",
        "moving second (W-L-D): A 1-1-1, B 0-3-1",
    ]
    assert pair_line(records) == "pairs won on total score over both games: A 1, B 1, even 1"


def test_clocks_beyond_what_a_timer_takes_are_refused():
    assert_refused(
        "match",
        [
            (("greedy", "greedy", "--time", "1e10"), "above 0 and up to 1e+06"),
            (("greedy", "greedy", "--time-b", "inf"), "above 0 and up to 1e+06"),
            (("greedy", "greedy", "--grace", "nan"), "above 0 and up to 1e+06"),
        ],
    )
    assert_refused("play", [(("--time", "1e308"), "above 0 and up to 1e+06")])
