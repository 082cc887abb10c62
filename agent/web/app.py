"""The web server: the page (agent/web/static) and a JSON API to play the built-in players
and to replay recorded matches. Every error is a JSON {"error": message} with a 4xx
status; nothing reads a path a client names."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from agent.web import bodies, engine, replays
from agent.web.games import AGENT, HUMAN, Game, GameError
from agent.web.guards import HostCheck, SecurityHeaders
from agent.web.store import ExpiringStore, StoreFull
from agent.web.thinking import WorkerDied, WorkerPool

STATIC = Path(__file__).parent / "static"
IDLE_SECONDS = 30 * 60  # a game or replay nobody asked for in this long is dropped
MAX_GAMES = 500
MAX_REPLAYS = 50
RECORDS_SECONDS = 120.0  # wall seconds allowed for checking a file of records
LIMITS = {"size": (1, engine.MAX_SIZE), "types": (1, engine.MAX_TYPES), "clock": (0, 300.0), "seed": (0, 10**18 - 1)}
DEFAULTS = {"size": 8, "types": 3, "clock": 120.0, "agent_clock": 30.0, "first": "you", "opponent": "ours"}
FIRST_CHOICES = ("you", "agent", "random")
GAME_FIELDS = ("size", "types", "clock", "agent_clock", "first", "opponent", "seed")
LONGEST_MOVE_NAME = 8
LONGEST_FILE_NAME = 255


@dataclass
class Session:
    """A live game; the lock keeps two tabs on one game from moving at once."""

    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Server:
    def __init__(self, records_dir: str | None, workers: int, clock, idle_seconds: float, max_games: int):
        self.records_dir = records_dir
        self.workers = workers
        self.clock = clock
        self.games = ExpiringStore(max_games, idle_seconds, clock)
        self.replays = ExpiringStore(MAX_REPLAYS, idle_seconds, clock)
        self.pool: WorkerPool | None = None

    # --- the page's settings ---------------------------------------------------------
    async def options(self, request: Request):
        return JSONResponse(
            {
                "players": list(engine.PLAYER_NAMES),
                "first": list(FIRST_CHOICES),
                "limits": LIMITS,
                "defaults": DEFAULTS,
                "records": self._record_names(),
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
        opponent = bodies.choice(body, "opponent", engine.PLAYER_NAMES, DEFAULTS["opponent"])
        seed = bodies.whole_number(body, "seed", *LIMITS["seed"], None)
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if first == "random":
            first = random.Random(seed).choice((HUMAN, AGENT))
        game = Game(engine.Board.random(seed, size, types), opponent, clocks, first, seed, self.clock())
        try:
            game_id = self.games.add(Session(game))
        except StoreFull as error:
            raise HTTPException(503, str(error)) from None
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
            thought = await self.pool.think(game.opponent, game.board.rows, game.board.types, game.clocks[AGENT])
            if thought.failure:
                game.agent_failed(thought.failure, thought.wall)
            else:
                game.play_agent(thought.cell, thought.cpu, self.clock())
        return JSONResponse(game.to_json(game_id, self.clock()))

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
        try:
            data = replays.read_record_file(self.records_dir, name)
        except LookupError as error:
            raise HTTPException(404, str(error)) from None
        except ValueError as error:
            raise HTTPException(413, str(error)) from None
        except OSError as error:
            raise HTTPException(404, f"{name}: {(error.strerror or str(error)).lower()}") from None
        return await self._open_records(data, name)

    async def upload_records(self, request: Request):
        data = await bodies.read_body(request, replays.MAX_RECORDS_BYTES)
        return await self._open_records(data, "the uploaded file")

    async def _open_records(self, data: bytes, label: str):
        try:
            records, view = await self.pool.run(RECORDS_SECONDS, replays.load_records, data, label)
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        except (asyncio.TimeoutError, WorkerDied):
            raise HTTPException(503, f"{label} could not be read in time; try a smaller file") from None
        try:
            replay_id = self.replays.add(records)
        except StoreFull as error:
            raise HTTPException(503, str(error)) from None
        return JSONResponse({"id": replay_id, **view}, status_code=201)

    async def replay_game(self, request: Request):
        records = self.replays.get(request.path_params["replay_id"])
        if records is None:
            raise HTTPException(404, "no such replay (it may have expired)")
        index = request.path_params["index"]
        if not 0 <= index < len(records):
            raise HTTPException(404, f"no game {index}: the file holds games 0 to {len(records) - 1}")
        try:
            view = await self.pool.run(RECORDS_SECONDS, replays.game_view, index, records[index])
        except (asyncio.TimeoutError, WorkerDied):
            raise HTTPException(503, "the game could not be replayed in time") from None
        return JSONResponse(view)

    def _record_names(self) -> list:
        if self.records_dir is None:
            return []
        try:
            return replays.record_file_names(self.records_dir)
        except OSError:
            return []

    async def index(self, request: Request):
        return FileResponse(STATIC / "index.html")


async def _http_error(request: Request, error: HTTPException):
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
) -> Starlette:
    """The app; `allowed_hosts` (None: any) refuses other Host headers, which keeps a page
    of another site from reaching a server on 127.0.0.1 through a rebound name."""
    server = Server(records_dir, workers or os.cpu_count() or 1, clock, idle_seconds, max_games)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        server.pool = WorkerPool(server.workers)
        try:
            yield
        finally:
            server.pool.close()

    routes = [
        Route("/", server.index),
        Route("/api/options", server.options),
        Route("/api/games", server.new_game, methods=["POST"]),
        Route("/api/games/{game_id}", server.show_game),
        Route("/api/games/{game_id}/move", server.human_move, methods=["POST"]),
        Route("/api/games/{game_id}/agent-move", server.agent_move, methods=["POST"]),
        Route("/api/records/open", server.open_record_file, methods=["POST"]),
        Route("/api/records/upload", server.upload_records, methods=["POST"]),
        Route("/api/replays/{replay_id}/games/{index:int}", server.replay_game),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(HostCheck, names=allowed_hosts))
    return Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error, 500: _server_error},
    )
