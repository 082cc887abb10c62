"""ASGI middleware every response passes: security headers, the Host check that keeps
pages of other sites away from a server listening on this machine only, and the origin
check that keeps them from changing anything on any server."""

from __future__ import annotations

import json

SECURITY_HEADERS = [
    # Only this origin's scripts, styles and images run on the page; nothing may frame it.
    (
        b"content-security-policy",
        (
            b"default-src 'self'; img-src 'self' data:; object-src 'none'; "
            b"base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
        ),
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def host_name(header: str) -> str:
    """The host of a Host header without its port: '[::1]' of '[::1]:8000'."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[: header.find("]") + 1]
    return header.split(":", 1)[0]


class HostCheck:
    """Refuses (400) a request whose Host header is not one of `names`. A foreign page can
    point a name of its own at 127.0.0.1 (DNS rebinding); its requests then carry that
    name, not ours."""

    def __init__(self, app, names):
        self.app = app
        self.names = {host_name(name) for name in names}

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = dict(scope.get("headers", []))
            if host_name(headers.get(b"host", b"").decode("latin-1")) not in self.names:
                await send_error(send, 400, "this server answers only to the names of this machine's loopback address")
                return
        await self.app(scope, receive, send)


CHANGING_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
# The types the page's requests carry. Neither is one a foreign page may send to another
# server without the browser asking that server first (a CORS preflight), which this one
# never grants; text/plain, forms and multipart need no asking.
PAGE_CONTENT_TYPES = {"application/json", "application/octet-stream"}


class SameOriginChanges:
    """Refuses a request that changes something (POST, PUT, PATCH, DELETE) when the browser
    says it comes from another site: 403 for an Origin that is not this server's own or a
    Sec-Fetch-Site other than same-origin, 415 for a body of a type the page never sends.
    A request with neither header comes from no browser's page (a script, curl) and is
    taken."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] in CHANGING_METHODS:
            refusal = change_refusal(scope)
            if refusal is not None:
                await send_error(send, *refusal)
                return
        await self.app(scope, receive, send)


def change_refusal(scope) -> tuple | None:
    """(status, reason) when the changing request `scope` must be refused, else None."""
    headers = {name: value.decode("latin-1").strip().lower() for name, value in scope.get("headers", [])}
    own_origin = f"{scope.get('scheme', 'http')}://{headers.get(b'host', '')}"
    site = headers.get(b"sec-fetch-site")
    origin = headers.get(b"origin")
    if (site is not None and site != "same-origin") or (origin is not None and origin != own_origin):
        return 403, "this request comes from another site: only this server's own page may change anything here"
    content_type = headers.get(b"content-type")
    if content_type is not None and content_type.split(";", 1)[0].strip() not in PAGE_CONTENT_TYPES:
        return 415, f"a request body must be {' or '.join(sorted(PAGE_CONTENT_TYPES))}"
    return None


async def send_error(send, status: int, message: str) -> None:
    """A JSON {"error": message} answer, as the app gives every refusal."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
