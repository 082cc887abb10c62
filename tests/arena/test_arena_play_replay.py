"""Replay of a recorded game, human play driven from piped input, and the baselines."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from types import SimpleNamespace

import pytest
from arena_helpers import fruit_rage, gone, hangup_by_default, scripted_agent, wait_for_script
from paths import PROJECT_ROOT

from agent.arena.referee import GameRecord, play_game
from agent.arena.review.audit import solve_exactly
from agent.arena.terminal.boards import render_board, use_colour
from agent.baselines import greedy_move, minimax3_move, random_move
from agent.board import Board
from agent.commands.play import best_play_note, play_human_game
from agent.commands.replay import PROMPT, replay
from agent.players import RandomPlayer
from agent.rules import group_at, groups, is_empty, move_name, negamax_value, play


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("replay") / "results.jsonl"
    done = fruit_rage(
        "match", "greedy", "random", "--games", 2, "--size", 4, "--types", 3, "--time", 10, "--seed", 4, "--out", out
    )
    assert done.returncode == 0, done.stderr
    return out


def test_replay_shows_every_move_and_the_result(results):
    record = next(json.loads(line) for line in results.read_text().splitlines() if json.loads(line)["game"] == 2)
    done = fruit_rage("replay", results, "--game", 2, "--delay", 0)
    assert done.returncode == 0, done.stderr
    for number, move in enumerate(record["moves"], 1):
        assert (
            f"Move {number}: {move['player']} ({record['agents'][move['player']]}) plays {move['move']}:" in done.stdout
        )
    assert done.stdout.count("    A B C D\n") == len(record["moves"])
    assert "#" in done.stdout and "\x1b[" not in done.stdout  # highlighted, no colour into a pipe
    assert done.stdout.rstrip().endswith(record["reason"])
    last_score = f"score A {record['scores']['A']} - B {record['scores']['B']}"
    assert last_score in done.stdout


def test_replay_waits_for_enter_and_ends_at_end_of_input(results):
    record = json.loads(results.read_text().splitlines()[0])
    stdout = io.StringIO()
    replay(record, None, io.StringIO("\n"), stdout)
    assert "Move 2:" in stdout.getvalue() and "Move 3:" not in stdout.getvalue()
    assert "Result" not in stdout.getvalue()
    assert stdout.getvalue().endswith(f" s\n{PROMPT}\n")  # the last prompt's line is ended


def shown_moves(text: str) -> list:
    """The move numbers a replay showed, in order."""
    return [int(line.split()[1].rstrip(":")) for line in text.splitlines() if line.startswith("Move ")]


def test_replay_steps_back_jumps_to_a_move_and_quits(results):
    record = json.loads(results.read_text().splitlines()[0])
    count = len(record["moves"])
    assert count >= 4
    stdout = io.StringIO()
    replay(record, None, io.StringIO(f"\nb\nb\n{count}\nb\n0\n{count + 1}\nq\n\n"), stdout)
    text = stdout.getvalue()
    assert shown_moves(text) == [1, 2, 1, count, count - 1]  # the second b stays at move 1
    assert "this is the first move" in text
    assert f"'0' is not a move of this game: 1..{count}" in text and f"'{count + 1}' is not" in text
    assert "Result" not in text and text.endswith(PROMPT)  # q: no newline is owed


def test_replay_takes_a_number_of_thousands_of_digits_as_no_such_move(results):
    done = fruit_rage("replay", results, "--game", 1, stdin_text="9" * 5000 + "\nq\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "is not a move of this game" in done.stdout and "9" * 100 not in done.stdout  # cropped, not echoed whole


def test_replay_past_the_last_move_shows_the_result(results):
    record = json.loads(results.read_text().splitlines()[0])
    count = len(record["moves"])
    stdout = io.StringIO()
    replay(record, None, io.StringIO(f"{count}\n\n"), stdout)
    assert shown_moves(stdout.getvalue()) == [1, count]
    assert stdout.getvalue().rstrip().endswith(record["reason"])


def test_replay_of_a_missing_game_is_a_clear_error(results):
    done = fruit_rage("replay", results, "--game", 3)
    assert done.returncode == 2 and "no game 3" in done.stderr


def play_args(**overrides):
    settings = dict(first="you", size=3, types=2, time=60.0, agent_time=60.0, seed=1, agent="greedy")
    return SimpleNamespace(**{**settings, **overrides})


def test_human_play_from_piped_input_rejects_bad_cells_and_plays_to_the_end():
    # Board of seed 1: 001 / 011 / 110. Typing every cell in turn plays whatever is left.
    cells = [f"{col}{row}" for col in "ABC" for row in "123"]
    stdout = io.StringIO()
    play_human_game(play_args(), io.StringIO("\n".join(["hello", "D1", ""] + cells * 5) + "\n"), stdout)
    text = stdout.getvalue()
    assert "not a cell name: 'HELLO'" in text and "D1 is off the 3x3 board; try again." in text
    assert "You played A1: 3 fruit, 9 points" in text
    assert "Agent (greedy) played" in text and "Agent (greedy) is thinking..." in text
    assert "is an empty cell; try again." in text
    final = [line for line in text.splitlines() if "Final score" in line]
    assert len(final) == 1 and final[0].startswith(("You win. Final score: you ", "You lose. Final score: you "))


def test_human_play_shows_the_board_after_your_move_with_the_agent_s_group_highlighted():
    # Board of seed 1: 001 / 011 / 110. You take the 0s at A1 (3 fruit); greedy then takes the 1s.
    stdout = io.StringIO()
    play_human_game(play_args(), io.StringIO("A1\nq\n"), stdout)
    text = stdout.getvalue()
    after_yours = play(("001", "011", "110"), (0, 0))[0]
    agent_cell = greedy_move(after_yours)
    highlighted = render_board(after_yours, set(group_at(after_yours, agent_cell)))
    played = text.index("You played A1")
    assert text.index("Agent (greedy) is thinking...") > played
    assert text.index(highlighted) > played and text.index(highlighted) < text.index("Agent (greedy) played")
    after_agent = play(after_yours, agent_cell)[0]
    assert render_board(after_agent) in text[text.index("Agent (greedy) played") :]


def test_human_play_quits_cleanly_at_end_of_input():
    done = fruit_rage("play", "--size", 3, "--types", 2, "--seed", 1, "--agent", "greedy", stdin_text="A1\n")
    assert done.returncode == 0 and done.stderr == ""
    assert "You played A1" in done.stdout and done.stdout.endswith("Game abandoned.\n")


@pytest.mark.parametrize("first", ["computer", "agent"])  # agent: another word for computer
def test_human_play_against_ours_when_the_computer_starts(first):
    done = fruit_rage("play", "--size", 3, "--types", 2, "--seed", 2, "--first", first, stdin_text="q\n")
    assert done.returncode == 0, done.stderr
    assert "the agent moves first" in done.stdout and "Agent (ours) played" in done.stdout
    assert "Your move" in done.stdout and done.stdout.endswith("Game abandoned.\n")


def test_human_play_shows_the_start_board_when_the_agent_starts_and_counts_in_the_singular():
    grid = ("001", "011", "110")  # the board of seed 1; C3 is a lone 0
    start = render_board(grid, set(group_at(grid, greedy_move(grid))))
    stdout = io.StringIO()
    play_human_game(play_args(first="computer"), io.StringIO("q\n"), stdout)
    text = stdout.getvalue()
    assert start in text and text.index(start) < text.index("Agent (greedy) played")
    stdout = io.StringIO()
    play_human_game(play_args(), io.StringIO("C3\nq\n"), stdout)
    text = stdout.getvalue()
    assert "You played C3: 1 fruit, 1 point in" in text and "1 points" not in text
    stdout = io.StringIO()
    play_human_game(play_args(types=1), io.StringIO("q\n"), stdout)
    assert "3x3, 1 type, seed 1: you move first.\nClocks: you 60 s, the agent 60 s of CPU.\n" in stdout.getvalue()


def test_play_takes_a_python_player_as_match_does():
    """`--agent py:...` as in match: the player is made (its module tried in a worker
    first) and plays in this process, named as given; --help says so."""
    stdout = io.StringIO()
    agent = "py:library_players:CpuBurner"
    play_human_game(play_args(first="computer", agent=agent), io.StringIO("q\n"), stdout)
    assert f"Agent ({agent}) played " in stdout.getvalue() and "Game abandoned." in stdout.getvalue()
    refused = fruit_rage("play", "--agent", "py:no_such_module_here:player")
    assert (
        refused.returncode == 2
        and "no_such_module_here" in refused.stderr
        and "command not found" not in refused.stderr
    )
    assert "py:package.module:factory" in " ".join(fruit_rage("play", "--help").stdout.split())


def test_terminal_play_gives_the_person_and_the_agent_the_clocks_of_the_page():
    from agent.web.app import DEFAULTS

    shown = " ".join(fruit_rage("play", "--help").stdout.split())
    assert f"(default: {DEFAULTS['clock']:g})" in shown and f"(default: {DEFAULTS['agent_clock']:g}, as" in shown
    done = fruit_rage("play", "--size", "3", "--seed", "1", stdin_text="q\n")
    clocks = f"Clocks: you {DEFAULTS['clock']:g} s, the agent {DEFAULTS['agent_clock']:g} s of CPU."
    assert done.returncode == 0 and clocks in done.stdout


def test_human_play_says_once_that_you_lose_on_time_with_the_score():
    class SlowInput(io.StringIO):
        def readline(self, *args):
            time.sleep(0.3)  # the person thinks past a 0.1 s clock
            return super().readline(*args)

    stdout = io.StringIO()
    play_human_game(play_args(time=0.1), SlowInput("A1\n"), stdout)
    text = stdout.getvalue()
    assert text.count("ran out of time") == 1 and "wins" not in text and "You played" not in text
    last = " ".join(text[text.rindex("You lose") :].split())  # the last message, in 80 columns
    assert last.startswith("You lose: ran out of time: used 0.3") and last.endswith("Final score: you 0, agent 0.")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])  # e.g. the terminal closed
def test_human_play_stopped_during_the_agent_s_move_kills_it_and_removes_its_folder(tmp_path, stop):
    moves_folder = tmp_path / "tmp"
    moves_folder.mkdir()
    hang = scripted_agent(tmp_path, "hang")
    game = subprocess.Popen(
        [sys.executable, "-m", "agent", "play", "--agent", hang, "--first", "agent", "--size", "3", "--seed", "1"],
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(moves_folder)},
        preexec_fn=hangup_by_default,
    )
    wait_for_script(str(tmp_path / "hang.py"))  # the agent's move runs
    game.send_signal(stop)
    stdout, stderr = game.communicate(timeout=30)
    assert game.returncode == 130 and stdout.endswith("Game abandoned.\n")
    assert stderr == "fruit-rage play: interrupted\n"
    assert gone(str(tmp_path / "hang.py"))
    assert list(moves_folder.iterdir()) == []


# Python players that play as a match's do in `play`: in a worker process of their own, its
# watch stopping the move that their own timers cannot (one long C call; signals blocked).
UNSTOPPABLE = textwrap.dedent(
    """
    import os, signal, time
    from agent.players import GreedyPlayer

    class CCall(GreedyPlayer):
        def choose(self, board, clock_left):
            sum(range(10**11))  # one C call: no handler runs until it returns

    class Deaf(GreedyPlayer):
        def choose(self, board, clock_left):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF, signal.SIGTERM, signal.SIGINT})
            with open("deaf.pid", "w") as pid:
                pid.write(str(os.getpid()))
            while True:
                time.sleep(0.05)
    """
)


def start_play(folder, agent: str, **options) -> subprocess.Popen:
    """`fruit-rage play --agent py:unstoppable:AGENT`, the agent first with a 1 s clock."""
    (folder / "unstoppable.py").write_text(UNSTOPPABLE)
    command = ["play", "--agent", f"py:unstoppable:{agent}", "--first", "agent", "--agent-time", "1"]
    return subprocess.Popen(
        [sys.executable, "-m", "agent", *command, "--size", "3", "--seed", "1"],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **options,
    )


@pytest.mark.parametrize("agent, reason", [("CCall", "ran out of time: stopped at "), ("Deaf", "stopped: used ")])
def test_a_python_agent_its_timers_cannot_stop_loses_its_move_by_the_referees_rule(tmp_path, agent, reason):
    game = start_play(tmp_path, agent)
    stdout, stderr = game.communicate(timeout=90)  # it ran on for minutes, or for ever, before
    assert game.returncode == 0 and "Traceback" not in stderr, stderr
    assert f"You win: the agent's move lost, {reason}" in " ".join(stdout.split())


def test_play_stopped_while_a_python_agent_blocks_the_stop_signals_ends_it(tmp_path):
    game = start_play(tmp_path, "Deaf", preexec_fn=hangup_by_default)
    try:
        for _ in range(600):
            if (tmp_path / "deaf.pid").exists():
                break
            time.sleep(0.1)
        worker = int((tmp_path / "deaf.pid").read_text())
        game.send_signal(signal.SIGTERM)
        stdout, stderr = game.communicate(timeout=60)  # SIGTERM did not stop it before
        assert game.returncode == 130 and stdout.endswith("Game abandoned.\n"), stderr
        assert not os.path.exists(f"/proc/{worker}")
    finally:
        game.kill()
        game.wait()


def run_reading(args, stdin_bytes=None) -> subprocess.CompletedProcess:
    """`fruit-rage ARGS` with stdin closed (None) or fed these bytes, decoded strictly as
    UTF-8 (as on a desktop's UTF-8 locale, not the lenient C locale)."""
    command = [sys.executable, "-m", "agent", *map(str, args)]
    if stdin_bytes is None:
        command = ["sh", "-c", '"$@" <&-', "sh", *command]
    return subprocess.run(
        command,
        cwd=PROJECT_ROOT,
        input=stdin_bytes,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=60,
    )


@pytest.mark.parametrize("stdin_bytes", [None, b"\xff\xfeA1\n"])
def test_human_play_with_stdin_closed_or_not_text_ends_or_asks_again(stdin_bytes):
    done = run_reading(("play", "--size", 3, "--types", 2, "--seed", 1, "--agent", "greedy"), stdin_bytes)
    stdout = done.stdout.decode()
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert stdout.endswith("Game abandoned.\n")
    if stdin_bytes:
        assert "not a cell name: '\ufffd\ufffdA1'" in stdout and "try again." in stdout


@pytest.mark.parametrize("stdin_bytes", [None, b"\xff\xfe\n"])
def test_replay_with_stdin_closed_or_not_text_steps_on_or_stops(results, stdin_bytes):
    done = run_reading(("replay", results), stdin_bytes)
    stdout = done.stdout.decode()
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert stdout.count("[Enter]") == (2 if stdin_bytes else 1)  # a line shows the next move
    assert "Result:" not in stdout


def test_board_rendering():
    grid = ("*1", "01")
    assert render_board(grid, {(0, 1), (1, 1)}) == "    A B\n  1 * #\n  2 0 #"
    coloured = render_board(grid, {(0, 1)}, colour=True)
    # 1: white on Tol's indigo, highlighted (swapped, underlined); 0: black on his rose
    assert "\x1b[1;38;5;231;48;5;54;7;4m1\x1b[0m" in coloured and "\x1b[1;38;5;16;48;5;168m0\x1b[0m" in coloured
    assert not use_colour(io.StringIO())


def test_baselines_choose_legal_moves_of_their_kind():
    grid = ("3102", "0121", "3021", "0221")
    cell = greedy_move(grid)
    assert len(play(grid, cell)[0]) == 4 and play(grid, cell)[1] == max(len(g) for g in groups(grid)) ** 2
    assert random_move(grid, 1.0) == random_move(grid, 1.0)  # seeded by the position
    assert any(random_move(grid, 1.0) in g for g in groups(grid))


def test_minimax3_plays_the_depth_3_minimax_move():
    grid = ("3102", "0121", "3021", "0221")
    after, points = play(grid, minimax3_move(grid, 300.0))
    assert points - negamax_value(after, 2) == negamax_value(grid, 3)


def test_minimax3_still_answers_when_almost_out_of_time():
    grid = ("3102", "0121", "3021", "0221")
    assert play(grid, minimax3_move(grid, 0.01))[1] > 0


def test_baselines_speak_the_protocol(tmp_path):
    (tmp_path / "input.txt").write_text("2\n3\n123.6\n01\n21\n")
    for name in ("random", "greedy", "minimax3"):
        done = subprocess.run(
            [sys.executable, "-m", "agent.baselines", name],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONPATH": PROJECT_ROOT},
        )
        assert done.returncode == 0, done.stderr
        lines = (tmp_path / "output.txt").read_text().splitlines()
        assert len(lines) == 3
    assert lines[0] in ("B1", "B2") and lines[1:] == ["0*", "2*"]  # minimax3 takes the pair


def test_baselines_explain_themselves_and_report_an_unwritable_answer(tmp_path):
    def baseline(*args):
        return subprocess.run(
            [sys.executable, "-m", "agent.baselines", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONPATH": PROJECT_ROOT},
        )

    done = baseline("--help")
    assert done.returncode == 0 and "minimax3  plain minimax" in done.stdout
    (tmp_path / "input.txt").write_text("2\n3\n123.6\n01\n21\n")
    (tmp_path / "output.txt").mkdir()
    done = baseline("greedy")
    assert done.returncode == 1 and done.stderr == "greedy: cannot write output.txt: Is a directory\n"


@pytest.mark.parametrize(
    "args, problem",
    [
        (["foo"], "no baseline is called 'foo': random, greedy or minimax3"),
        ([], "name the baseline to play: random, greedy or minimax3"),
        (["greedy", "random"], "one baseline at a time, not 2 words: 'greedy random'"),
    ],
)
def test_baselines_say_what_was_wrong_with_their_arguments(tmp_path, args, problem):
    done = subprocess.run(
        [sys.executable, "-m", "agent.baselines", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": PROJECT_ROOT},
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "usage: python -m agent.baselines {random,greedy,minimax3}",
        f"agent.baselines: {problem}",
    ]
    assert not (tmp_path / "output.txt").exists()


def test_baselines_help_into_a_closed_pipe_leaves_quietly(tmp_path):
    read_end, write_end = os.pipe()
    os.close(read_end)  # `--help | head -1` once head has left: every write fails
    try:
        done = subprocess.run(
            [sys.executable, "-m", "agent.baselines", "--help"],
            cwd=tmp_path,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env={"PYTHONPATH": PROJECT_ROOT},
        )
    finally:
        os.close(write_end)
    assert done.returncode == 1 and done.stderr == ""


def test_ctrl_c_in_a_baseline_is_a_line_and_130(tmp_path, monkeypatch, capsys):
    from agent import baselines

    def interrupted(grid, time_left):
        raise KeyboardInterrupt

    monkeypatch.setitem(baselines.CHOOSERS, "minimax3", interrupted)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "input.txt").write_text("2\n3\n123.6\n01\n21\n")
    try:
        assert baselines.main(["minimax3"]) == 130
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped as a traceback")
    assert capsys.readouterr().err == "minimax3: interrupted\n"
    assert not (tmp_path / "output.txt").exists()


def test_a_game_played_with_out_is_recorded_for_replay_audit_and_phases(tmp_path):
    out = tmp_path / "game.jsonl"
    cells = [f"{col}{row}" for col in "ABC" for row in "123"]
    done = fruit_rage(
        "play",
        "--size",
        3,
        "--types",
        2,
        "--seed",
        1,
        "--agent",
        "greedy",
        "--out",
        out,
        stdin_text="\n".join(cells * 5) + "\n",
    )
    assert done.returncode == 0, done.stderr
    assert f"Game recorded in {out}" in done.stdout
    record = json.loads(out.read_text())
    assert (record["game"], record["seed"], record["agents"]) == (1, 1, {"A": "you", "B": "greedy"})
    for command in (("replay", out, "--delay", 0), ("audit", out), ("phases", out)):
        shown = fruit_rage(*command)
        assert shown.returncode == 0, (command, shown.stderr)
    assert "Move 1: A (you) plays A1" in fruit_rage("replay", out, "--delay", 0).stdout


def test_a_partial_line_from_a_pipe_held_open_does_not_stop_the_person_s_clock(tmp_path):
    shown = tmp_path / "shown.txt"
    with open(shown, "wb") as stdout:
        playing = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agent",
                "play",
                "--time",
                "1",
                "--first",
                "you",
                "--size",
                "3",
                "--agent",
                "greedy",
            ],
            cwd=PROJECT_ROOT,
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.DEVNULL,
        )
    try:
        playing.stdin.write(b"AAAA")  # no newline, and the pipe stays open as the game goes on
        playing.stdin.flush()
        assert playing.wait(timeout=60) == 0
    finally:
        playing.kill()
        playing.stdin.close()
    assert "you ran out of time" in shown.read_text()


