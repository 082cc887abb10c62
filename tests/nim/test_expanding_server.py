"""The game server over real sockets on 127.0.0.1: whole games, the log, and every fault."""

import socket
import threading
import time

import pytest
from expanding_helpers import SOCKET_TIMEOUT, OriginalStylePlayer, RawPlayer, running_server, wait_until_server_has_read

from nim_games.expanding.client import Client, GameRejected
from nim_games.expanding.server import MAX_WAITING_CONNECTIONS


def seat_two(run, first="alice", second="bob"):
    a = RawPlayer(run.address, first, 0)
    b = RawPlayer(run.address, second, 1)
    return a, b


def test_full_game_states_and_log(tmp_path):
    with running_server(tmp_path, stones=10, resets=1) as run:
        a, b = seat_two(run)
        init = {"init_stones": 10, "init_resets": 1, "game_time": 5.0, "init_max": 3}
        assert a.receive() == init and b.receive() == init
        a.move(3)
        for player in (a, b):
            state = player.receive()
            assert state["finished"] is False
            assert (state["stones_removed"], state["stones_left"], state["current_max"]) == (3, 7, 4)
            assert state["player_0"]["name"] == "alice" and state["player_1"]["name"] == "bob"
        b.move(2, reset=True)
        for player in (a, b):
            state = player.receive()
            assert (state["stones_left"], state["current_max"], state["reset_used"]) == (5, 3, True)
            assert state["player_1"]["resets_left"] == 0
        a.move(3)
        assert a.receive()["current_max"] == 4 and b.receive()["stones_left"] == 2
        b.move(4)  # more than remain, within the limit: takes them all
        for player in (a, b):
            final = player.receive_final()
            assert final["winner"] == "bob" and final["reason"] == "bob took the last stone"
            assert final["stones_left"] == 0 and final["stones_removed"] == 2
    assert run.result.winner == "bob"
    log = run.log().splitlines()
    assert log[0] == "Expanding Nim: 10 stones, 1 reset each, initial maximum 3, 5 s per player"
    assert log[1:3] == ["Player 0 (moves first): alice", "Player 1: bob"]
    assert log[3].startswith("alice took 3; limit 4; 7 stones left")
    assert log[4].startswith("bob took 2, using a reset; limit 3; 5 stones left")
    assert log[5].startswith("alice took 3; limit 4; 2 stones left")
    assert log[6].startswith("bob took 2; limit 4; 0 stones left")
    assert log[7] == "Game over: bob wins; reason: bob took the last stone"


def test_client_library_plays_whole_game(tmp_path):
    with running_server(tmp_path, stones=7, resets=0) as run:
        second = {}
        thread = threading.Thread(target=lambda: second.update(client=Client("bob", False, run.address, timeout=10)))
        thread.start()
        first = Client("alice", True, run.address, timeout=10)
        thread.join(10)
        bob = second["client"]
        assert (first.init_stones, first.init_resets, first.init_max) == (7, 0, 3)
        assert first.make_move(3, False)["stones_left"] == 4
        assert bob.receive_move()["current_max"] == 4
        assert bob.make_move(1, False)["stones_left"] == 3
        assert first.receive_move()["stones_left"] == 3
        final = first.make_move(3, False)
        assert final["finished"] and final["winner"] == "alice"
        assert bob.receive_move()["winner"] == "alice"
        first.close()
        bob.close()
    assert run.result.winner == "alice"


