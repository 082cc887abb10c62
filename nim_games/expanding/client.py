"""Client library with the original's interface: Client(name, goes_first, (host, port)).

Unlike the original it reads a stream, so messages arriving together or in pieces are fine.
"""

from __future__ import annotations

import socket
import time
from collections import deque

from .protocol import MessageDecoder, encode
from .server_messages import check_state, parse_init

# How long to wait for the server; in the game, on top of the opponent's whole time budget
# (a wait may last all of it). The server ends every game itself.
DEFAULT_TIMEOUT = 900.0
# A player started a moment before its server (`start-game ... & exp-nim ...`) keeps
# trying this long before it says that nothing is listening.
CONNECT_RETRY = 3.0
CONNECT_PAUSE = 0.1
READ_CHUNK = 4096


class GameRejected(ConnectionError):
    """The server turned this client away (bad hello, order taken, the wait for the other
    player ran out); the message is the server's reason."""


class NoServer(ConnectionError):
    """Nothing listens at the address, even after CONNECT_RETRY seconds."""


class ServerClosed(ConnectionError):
    """The server closed the connection without a word."""


class ServerSilent(ConnectionError):
    """The server said nothing for longer than any wait in a game can last."""


def _connect(address: tuple[str, int], timeout: float | None) -> socket.socket:
    deadline = time.monotonic() + CONNECT_RETRY
    while True:
        try:
            return socket.create_connection(address, timeout=timeout)
        except ConnectionRefusedError:
            if time.monotonic() >= deadline:
                raise NoServer(f"no server is listening at {address[0]}:{address[1]}") from None
            time.sleep(CONNECT_PAUSE)


class Client:
    def __init__(self, name: str, goes_first: bool, address: tuple[str, int], timeout: float | None = DEFAULT_TIMEOUT):
        self.name = name
        self.order = 0 if goes_first else 1
        self._decoder = MessageDecoder()
        self._received: deque[dict] = deque()
        self._timeout = timeout
        self._sock = _connect(address, timeout)
        try:
            try:
                self._sock.sendall(encode({"name": name, "order": self.order}))
            except BrokenPipeError:  # not to be taken for a broken stdout (exp-nim's `| head`)
                raise ServerClosed("the server closed the connection") from None
            init = self._receive()
            if "error" in init:
                raise GameRejected(str(init["error"]))
            self.config = parse_init(init)
            self.init_stones, self.init_resets = self.config.stones, self.config.resets
            self.init_max, self.game_time = self.config.init_max, self.config.time_budget
            if timeout is not None:  # an opponent may think for its whole budget in one move
                self._timeout = timeout + self.game_time
                self._sock.settimeout(self._timeout)
        except BaseException:
            self.close()
            raise

    def make_move(self, stones: int, reset: bool) -> dict:
        """Send a move and return the state the server answers with."""
        try:
            self._sock.sendall(encode({"order": self.order, "num_stones": stones, "reset": bool(reset)}))
        except OSError:
            pass  # the game may have just ended (e.g. on time): the final state is still readable
        return self.receive_move()

    def receive_move(self) -> dict:
        """Wait for the next state: the opponent's move, or the end of the game."""
        return check_state(self._receive(), self.config)

    def pending(self) -> bool:
        """Whether a message has been received and not yet read."""
        return bool(self._received)

    def fileno(self) -> int:
        """The connection's socket, to wait on it together with other files."""
        return self._sock.fileno()

    def _receive(self) -> dict:
        while not self._received:
            try:
                data = self._sock.recv(READ_CHUNK)
            except socket.timeout:
                raise ServerSilent(f"the server said nothing for {self._timeout:g} s") from None
            if not data:
                raise ServerClosed("the server closed the connection")
            self._received.extend(self._decoder.feed(data))
        return self._received.popleft()

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