def test_replay_labels_a_person_s_time_as_wall_time_and_an_agent_s_as_cpu(tmp_path):
    out = tmp_path / "game.jsonl"
    cells = [f"{col}{row}" for col in "ABC" for row in "123"]
    args = ("--size", 3, "--types", 2, "--seed", 1, "--agent", "greedy", "--out", out)
    assert fruit_rage("play", *args, stdin_text="\n".join(cells * 5) + "\n").returncode == 0
    assert json.loads(out.read_text())["clock"] == {"A": "wall", "B": "cpu"}
    moves = [line for line in fruit_rage("replay", out, "--delay", 0).stdout.splitlines() if line.startswith("Move ")]
    assert moves and all(line.endswith(" s wall time" if " A (you) " in line else " s CPU") for line in moves), moves
    assert any(" B (greedy) " in line for line in moves)


def test_a_game_abandoned_leaves_no_record_and_a_bad_out_is_refused_before_it(tmp_path):
    out = tmp_path / "game.jsonl"
    done = fruit_rage("play", "--size", 3, "--seed", 1, "--agent", "greedy", "--out", out, stdin_text="q\n")
    assert done.returncode == 0 and not out.exists()
    out.write_text("kept\n")
    done = fruit_rage("play", "--size", 3, "--seed", 1, "--agent", "greedy", "--out", out, stdin_text="q\n")
    assert done.returncode == 0 and out.read_text() == "kept\n"
    done = fruit_rage("play", "--size", 3, "--agent", "greedy", "--out", tmp_path / "no" / "game.jsonl")
    assert done.returncode == 1 and "fruit-rage play: cannot write --out" in done.stderr
    assert "Fruit Rage" not in done.stdout