def test_original_style_clients_complete_a_game(tmp_path):
    """Clients reading one recv per message work, if each reads before the next state is due.

    The original protocol itself races: the server sends init, then a state as soon as the
    opponent moves, and a client slow to call recv may get both in one read. No server can
    prevent that, so the two clients here take turns strictly (each move waits until the
    other side has read the previous state), as human-paced or computing clients do.
    """
    with running_server(tmp_path, stones=12, resets=1) as run:
        players = {}
        joined = threading.Thread(target=lambda: players.update(b=OriginalStylePlayer(run.address, "bob", 1)))
        joined.start()
        a = OriginalStylePlayer(run.address, "alice", 0)
        joined.join(10)
        b = players["b"]
        assert a.init["init_stones"] == b.init["init_stones"] == 12
        moves = [(a, b, 3, False), (b, a, 2, True), (a, b, 1, False), (b, a, 3, False), (a, b, 3, False)]
        stones = 12
        for mover, other, take, reset in moves:
            mine = mover.make_move(take, reset)
            theirs = other.receive()
            stones -= take
            assert mine == theirs and mine["stones_left"] == stones
        assert mine["finished"] and mine["winner"] == "alice" and stones == 0
        a.close()
        b.close()
    assert run.result.winner == "alice"


def test_messages_in_pieces_and_together(tmp_path):
    with running_server(tmp_path, stones=4, resets=0) as run:
        a = RawPlayer(run.address)
        for piece in (b'{"na', b'me": "al', b'ice", "ord', b'er": 0}'):
            a.send(piece)
            time.sleep(0.01)
        b = RawPlayer(run.address, "bob", 1)
        a.receive(), b.receive()
        a.send(b'  {"num_stones": 1,\n "reset": false, "extra": [1, {"x": "}"}]}')
        assert b.receive()["stones_left"] == 3
        a.receive()
        b.move(3)
        assert a.receive_final()["winner"] == "bob"


def test_original_cpp_client_reset_flag_as_integer(tmp_path):
    with running_server(tmp_path, stones=5, resets=1) as run:
        a, b = seat_two(run)
        a.receive(), b.receive()
        a.send({"order": 0, "num_stones": 1, "reset": 1})
        state = b.receive()
        assert state["reset_used"] is True and state["player_0"]["resets_left"] == 0


def play_to_fault(tmp_path, fault, **settings):
    """Seat alice (first) and bob, let `fault(alice, bob)` misbehave; return the final states."""
    with running_server(tmp_path, **settings) as run:
        a, b = seat_two(run)
        a.receive(), b.receive()
        fault(a, b)
        finals = []
        for player in (a, b):
            try:
                finals.append(player.receive_final())
            except (AssertionError, OSError):
                finals.append(None)  # the faulty player may have hung up itself
    return run.result, finals, run.log()


FAULTS = {
    "zero stones": (lambda a, b: a.move(0), "alice", "alice took 0 stones; a move takes at least 1"),
    "negative stones": (lambda a, b: a.move(-2), "alice", "alice took -2 stones; a move takes at least 1"),
    "too many stones": (lambda a, b: a.move(4), "alice", "alice took 4 stones, more than the limit of 3"),
    "too many after a reset": (
        lambda a, b: (a.move(3, True), a.receive(), b.receive(), b.move(4)),
        "bob",
        "bob took 4 stones, more than the limit of 3",
    ),
    "reset with none left": (lambda a, b: a.move(1, True), "alice", "alice used a reset with none left"),
    "out of turn": (lambda a, b: b.move(1), "bob", "bob moved out of turn"),
    "malformed JSON": (
        lambda a, b: a.send(b'{"num_stones": 1,, }'),
        "alice",
        "alice sent malformed data (malformed JSON: Expecting property name enclosed in double quotes)",
    ),
    "number too long": (
        lambda a, b: a.send(b'{"num_stones": ' + b"1" * 5000 + b"}"),
        "alice",
        "alice sent malformed data (malformed JSON: a number too long to read)",
    ),
    "nested too deeply": (
        lambda a, b: a.send(b'{"x": ' + b"[" * 30000 + b"]" * 30000 + b"}"),
        "alice",
        "alice sent malformed data (malformed JSON: nested too deeply)",
    ),
    "not an object": (
        lambda a, b: a.send(b"[1, 2]"),
        "alice",
        "alice sent malformed data (expected a JSON object, got '[1, 2]')",
    ),
    "string count": (
        lambda a, b: a.send({"num_stones": "2", "reset": False}),
        "alice",
        "alice sent an invalid move ('num_stones' must be an integer, not '2')",
    ),
    "float count": (
        lambda a, b: a.send({"num_stones": 2.0, "reset": False}),
        "alice",
        "alice sent an invalid move ('num_stones' must be an integer, not 2.0)",
    ),
    "bool count": (
        lambda a, b: a.send({"num_stones": True, "reset": False}),
        "alice",
        "alice sent an invalid move ('num_stones' must be an integer, not True)",
    ),
    "bad reset": (
        lambda a, b: a.send({"num_stones": 1, "reset": "yes"}),
        "alice",
        "alice sent an invalid move ('reset' must be true/false (or 1/0), not 'yes')",
    ),
    "missing key": (
        lambda a, b: a.send({"stones": 1}),
        "alice",
        "alice sent an invalid move ('num_stones' must be an integer, not None)",
    ),
    "disconnect on move": (lambda a, b: a.close(), "alice", "alice disconnected"),
    "disconnect off move": (lambda a, b: b.close(), "bob", "bob disconnected"),
}


