"""The game server: seats two players, relays moves and states, enforces every rule and deadline.

One thread runs one loop over non-blocking sockets (selectors): it reads whatever has
arrived, writes whatever the peers take, and wakes for the next deadline. Nothing waits
on one peer, so a player that stops reading stalls nobody, and Ctrl-C (KeyboardInterrupt,
raised out of the wait) stops the server at once on every Python: there are no tasks to
cancel that could swallow it.

Before the game at most MAX_WAITING_CONNECTIONS are held, seated players included. A
connection must say hello within the hello deadline and in a few bytes; when a newcomer
would pass the cap, the longest waiting connection without a seat makes room, after every
hello already received has been read, so connections that say nothing cannot push out
players who have spoken, or whose hello is on its way.
"""

from __future__ import annotations

import ipaddress
import selectors
import socket
import time
from collections import deque
from dataclasses import dataclass

from .connection import EOF, INVALID, Connection, Event
from .game_log import GameLog
from .protocol import ProtocolError, parse_hello, parse_move
from .rules import Game, GameConfig

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9999
DEFAULT_JOIN_TIMEOUT = 300.0
MAX_WAITING_CONNECTIONS = 8
HELLO_TIMEOUT = 5.0  # a client sends its hello as it connects
MAX_HELLO_BYTES = 2048  # a hello with a 64-character name, escaped, and some blanks
SEND_TIMEOUT = 5.0
ACCEPT_BATCH = 64  # connections taken per wake-up, so reads are never starved by arrivals


@dataclass
class GameResult:
    winner: str | None  # None when no game took place
    reason: str


