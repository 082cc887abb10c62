"""uvicorn as `fruit-rage serve` runs it: on a socket bound here (so that a port in use is
a message, not a log line), with deadlines on each request's head and on a body still
coming after its answer, believing proxy headers only from the proxies named, and
telling whether Ctrl-C stopped it."""

from __future__ import annotations

import signal
import socket

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0  # from connecting, or from the last answer, to a request's last header
# From an answer sent before its request's body was all read (a refusal, or a GET that
# ignores a body) to the connection's end, whatever the client sends meanwhile.
ANSWERED_BODY_SECONDS = 5.0


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on `host` (an address or a name) and `port`; OSError when it
    cannot be had (socket.gaierror for a name that names no address)."""
    family, kind, protocol, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    # Made with its protocol named (IPPROTO_TCP), as asyncio needs to turn Nagle's delay off
    # on each connection: with the delay, every answer would wait 40 ms for an ACK.
    listener = socket.socket(family, kind, protocol)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen()
    except OSError:
        listener.close()
        raise
    return listener


class DeadlineProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request line and headers are
    not all in HEAD_SECONDS after it was opened or after its last answer, and one whose
    request body is still unread ANSWERED_BODY_SECONDS after its answer. uvicorn closes a
    connection idle between requests, but keeps one that has sent part of a head, or that
    sends a byte of a body now and then, open for as long as the client likes, so a client
    could hold any number of them."""

    head_seconds = HEAD_SECONDS
    answered_body_seconds = ANSWERED_BODY_SECONDS
    _head_timer = None
    _body_timer = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_head()
        # Set once an answer, not restarted by data: a byte now and then must not keep the
        # connection.
        self._stop_body_timer()
        if self.conn.their_state is h11.SEND_BODY:
            self._body_timer = self.loop.call_later(self.answered_body_seconds, self._body_too_late, self.cycle)

    def connection_lost(self, exc) -> None:
        self._stop_head_timer()
        self._stop_body_timer()
        super().connection_lost(exc)

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_too_late(self, answered) -> None:
        """Closes the connection if the request `answered` is still the one whose body comes."""
        self._body_timer = None
        if self.cycle is answered and self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self.transport.close()

    def _watch_head(self) -> None:
        """The timer runs while the connection waits for a request's head, from the moment
        it began to wait; it stops once a whole head is in."""
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            self._stop_head_timer()
        elif self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_too_late)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


class Server(uvicorn.Server):
    """uvicorn's server, noting whether Ctrl-C (SIGINT) stopped it: uvicorn ends as if it
    finished, and the command must exit 130 as every other does."""

    interrupted = False

    def handle_exit(self, sig, frame) -> None:
        self.interrupted = self.interrupted or sig == signal.SIGINT
        super().handle_exit(sig, frame)


def serve(app, listener: socket.socket, proxies: list | None = None) -> bool:
    """Serve `app` on `listener` until a signal stops it; True when it was Ctrl-C. The
    client is the connection's address: X-Forwarded-For and X-Forwarded-Proto are
    believed only from the addresses and networks `proxies` names (uvicorn believes
    them from loopback by default, where any local process can set them)."""
    config = uvicorn.Config(
        app,
        http=DeadlineProtocol,
        access_log=False,
        log_level="info",
        proxy_headers=proxies is not None,
        forwarded_allow_ips=proxies,
    )
    server = Server(config)
    server.run(sockets=[listener])
    return server.interrupted
