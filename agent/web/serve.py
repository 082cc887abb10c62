"""`fruit-rage serve [--host H] [--port P] [--records DIR]`: the browser page on
http://H:P/ (127.0.0.1:8000 unless told otherwise)."""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys

from agent.cli_support import interrupted, number

DESCRIPTION = (
    "Serve the browser page on http://HOST:PORT/: play the agent or another built-in "
    "player, replay recorded matches and see where their games were won."
)
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# The names a browser on this machine uses for a loopback server: any other Host header
# there is a foreign page trying to reach it through a name rebound to 127.0.0.1.
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"]


def add_arguments(parser) -> None:
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default: {DEFAULT_HOST}, this machine only; "
        f"0.0.0.0 opens the page to the network)",
    )
    parser.add_argument(
        "--port",
        type=number(int, 0, 65535),
        default=DEFAULT_PORT,
        help=f"TCP port, 0..65535 (default: {DEFAULT_PORT}; 0: any free port)",
    )
    parser.add_argument(
        "--records",
        metavar="DIR",
        default=None,
        help="a folder of match records (*.jsonl written by match --out) the page "
        "may replay; only files right in it are offered, by name",
    )


def run(args) -> int:
    """Serve until Ctrl-C; 2 with a message for a --records that is not a folder or
    without the web extra installed."""
    if args.records is not None and not os.path.isdir(args.records):
        print(f"fruit-rage serve: --records {args.records}: not a folder", file=sys.stderr)
        return 2
    loopback = is_loopback(args.host)
    if not loopback:
        print(
            f"fruit-rage serve: warning: listening on {args.host}: anyone who can reach this "
            f"machine can use the page and make it think; there is no login",
            file=sys.stderr,
        )
    try:
        import uvicorn

        from agent.web.app import create_app
    except ImportError as error:
        print(
            f"fruit-rage serve: {error.name or error} is missing: the page needs the web extra "
            f"(pip install 'fruit-rage[web]')",
            file=sys.stderr,
        )
        return 2

    app = create_app(
        records_dir=args.records, allowed_hosts=LOOPBACK_NAMES + [_bracketed(args.host)] if loopback else None
    )
    uvicorn.run(app, host=args.host, port=args.port, access_log=False, log_level="info")
    return 0


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bracketed(host: str) -> str:
    """The host as a Host header names it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent.web", description=DESCRIPTION)
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except KeyboardInterrupt:
        return interrupted("fruit-rage")  # as `fruit-rage serve` ends
