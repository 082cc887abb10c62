"""The game server: seats two players, relays moves and states, enforces every rule and deadline.

One asyncio task per connection turns its bytes into events on a single queue, so the game
loop sees messages from both players in arrival order: a message from the player not on
move is caught as out of turn, and the player on move is waited for with a real deadline.
"""
from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from dataclasses import dataclass

from .game_log import GameLog
from .protocol import MessageDecoder, ProtocolError, encode, parse_hello, parse_move
from .rules import Game, GameConfig

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9999
DEFAULT_JOIN_TIMEOUT = 300.0
MAX_WAITING_CONNECTIONS = 8
SEND_TIMEOUT = 5.0
READ_CHUNK = 4096

MESSAGE, EOF, INVALID = "message", "eof", "invalid"


@dataclass
class GameResult:
    winner: str | None  # None when no game took place
    reason: str


@dataclass
class _Event:
    conn: "_Connection"
    kind: str
    payload: object = None
    at: float = 0.0


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.name = ""
        self.joined = time.monotonic()

    async def pump(self, events: asyncio.Queue) -> None:
        """Post every message, then one EOF or INVALID event, for this connection."""
        decoder = MessageDecoder()
        try:
            while True:
                data = await self.reader.read(READ_CHUNK)
                if not data:
                    break
                for message in decoder.feed(data):
                    events.put_nowait(_Event(self, MESSAGE, message, time.monotonic()))
        except ProtocolError as error:
            events.put_nowait(_Event(self, INVALID, str(error), time.monotonic()))
            return
        except OSError:
            pass
        events.put_nowait(_Event(self, EOF, None, time.monotonic()))

    async def send(self, message: dict) -> None:
        """Send one whole message in one write; a vanished peer shows up as its EOF event."""
        try:
            self.writer.write(encode(message))
            await asyncio.wait_for(self.writer.drain(), SEND_TIMEOUT)
        except (OSError, asyncio.TimeoutError):
            pass

    async def close(self) -> None:
        try:
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), SEND_TIMEOUT)
        except (OSError, asyncio.TimeoutError):
            pass