@pytest.mark.parametrize("fault_name", sorted(FAULTS))
def test_every_fault_loses_for_its_sender(tmp_path, fault_name):
    fault, loser, reason = FAULTS[fault_name]
    resets = 0 if fault_name == "reset with none left" else 1
    result, finals, log = play_to_fault(tmp_path, fault, resets=resets)
    winner = "bob" if loser == "alice" else "alice"
    assert (result.winner, result.reason) == (winner, reason)
    for final in finals:
        if final is not None:
            assert final["winner"] == winner and final["reason"] == reason
    innocent = finals[0] if loser == "bob" else finals[1]
    assert innocent is not None, "the innocent player must hear the result"
    assert log.splitlines()[-1] == f"Game over: {winner} wins; reason: {reason}"


@pytest.mark.parametrize("silent", ["alice", "bob"])
def test_silent_player_loses_on_time_at_the_deadline(tmp_path, silent):
    def fault(a, b):
        if silent == "bob":
            a.move(1)
            a.receive(), b.receive()

    result, finals, log = play_to_fault(tmp_path, fault, time_budget=0.5)
    assert result.winner == ("bob" if silent == "alice" else "alice")
    assert result.reason == f"{silent} ran out of time (0.5 s budget)"
    index = 0 if silent == "alice" else 1
    assert finals[0][f"player_{index}"]["time_taken"] == 0.5
    assert "ran out of time" in log


def test_time_is_cumulative_over_moves(tmp_path):
    """Two slow moves (0.3 s each) leave alice at most 0.4 s of 1 s, so a silent third turn loses."""

    def slow_alice_then_silent(a, b):
        for _ in range(2):
            time.sleep(0.3)
            a.move(1)
            a.receive()
            assert b.receive()["player_0"]["time_taken"] >= 0.3
            b.move(1)
            a.receive(), b.receive()

    result, finals, _ = play_to_fault(tmp_path, slow_alice_then_silent, stones=50, time_budget=1.0)
    assert result.reason == "alice ran out of time (1 s budget)"
    assert finals[1]["stones_left"] == 46


def test_server_sends_without_nagle_delay(tmp_path, monkeypatch):
    """Each player gets two messages in a row (its move's state, then the opponent's): with
    Nagle's algorithm on, the second waited ~40 ms for a delayed acknowledgement, charged to
    the first mover's clock on every move."""
    from nim_games.expanding import connection

    sockets = []
    original_init = connection.Connection.__init__

    def recording_init(self, sock, joined):
        original_init(self, sock, joined)
        sockets.append(sock)

    monkeypatch.setattr(connection.Connection, "__init__", recording_init)
    with running_server(tmp_path, stones=3, resets=0) as run:
        a, b = seat_two(run)
        a.receive(), b.receive()
        assert len(sockets) == 2
        for sock in sockets:
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        a.move(3)


