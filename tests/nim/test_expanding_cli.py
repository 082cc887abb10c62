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

from nim_games.console import EXIT_CODES
from nim_games.expanding import client as client_module
from nim_games.expanding.cli import describe, exp_nim_main, start_game_main
from nim_games.expanding.game_log import GameLog
from nim_games.expanding.players import Tracker, human_chooser
from nim_games.expanding.rules import Game, GameConfig, Move

PROCESS_TIMEOUT = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize(
    "argv, problem",
    [
        (["0", "1"], "argument n: must be 1..1000000, got 0"),
        (["1000001", "1"], "argument n: must be 1..1000000, got 1000001"),
        (["5", "-1"], "argument r: must be 0..1000000, got -1"),
        (["five", "1"], "argument n: not an integer: 'five'"),
        (["5", "1", "-t", "abc"], "argument -t/--time: not a number of seconds: 'abc'"),
        (["5", "1", "-t", "0"], "must be 0.01..86400 seconds, got 0"),
        (["5", "1", "-t", "1e10"], "argument -t/--time: must be 0.01..86400 seconds, got 1e10"),
        (["5", "1", "-t", "inf"], "must be 0.01..86400 seconds, got inf"),
        (["5", "1", "-t", "nan"], "must be 0.01..86400 seconds, got nan"),
        (["5", "1", "--wait", "1e10"], "argument --wait: must be 0.01..86400 seconds, got 1e10"),
        (["5", "1", "-p", "70000"], "argument -p/--port: must be 0..65535, got 70000"),
        (["5", "1", "-m", "0"], "argument -m/--max: must be 1..1000000, got 0"),
        (["5"], "the following arguments are required: r"),
        # (a port, a wait and a log that would not hang or litter, were the address accepted)
        (["5", "1", "-p", "0", "--wait", "0.01", "--log", os.devnull, "-a", ""], "the address cannot be empty"),
        (["5", "1", "-p", "0", "--wait", "0.01", "--log", os.devnull, "-a", " "], "the address cannot be empty"),
    ],
)
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


def test_help_explains_ranges_resets_and_exit_codes(capsys):
    assert start_game_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "game-log.txt" in out and "0.01..86400" in out and "1..1000000" in out
    assert out.splitlines()[-1] == EXIT_CODES
    assert exp_nim_main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "STONES RESET" in out and "a reset holds your opponent's next move" in out
    assert out.endswith(EXIT_CODES)


