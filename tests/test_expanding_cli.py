"""start-game and exp-nim: clear errors, piped and computer play, whole sessions as processes."""
import io
import os
import signal
import socket
import subprocess
import sys
import threading

import pytest

from expanding_helpers import HOST, RawPlayer, running_server
from nim_games.expanding.cli import exp_nim_main, start_game_main
from nim_games.expanding.players import Tracker, human_chooser

PROCESS_TIMEOUT = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("argv, problem", [
    (["0", "1"], "must be at least 1"),
    (["5", "-1"], "cannot be negative"),
    (["five", "1"], "'five' is not a whole number"),
    (["5", "1", "-t", "abc"], "'abc' is not a number of seconds"),
    (["5", "1", "-t", "0"], "must be a positive number of seconds"),
    (["5", "1", "-p", "70000"], "70000 is not a port number"),
    (["5", "1", "-m", "0"], "must be at least 1"),
    (["5"], "the following arguments are required: r"),
])
def test_start_game_bad_arguments(capsys, argv, problem):
    assert start_game_main(argv) == 2
    err = capsys.readouterr().err
    assert problem in err and "Traceback" not in err


def test_start_game_port_in_use(capsys):
    with socket.create_server((HOST, 0)) as busy:
        port = busy.getsockname()[1]
        assert start_game_main(["5", "1", "-p", str(port)]) == 1
    err = capsys.readouterr().err
    assert f"cannot listen on {HOST}:{port}" in err and "in use" in err


def test_start_game_bad_address(capsys):
    assert start_game_main(["5", "1", "-a", "no-such-host.invalid", "-p", "0"]) == 1
    assert "cannot listen on no-such-host.invalid:0" in capsys.readouterr().err


def test_help_explains(capsys):
    assert start_game_main(["--help"]) == 0
    assert "game-log.txt" in capsys.readouterr().out
    assert exp_nim_main(["--help"]) == 0
    assert "STONES RESET" in capsys.readouterr().out


@pytest.mark.parametrize("server, problem", [
    ("localhost", "is not HOST:PORT"), ("localhost:abc", "'abc' is not a whole number"),
    ("localhost:0", "cannot be 0"),
])
def test_exp_nim_bad_address(capsys, server, problem):
    assert exp_nim_main(["-n", "alice", server]) == 2
    assert problem in capsys.readouterr().err


def test_exp_nim_no_server(capsys):
    assert exp_nim_main(["-n", "alice", f"{HOST}:{free_port()}"]) == 1
    err = capsys.readouterr().err
    assert "exp-nim: error" in err and "Traceback" not in err


def run_exp_nim_in_thread(argv, typed):
    outcome = {"out": io.StringIO()}
    thread = threading.Thread(target=lambda: outcome.update(
        status=exp_nim_main(argv, stdin=io.StringIO(typed), stdout=outcome["out"])))
    thread.start()
    return thread, outcome


def test_exp_nim_end_of_input_leaves_cleanly(tmp_path, capsys):
    with running_server(tmp_path, stones=10) as run:
        thread, outcome = run_exp_nim_in_thread(["-f", "-n", "alice", f"{HOST}:{run.port}"], "")
        bob = RawPlayer(run.address, "bob", 1)
        bob.receive()
        final = bob.receive_final()
        thread.join(10)
    assert outcome["status"] == 1
    assert "end of input" in capsys.readouterr().err
    assert final["winner"] == "bob" and final["reason"] == "alice disconnected"


def test_exp_nim_reprompts_on_bad_input_and_plays_piped_moves(tmp_path):
    typed = "three 0\n4 0\n1 2\n2 0\n1 1\n"
    with running_server(tmp_path, stones=5, resets=0) as run:
        thread, outcome = run_exp_nim_in_thread(["-f", "-n", "alice", f"{HOST}:{run.port}"], typed)
        bob = RawPlayer(run.address, "bob", 1)
        bob.receive()
        assert bob.receive()["stones_left"] == 3
        bob.move(1)
        bob.receive()
        final = bob.receive_final()
        thread.join(10)
    out = outcome["out"].getvalue()
    assert "'three' is not a whole number" in out and "take between 1 and 3" in out
    assert "the reset must be 0 or 1" in out and "you have no resets left" in out
    assert final["winner"] == "bob"  # alice's third line (`1 1`) was refused, so the input ran out
    assert outcome["status"] == 1


def test_auto_player_beats_scripted_player(tmp_path):
    with running_server(tmp_path, stones=20, resets=1) as run:
        thread, outcome = run_exp_nim_in_thread(["--auto", "-f", "-n", "cpu", f"{HOST}:{run.port}"], "")
        human = RawPlayer(run.address, "human", 1)
        human.receive()
        for _ in range(20):
            state = human.receive()
            if state["finished"]:
                break
            human.move(1)
            state = human.receive()
            if state["finished"]:
                break
        thread.join(10)
    assert state["winner"] == "cpu" and outcome["status"] == 0
    assert "Game over. You win: cpu took the last stone" in outcome["out"].getvalue()


