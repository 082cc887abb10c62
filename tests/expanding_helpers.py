"""Shared test helpers for Expanding Nim: an in-process server on a free port and raw clients."""

from __future__ import annotations

import json
import socket
import threading
from contextlib import contextmanager
from pathlib import Path

from nim_games.expanding.game_log import GameLog
from nim_games.expanding.protocol import MessageDecoder
from nim_games.expanding.rules import GameConfig
from nim_games.expanding.server import open_listener, play_one_game

HOST = "127.0.0.1"
SOCKET_TIMEOUT = 10.0
SERVER_EXIT_TIMEOUT = 15.0


class ServerRun:
    """A game server running in a thread; `result` is set when it finishes."""

    def __init__(self, config: GameConfig, log_path: Path, join_timeout: float, port: int = 0, **timeouts):
        self.listener = open_listener(HOST, port)
        self.port = self.listener.getsockname()[1]
        self.address = (HOST, self.port)
        self.log_path = log_path
        self.result = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(config, join_timeout), kwargs=timeouts, daemon=True)
        self._thread.start()

    def _run(self, config: GameConfig, join_timeout: float, **timeouts) -> None:
        try:
            self.result = play_one_game(self.listener, config, GameLog(self.log_path), join_timeout, **timeouts)
        except BaseException as error:  # reported by wait()
            self.error = error

    def wait(self):
        """Wait for the server to finish by itself; fail if it hangs or crashed."""
        self._thread.join(SERVER_EXIT_TIMEOUT)
        assert not self._thread.is_alive(), "the server did not exit"
        assert self.error is None, f"the server crashed: {self.error!r}"
        return self.result

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8")


@contextmanager
def running_server(
    tmp_path: Path, stones=10, resets=1, init_max=3, time_budget=5.0, join_timeout=5.0, port=0, **timeouts
):
    """A server in a thread (on a free port unless one is given); `timeouts`:
    play_one_game's hello_timeout and send_timeout."""
    run = ServerRun(
        GameConfig(stones, resets, init_max, time_budget), tmp_path / "game-log.txt", join_timeout, port, **timeouts
    )
    try:
        yield run
    finally:
        run.wait()


class RawPlayer:
    """A hand-driven connection: send any bytes, read messages from the stream."""

    def __init__(self, address, name=None, order=None):
        self.sock = socket.create_connection(address, timeout=SOCKET_TIMEOUT)
        self._decoder = MessageDecoder()
        self._messages: list[dict] = []
        if name is not None:
            self.send({"name": name, "order": order})

    def send(self, message) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.sock.sendall(data)

    def move(self, stones, reset=False) -> None:
        self.send({"num_stones": stones, "reset": reset})

    def receive(self) -> dict:
        while not self._messages:
            data = self.sock.recv(4096)
            assert data, "the server closed the connection"
            self._messages.extend(self._decoder.feed(data))
        return self._messages.pop(0)

    def receive_final(self) -> dict:
        """Read states until the finished one, then check the server closes the connection."""
        for _ in range(100):
            state = self.receive()
            if state.get("finished"):
                assert self.sock.recv(4096) == b"", "the server kept the connection open"
                return state
        raise AssertionError("no final state")

    def close(self) -> None:
        self.sock.close()


def wait_until_server_has_read(address) -> None:
    """Return once the server has handled everything already sent to it.

    The server handles connections' data in arrival order, so once it has answered a bad
    hello sent now, it has also handled whatever other clients sent before.
    """
    probe = RawPlayer(address)
    probe.send({"name": "", "order": 0})
    assert "error" in probe.receive()
    probe.close()


class OriginalStylePlayer:
    """Reads as the original clients did: one recv per message, json.loads on it."""

    def __init__(self, address, name, order):
        self.sock = socket.create_connection(address, timeout=SOCKET_TIMEOUT)
        self.sock.sendall(json.dumps({"name": name, "order": order}).encode())  # no newline
        self.init = self.receive()

    def receive(self) -> dict:
        return json.loads(self.sock.recv(1024))

    def make_move(self, stones, reset) -> dict:
        self.sock.sendall(json.dumps({"num_stones": stones, "reset": reset}).encode())
        return self.receive()

    def close(self) -> None:
        self.sock.close()


def flood(host: str, port: int, kind: str, seconds: float, most: int, announce: int, held: int = 200) -> None:
    """Connect as fast as the server takes connections, for at most `seconds` and `most`
    connections, holding the last `held` open, until the server stops listening.
    "empty": 64 connections at a time that say nothing; "slow": one at a time, ten a
    second, each sending a 260 KB hello that never ends. Prints "flooding" after
    `announce` connections, and at the end how many it made and why it stopped:
    "refused" (the game started), "time" or "count"."""
    import errno
    import select
    import struct
    import time
    from collections import deque

    deadline = time.monotonic() + seconds
    opened: deque = deque()
    made, stop, announced = 0, "count", False
    batch = 64 if kind == "empty" else 1
    try:
        while made < most and stop == "count":
            if time.monotonic() >= deadline:
                stop = "time"
                break
            connecting = []
            for _ in range(min(batch, most - made)):
                sock = socket.socket()
                sock.setblocking(False)
                # closed with a reset, which also clears the server's side of it: without,
                # new connections run into ports the server still holds, and stall 1 s
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.connect_ex((host, port))
                connecting.append(sock)
            _, connected, _ = select.select([], connecting, [], 1.0)
            for sock in connecting:
                problem = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) if sock in connected else None
                if problem == 0:
                    made += 1
                    opened.append(sock)
                    if kind == "slow":
                        try:
                            sock.send(b'{"name": "' + b"x" * 260_000)
                        except OSError:
                            pass
                else:
                    if problem == errno.ECONNREFUSED:
                        stop = "refused"
                    sock.close()
            while len(opened) > held:
                opened.popleft().close()
            if made >= announce and not announced:
                print("flooding", flush=True)
                announced = True
            if kind == "slow":
                time.sleep(0.1)
    finally:
        for sock in opened:
            sock.close()
    print(made, stop, flush=True)


FLOOD_SCRIPT = (
    "import sys; sys.path.insert(0, sys.argv[1]); from expanding_helpers import flood; "
    "flood('127.0.0.1', int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), "
    "int(sys.argv[5]), int(sys.argv[6]))"
)
