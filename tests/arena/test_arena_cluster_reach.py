"""`--cluster` at addresses where no Dask scheduler answers as one: a port that takes the
connection and says nothing, one that answers something else, tls:// without
certificates and ucx:// without its package. Each is refused in a line naming the
address, within the connection's deadline, before any game."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading

import pytest
from paths import PROJECT_ROOT

from agent.arena.matches.cluster import CONNECT_TIMEOUT

HANG_GUARD_SECONDS = 60  # far beyond the deadline: only a wait without end reaches it


def match_on(address: str, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agent", "match", "greedy", "random", "--games", "2", "--size", "3"]
        + ["--cluster", address, "--out", str(tmp_path / "games.jsonl")],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,
    )


def assert_refused_in_a_line(done, message: str, tmp_path) -> None:
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines() == [f"fruit-rage match: {message}"], done.stderr
    assert not (tmp_path / "games.jsonl").exists()


@contextlib.contextmanager
def listening(answer: bytes | None):
    """A port of 127.0.0.1 that takes connections (the kernel completes them: nothing
    accepts) and says nothing, or that accepts each and sends `answer`."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        if answer is not None:

            def serve():
                with contextlib.suppress(OSError):
                    while True:
                        connection, _ = server.accept()
                        connection.sendall(answer)

            threading.Thread(target=serve, daemon=True).start()
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"


def test_a_port_that_takes_the_connection_and_says_nothing_is_refused_within_the_deadline(tmp_path):
    with listening(None) as address:
        done = match_on(address, tmp_path)
    assert_refused_in_a_line(
        done,
        f"no Dask scheduler answers at {address} within {CONNECT_TIMEOUT:g} s: "
        f"is `dask scheduler` running there, with its port open to this machine?",
        tmp_path,
    )


def test_a_port_that_answers_something_else_is_no_scheduler(tmp_path):
    with listening(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 100) as address:
        done = match_on(address, tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"fruit-rage match: what answers at {address} is not a Dask scheduler (")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "address, message",
    [
        (
            "tls://127.0.0.1:9",
            "tls://127.0.0.1:9: a tls:// scheduler needs this client's certificates in Dask's configuration "
            "(distributed.comm.tls.ca-file, client.cert and client.key); or use a tcp:// address",
        ),
        ("ucx://127.0.0.1:9", "ucx://127.0.0.1:9: this installation of Dask cannot connect over ucx:// ("),
    ],
)
def test_schemes_this_client_cannot_use_are_refused_saying_why(tmp_path, address, message):
    done = match_on(address, tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"fruit-rage match: {message}") and len(done.stderr.splitlines()) == 1
