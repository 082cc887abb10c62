"""Reading request bodies strictly: a size cap before anything is parsed, JSON objects with
known fields only, and every value checked for type and range. Each refusal is an
HTTPException whose detail tells the client what to fix."""

from __future__ import annotations

import asyncio
import contextlib
import json

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request

JSON_BODY_LIMIT = 4096  # bytes: every JSON request here is a handful of fields
# A body must be all in this long after its headers (4 MB at 140 kB/s): a client that
# stops halfway must not hold its connection, nor its turn to send a file, for good.
BODY_SECONDS = 30.0


class NoRoom(Exception):
    """The bytes of bodies held for a client, or in all, are at their cap."""


class BodyBytes:
    """The bytes of request bodies held at once, counted as they arrive: at most `total`
    in all and `share` for one client. A body that trickles in holds only what it has
    sent, so it keeps nobody from sending, the other clients of its address included."""

    def __init__(self, total: int, share: int):
        self.total = total
        self.share = share
        self.held = 0
        self.by_client: dict[str, int] = {}

    @contextlib.contextmanager
    def holder(self, client: str):
        """A function that holds `size` more bytes for `client` (NoRoom past a cap); all
        it held is given back on leaving."""
        taken = 0

        def take(size: int) -> None:
            nonlocal taken
            if self.held + size > self.total or self.by_client.get(client, 0) + size > self.share:
                raise NoRoom(client)
            self.held += size
            self.by_client[client] = self.by_client.get(client, 0) + size
            taken += size

        try:
            yield take
        finally:
            if taken:
                self.held -= taken
                self.by_client[client] -= taken
                if not self.by_client[client]:
                    del self.by_client[client]


async def read_body(request: Request, limit: int, seconds: float = BODY_SECONDS, take=None) -> bytes:
    """The body, refused with 413 as soon as it passes `limit` bytes (whatever
    Content-Length claims), with 408 when it is not all in within `seconds`; each chunk
    held by `take(size)` (a BodyBytes holder) as it comes, when given."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise HTTPException(413, f"the request body is larger than {limit} bytes")
    try:
        return await asyncio.wait_for(_chunks_up_to(request, limit, take), seconds)
    except asyncio.TimeoutError:
        raise HTTPException(408, f"the request body did not arrive within {seconds:g} seconds") from None
    except ClientDisconnect:
        raise HTTPException(400, "the client left before its request body was in") from None


async def _chunks_up_to(request: Request, limit: int, take) -> bytes:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPException(413, f"the request body is larger than {limit} bytes")
        if take is not None:
            take(len(chunk))
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json_object(request: Request, known: tuple) -> dict:
    """The body as a JSON object whose keys are all in `known`; an empty body is {}."""
    body = await read_body(request, JSON_BODY_LIMIT)
    if not body.strip():
        return {}
    try:
        value = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HTTPException(400, "the request body is not JSON") from None
    if not isinstance(value, dict):
        raise HTTPException(400, "the request body is not a JSON object")
    unknown = sorted(set(value) - set(known))
    if unknown:
        raise HTTPException(400, f"unknown field {unknown[0]!r} (known: {', '.join(known)})")
    return value


def whole_number(body: dict, key: str, low: int, high: int, default):
    """body[key] when it is a whole number in low..high; `default` when it is absent."""
    if key not in body:
        return default
    value = body[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HTTPException(400, f"{key!r} must be a whole number from {low} to {high}")
    return value


def number(body: dict, key: str, low: float, high: float, default: float) -> float:
    """body[key] when it is a number above `low` and up to `high`; `default` when absent."""
    if key not in body:
        return default
    value = body[key]
    # compared, not converted: a whole number of hundreds of digits is beyond a float, and
    # not-a-number fails every comparison
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low < value <= high:
        raise HTTPException(400, f"{key!r} must be a number of seconds above {low:g} and up to {high:g}")
    return float(value)


def choice(body: dict, key: str, choices: tuple, default: str) -> str:
    value = body.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise HTTPException(400, f"{key!r} must be one of: {', '.join(choices)}")
    return value


def text(body: dict, key: str, longest: int) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= longest:
        raise HTTPException(400, f"{key!r} must be text of 1 to {longest} characters")
    return value
