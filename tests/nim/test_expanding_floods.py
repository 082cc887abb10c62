"""The server under crowds of connections that never become players: the waiting cap, the
hello deadline and byte cap, and real players getting in and finishing during floods.
Every flood here is bounded in connections and seconds, on 127.0.0.1 only."""

import select
import subprocess
import sys

import pytest
from expanding_helpers import FLOOD_SCRIPT, RawPlayer, running_server, wait_until_server_has_read
from paths import TESTS

from nim_games.expanding.server import MAX_HELLO_BYTES, MAX_WAITING_CONNECTIONS


def still_open(sockets, settle=0.5):
    """The sockets the server has not closed: a closed one becomes readable (its error
    message, then the end), so wait until no more turn readable for `settle` seconds."""
    remaining = list(sockets)
    while remaining:
        readable, _, _ = select.select(remaining, [], [], settle)
        if not readable:
            break
        remaining = [sock for sock in remaining if sock not in readable]
    return remaining


def test_a_burst_of_300_connections_leaves_at_most_the_cap_waiting(tmp_path):
    with running_server(tmp_path, stones=2, resets=0, join_timeout=60, hello_timeout=60) as run:
        burst = [RawPlayer(run.address) for _ in range(300)]
        wait_until_server_has_read(run.address)  # every one of them has been taken in
        waiting = still_open([player.sock for player in burst])
        assert len(waiting) == MAX_WAITING_CONNECTIONS
        assert waiting == [player.sock for player in burst[-MAX_WAITING_CONNECTIONS:]]  # the newest
        first = burst[0].receive()
        assert first == {"error": "too many connections are waiting; the longest waiting made room"}
        a, b = RawPlayer(run.address, "alice", 0), RawPlayer(run.address, "bob", 1)
        a.receive(), b.receive()
        a.move(2)
        assert b.receive_final()["winner"] == "alice"
    for player in burst:
        player.close()


def test_a_connection_that_says_nothing_is_closed_at_the_hello_deadline(tmp_path):
    with running_server(tmp_path, stones=2, resets=0, join_timeout=30, hello_timeout=0.3) as run:
        silent = RawPlayer(run.address)
        assert silent.receive() == {"error": "no hello within 0.3 s"}
        assert silent.sock.recv(100) == b""
        seated = RawPlayer(run.address, "alice", 0)  # said hello: waits past the deadline
        late = RawPlayer(run.address)
        assert late.receive()["error"] == "no hello within 0.3 s"
        b = RawPlayer(run.address, "bob", 1)
        assert seated.receive()["init_stones"] == 2 and b.receive()["init_stones"] == 2
        seated.move(2)
        assert b.receive_final()["winner"] == "alice"


def test_a_hello_that_goes_on_and_on_is_cut_off(tmp_path):
    with running_server(tmp_path, stones=2, resets=0, join_timeout=30) as run:
        endless = RawPlayer(run.address)
        endless.send(b'{"name": "' + b"x" * (MAX_HELLO_BYTES + 1))
        assert endless.receive()["error"] == (
            f"sent malformed data (more than {MAX_HELLO_BYTES} bytes and no complete hello)"
        )
        a, b = RawPlayer(run.address, "alice", 0), RawPlayer(run.address, "bob", 1)
        a.receive(), b.receive()
        a.move(2)
        assert b.receive_final()["winner"] == "alice"


def start_flood(port, kind):
    """A flooder of its own process, bounded: 20 s, 300,000 empty or 200 slow connections
    (enough that a fast machine does not run out before the game starts);
    it says "flooding" once it has made 500 empty or 5 slow ones."""
    most, announce = (300_000, 500) if kind == "empty" else (200, 5)
    return subprocess.Popen(
        [sys.executable, "-c", FLOOD_SCRIPT, TESTS, str(port), kind, "20", str(most), str(announce)],
        stdout=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("kinds", [("empty",), ("slow",), ("empty", "slow")])
def test_players_seat_and_finish_during_a_flood(tmp_path, kinds):
    """Alice is seated, the floods run, then Bob joins in the midst of them; the game of 50
    stones is played out. The floods keep connecting until the game starts and the server
    stops listening."""
    with running_server(tmp_path, stones=50, resets=1, time_budget=30, join_timeout=30) as run:
        a = RawPlayer(run.address, "alice", 0)
        floods = [start_flood(run.port, kind) for kind in kinds]
        try:
            for flood in floods:
                assert flood.stdout.readline() == "flooding\n"
            b = RawPlayer(run.address, "bob", 1)
            assert "init_stones" in a.receive() and "init_stones" in b.receive()
            mover, other = a, b
            while True:
                mover.move(3)
                state = mover.receive()
                assert other.receive() == state
                if state["finished"]:
                    break
                mover, other = other, mover
            assert state["winner"] == "alice" and state["stones_left"] == 0
            ends = [flood.communicate(timeout=30)[0].split() for flood in floods]
        finally:
            for flood in floods:
                flood.kill()
                flood.wait()
    assert run.result.winner == "alice"
    assert [stop for _, stop in ends] == ["refused"] * len(kinds)