@pytest.mark.parametrize(
    "winner, fault, scores, reason, message",
    [
        ("A", None, (30, 20), "score 30 to 20", "You win. Final score: you 30, agent 20."),
        ("B", None, (20, 30), "score 30 to 20", "You lose. Final score: you 20, agent 30."),
        (
            "A",
            None,
            (20, 20),
            "tied at 20, more time left: 9.000 s to 3.000 s",
            "You win: tied at 20, more time left: 9.000 s to 3.000 s. Final score: you 20, agent 20.",
        ),
        (
            None,
            None,
            (20, 20),
            "tied at 20 with equal time left",
            "Draw: tied at 20 with equal time left. Final score: you 20, agent 20.",
        ),
        (
            "A",
            "invalid",
            (4, 9),
            "garbled output.txt: no move",
            "You win: the agent's move lost, garbled output.txt: no move. Final score: you 4, agent 9.",
        ),
        (
            "B",
            "time",
            (0, 9),
            "you ran out of time, no move within the 5.0 s left",
            "You lose: you ran out of time, no move within the 5.0 s left. Final score: you 0, agent 9.",
        ),
    ],
)
def test_the_final_message_says_who_won_why_and_the_score(winner, fault, scores, reason, message):
    from agent.arena.referee import GameRecord
    from agent.commands.play import final_message

    record = GameRecord(
        ("you", "greedy"),
        "A",
        ("0",),
        1,
        (5.0, 5.0),
        scores=dict(zip("AB", scores)),
        winner=winner,
        reason=reason,
        fault=fault,
    )
    assert final_message(record) == message