def test_a_player_waits_as_long_as_the_opponent_may_think(tmp_path):
    """The client's timeout guards against a dead server: an opponent thinking longer than
    it, within its budget (`start-game -t 1800`), must not make the waiting player give up."""
    with running_server(tmp_path, stones=3, resets=0, time_budget=10.0) as run:
        thinker = RawPlayer(run.address, "thinker", 0)
        with Client("waiter", False, run.address, timeout=1.0) as waiter:
            thinker.receive()
            # the opponent thinks past the client's timeout while the client waits
            threading.Timer(1.5, thinker.move, args=(1,)).start()
            assert waiter.receive_move()["stones_left"] == 2
            assert waiter.make_move(2, False)["winner"] == "waiter"


def test_rejected_hellos_and_order_clash(tmp_path):
    with running_server(tmp_path, stones=3, resets=0) as run:
        bad = RawPlayer(run.address)
        bad.send({"name": "", "order": 0})
        assert "name" in bad.receive()["error"]
        a = RawPlayer(run.address, "alice", 0)
        wait_until_server_has_read(run.address)
        with pytest.raises(GameRejected, match="order 0 is already taken"):
            Client("copycat", True, run.address, timeout=10)
        with pytest.raises(GameRejected, match="the name 'alice' is already taken"):
            Client("alice", False, run.address, timeout=10)
        b = RawPlayer(run.address, "bob", 1)
        assert a.receive()["init_stones"] == 3 and b.receive()["init_stones"] == 3
        a.move(3)
        assert b.receive_final()["winner"] == "alice"


def test_seat_freed_when_a_waiting_player_leaves(tmp_path):
    with running_server(tmp_path, stones=2, resets=0) as run:
        quitter = RawPlayer(run.address, "quitter", 0)
        quitter.close()
        wait_until_server_has_read(run.address)
        a, b = seat_two(run)
        a.receive(), b.receive()
        a.move(2)
        assert b.receive_final()["winner"] == "alice"


def test_a_stranger_before_the_game_hears_why_and_is_closed(tmp_path):
    """Garbage instead of a hello, or a hello and then its sender's side closed: the server
    answers and closes at once, rather than leave the connection hanging until it stops."""
    with running_server(tmp_path, stones=2, resets=0, join_timeout=2 * SOCKET_TIMEOUT) as run:
        stranger = RawPlayer(run.address)
        stranger.send(b"GET / HTTP/1.0\r\n\r\n")
        assert stranger.receive()["error"].startswith("sent malformed data (expected a JSON object")
        assert stranger.sock.recv(100) == b""
        leaver = RawPlayer(run.address, "leaver", 0)
        leaver.sock.shutdown(socket.SHUT_WR)
        assert leaver.sock.recv(100) == b""
        a, b = seat_two(run)
        a.receive(), b.receive()
        a.move(2)
        assert b.receive_final()["winner"] == "alice"


def test_connections_that_never_say_hello_cannot_keep_the_players_out(tmp_path):
    with running_server(tmp_path, stones=2, resets=0) as run:
        silent = [RawPlayer(run.address) for _ in range(MAX_WAITING_CONNECTIONS)]
        a, b = seat_two(run)
        assert "init_stones" in a.receive() and "init_stones" in b.receive()
        a.move(2)
        assert b.receive_final()["winner"] == "alice"
    assert "too many connections" in silent[0].receive()["error"]  # the longest waiting


def test_no_game_when_players_do_not_join(tmp_path):
    with running_server(tmp_path, join_timeout=0.3) as run:
        lonely = RawPlayer(run.address, "alice", 0)
        silent = RawPlayer(run.address)  # connects but never says hello
    assert run.result.winner is None
    assert "did not join within 0.3 s" in run.result.reason
    for waiting in (lonely, silent):  # each hears why, then the server closes
        assert waiting.receive() == {"error": "no game: two players did not join within 0.3 s"}
        assert waiting.sock.recv(100) == b""
    assert run.log().startswith("No game:")
