"""`fruit-rage serve [--host H] [--port P] [--forwarded-allow-ips ADDRS] [--records DIR]`:
the browser page on http://H:P/ (127.0.0.1:8000 unless told otherwise)."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sys

from agent.cli_support import EXIT_CODES, interrupted, number

DESCRIPTION = (
    "Serve the browser page on http://HOST:PORT/: play the agent or another built-in "
    "player, replay recorded matches and see where their games were won. Needs the web "
    "extra: python3 -m pip install '.[web]'."
)
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# The names a browser on this machine uses for a loopback server: any other Host header
# there is a foreign page trying to reach it through a name rebound to 127.0.0.1.
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"]


def add_arguments(parser) -> None:
    parser.epilog = f"{EXIT_CODES}; 2 also for a port in use or a HOST this machine cannot listen on"
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
        "--forwarded-allow-ips",
        metavar="ADDRS",
        type=proxy_addresses,
        default=None,
        help="the addresses of your reverse proxies, comma-separated (IP addresses or "
        "networks such as 10.0.0.0/8; * for any): their X-Forwarded-For and "
        "X-Forwarded-Proto headers name the client. Without it no such header is "
        "believed, from any address",
    )
    parser.add_argument(
        "--records",
        metavar="DIR",
        default=None,
        help="a folder of match records (*.jsonl written by match --out) the page "
        "may replay; only files right in it are offered, by name",
    )


def run(args) -> int:
    """Serve until Ctrl-C (130); 2 with a message for a --records that is not a folder,
    without the web extra installed, or for an address that cannot be listened on."""
    if args.records is not None and not os.path.isdir(args.records):
        problem = "not a folder" if os.path.exists(args.records) else "no such folder"
        print(f"fruit-rage serve: --records {args.records}: {problem}", file=sys.stderr)
        return 2
    loopback = is_loopback(args.host)
    try:
        from agent.web import http_server
        from agent.web.app import create_app
    except ImportError as error:
        print(
            f"fruit-rage serve: {error.name or error} is missing: the page needs the web extra "
            f"(python3 -m pip install '.[web]' in the source folder)",
            file=sys.stderr,
        )
        return 2

    try:
        listener = http_server.listening_socket(args.host, args.port)
    except OSError as error:
        print(f"fruit-rage serve: {_cannot_listen(error, args.host, args.port)}", file=sys.stderr)
        return 2
    port = listener.getsockname()[1]
    if not loopback:  # once listening: an address that cannot be bound exposes nothing
        print(
            f"fruit-rage serve: warning: listening on {args.host}: anyone who can reach this "
            f"machine can use the page and make it think; there is no login",
            file=sys.stderr,
        )
    print(f"fruit-rage serve: the page is on http://{_bracketed(args.host)}:{port}/ (Ctrl-C stops it)", flush=True)
    app = create_app(
        records_dir=args.records, allowed_hosts=LOOPBACK_NAMES + [_bracketed(args.host)] if loopback else None
    )
    with listener:
        stopped_by_ctrl_c = http_server.serve(app, listener, proxies=args.forwarded_allow_ips)
    return interrupted("fruit-rage serve") if stopped_by_ctrl_c else 0


def proxy_addresses(text: str) -> list:
    """The addresses and networks of --forwarded-allow-ips, each checked: a name or a typo
    would trust nobody, or not the proxy meant."""
    items = [item.strip() for item in text.split(",")]
    if items == ["*"]:
        return items
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{item!r} is not an IP address or network (such as 10.0.0.0/8), nor * alone"
            ) from None
    return items


def _cannot_listen(error: OSError, host: str, port: int) -> str:
    if error.errno == errno.EADDRINUSE:
        return f"port {port} is in use; choose another with --port (0: any free port)"
    if isinstance(error, socket.gaierror):
        return f"--host {host}: {error.strerror or error}"
    reason = os.strerror(error.errno) if error.errno else str(error)  # not the address repeated
    return f"cannot listen on {host} port {port}: {reason.lower()}"


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
        return interrupted("fruit-rage serve")  # as `fruit-rage serve` ends