class PerfectPlayer:
    """Plays the move of an exact solve: on a small board, best play."""

    name = "perfect"

    def choose(self, board, clock_left):
        return solve_exactly(board, 30.0).move


def test_a_loss_that_best_play_could_not_avoid_is_told_and_no_other():
    board = Board.random(4, 6, 3)  # solved: the first mover wins by 100
    lost_from_the_start = play_game(PerfectPlayer(), RandomPlayer(), board, clocks=(60, 60), first="A")
    assert lost_from_the_start.winner == "A"
    assert best_play_note(lost_from_the_start) == (
        "With best play from the start, the first mover wins this board by 100: "
        "the agent, moving second, could not have won it."
    )
    could_have_won = play_game(PerfectPlayer(), RandomPlayer(), board, clocks=(60, 60), first="B")
    assert could_have_won.winner == "A" and best_play_note(could_have_won) == ""
    too_big = GameRecord(("you", "agent"), "A", Board.random(1, 26, 9).rows, 9, (60, 60), winner="A")
    assert best_play_note(too_big) == ""


def test_play_says_when_the_agent_lost_a_board_lost_for_it_from_the_start():
    """6x6 p3 seed 4, you first, playing perfectly against `random` (whose moves follow
    from the position alone, so the game can be foreseen): you win, and are told that the
    agent could not have won."""
    grid, lines, mover = Board.random(4, 6, 3).rows, [], "you"
    while not is_empty(grid):
        cell = solve_exactly(Board(grid), 30.0).move.cell if mover == "you" else random_move(grid, 60.0)
        if mover == "you":
            lines.append(move_name(cell))
        grid, mover = play(grid, cell)[0], "agent" if mover == "you" else "you"
    stdout = io.StringIO()
    play_human_game(play_args(size=6, types=3, seed=4, agent="random"), io.StringIO("\n".join(lines) + "\n"), stdout)
    text = stdout.getvalue()
    end = " ".join(text[text.rindex("You win") :].split())  # the last two messages, in 80 columns
    assert end.startswith("You win. Final score: you ")
    assert end.endswith(
        ". With best play from the start, the first mover wins this board by 100: "
        "the agent, moving second, could not have won it."
    )


def test_replay_says_once_what_its_marks_are_and_shows_holes_as_the_readme_does(results):
    record = json.loads(results.read_text().splitlines()[0])
    stdout = io.StringIO()
    replay(record, 0, io.StringIO(), stdout)
    shown = stdout.getvalue()
    assert shown.count("Digits are fruit, * a hole; the next move's group is marked #.\n") == 1
    rows = [line[4:] for line in shown.splitlines() if re.fullmatch(r" {0,2}\d+ .*", line)]
    assert rows and all(set(row) <= set("0123456789*# ") for row in rows), rows
    assert any("*" in row for row in rows)  # the holes the moves leave
    with open(os.path.join(PROJECT_ROOT, "README.md"), encoding="utf-8") as readme:
        assert "`*` is a hole" in readme.read()


@pytest.mark.parametrize("subcommand", ["replay", "audit", "phases", "analyse"])
def test_the_commands_that_read_recorded_games_name_every_kind_of_file_they_take(subcommand):
    shown = " ".join(fruit_rage(subcommand, "--help").stdout.split())
    assert "match --out" in shown and "play --out" in shown and "saved from the browser page" in shown
