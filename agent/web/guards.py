"""ASGI middleware every response passes: security headers, and the Host check that keeps
pages of other sites away from a server listening on this machine only."""

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
                body = json.dumps(
                    {"error": "this server answers only to the names of this machine's loopback address"}
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 400,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
