"""The web server: the page (agent/web/static) and a JSON API to play the built-in players
and to replay recorded matches. Every error is a JSON {"error": message} with a 4xx
status; nothing reads a path a client names."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from agent.web import bodies, game_records, library, replays
from agent.web.analyses import Analyses
from agent.web.games import AGENT, HUMAN, Game, GameError
from agent.web.guards import HostCheck, SameOriginChanges, SecurityHeaders
from agent.web.store import ExpiringStore, OwnerFull, StoreFull
from agent.web.strict_records import TooMuchWork
from agent.web.thinking import TaskLost, WorkerPool

STATIC = Path(__file__).parent / "static"
IDLE_SECONDS = 30 * 60  # a game or replay nobody asked for in this long is dropped
# A game that never had a move is dropped this long after its first mover's clock would
# have run out: a page reloaded or a flood of new games.
UNPLAYED_GRACE = 60.0
# Games kept in all, and for one client address. A new game makes room: at the address's
# cap its least recently used game that is over or never had a move goes, with the store
# full the least recently used game of the address holding the most.
MAX_GAMES = 500
MAX_GAMES_PER_CLIENT = 32
# Files of replays kept, and their bytes (each game as its JSON), in all and for one
# address; made room for as games are.
MAX_REPLAYS = 50
MAX_REPLAYS_PER_CLIENT = 10
REPLAY_BYTES = 64 * 2**20
REPLAY_SHARE = 4  # one address keeps at most 1/REPLAY_SHARE of REPLAY_BYTES
RECORDS_SECONDS = 120.0  # CPU seconds allowed for checking a file of records
# Files of records being checked at once, one an address; more are refused.
RECORD_FILES_AT_ONCE = 4
# Bytes of uploaded files being received, in all and for one address (a file's worth): a
# body counts what it has sent, so one that trickles in keeps no other upload waiting.
RECEIVING_BYTES = RECORD_FILES_AT_ONCE * replays.MAX_RECORDS_BYTES
RECEIVING_SHARE = replays.MAX_RECORDS_BYTES
RECORDS_NICENESS = 19  # the records' worker yields the processors to the agents' thinking
LIMITS: dict[str, tuple[Any, Any]] = {
    "size": (1, library.MAX_SIZE),
    "types": (1, library.MAX_TYPES),
    "clock": (0, 300.0),
    "seed": (0, 10**18 - 1),
}
DEFAULTS: dict[str, Any] = {
    "size": 8,
    "types": 3,
    "clock": library.PERSON_CLOCK,
    "agent_clock": library.AGENT_CLOCK,
    "first": "you",
    "opponent": "ours",
}
FIRST_CHOICES = ("you", "agent", "random")
GAME_FIELDS = ("size", "types", "clock", "agent_clock", "first", "opponent", "seed")
LONGEST_MOVE_NAME = 8
ANALYSIS_NODES = (1000, 10 * library.DEFAULT_NODES)  # the node budgets a page may ask an analysis for
# Nodes one analysis may search in all: a longer game gets fewer a position (the answer
# says how many), so that no request holds the analyses' processor for long.
ANALYSIS_TOTAL_NODES = 200 * library.DEFAULT_NODES
ANALYSES_WAITING = 4  # analyses that may wait for a free worker
ANALYSES_PER_CLIENT = 2  # analyses under way or waiting for one address
ANALYSES_KEPT = 100  # finished analyses kept, the least recently asked for dropped first
# Seconds a refused client is told to wait (Retry-After): for a busy worker or file slot,
# and for a game while all of its address's games are under way.
BUSY_RETRY_SECONDS = 10
GAMES_RETRY_SECONDS = 60
HINT_SECONDS = 120.0  # CPU seconds a hint may take (a few on the largest board)
# A game not analysed (or whose analysis was cancelled): not an error, the page just offers one.
NO_ANALYSIS = {"state": "none", "done": 0, "total": 0, "nodes": None, "analysis": None, "error": ""}
LONGEST_FILE_NAME = 255


@dataclass
class Session:
    """A live game; the lock keeps two tabs on one game from moving at once."""

    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hinting: bool = False  # a hint is being looked for: one at a time
    replay: dict | None = None  # the game opened as a replay: its id and what the page shows


class Server:
    def __init__(
        self, records_dir: str | None, workers: int, clock, idle_seconds: float, max_games: int, replay_bytes: int
    ):
        self.records_dir = records_dir
        self.workers = workers
        self.clock = clock
        self.idle_seconds = idle_seconds
        self.games: ExpiringStore[Session] = ExpiringStore(
            max_games,
            self._game_idle_seconds,
            clock,
            owner_capacity=MAX_GAMES_PER_CLIENT,
            in_use=lambda session: session.game.under_way,
        )
        self.replays: ExpiringStore[list] = ExpiringStore(
            MAX_REPLAYS,
            idle_seconds,
            clock,
            budget=replay_bytes,
            owner_capacity=MAX_REPLAYS_PER_CLIENT,
            owner_budget=replay_bytes // REPLAY_SHARE,
        )
        self.pool: WorkerPool | None = None  # the agents' thinking
        self.records_pool: WorkerPool | None = None  # checking files of records
        self.record_files: asyncio.Semaphore | None = None  # made on the server's event loop
        self.record_file_senders: set[str] = set()  # the addresses of the files being checked
        self.receiving = bodies.BodyBytes(RECEIVING_BYTES, RECEIVING_SHARE)
        self.analyses = Analyses(max(1, workers // 2), ANALYSES_WAITING, ANALYSES_PER_CLIENT, ANALYSES_KEPT)

    def _game_idle_seconds(self, session: Session) -> float:
        game = session.game
        if game.moves:
            return self.idle_seconds
        return min(self.idle_seconds, game.clocks[game.first] + UNPLAYED_GRACE)

    # --- the page's settings ---------------------------------------------------------
    async def options(self, request: Request):
        return JSONResponse(
            {
                "players": list(library.PLAYER_NAMES),
                "first": list(FIRST_CHOICES),
                "limits": LIMITS,
                "defaults": DEFAULTS,
                "records": self._record_names(),
                "analysis": {
                    "nodes": library.DEFAULT_NODES,
                    "labels": [list(floor) for floor in library.LABEL_FLOORS],
                    "thresholds": library.THRESHOLDS_TEXT,
                    "exact_mark": library.EXACT_MARK,
                },
            }
        )

    # --- games -----------------------------------------------------------------------
    async def new_game(self, request: Request):
        body = await bodies.read_json_object(request, GAME_FIELDS)
        size = bodies.whole_number(body, "size", *LIMITS["size"], DEFAULTS["size"])
        types = bodies.whole_number(body, "types", *LIMITS["types"], DEFAULTS["types"])
        clocks = {
            HUMAN: bodies.number(body, "clock", *LIMITS["clock"], DEFAULTS["clock"]),
            AGENT: bodies.number(body, "agent_clock", *LIMITS["clock"], DEFAULTS["agent_clock"]),
        }
        first = bodies.choice(body, "first", FIRST_CHOICES, DEFAULTS["first"])
        opponent = bodies.choice(body, "opponent", library.PLAYER_NAMES, DEFAULTS["opponent"])
        seed = bodies.whole_number(body, "seed", *LIMITS["seed"], None)
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if first == "random":
            first = random.Random(seed).choice((HUMAN, AGENT))
        game = Game(library.Board.random(seed, size, types), opponent, clocks, first, seed, self.clock())
        try:
            game_id = self.games.add(Session(game), owner=_client_address(request))
        except OwnerFull:
            raise _retry_later(
                429,
                f"this address has {MAX_GAMES_PER_CLIENT} games under way; finish one or let it expire",
                GAMES_RETRY_SECONDS,
            ) from None
        return JSONResponse(game.to_json(game_id, self.clock()), status_code=201)

    async def show_game(self, request: Request):
        game_id, session = self._session(request)
        session.game.check_human_clock(self.clock())
        return JSONResponse(session.game.to_json(game_id, self.clock()))

    async def human_move(self, request: Request):
        game_id, session = self._session(request)
        body = await bodies.read_json_object(request, ("move",))
        name = bodies.text(body, "move", LONGEST_MOVE_NAME)
        async with session.lock:
            try:
                session.game.play_human(name, self.clock())
            except GameError as error:
                raise HTTPException(error.status, str(error)) from None
        return JSONResponse(session.game.to_json(game_id, self.clock()))

    async def agent_move(self, request: Request):
        game_id, session = self._session(request)
        await bodies.read_json_object(request, ())
        game = session.game
        async with session.lock:
            try:
                game.expect_turn(AGENT)
            except GameError as error:
                raise HTTPException(error.status, str(error)) from None
            assert self.pool is not None  # made as the server starts
            thought = await self.pool.think(
                game.opponent, game.board.rows, game.board.types, game.clocks[AGENT], client=_client_address(request)
            )
            if thought.failure:
                game.agent_failed(thought.failure, thought.cpu, thought.fault)
            else:
                game.play_agent(thought.cell, thought.cpu, self.clock())
        return JSONResponse(game.to_json(game_id, self.clock()))

    async def hint(self, request: Request):
        """The agent's choice for the person in the position, with its value; the game
        counts the hint."""
        game_id, session = self._session(request)
        await bodies.read_json_object(request, ())
        game = session.game
        game.check_human_clock(self.clock())
        if session.hinting:
            raise HTTPException(409, "a hint is being looked for in this game already")
        try:
            game.take_hint()
        except GameError as error:
            raise HTTPException(error.status, str(error)) from None
        position = len(game.moves)
        assert self.pool is not None  # made as the server starts
        session.hinting = True
        try:
            found = await self.pool.run(
                HINT_SECONDS, library.hint, game.board.rows, library.DEFAULT_NODES, client=_client_address(request)
            )
        except TaskLost as lost:
            raise _retry_later(503, f"the hint could not be found: {lost}", BUSY_RETRY_SECONDS) from None
        finally:
            session.hinting = False
        return JSONResponse({**found, "position": position, "hints": len(game.hinted)})

    async def game_record(self, request: Request):
        """The game, once over, as a match record to save (one JSON line)."""
        _, session = self._session(request)
        record = self._record_of(session.game)
        return Response(
            _record_line(record),
            media_type="application/x-ndjson",
            headers={"content-disposition": f'attachment; filename="{game_records.file_name(session.game)}"'},
        )

    async def game_replay(self, request: Request):
        """The game, once over, opened as a replay (as its saved record would be), once."""
        _, session = self._session(request)
        if session.replay is not None and self.replays.get(session.replay["id"]) is not None:
            return JSONResponse(session.replay, status_code=201)
        record = self._record_of(session.game)
        response = await self._open_records(
            _record_line(record), game_records.file_name(session.game), _client_address(request)
        )
        session.replay = json.loads(response.body)
        return response

    def _record_of(self, game: Game) -> dict:
        if not game.over:
            raise HTTPException(409, "the game is not over yet")
        return game_records.match_record(game)

    def _session(self, request: Request) -> tuple:
        game_id = request.path_params["game_id"]
        session = self.games.get(game_id)
        if session is None:
            raise HTTPException(404, "no such game (it may have expired)")
        return game_id, session

    # --- recorded matches ------------------------------------------------------------
    async def open_record_file(self, request: Request):
        if self.records_dir is None:
            raise HTTPException(404, "the server was started without --records")
        body = await bodies.read_json_object(request, ("name",))
        name = bodies.text(body, "name", LONGEST_FILE_NAME)
        client = _client_address(request)
        async with self._record_file_turn(client):
            return await self._open_records(self._record_file(name), name, client)

    def _record_file(self, name: str) -> bytes:
        assert self.records_dir is not None  # open_record_file has checked
        try:
            return replays.read_record_file(self.records_dir, name)
        except LookupError as error:
            raise HTTPException(404, str(error)) from None
        except ValueError as error:
            raise HTTPException(413, str(error)) from None
        except OSError as error:
            raise HTTPException(404, f"{name}: {(error.strerror or str(error)).lower()}") from None

    async def upload_records(self, request: Request):
        """The file is received before it takes a turn to be checked: a sender that
        stalls holds the bytes it sent, not the turn of the other clients of its address."""
        client = _client_address(request)
        with self.receiving.holder(client) as take:
            try:
                data = await bodies.read_body(request, replays.MAX_RECORDS_BYTES, take=take)
            except bodies.NoRoom:
                raise _retry_later(
                    503, "the server is receiving other files of records; try again in a moment", BUSY_RETRY_SECONDS
                ) from None
            async with self._record_file_turn(client):
                opening = self._open_records(data, "the uploaded file", client)
                del data  # the check alone holds it: a refusal's traceback keeps this frame a while
                return await opening

    @contextlib.asynccontextmanager
    async def _record_file_turn(self, client: str):
        """One of the few places for a file of records being checked, one an address; 503
        when all are taken or the address has one."""
        assert self.record_files is not None  # made as the server starts
        if self.record_files.locked() or client in self.record_file_senders:
            raise _retry_later(
                503, "the server is reading other files of records; try again in a moment", BUSY_RETRY_SECONDS
            )
        self.record_file_senders.add(client)
        try:
            async with self.record_files:
                yield
        finally:
            self.record_file_senders.discard(client)

    async def _open_records(self, data: bytes, label: str, client: str):
        """The file `data` read as records and kept as a replay of `client`'s."""
        assert self.records_pool is not None  # made as the server starts
        reading = self.records_pool.run(RECORDS_SECONDS, replays.load_records, data, label, client=client)
        del data  # a refusal's traceback keeps this frame alive for a while: not the file with it
        try:
            games, view = await reading
        except TooMuchWork as error:
            raise HTTPException(413, str(error)) from None
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        except TaskLost as lost:
            raise _retry_later(
                503, f"{label} could not be read ({lost}); try a smaller file", BUSY_RETRY_SECONDS
            ) from None
        try:
            replay_id = self.replays.add(games, owner=client, size=sum(map(len, games)))
        except StoreFull as error:
            raise HTTPException(413, str(error)) from None
        return JSONResponse({"id": replay_id, **view}, status_code=201)

    async def replay_game(self, request: Request):
        (_, index), games = self._replayed_game(request)
        assert self.records_pool is not None  # made as the server starts
        try:
            view = await self.records_pool.run(
                RECORDS_SECONDS, replays.game_view, index, games[index], client=_client_address(request)
            )
        except TaskLost as lost:
            raise _retry_later(503, f"the game could not be replayed: {lost}", BUSY_RETRY_SECONDS) from None
        return JSONResponse(view)

    # --- analyses of replayed games ----------------------------------------------------
    async def start_analysis(self, request: Request):
        key, games = self._replayed_game(request)
        body = await bodies.read_json_object(request, ("nodes",))
        nodes = bodies.whole_number(body, "nodes", *ANALYSIS_NODES, library.DEFAULT_NODES)
        record = json.loads(games[key[1]])
        positions = len(record["moves"]) + 1
        nodes = min(nodes, max(ANALYSIS_NODES[0], ANALYSIS_TOTAL_NODES // positions))
        analysis = self.analyses.start(key, record, nodes, owner=_client_address(request))
        return JSONResponse(analysis.to_json(), status_code=202)

    async def show_analysis(self, request: Request):
        key, _ = self._replayed_game(request)
        analysis = self.analyses.get(key)
        return JSONResponse(NO_ANALYSIS if analysis is None else analysis.to_json())

    async def cancel_analysis(self, request: Request):
        key, _ = self._replayed_game(request)
        analysis = self.analyses.cancel(key)
        if analysis is None:
            raise HTTPException(404, "this game has no analysis to cancel")
        return JSONResponse(analysis.to_json())

    def _replayed_game(self, request: Request) -> tuple:
        """((replay id, game index), the replay's games) of the request's path; 404 when
        there is no such replay or game."""
        replay_id = request.path_params["replay_id"]
        games = self.replays.get(replay_id)
        if games is None:
            raise HTTPException(404, "no such replay (it may have expired)")
        index = _game_index(request.path_params["index"], len(games))
        return (replay_id, index), games

    def _record_names(self) -> list:
        if self.records_dir is None:
            return []
        try:
            return replays.record_file_names(self.records_dir)
        except OSError:
            return []

    async def index(self, request: Request):
        return FileResponse(STATIC / "index.html")


def _record_line(record: dict) -> bytes:
    """A record as `match --out` writes it: one line of JSON."""
    return (json.dumps(record) + "\n").encode()


def _retry_later(status: int, message: str, seconds: int) -> HTTPException:
    """A refusal (503: the server is busy; 429: the client's own share is taken) that says
    in how many seconds to try again."""
    return HTTPException(status, message, headers={"retry-after": str(seconds)})


def _game_index(text: str, games: int) -> int:
    """The index a path names among `games` games; 404 for anything else, checked before
    int() is asked to read it (a number of thousands of digits is beyond its limit)."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(games)) and int(text) < games):
        raise HTTPException(404, f"no game {text[:20]}: the file holds games 0 to {games - 1}")
    return int(text)


def _client_address(request: Request) -> str:
    return request.client.host if request.client else ""


async def _http_error(request: Request, error: Exception):
    assert isinstance(error, HTTPException)  # the handler registered for it
    return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)


async def _server_error(request: Request, error: Exception):
    return JSONResponse({"error": "the server failed on this request"}, status_code=500)


def create_app(
    records_dir: str | None = None,
    workers: int | None = None,
    allowed_hosts: list | None = None,
    clock=time.monotonic,
    idle_seconds: float = IDLE_SECONDS,
    max_games: int = MAX_GAMES,
    replay_bytes: int = REPLAY_BYTES,
) -> Starlette:
    """The app; `allowed_hosts` (None: any) refuses other Host headers, which keeps a page
    of another site from reaching a server on 127.0.0.1 through a rebound name."""
    server = Server(records_dir, workers or os.cpu_count() or 1, clock, idle_seconds, max_games, replay_bytes)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        server.pool = WorkerPool(server.workers)
        server.records_pool = WorkerPool(1, niceness=RECORDS_NICENESS)
        server.record_files = asyncio.Semaphore(RECORD_FILES_AT_ONCE)
        try:
            yield
        finally:
            await server.analyses.close()
            server.records_pool.close()
            server.pool.close()

    routes = [
        Route("/", server.index),
        Route("/api/options", server.options),
        Route("/api/games", server.new_game, methods=["POST"]),
        Route("/api/games/{game_id}", server.show_game),
        Route("/api/games/{game_id}/move", server.human_move, methods=["POST"]),
        Route("/api/games/{game_id}/agent-move", server.agent_move, methods=["POST"]),
        Route("/api/games/{game_id}/hint", server.hint, methods=["POST"]),
        Route("/api/games/{game_id}/record", server.game_record),
        Route("/api/games/{game_id}/replay", server.game_replay, methods=["POST"]),
        Route("/api/records/open", server.open_record_file, methods=["POST"]),
        Route("/api/records/upload", server.upload_records, methods=["POST"]),
        Route("/api/replays/{replay_id}/games/{index}", server.replay_game),
        Route(
            "/api/replays/{replay_id}/games/{index}/analysis",
            server.start_analysis,
            methods=["POST"],
        ),
        Route("/api/replays/{replay_id}/games/{index}/analysis", server.show_analysis),
        Route("/api/replays/{replay_id}/games/{index}/analysis", server.cancel_analysis, methods=["DELETE"]),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(HostCheck, names=allowed_hosts))
    middleware.append(Middleware(SameOriginChanges))
    return Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error, 500: _server_error},
    )
