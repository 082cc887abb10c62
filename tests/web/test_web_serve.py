"""`fruit-rage serve` as a program: a real uvicorn process on 127.0.0.1, its options and
its refusals."""

from __future__ import annotations

import argparse
import errno
import os
import socket
import subprocess
import sys
import time

import httpx
import pytest
from paths import PROJECT_ROOT
from starlette.testclient import TestClient
from web_helpers import alive, children, running_server, serve_command, stop

import agent.web
from agent.web import http_server, serve


def test_the_server_answers_and_stops_on_ctrl_c_with_its_workers(tmp_path):
    with running_server(log_path=tmp_path / "log") as (base, process):
        page = httpx.get(base + "/", timeout=10)
        game = httpx.post(base + "/api/games", json={"size": 4, "opponent": "random", "first": "agent"}, timeout=10)
        moved = httpx.post(f"{base}/api/games/{game.json()['id']}/agent-move", timeout=30)
        workers = children(process.pid)
        stop(process)
    assert page.status_code == 200 and moved.status_code == 200 and moved.json()["turn"] == "you"
    assert workers and process.returncode == 130
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)
    log = (tmp_path / "log").read_text()
    assert log.rstrip().endswith("fruit-rage serve: interrupted") and "Traceback" not in log


def test_a_foreign_host_header_is_refused_by_the_running_server(tmp_path):
    with running_server(log_path=tmp_path / "log") as (base, _):
        foreign = httpx.get(base + "/api/options", headers={"host": "rebound.example:8000"}, timeout=10)
        local = httpx.get(base + "/api/options", headers={"host": "localhost:8000"}, timeout=10)
    assert foreign.status_code == 400 and "loopback" in foreign.json()["error"]
    assert local.status_code == 200


@pytest.mark.parametrize(
    "args, message",
    [
        (["--records", "/no/such/folder"], "fruit-rage serve: --records /no/such/folder: no such folder"),
        (["--records", __file__], f"fruit-rage serve: --records {__file__}: not a folder"),
        (["--port", "70000"], "argument --port: must be 0..65535, got 70000"),
        (["--port", "http"], "argument --port: not an integer: 'http'"),
    ],
)
def test_bad_options_exit_2_with_a_message(args, message):
    done = subprocess.run(
        serve_command(*args), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_said_so_and_exits_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "agent", "serve", "--port", str(port)],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"fruit-rage serve: port {port} is in use; choose another with --port (0: any free port)\n"


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_the_listening_socket_names_tcp_so_that_answers_are_not_held_back(host):
    """asyncio turns Nagle's delay off only on connections of a socket made with
    IPPROTO_TCP; otherwise each answer waits about 40 ms for the client's ACK."""
    with http_server.listening_socket(host, 0) as listener:
        assert listener.proto == socket.IPPROTO_TCP and listener.getsockname()[1] > 0


def test_serve_ends_130_on_ctrl_c(tmp_path):
    """As `fruit-rage serve`, the command a person runs, not only `python -m agent.web`."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with open(tmp_path / "log", "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "agent", "serve", "--port", str(port)],
            cwd=PROJECT_ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while "Application startup complete" not in (tmp_path / "log").read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        stop(process)
    log = (tmp_path / "log").read_text()
    assert process.returncode == 130 and log.rstrip().endswith("fruit-rage serve: interrupted"), log
    assert f"the page is on http://127.0.0.1:{port}/" in log


def test_the_help_documents_the_exit_codes():
    shown = subprocess.run(
        [sys.executable, "-m", "agent", "serve", "--help"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "130" in shown and "2 also for a port in use" in " ".join(shown.split())


def served_app(monkeypatch, host: str):
    """(the app `serve.run` serves for --host `host`, the host it was to listen on); the
    socket is one on 127.0.0.1, so that any host name is tried on any machine."""
    told = {}

    def listening_socket(host: str, port: int):
        told.update(host=host)
        return socket.create_server(("127.0.0.1", port))

    monkeypatch.setattr(http_server, "listening_socket", listening_socket)
    monkeypatch.setattr(http_server, "serve", lambda app, listener, proxies: told.update(app=app))
    assert serve.run(argparse.Namespace(host=host, port=0, records=None, forwarded_allow_ips=None)) == 0
    return told["app"], told


def test_listening_beyond_this_machine_warns_and_takes_any_host_name(monkeypatch, capsys):
    app, told = served_app(monkeypatch, "0.0.0.0")
    assert "warning: listening on 0.0.0.0: anyone who can reach this machine" in capsys.readouterr().err
    assert told["host"] == "0.0.0.0"
    with TestClient(app, base_url="http://fruit.example.org") as client:
        assert client.get("/api/options").status_code == 200


def test_an_address_that_cannot_be_listened_on_is_not_warned_of(monkeypatch, capsys):
    def listening_socket(host: str, port: int):
        raise OSError(errno.EADDRNOTAVAIL, os.strerror(errno.EADDRNOTAVAIL))

    monkeypatch.setattr(http_server, "listening_socket", listening_socket)
    assert serve.run(argparse.Namespace(host="192.0.2.1", port=0, records=None, forwarded_allow_ips=None)) == 2
    assert capsys.readouterr().err == (
        "fruit-rage serve: cannot listen on 192.0.2.1 port 0: cannot assign requested address\n"
    )


@pytest.mark.parametrize(
    "host, base",
    [
        ("127.0.0.1", "http://127.0.0.1:8000"),
        ("localhost", "http://localhost"),
        ("::1", "http://[::1]:8000"),
        ("127.0.0.2", "http://127.0.0.2"),
    ],
)
def test_a_loopback_server_warns_not_and_knows_its_own_names(monkeypatch, capsys, host, base):
    app, _ = served_app(monkeypatch, host)
    assert "warning" not in capsys.readouterr().err
    with TestClient(app, base_url=base) as client:
        assert client.get("/api/options").status_code == 200
    with TestClient(app, base_url="http://rebound.example") as client:
        assert client.get("/api/options").status_code == 400


def test_without_the_web_extra_the_message_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now raises ImportError
    monkeypatch.delitem(sys.modules, "agent.web.http_server", raising=False)  # which imports it
    monkeypatch.delattr(agent.web, "http_server", raising=False)
    assert serve.run(argparse.Namespace(host="127.0.0.1", port=0, records=None)) == 2
    assert (
        "uvicorn is missing: the page needs the web extra (python3 -m pip install '.[web]' in the source folder)"
        in capsys.readouterr().err
    )