def open_listener(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> socket.socket:
    """Bind the listening socket up front, so a bad address or a busy port fails early (OSError).
    An IPv6 address (`::1`, `[::1]`) gets an IPv6 socket; names and the rest, IPv4 as before.
    The kernel's queue of arrivals is as long as the system allows: with the usual 128, a
    burst of connections overflows it and the connections after, a player's among them,
    are dropped and retried only a second later."""
    host = host.strip("[]")
    try:
        ipv6 = ipaddress.ip_address(host).version == 6
    except ValueError:  # a name such as localhost
        ipv6 = False
    return socket.create_server(
        (host, port), family=socket.AF_INET6 if ipv6 else socket.AF_INET, backlog=socket.SOMAXCONN
    )


def play_one_game(
    listener: socket.socket,
    config: GameConfig,
    log: GameLog,
    join_timeout: float = DEFAULT_JOIN_TIMEOUT,
    hello_timeout: float = HELLO_TIMEOUT,
    send_timeout: float = SEND_TIMEOUT,
) -> GameResult:
    """Run one game on `listener` and return its result; `listener` and `log` are closed
    afterwards. Interrupted (Ctrl-C), the log says so."""
    session = _Session(listener, config, join_timeout, hello_timeout, send_timeout)
    try:
        return session.run(log)
    except KeyboardInterrupt:
        log.interrupted()
        raise
    finally:
        session.close_all()
        log.close()
        listener.close()


class _Session:
    def __init__(
        self,
        listener: socket.socket,
        config: GameConfig,
        join_timeout: float,
        hello_timeout: float,
        send_timeout: float,
    ):
        self.listener = listener
        self.config = config
        self.join_timeout = join_timeout
        self.hello_timeout = hello_timeout
        self.send_timeout = send_timeout
        self.selector = selectors.DefaultSelector()
        self.waiting: dict[Connection, None] = {}  # before the game, in order of arrival
        self.seats: list[Connection | None] = [None, None]
        self.events: deque[Event] = deque()  # during the game, in order of arrival
        self.masks: dict[Connection, int] = {}  # what the selector waits for on each

    # ---------------------------------------------------------------- the loop

    def _wait(self, until: float) -> None:
        """Serve every socket that is ready, waiting for one at most until `until`."""
        now = time.monotonic()
        ready = self.selector.select(max(0.0, until - now))
        now = time.monotonic()
        arrivals = False
        for key, mask in ready:
            if key.fileobj is self.listener:
                arrivals = True
                continue
            conn = key.data
            if mask & selectors.EVENT_WRITE and not conn.closed:
                self._flush(conn, now)
            if mask & selectors.EVENT_READ and not conn.closed:
                self._read(conn, now)
        if arrivals:  # after the reads: data that is in is served before newcomers
            self._accept(now)

    def _watch(self, conn: Connection) -> None:
        """Wait on `conn` for what it can do: read until its end, write while output waits."""
        mask = 0 if conn.finished_reading or conn.closed else selectors.EVENT_READ
        if conn.has_unsent and not conn.closed:
            mask |= selectors.EVENT_WRITE
        old = self.masks.get(conn, 0)
        if mask == old:
            return
        if old == 0:
            self.selector.register(conn.sock, mask, conn)
        elif mask == 0:
            self.selector.unregister(conn.sock)
        else:
            self.selector.modify(conn.sock, mask, conn)
        if mask:
            self.masks[conn] = mask
        else:
            del self.masks[conn]

    def _forget(self, conn: Connection) -> None:
        if conn in self.masks:
            self.selector.unregister(conn.sock)
            del self.masks[conn]
        conn.close()

    def _read(self, conn: Connection, now: float) -> None:
        cap = None if conn in self.seats else MAX_HELLO_BYTES
        events = conn.read(now, cap)
        self._watch(conn)
        for event in events:
            self._route(event)

    def _route(self, event: Event) -> None:
        """Once both seats are taken a seated player's messages are moves of the game (one
        sent with the hello included); before, the lobby judges them."""
        conn = event.conn
        if conn in self.seats and None not in self.seats:
            self.events.append(event)
        elif conn in self.waiting:  # not turned away by an earlier message
            self._lobby_event(event)

    def _send(self, conn: Connection, message: dict) -> None:
        now = time.monotonic()
        if not conn.send(message, now):
            self._peer_gone(conn, now)
        self._watch(conn)

    def _flush(self, conn: Connection, now: float) -> None:
        if not conn.flush(now):
            self._peer_gone(conn, now)
        self._watch(conn)

    def _peer_gone(self, conn: Connection, now: float) -> None:
        """Sending failed: the peer reset the connection. Reading shows the same, as EOF."""
        if not conn.finished_reading:
            conn.finished_reading = True
            self._route(Event(conn, EOF, None, now))

    def close_all(self) -> None:
        for conn in [*self.waiting, *self.seats]:
            if conn is not None:
                self._forget(conn)
        self.selector.close()

    # ------------------------------------------------------------- the lobby

    def run(self, log: GameLog) -> GameResult:
        self.listener.setblocking(False)
        self.selector.register(self.listener, selectors.EVENT_READ)
        deadline = time.monotonic() + self.join_timeout
        while None in self.seats:
            now = time.monotonic()
            if now >= deadline:
                reason = f"two players did not join within {self.join_timeout:g} s"
                log.write(f"No game: {reason}")
                self._turn_away_all(f"no game: {reason}")
                return GameResult(None, reason)
            self._drop_silent(now)
            self._wait(min(deadline, self._next_hello_deadline()))
        self.selector.unregister(self.listener)
        self.listener.close()  # newcomers are refused from now on
        seats = [conn for conn in self.seats if conn is not None]  # both, as the loop above waited
        for conn in seats:
            del self.waiting[conn]
        self._turn_away_all("the game has started between two other players")
        return self._play(seats, log)

    def _accept(self, now: float) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                sock, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors, or the peer gave up: try later
                return
            conn = Connection(sock, now)
            self.waiting[conn] = None
            self._watch(conn)
            self._read(conn, now)  # its hello may be here already
            if len(self.waiting) > MAX_WAITING_CONNECTIONS:
                self._make_room(now)

    def _make_room(self, now: float) -> None:
        """Turn away the longest waiting connections without a seat, down to the cap; first
        read every hello that has arrived, so that its sender is seated, not turned away."""
        for conn in list(self.waiting):
            if conn in self.waiting and conn not in self.seats:
                self._read(conn, now)
        for conn in list(self.waiting):
            if len(self.waiting) <= MAX_WAITING_CONNECTIONS:
                return
            if conn not in self.seats:
                self._reject(conn, "too many connections are waiting; the longest waiting made room")

    def _drop_silent(self, now: float) -> None:
        for conn in list(self.waiting):
            if conn not in self.seats and now - conn.joined >= self.hello_timeout:
                self._reject(conn, f"no hello within {self.hello_timeout:g} s")

    def _next_hello_deadline(self) -> float:
        unseated = [conn.joined for conn in self.waiting if conn not in self.seats]
        return min(unseated, default=float("inf")) + self.hello_timeout

    def _reject(self, conn: Connection, why: str) -> None:
        """Tell `conn` why and close it: what it is told goes out in one send, which a fresh
        connection's buffer always takes."""
        conn.send({"error": why}, time.monotonic())
        self._drop(conn)

    def _drop(self, conn: Connection) -> None:
        self.waiting.pop(conn, None)
        if conn in self.seats:
            self.seats[self.seats.index(conn)] = None
        self._forget(conn)

    def _turn_away_all(self, why: str) -> None:
        for conn in list(self.waiting):
            self._reject(conn, why)

    def _lobby_event(self, event: Event) -> None:
        """A hello takes a free seat; anything else before the game turns its sender away."""
        conn = event.conn
        if event.kind == EOF:
            self._drop(conn)  # leaving frees its seat
        elif event.kind == INVALID:
            self._reject(conn, f"sent malformed data ({event.payload})")
        elif conn in self.seats:  # a seated player must wait for the init message
            self._reject(conn, "sent a message before the game started")
        else:
            assert isinstance(event.payload, dict)  # a message event carries a decoded object
            self._take_seat(conn, event.payload)

    def _take_seat(self, conn: Connection, message: dict) -> None:
        try:
            hello = parse_hello(message)
        except ProtocolError as error:
            self._reject(conn, str(error))
            return
        if self.seats[hello.order] is not None:
            self._reject(conn, f"order {hello.order} is already taken")
            return
        other = self.seats[1 - hello.order]
        if other is not None and other.name == hello.name:
            # the states name the winner: two players of one name could not tell who won
            self._reject(conn, f"the name {hello.name!r} is already taken")
            return
        conn.name = hello.name
        self.seats[hello.order] = conn

    # -------------------------------------------------------------- the game

    def _play(self, seats: list[Connection], log: GameLog) -> GameResult:
        names = (seats[0].name, seats[1].name)
        game = Game(self.config, names)
        log.setup(self.config, names)
        self._broadcast(seats, game.init_message())
        turn_start = time.monotonic()
        while not game.finished:  # every pass makes a move that takes a stone, or ends the game
            mover = game.turn
            deadline = turn_start + self.config.time_budget - game.players[mover].time_taken
            self._next_move(game, seats, deadline, turn_start)
            if game.last_removed:  # a forfeit removes nothing; its reason is in the end line
                log.move(game, mover)
            self._broadcast(seats, game.state())
            turn_start = time.monotonic()
        log.end(game)
        self._deliver(seats)
        assert game.winner is not None  # the game is finished
        return GameResult(names[game.winner], game.reason)

    def _next_move(self, game: Game, seats: list[Connection], deadline: float, turn_start: float) -> None:
        """Wait for what decides this turn: a message or a fault of either player, a player
        that stopped reading, or the mover's clock running out."""
        while not self.events:
            now = time.monotonic()
            for index, conn in enumerate(seats):
                if conn.stopped_reading(now, self.send_timeout):
                    game.forfeit(index, "stopped reading")
                    return
            if now >= deadline:
                game.time_out(game.turn)
                return
            stalls = [conn.stalled_since + self.send_timeout for conn in seats if conn.stalled_since is not None]
            self._wait(min([deadline, *stalls]))
        event = self.events.popleft()
        self._apply(game, seats.index(event.conn), event, turn_start)

    def _broadcast(self, seats: list[Connection], message: dict) -> None:
        for conn in seats:
            self._send(conn, message)

    def _deliver(self, seats: list[Connection]) -> None:
        """Let the final state reach both players, for at most the send timeout, then close."""
        deadline = time.monotonic() + self.send_timeout
        while any(conn.has_unsent and not conn.closed for conn in seats):
            if time.monotonic() >= deadline:
                break
            self._wait(deadline)
        for conn in seats:
            self._forget(conn)

    @staticmethod
    def _apply(game: Game, player: int, event: Event, turn_start: float) -> None:
        if event.kind == EOF:
            game.forfeit(player, "disconnected")
        elif event.kind == INVALID:
            game.forfeit(player, f"sent malformed data ({event.payload})")
        elif player != game.turn:
            game.forfeit(player, "moved out of turn")
        else:
            assert isinstance(event.payload, dict)  # a message event carries a decoded object
            try:
                move = parse_move(event.payload)
            except ProtocolError as error:
                game.forfeit(player, f"sent an invalid move ({error})")
                return
            game.play(move, max(0.0, event.at - turn_start))
