"""start-game and exp-nim: clear errors, piped and computer play, whole sessions as processes."""
import io
import json
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
    # (a port, a wait and a log that would not hang or litter, were the address accepted)
    (["5", "1", "-p", "0", "--wait", "0.01", "--log", os.devnull, "-a", ""], "the address cannot be empty"),
    (["5", "1", "-p", "0", "--wait", "0.01", "--log", os.devnull, "-a", " "], "the address cannot be empty"),
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


def ipv6_loopback_works() -> bool:
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not ipv6_loopback_works(), reason="needs IPv6 on the loopback")
@pytest.mark.parametrize("address", ["::1", "[::1]"])
def test_start_game_listens_on_an_ipv6_address(tmp_path, capsys, address):
    argv = ["3", "0", "-a", address, "-p", "0", "--wait", "0.01", "--log", str(tmp_path / "log.txt")]
    assert start_game_main(argv) == 1
    out, err = capsys.readouterr()
    assert out.startswith("start-game: listening on [::1]:") and "no game" in err


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


def test_start_game_whose_reader_left_ends_quietly(tmp_path):
    """`start-game 3 0 | head -1`: the result line cannot be written; the log has the game."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from nim_games.expanding.cli import start_game_main; "
         "sys.exit(start_game_main(sys.argv[1:]))", "3", "0", "-p", str(port)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "listening on" in server.stdout.readline()
        server.stdout.close()  # the reader leaves, as `head -1` does
        alice, bob = RawPlayer((HOST, port), "alice", 0), RawPlayer((HOST, port), "bob", 1)
        alice.receive(), bob.receive()
        alice.move(3)
        assert bob.receive_final()["winner"] == "alice"
        _, err = server.communicate(timeout=PROCESS_TIMEOUT)
    finally:
        server.kill()
    assert (server.returncode, err) == (1, "")
    assert (tmp_path / "game-log.txt").read_text().endswith("reason: alice took the last stone\n")


def test_exp_nim_whose_reader_left_leaves_the_game_quietly(tmp_path):
    """`exp-nim ... | head -1`: the game cannot be followed; no error blamed on the server."""
    with running_server(tmp_path, stones=10, resets=0) as run:
        alice = subprocess.Popen(
            [sys.executable, "-c", "import sys; from nim_games.expanding.cli import exp_nim_main; "
             "sys.exit(exp_nim_main(sys.argv[1:]))",
             "-f", "--auto", "-n", "alice", f"{HOST}:{run.port}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert "Joining the game" in alice.stdout.readline()
            alice.stdout.close()  # the reader leaves, as `head -1` does
            bob = RawPlayer(run.address, "bob", 1)
            bob.receive()
            final = bob.receive_final()
            _, err = alice.communicate(timeout=PROCESS_TIMEOUT)
        finally:
            alice.kill()
    assert (alice.returncode, err) == (1, "")
    assert final["reason"] == "alice disconnected"


class _HungUpSocket:
    """A connection the server has already reset: sending fails with EPIPE."""

    def sendall(self, data):
        raise BrokenPipeError(32, "Broken pipe")

    def close(self):
        pass


def test_exp_nim_tells_a_server_that_hung_up_from_a_reader_that_left(monkeypatch, capsys):
    monkeypatch.setattr("nim_games.expanding.client.socket.create_connection",
                        lambda address, timeout: _HungUpSocket())
    assert exp_nim_main(["-n", "alice", f"{HOST}:9"], stdout=io.StringIO()) == 1
    assert "failed: the server closed the connection" in capsys.readouterr().err


def serve_one_init(init) -> int:
    """A one-connection server that answers the hello with `init`; returns its port."""
    listener = socket.create_server((HOST, 0))

    def serve():
        with listener, listener.accept()[0] as conn:
            conn.recv(4096)
            conn.sendall((json.dumps(init) + "\n").encode())
            conn.recv(4096)  # until the player leaves
    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1]


@pytest.mark.parametrize("bad", [
    {"init_stones": -5}, {"init_stones": 0}, {"init_max": 0}, {"init_resets": -1}, {"game_time": 0},
])
def test_exp_nim_refuses_an_init_message_with_no_game_in_it(capsys, bad):
    init = {"init_stones": 5, "init_resets": 0, "game_time": 10, "init_max": 3, **bad}
    port = serve_one_init(init)
    assert exp_nim_main(["-f", "-n", "alice", f"{HOST}:{port}"], stdin=io.StringIO(),
                        stdout=io.StringIO()) == 1
    assert "failed: bad init message" in capsys.readouterr().err


def test_exp_nim_refuses_an_empty_name(capsys):
    assert exp_nim_main(["-n", "  ", f"{HOST}:{free_port()}"]) == 2
    assert "the name cannot be empty" in capsys.readouterr().err


def test_exp_nim_refuses_a_name_the_server_would_refuse(capsys):
    assert exp_nim_main(["-n", "alice\nbob", f"{HOST}:{free_port()}"]) == 2
    assert "the name must be printable" in capsys.readouterr().err


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


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_start_game_names_the_log_it_cannot_write_as_the_game_starts(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from nim_games.expanding.cli import start_game_main; "
         "sys.exit(start_game_main(sys.argv[1:]))", "3", "0", "-p", str(port), "--log", "/dev/full"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "listening on" in server.stdout.readline()
        players = RawPlayer((HOST, port), "alice", 0), RawPlayer((HOST, port), "bob", 1)
        _, err = server.communicate(timeout=PROCESS_TIMEOUT)
    finally:
        server.kill()
    assert server.returncode == 1
    assert err == "start-game: error: cannot write the log /dev/full: No space left on device\n"
    assert all(player.sock.recv(100) == b"" for player in players)


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


class _CtrlCWhileAnnouncing(io.StringIO):
    """Standard output where Ctrl-C lands as the listening line is written."""

    def write(self, text):
        if "listening on" in text:
            raise KeyboardInterrupt
        return super().write(text)


def test_start_game_interrupted_as_it_announces_itself(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _CtrlCWhileAnnouncing())
    try:
        status = start_game_main(["5", "1", "-p", "0", "--log", str(tmp_path / "log.txt")])
    except KeyboardInterrupt:
        status = "escaped as a traceback"
    assert status == 130
    assert capsys.readouterr().err == "start-game: interrupted\n"
    assert (tmp_path / "log.txt").read_text().splitlines()[-1].startswith("Interrupted: the server was stopped")


def test_the_prompt_counts_resets_in_the_singular_and_plural():
    for resets, phrase in ((1, "1 reset left"), (2, "2 resets left")):
        stdout = io.StringIO()
        move = human_chooser(io.StringIO("2 0\n"), stdout)(Tracker(0, 10, resets, 3))
        assert move.stones == 2 and not move.reset
        assert stdout.getvalue() == f"Your move (1-3 stones, reset 0/1; {phrase}): "


def test_exp_nim_with_standard_input_closed_leaves_at_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", None)  # as Python starts under `exp-nim ... <&-`
    with running_server(tmp_path, stones=10) as run:
        thread = threading.Thread(target=lambda: outcome.update(status=exp_nim_main(
            ["-f", "-n", "alice", f"{HOST}:{run.port}"], stdout=io.StringIO())))
        outcome = {}
        thread.start()
        bob = RawPlayer(run.address, "bob", 1)
        bob.receive()
        final = bob.receive_final()
        thread.join(10)
    assert outcome["status"] == 1
    assert "exp-nim: end of input; leaving the game." in capsys.readouterr().err
    assert final["reason"] == "alice disconnected"


def test_exp_nim_with_standard_output_closed_says_so(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", None)  # as Python starts under `exp-nim ... >&-`
    assert exp_nim_main(["-n", "alice", f"{HOST}:{free_port()}"]) == 1
    assert capsys.readouterr().err == "exp-nim: error: standard output is closed\n"
