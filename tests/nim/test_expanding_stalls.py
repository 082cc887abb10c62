"""Players that stop reading, and Ctrl-C in the middle of a game: neither may hold the
server up."""

import json
import signal
import socket
import subprocess
import sys

import pytest
from expanding_helpers import HOST, SOCKET_TIMEOUT, RawPlayer, running_server

from nim_games.expanding.connection import MAX_UNSENT_BYTES, Connection

PROCESS_TIMEOUT = 30


def non_reader(address, name, order):
    """A player with a tiny receive buffer that never reads what the server sends."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.settimeout(SOCKET_TIMEOUT)
    sock.connect(address)
    sock.sendall(json.dumps({"name": name, "order": order}).encode())
    return sock


def test_a_player_that_stops_reading_forfeits(tmp_path):
    """Bob sends his moves in turn but reads nothing: once the states to him stop going
    out for the send timeout, he loses, and Alice hears it."""
    with running_server(tmp_path, stones=100_000, resets=0, time_budget=60, send_timeout=0.5) as run:
        alice = RawPlayer(run.address, "alice", 0)
        bob = non_reader(run.address, "bob", 1)
        alice.receive()
        for _ in range(50_000):
            alice.move(1)
            state = alice.receive()
            if state["finished"]:
                break
            bob.sendall(json.dumps({"num_stones": 1, "reset": False}).encode())
            state = alice.receive()
            if state["finished"]:
                break
        assert (state["winner"], state["reason"]) == ("alice", "bob stopped reading")
        assert state["stones_left"] > 0  # long before the stones ran out
        assert alice.sock.recv(100) == b""
        bob.close()
    assert (run.result.winner, run.result.reason) == ("alice", "bob stopped reading")
    assert run.log().splitlines()[-1] == "Game over: alice wins; reason: bob stopped reading"


def test_a_player_that_reads_slowly_is_not_a_staller():
    """Progress restarts the clock: output taken bit by bit never counts as stopped."""
    with socket.create_server((HOST, 0)) as listener:
        reader = socket.socket()
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        reader.connect(listener.getsockname())
        conn = Connection(listener.accept()[0], 0.0)
    try:
        conn.send({"pad": "x" * 900_000}, now=0.0)  # far more than the sockets hold
        assert conn.has_unsent and not conn.stopped_reading(0.4, 0.5)
        reader.settimeout(SOCKET_TIMEOUT)
        assert reader.recv(10_000)
        conn.flush(0.45)
        assert conn.has_unsent
        assert not conn.stopped_reading(0.9, 0.5)  # 0.45 s since the last progress
        assert conn.stopped_reading(0.96, 0.5)
        conn.send({"pad": "x" * MAX_UNSENT_BYTES}, now=1.0)
        assert conn.stopped_reading(1.0, 0.5)  # past the most a peer may leave unread
    finally:
        conn.close()
        reader.close()


def start_game_process(tmp_path, *args):
    """start-game in a process of its own, with Ctrl-C's default meaning (a background job
    may have inherited SIGINT ignored)."""
    code = "import sys; from nim_games.expanding.cli import start_game_main; sys.exit(start_game_main(sys.argv[1:]))"
    return subprocess.Popen(
        [sys.executable, "-c", code, *args, "-p", "0", "--log", "log.txt"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def listening_port(server) -> int:
    line = server.stdout.readline()
    assert "listening on" in line, line
    return int(line.split(";")[0].rsplit(":", 1)[1])


@pytest.mark.parametrize("attempt", range(10))
def test_ctrl_c_mid_game_stops_the_server_at_once(tmp_path, attempt):
    """SIGINT right after a state message, while the player on move answers at once (where
    asyncio's wait_for on Python 3.11 swallowed the cancellation): 130 and the log line."""
    server = start_game_process(tmp_path, "50", "0", "-t", "60")
    try:
        port = listening_port(server)
        players = [RawPlayer((HOST, port), "alice", 0), RawPlayer((HOST, port), "bob", 1)]
        for player in players:
            player.receive()
        for turn in range(4 + attempt % 3):
            players[turn % 2].move(1)
            for player in players:
                player.receive()
        players[(turn + 1) % 2].move(1)
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=PROCESS_TIMEOUT)
    finally:
        server.kill()
        server.wait()
    assert server.returncode == 130
    assert err == "start-game: interrupted\n"
    log = (tmp_path / "log.txt").read_text().splitlines()
    assert log[-1] == "Interrupted: the server was stopped before the game ended"
    for player in players:
        player.close()