def test_both_helps_say_how_expanding_nim_is_won(capsys):
    for main in (start_game_main, exp_nim_main):
        assert main(["--help"]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "whoever takes the last stone wins" in out
        assert "up to the larger of m and 1 + the largest take so far" in out
        assert "the opponent's next move may then take at most m" in out


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


@pytest.mark.parametrize(
    "server, problem",
    [
        ("localhost", "is not HOST:PORT"),
        ("localhost:abc", "the port of 'localhost:abc': not an integer: 'abc'"),
        ("localhost:0", "the port of 'localhost:0': must be 1..65535, got 0"),
    ],
)
def test_exp_nim_bad_address(capsys, server, problem):
    assert exp_nim_main(["-n", "alice", server]) == 2
    assert problem in capsys.readouterr().err


def test_exp_nim_no_server(capsys, monkeypatch):
    monkeypatch.setattr(client_module, "CONNECT_RETRY", 0.2)
    port = free_port()
    assert exp_nim_main(["-n", "alice", f"{HOST}:{port}"], stdout=io.StringIO()) == 1
    assert capsys.readouterr().err == (f"exp-nim: no server is listening at {HOST}:{port} (is start-game running?)\n")


def test_exp_nim_started_before_its_server_joins_once_it_listens(tmp_path):
    """`exp-nim` a moment before `start-game`: it keeps trying for a few seconds."""
    port = str(free_port())
    player = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from nim_games.expanding.cli import exp_nim_main; sys.exit(exp_nim_main(sys.argv[1:]))",
            "--auto",
            "-f",
            "-n",
            "early",
            f"{HOST}:{port}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "Joining the game" in player.stdout.readline()  # and trying: nothing listens yet
        with running_server(tmp_path, stones=5, resets=0, port=int(port)) as run:
            late = RawPlayer(run.address, "late", 1)
            late.receive()
            state = late.receive()
            while not state["finished"]:  # late takes 1 a turn; 5 stones are a first-player win
                late.move(1)
                late.receive()
                state = late.receive()
            final = state
        out, err = player.communicate(timeout=PROCESS_TIMEOUT)
    finally:
        player.kill()
        player.wait()
    assert (player.returncode, err) == (0, "")
    assert final["winner"] == "early" and "You win" in out


def test_exp_nim_whose_wait_ran_out_is_told_why(tmp_path, capsys):
    with running_server(tmp_path, join_timeout=0.3) as run:
        status = exp_nim_main(["-f", "-n", "alice", f"{HOST}:{run.port}"], stdout=io.StringIO())
    assert status == 1
    assert capsys.readouterr().err == (
        f"exp-nim: the server at {HOST}:{run.port} turned the player away: "
        "no game: two players did not join within 0.3 s\n"
    )


def run_exp_nim_in_thread(argv, typed):
    outcome = {"out": io.StringIO()}
    thread = threading.Thread(
        target=lambda: outcome.update(status=exp_nim_main(argv, stdin=io.StringIO(typed), stdout=outcome["out"]))
    )
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
    assert capsys.readouterr().err == "\nexp-nim: end of input; leaving the game\n"
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
    server = subprocess.Popen(
        command("start_game_main", "8", "1", "-p", port, "-t", "5"),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "listening on 127.0.0.1:" in server.stdout.readline()
        with moves.open() as typed:
            human = subprocess.Popen(
                command("exp_nim_main", "-f", "-n", "alice", f"127.0.0.1:{port}"),
                stdin=typed,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        computer = subprocess.run(
            command("exp_nim_main", "--auto", "-n", "cpu", f"127.0.0.1:{port}"),
            capture_output=True,
            text=True,
            timeout=PROCESS_TIMEOUT,
        )
        human_out, human_err = human.communicate(timeout=PROCESS_TIMEOUT)
        server_out, server_err = server.communicate(timeout=PROCESS_TIMEOUT)
    finally:
        server.kill()
    # 8 stones with one reset each is a first-player loss, so the perfect second player wins.
    assert server.returncode == 0 and "cpu wins: cpu took the last stone" in server_out
    assert computer.returncode == 0 and "You win" in computer.stdout
    assert human.returncode == 0 and "Traceback" not in human_err
    assert "Game over. You lose: cpu took the last stone" in human_out
    told = " ".join(human_out.split())
    assert "A reset, used with a move, holds your opponent's next move to at most 3 stones" in told
    opening = human_out[: human_out.index("Your move")]  # what the game is, before the first prompt
    assert max(map(len, opening.splitlines())) <= 80  # a log's lines, or a pipe's
    # the server's window shows the game as it goes
    assert "Player 0 (moves first): alice" in server_out and "alice took 1; limit 3;" in server_out
    log = (tmp_path / "game-log.txt").read_text()
    assert log.startswith("Expanding Nim: 8 stones") and log.endswith(
        "Game over: cpu wins; reason: cpu took the last stone\n"
    )


def test_start_game_whose_reader_left_ends_quietly(tmp_path):
    """`start-game 3 0 | head -1`: the result line cannot be written; the log has the game."""
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from nim_games.expanding.cli import start_game_main; sys.exit(start_game_main(sys.argv[1:]))",
            "3",
            "0",
            "-p",
            str(port),
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
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
            [
                sys.executable,
                "-c",
                "import sys; from nim_games.expanding.cli import exp_nim_main; sys.exit(exp_nim_main(sys.argv[1:]))",
                "-f",
                "--auto",
                "-n",
                "alice",
                f"{HOST}:{run.port}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
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
    monkeypatch.setattr("nim_games.expanding.client.socket.create_connection", lambda address, timeout: _HungUpSocket())
    assert exp_nim_main(["-n", "alice", f"{HOST}:9"], stdout=io.StringIO()) == 1
    assert capsys.readouterr().err == f"exp-nim: the server at {HOST}:9 closed the connection\n"


def serve_messages(*messages) -> int:
    """A one-connection server that answers the hello with `messages` (bytes or objects,
    each then followed by a newline); returns its port."""
    listener = socket.create_server((HOST, 0))

    def serve():
        with listener, listener.accept()[0] as conn:
            conn.recv(4096)
            for message in messages:
                data = message if isinstance(message, bytes) else json.dumps(message).encode()
                conn.sendall(data + b"\n")
            while conn.recv(4096):  # until the player leaves
                pass

    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1]


INIT = {"init_stones": 5, "init_resets": 0, "game_time": 10, "init_max": 3}


@pytest.mark.parametrize(
    "bad, problem",
    [
        ({"init_stones": -5}, "number of stones must be 1..1000000, not -5"),
        ({"init_stones": 0}, "number of stones must be 1..1000000, not 0"),
        ({"init_stones": 10**30}, "number of stones must be 1..1000000"),
        ({"init_max": 0}, "initial maximum must be 1..1000000, not 0"),
        ({"init_resets": -1}, "number of resets must be 0..1000000, not -1"),
        ({"game_time": 0}, "time budget must be above 0 and at most 86400 s, not 0"),
        ({"game_time": 1e10}, "time budget must be above 0 and at most 86400 s, not 10000000000.0"),
        ({"init_stones": 5.5}, "init_stones is 5.5, not a whole number"),
        ({"game_time": "10"}, "game_time is '10', not a number of seconds"),
        ({"init_max": None}, "init_max is None, not a whole number"),
    ],
)
def test_exp_nim_refuses_an_init_message_with_no_game_in_it(capsys, bad, problem):
    port = serve_messages({**INIT, **bad})
    assert exp_nim_main(["-f", "-n", "alice", f"{HOST}:{port}"], stdin=io.StringIO(), stdout=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"exp-nim: the server at {HOST}:{port} sent something that is not the game: bad init message: "
    )
    assert problem in err


@pytest.mark.parametrize(
    "messages, problem",
    [
        (
            [b'{"init_stones": 5, "init_resets": 0, "game_time": Infinity, "init_max": 3}'],
            "Infinity is not a JSON value",
        ),
        ([INIT, b'{"finished": false, "stones_left": NaN}'], "NaN is not a JSON value"),
        ([INIT, {"finished": False, "stones_left": 1e308, "current_max": 3}], "stones_left is 1e+308, not 0..5"),
        ([INIT, {"finished": False, "stones_left": 4, "current_max": 10**400}], "current_max is 1000"),
        ([INIT, {"finished": "no", "stones_left": 4}], "no finished flag"),
        ([INIT, {"finished": False, "stones_left": 4, "current_max": 4}], "no player_0"),
        (
            [
                INIT,
                {
                    "finished": False,
                    "stones_left": 4,
                    "current_max": 4,
                    "player_0": {"resets_left": 0},
                    "player_1": {"resets_left": 0, "time_taken": -1},
                },
            ],
            "player_1's time_taken is -1",
        ),
    ],
)
def test_exp_nim_names_absurd_fields_from_a_server(capsys, messages, problem):
    port = serve_messages(*messages)
    assert exp_nim_main(["--auto", "-n", "bob", f"{HOST}:{port}"], stdout=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"exp-nim: the server at {HOST}:{port} sent something that is not the game")
    assert problem in err and "Traceback" not in err


def test_start_game_t_1e10_is_refused_before_any_player_can_crash(capsys):
    assert start_game_main(["5", "0", "-t", "1e10", "-p", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "must be 0.01..86400 seconds, got 1e10" in err


def test_exp_nim_refuses_an_empty_name(capsys):
    assert exp_nim_main(["-n", "  ", f"{HOST}:{free_port()}"]) == 2
    assert "the name cannot be empty" in capsys.readouterr().err


def test_exp_nim_refuses_a_name_the_server_would_refuse(capsys):
    assert exp_nim_main(["-n", "alice\nbob", f"{HOST}:{free_port()}"]) == 2
    assert "the name must be printable" in capsys.readouterr().err
    assert exp_nim_main(["-n", "n" * 65, f"{HOST}:{free_port()}"]) == 2
    assert "the name is too long (at most 64 characters)" in capsys.readouterr().err


def test_a_player_still_typing_learns_at_once_that_its_clock_ran_out(tmp_path):
    """stdin stays open and silent: the game's end must not wait for a line to be typed."""
    read_end, write_end = os.pipe()
    stdin = os.fdopen(read_end, "r")
    try:
        with running_server(tmp_path, stones=10, resets=0, time_budget=0.5) as run:
            outcome = {"out": io.StringIO()}
            thread = threading.Thread(
                target=lambda: outcome.update(
                    status=exp_nim_main(["-f", "-n", "alice", f"{HOST}:{run.port}"], stdin=stdin, stdout=outcome["out"])
                )
            )
            thread.start()
            bob = RawPlayer(run.address, "bob", 1)
            bob.receive()
            assert bob.receive_final()["reason"] == "alice ran out of time (0.5 s budget)"
            thread.join(10)
            assert not thread.is_alive()  # and nothing was typed
    finally:
        os.close(write_end)
        thread.join(10)
        stdin.close()
    out = outcome["out"].getvalue()
    assert outcome["status"] == 0
    assert "Your move (1-3 stones, no resets left): \nGame over. You lose: alice ran out of time" in out


def test_start_game_with_an_unwritable_log_stops_before_listening(tmp_path, capsys):
    assert start_game_main(["5", "1", "-p", "0", "--log", str(tmp_path / "missing" / "log.txt")]) == 1
    out, err = capsys.readouterr()
    assert "cannot write the log" in err and "listening" not in out


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_start_game_names_the_log_it_cannot_write_as_the_game_starts(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from nim_games.expanding.cli import start_game_main; sys.exit(start_game_main(sys.argv[1:]))",
            "3",
            "0",
            "-p",
            str(port),
            "--log",
            "/dev/full",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "listening on" in server.stdout.readline()
        players = RawPlayer((HOST, port), "alice", 0), RawPlayer((HOST, port), "bob", 1)
        _, err = server.communicate(timeout=PROCESS_TIMEOUT)
    finally:
        server.kill()
    assert server.returncode == 1
    assert err == "start-game: cannot write the log /dev/full: No space left on device\n"
    assert all(player.sock.recv(100) == b"" for player in players)


def test_start_game_interrupted_says_so_in_its_log(tmp_path):
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from nim_games.expanding.cli import start_game_main; sys.exit(start_game_main(sys.argv[1:]))",
            "5",
            "1",
            "-p",
            "0",
            "--log",
            "log.txt",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
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
        thread = threading.Thread(
            target=lambda: outcome.update(
                status=exp_nim_main(["-f", "-n", "alice", f"{HOST}:{run.port}"], stdout=io.StringIO())
            )
        )
        outcome = {}
        thread.start()
        bob = RawPlayer(run.address, "bob", 1)
        bob.receive()
        final = bob.receive_final()
        thread.join(10)
    assert outcome["status"] == 1
    assert capsys.readouterr().err == "\nexp-nim: end of input; leaving the game\n"
    assert final["reason"] == "alice disconnected"


def test_exp_nim_with_standard_output_closed_says_so(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", None)  # as Python starts under `exp-nim ... >&-`
    assert exp_nim_main(["-n", "alice", f"{HOST}:{free_port()}"]) == 1
    assert capsys.readouterr().err == "exp-nim: standard output is closed\n"


def test_exp_nim_interrupted_while_it_waits_says_so(tmp_path):
    with running_server(tmp_path, stones=5, resets=0) as run:
        player = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from nim_games.expanding.cli import exp_nim_main; sys.exit(exp_nim_main(sys.argv[1:]))",
                "-f",
                "-n",
                "alice",
                f"{HOST}:{run.port}",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            assert "Joining the game" in player.stdout.readline()
            player.send_signal(signal.SIGINT)
            _, err = player.communicate(timeout=PROCESS_TIMEOUT)
        finally:
            player.kill()
            player.wait()
        bob = RawPlayer(run.address, "bob", 1)  # the server goes on: a game with a new alice
        alice = RawPlayer(run.address, "alice", 0)
        alice.receive(), bob.receive()
        alice.move(3)
        assert bob.receive()["stones_left"] == 2
        bob.move(2)
        assert alice.receive_final()["winner"] == "bob"
    assert player.returncode == 130
    assert err == "\nexp-nim: interrupted\n"


ATTACK = "\x1b[2J\x1b[31mFAKE: you win\x1b]0;pwned\x07"
ATTACK_SHOWN = "\\x1b[2J\\x1b[31mFAKE: you win\\x1b]0;pwned\\x07"


def test_exp_nim_shows_a_server_s_error_text_escaped(capsys):
    port = serve_messages({"error": ATTACK})
    assert exp_nim_main(["-f", "-n", "alice", f"{HOST}:{port}"], stdout=io.StringIO()) == 1
    assert capsys.readouterr().err == f"exp-nim: the server at {HOST}:{port} turned the player away: {ATTACK_SHOWN}\n"


def test_exp_nim_shows_a_server_s_reason_for_the_end_escaped():
    players = {"player_0": {"resets_left": 0}, "player_1": {"resets_left": 0}}
    final = {"finished": True, "stones_left": 5, "current_max": 3, **players, "winner": "eve", "reason": ATTACK}
    port = serve_messages(INIT, final)
    out = io.StringIO()
    assert exp_nim_main(["--auto", "-n", "bob", f"{HOST}:{port}"], stdout=out) == 0
    assert out.getvalue().endswith(f"Game over. You lose: {ATTACK_SHOWN}\n")


def test_one_stone_is_counted_in_the_singular_by_the_server_and_the_client(tmp_path):
    config = GameConfig(stones=3, resets=1, init_max=2)
    game = Game(config, ("alice", "bob"))
    game.play(Move(2, False), 0.1)
    log = GameLog(tmp_path / "log.txt")
    log.move(game, 0)
    log.close()
    assert "; 1 stone left (" in (tmp_path / "log.txt").read_text()
    told = io.StringIO()
    describe(game.state(), "bob", False, told)
    assert told.getvalue().startswith("Your opponent took 2; 1 stone left, next limit")
    lone = GameLog(tmp_path / "one.txt")
    lone.setup(GameConfig(stones=1, resets=0, init_max=1), ("alice", "bob"))
    lone.close()
    assert (tmp_path / "one.txt").read_text().startswith("Expanding Nim: 1 stone, 0 resets each, initial maximum 1")
