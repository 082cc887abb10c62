"""One accepted player socket, non-blocking: bytes in through a MessageDecoder, bytes out
through a buffer that is sent as fast as the peer reads it.

Nothing here waits: the server's single loop reads and writes whichever sockets are ready,
so a peer that stops reading holds up nobody but itself.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass

from .protocol import MessageDecoder, ProtocolError, encode

READ_CHUNK = 4096
# The kernel's share of the output to one peer; fixed rather than grown to megabytes, so
# that a peer that stops reading is noticed within a few hundred states.
SEND_BUFFER_BYTES = 65536
READS_AT_ONCE = 16  # recvs per wake-up: what has arrived, and the end that follows it
MAX_UNSENT_BYTES = 1 << 20  # output a peer may leave unread, whatever the time
MESSAGE, EOF, INVALID = "message", "eof", "invalid"


@dataclass
class Event:
    conn: "Connection"
    kind: str  # MESSAGE, EOF or INVALID
    payload: object = None  # the message, or what was malformed
    at: float = 0.0  # monotonic time of the read


class Connection:
    def __init__(self, sock: socket.socket, joined: float):
        self.sock = sock
        sock.setblocking(False)
        _send_without_delay(sock)
        _bound_send_buffer(sock)
        self.joined = joined
        self.name = ""
        self.bytes_received = 0
        self.messages_received = 0
        self.finished_reading = False  # after EOF or malformed data nothing more is read
        self._decoder = MessageDecoder()
        self._unsent = bytearray()
        self.stalled_since: float | None = None  # when output last could not all be sent
        self.closed = False

    def read(self, now: float, byte_cap: int | None = None) -> list[Event]:
        """What the socket holds now, up to READS_AT_ONCE chunks, and its end if that is
        here too. `byte_cap`: the most it may send before its first complete message (its
        hello) without being cut off as malformed."""
        events: list[Event] = []
        for _ in range(READS_AT_ONCE):
            if self.finished_reading:
                break
            try:
                data = self.sock.recv(READ_CHUNK)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:  # reset by the peer
                data = b""
            if not data:
                self.finished_reading = True
                events.append(Event(self, EOF, None, now))
                break
            self._take(data, now, byte_cap, events)
        return events

    def _take(self, data: bytes, now: float, byte_cap: int | None, events: list[Event]) -> None:
        self.bytes_received += len(data)
        try:
            for message in self._decoder.feed(data):
                self.messages_received += 1
                events.append(Event(self, MESSAGE, message, now))
            if byte_cap is not None and not self.messages_received and self.bytes_received > byte_cap:
                raise ProtocolError(f"more than {byte_cap} bytes and no complete hello")
        except ProtocolError as error:
            self.finished_reading = True
            events.append(Event(self, INVALID, str(error), now))

    def send(self, message: dict, now: float) -> bool:
        """Queue one message and send what the socket takes now; False if the peer is gone."""
        self._unsent += encode(message)
        return self.flush(now)

    def flush(self, now: float) -> bool:
        """Send what the socket takes of the queued output; False if the peer is gone."""
        if self.closed:
            return False
        try:
            sent = self.sock.send(self._unsent) if self._unsent else 0
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._unsent.clear()
            self.stalled_since = None
            return False
        del self._unsent[:sent]
        if not self._unsent:
            self.stalled_since = None
        elif sent or self.stalled_since is None:  # progress restarts the clock
            self.stalled_since = now
        return True

    @property
    def has_unsent(self) -> bool:
        return bool(self._unsent)

    def stopped_reading(self, now: float, send_timeout: float) -> bool:
        """Whether output has waited `send_timeout` seconds without the peer taking any, or
        piled up past MAX_UNSENT_BYTES."""
        if len(self._unsent) > MAX_UNSENT_BYTES:
            return True
        return self.stalled_since is not None and now - self.stalled_since >= send_timeout

    def close(self) -> None:
        """Close at once. Unread input is read away first, where the socket has it at hand:
        closing on unread bytes resets the connection, which can destroy the last message
        on its way to the peer."""
        if self.closed:
            return
        self.closed = True
        try:
            for _ in range(16):
                if not self.sock.recv(READ_CHUNK):
                    break
        except OSError:
            pass
        self.sock.close()


def _send_without_delay(sock: socket.socket) -> None:
    """Turn off Nagle's algorithm: each player gets two messages in a row (its own move's
    state, then the opponent's), and with it on the second waits for the acknowledgement of
    the first, which the player's side delays ~40 ms: time charged to the first mover."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass


def _bound_send_buffer(sock: socket.socket) -> None:
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
    except OSError:
        pass
