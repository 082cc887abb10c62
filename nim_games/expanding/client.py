"""Client library with the original's interface: Client(name, goes_first, (host, port)).

Unlike the original it reads a stream, so messages arriving together or in pieces are fine.
"""
from __future__ import annotations

import socket
from collections import deque

from .protocol import MessageDecoder, ProtocolError, encode
from .rules import GameConfig

# How long to wait for the server; in the game, on top of the opponent's whole time budget
# (a wait may last all of it). The server ends every game itself.
DEFAULT_TIMEOUT = 900.0
READ_CHUNK = 4096


class GameRejected(ConnectionError):
    """The server turned this client away before the game (bad hello, order taken)."""


class Client:
    def __init__(self, name: str, goes_first: bool, address: tuple[str, int],
                 timeout: float | None = DEFAULT_TIMEOUT):
        self.name = name
        self.order = 0 if goes_first else 1
        self._decoder = MessageDecoder()
        self._received: deque[dict] = deque()
        self._sock = socket.create_connection(address, timeout=timeout)
        try:
            try:
                self._sock.sendall(encode({"name": name, "order": self.order}))
            except BrokenPipeError:  # not to be taken for a broken stdout (exp-nim's `| head`)
                raise ConnectionError("the server closed the connection") from None
            init = self._receive()
            if "error" in init:
                raise GameRejected(f"the server refused the player: {init['error']}")
            try:
                self.init_stones = int(init["init_stones"])
                self.init_resets = int(init["init_resets"])
                self.game_time = float(init["game_time"])
                self.init_max = int(init["init_max"])
                # no game to play with no stones, a limit below 1, negative resets, no time
                GameConfig(self.init_stones, self.init_resets, self.init_max, self.game_time)
            except (KeyError, TypeError, ValueError) as error:
                raise ProtocolError(f"bad init message {init!r}") from error
            if timeout is not None:  # an opponent may think for its whole budget in one move
                self._sock.settimeout(timeout + self.game_time)
        except BaseException:
            self.close()
            raise

    def make_move(self, stones: int, reset: bool) -> dict:
        """Send a move and return the state the server answers with."""
        try:
            self._sock.sendall(encode({"order": self.order, "num_stones": stones, "reset": bool(reset)}))
        except OSError:
            pass  # the game may have just ended (e.g. on time): the final state is still readable
        return self._receive()

    def receive_move(self) -> dict:
        """Wait for the next state: the opponent's move, or the end of the game."""
        return self._receive()

    def pending(self) -> bool:
        """Whether a message has been received and not yet read."""
        return bool(self._received)

    def fileno(self) -> int:
        """The connection's socket, to wait on it together with other files."""
        return self._sock.fileno()

    def _receive(self) -> dict:
        while not self._received:
            data = self._sock.recv(READ_CHUNK)
            if not data:
                raise ConnectionError("the server closed the connection")
            self._received.extend(self._decoder.feed(data))
        return self._received.popleft()

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