def _send_without_delay(writer: asyncio.StreamWriter) -> None:
    """Turn off Nagle's algorithm on an accepted connection (asyncio does so only for sockets
    whose proto field says TCP, and accepted ones say 0). With it on, the second of two
    messages in a row to a player (its own move's state, then the opponent's) waits for the
    acknowledgement of the first, which the player's side delays ~40 ms: time that was
    charged to the first mover on every move."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass


def open_listener(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> socket.socket:
    """Bind the listening socket up front, so a bad address or a busy port fails early (OSError).
    An IPv6 address (`::1`, `[::1]`) gets an IPv6 socket; names and the rest, IPv4 as before."""
    host = host.strip("[]")
    try:
        ipv6 = ipaddress.ip_address(host).version == 6
    except ValueError:  # a name such as localhost
        ipv6 = False
    return socket.create_server((host, port), family=socket.AF_INET6 if ipv6 else socket.AF_INET)


def play_one_game(
    listener: socket.socket,
    config: GameConfig,
    log: GameLog,
    join_timeout: float = DEFAULT_JOIN_TIMEOUT,
) -> GameResult:
    """Run one game on `listener` and return its result; `listener` and `log` are closed
    afterwards. Interrupted (Ctrl-C), the log says so."""
    try:
        return asyncio.run(_Session(listener, config, join_timeout).run(log))
    except KeyboardInterrupt:
        log.interrupted()
        raise
    finally:
        log.close()
        listener.close()


class _Session:
    def __init__(self, listener: socket.socket, config: GameConfig, join_timeout: float):
        self.listener = listener
        self.config = config
        self.join_timeout = join_timeout
        self.events: asyncio.Queue | None = None  # made inside the running loop
        self.connections: set[_Connection] = set()
        self.seats: list[_Connection | None] = [None, None]
        self.seated = False

    async def _on_connect(self, reader, writer) -> None:
        conn = _Connection(reader, writer)
        _send_without_delay(writer)
        if self.seated:
            await conn.close()
            return
        if len(self.connections) >= MAX_WAITING_CONNECTIONS:
            await self._make_room()
        self.connections.add(conn)
        await conn.pump(self.events)

    async def run(self, log: GameLog) -> GameResult:
        self.events = asyncio.Queue()
        server = await asyncio.start_server(self._on_connect, sock=self.listener)
        try:
            seats = await self._seat_players()
            if seats is None:
                reason = f"two players did not join within {self.join_timeout:g} s"
                log.write(f"No game: {reason}")
                return GameResult(None, reason)
            self.seated = True
            server.close()
            for conn in self.connections - set(seats):
                await conn.close()
            return await self._play(seats, log)
        finally:
            server.close()
            for conn in self.connections:
                await conn.close()

    async def _next_event(self, deadline: float) -> _Event | None:
        """The next event, or None once the monotonic `deadline` has passed."""
        try:
            return await asyncio.wait_for(self.events.get(), max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            return None

    async def _reject(self, conn: _Connection, why: str) -> None:
        await conn.send({"error": why})
        await conn.close()
        self.connections.discard(conn)

    async def _make_room(self) -> None:
        """Turn away the longest waiting connection without a seat: connections that never
        say hello must not keep the players out."""
        waiting = [conn for conn in self.connections if conn not in self.seats]
        oldest = min(waiting, key=lambda conn: conn.joined)  # 2 seats, more connections
        self.connections.discard(oldest)  # at once: the next connection must pick another
        await oldest.send({"error": "too many connections are waiting; the longest waiting made room"})
        await oldest.close()

    async def _turn_away(self, conn: _Connection, event: _Event, why: str = "") -> None:
        """Close `conn` at its EOF; after malformed data, or a message that is `why` out of
        place, first tell it what was wrong."""
        if event.kind == EOF:
            await conn.close()
            self.connections.discard(conn)
        elif event.kind == INVALID:
            await self._reject(conn, f"sent malformed data ({event.payload})")
        else:
            await self._reject(conn, why)

    async def _seat_players(self) -> list[_Connection] | None:
        """Wait for valid hellos taking orders 0 and 1; bad or clashing hellos are turned away."""
        seats = self.seats  # seen by _make_room too
        deadline = time.monotonic() + self.join_timeout
        while None in seats:
            event = await self._next_event(deadline)
            if event is None:
                return None
            conn = event.conn
            if conn not in self.connections:
                continue
            if conn in seats:
                # A seated player must wait for the init message; leaving frees its seat.
                seats[seats.index(conn)] = None
                await self._turn_away(conn, event, "sent a message before the game started")
                continue
            if event.kind != MESSAGE:
                await self._turn_away(conn, event)
                continue
            try:
                hello = parse_hello(event.payload)
            except ProtocolError as error:
                await self._reject(conn, str(error))
                continue
            if seats[hello.order] is not None:
                await self._reject(conn, f"order {hello.order} is already taken")
                continue
            other = seats[1 - hello.order]
            if other is not None and other.name == hello.name:
                # the states name the winner: two players of one name could not tell who won
                await self._reject(conn, f"the name {hello.name!r} is already taken")
                continue
            conn.name = hello.name
            seats[hello.order] = conn
        return seats

    async def _broadcast(self, seats: list[_Connection], message: dict) -> None:
        for conn in seats:
            await conn.send(message)

    async def _play(self, seats: list[_Connection], log: GameLog) -> GameResult:
        names = (seats[0].name, seats[1].name)
        game = Game(self.config, names)
        log.setup(self.config, names)
        await self._broadcast(seats, game.init_message())
        turn_start = time.monotonic()
        while not game.finished:  # every pass makes a move that takes a stone, or ends the game
            mover = game.turn
            deadline = turn_start + self.config.time_budget - game.players[mover].time_taken
            event = await self._next_event(deadline)
            while event is not None and event.conn not in seats:
                event = await self._next_event(deadline)
            if event is None:
                game.time_out(mover)
            else:
                self._apply(game, seats.index(event.conn), event, turn_start)
            if game.last_removed:  # a forfeit removes nothing; its reason is in the end line
                log.move(game, mover)
            await self._broadcast(seats, game.state())
            turn_start = time.monotonic()
        log.end(game)
        return GameResult(names[game.winner], game.reason)

    @staticmethod
    def _apply(game: Game, player: int, event: _Event, turn_start: float) -> None:
        if event.kind == EOF:
            game.forfeit(player, "disconnected")
        elif event.kind == INVALID:
            game.forfeit(player, f"sent malformed data ({event.payload})")
        elif player != game.turn:
            game.forfeit(player, "moved out of turn")
        else:
            try:
                move = parse_move(event.payload)
            except ProtocolError as error:
                game.forfeit(player, f"sent an invalid move ({error})")
                return
            game.play(move, max(0.0, event.at - turn_start))