def test_whole_session_as_processes(tmp_path):
    port = str(free_port())

    def command(main, *args):
        code = f"import sys; from nim_games.expanding.cli import {main}; sys.exit({main}(sys.argv[1:]))"
        return [sys.executable, "-c", code, *args]

    moves = tmp_path / "moves.txt"
    moves.write_text("1 0\n" * 8)
    server = subprocess.Popen(command("start_game_main", "8", "1", "-p", port, "-t", "5"),
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "listening on 127.0.0.1:" in server.stdout.readline()
        with moves.open() as typed:
            human = subprocess.Popen(command("exp_nim_main", "-f", "-n", "alice", f"127.0.0.1:{port}"),
                                     stdin=typed, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        computer = subprocess.run(command("exp_nim_main", "--auto", "-n", "cpu", f"127.0.0.1:{port}"),
                                  capture_output=True, text=True, timeout=PROCESS_TIMEOUT)
        human_out, human_err = human.communicate(timeout=PROCESS_TIMEOUT)
        server_out, server_err = server.communicate(timeout=PROCESS_TIMEOUT)
    finally:
        server.kill()
    # 8 stones with one reset each is a first-player loss, so the perfect second player wins.
    assert server.returncode == 0 and "cpu wins: cpu took the last stone" in server_out
    assert computer.returncode == 0 and "You win" in computer.stdout
    assert human.returncode == 0 and "cpu wins" in human_out and "Traceback" not in human_err
    log = (tmp_path / "game-log.txt").read_text()
    assert log.startswith("Expanding Nim: 8 stones") and log.endswith(
        "Game over: cpu wins; reason: cpu took the last stone\n")


def test_exp_nim_refuses_an_empty_name(capsys):
    assert exp_nim_main(["-n", "  ", f"{HOST}:{free_port()}"]) == 2
    assert "the name cannot be empty" in capsys.readouterr().err


def test_a_player_still_typing_learns_at_once_that_its_clock_ran_out(tmp_path):
    """stdin stays open and silent: the game's end must not wait for a line to be typed."""
    read_end, write_end = os.pipe()
    stdin = os.fdopen(read_end, "r")
    try:
        with running_server(tmp_path, stones=10, resets=0, time_budget=0.5) as run:
            outcome = {"out": io.StringIO()}
            thread = threading.Thread(target=lambda: outcome.update(status=exp_nim_main(
                ["-f", "-n", "alice", f"{HOST}:{run.port}"], stdin=stdin, stdout=outcome["out"])))
            thread.start()
            bob = RawPlayer(run.address, "bob", 1)
            bob.receive()
            assert bob.receive_final()["reason"] == "alice ran out of time (0.5 s budget)"
            thread.join(10)
            assert not thread.is_alive()   # and nothing was typed
    finally:
        os.close(write_end)
        thread.join(10)
        stdin.close()
    out = outcome["out"].getvalue()
    assert outcome["status"] == 0
    assert "Your move (1-3 stones, no resets left): \nGame over. bob wins: alice ran out of time" in out


def test_start_game_with_an_unwritable_log_stops_before_listening(tmp_path, capsys):
    assert start_game_main(["5", "1", "-p", "0", "--log", str(tmp_path / "missing" / "log.txt")]) == 1
    out, err = capsys.readouterr()
    assert "cannot write the log" in err and "listening" not in out


def test_start_game_interrupted_says_so_in_its_log(tmp_path):
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from nim_games.expanding.cli import start_game_main; "
         "sys.exit(start_game_main(sys.argv[1:]))", "5", "1", "-p", "0", "--log", "log.txt"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert "listening on" in server.stdout.readline()
    server.send_signal(signal.SIGINT)
    _, err = server.communicate(timeout=PROCESS_TIMEOUT)
    assert server.returncode == 130 and "interrupted" in err
    assert (tmp_path / "log.txt").read_text().splitlines()[-1].startswith("Interrupted: the server was stopped")


def test_the_prompt_counts_resets_in_the_singular_and_plural():
    for resets, phrase in ((1, "1 reset left"), (2, "2 resets left")):
        stdout = io.StringIO()
        move = human_chooser(io.StringIO("2 0\n"), stdout)(Tracker(0, 10, resets, 3))
        assert move.stones == 2 and not move.reset
        assert stdout.getvalue() == f"Your move (1-3 stones, reset 0/1; {phrase}): "
