"""`fruit-rage serve` as a program: a real uvicorn process on 127.0.0.1, its options and
its refusals."""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time

import httpx
import pytest
from paths import PROJECT_ROOT
from starlette.testclient import TestClient
from web_helpers import alive, children, running_server, serve_command, stop

from agent.web import serve


def test_the_server_answers_and_stops_on_ctrl_c_with_its_workers(tmp_path):
    with running_server(log_path=tmp_path / "log") as (base, process):
        page = httpx.get(base + "/", timeout=10)
        game = httpx.post(base + "/api/games", json={"size": 4, "opponent": "random", "first": "agent"}, timeout=10)
        moved = httpx.post(f"{base}/api/games/{game.json()['id']}/agent-move", timeout=30)
        workers = children(process.pid)
        stop(process)
    assert page.status_code == 200 and moved.status_code == 200 and moved.json()["turn"] == "you"
    assert workers and process.returncode == 0
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)
    assert "Traceback" not in (tmp_path / "log").read_text()


def test_a_foreign_host_header_is_refused_by_the_running_server(tmp_path):
    with running_server(log_path=tmp_path / "log") as (base, _):
        foreign = httpx.get(base + "/api/options", headers={"host": "rebound.example:8000"}, timeout=10)
        local = httpx.get(base + "/api/options", headers={"host": "localhost:8000"}, timeout=10)
    assert foreign.status_code == 400 and "loopback" in foreign.json()["error"]
    assert local.status_code == 200


@pytest.mark.parametrize(
    "args, message",
    [
        (["--records", "/no/such/folder"], "fruit-rage serve: --records /no/such/folder: not a folder"),
        (["--records", __file__], "not a folder"),
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


def test_a_port_in_use_is_a_message_and_a_failure(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = subprocess.run(
            serve_command("--port", taken.getsockname()[1]),
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode != 0 and "address already in use" in done.stderr
    assert "Traceback" not in done.stderr


def served_app(monkeypatch, host: str):
    """(the app `serve.run` hands uvicorn for --host `host`, what uvicorn was told)."""
    import uvicorn

    told = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: told.update(app=app, **options))
    assert serve.run(argparse.Namespace(host=host, port=0, records=None)) == 0
    return told["app"], told


def test_listening_beyond_this_machine_warns_and_takes_any_host_name(monkeypatch, capsys):
    app, told = served_app(monkeypatch, "0.0.0.0")
    assert "warning: listening on 0.0.0.0: anyone who can reach this machine" in capsys.readouterr().err
    assert told["host"] == "0.0.0.0"
    with TestClient(app, base_url="http://fruit.example.org") as client:
        assert client.get("/api/options").status_code == 200


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
    assert serve.run(argparse.Namespace(host="127.0.0.1", port=0, records=None)) == 2
    assert "uvicorn is missing: the page needs the web extra (pip install 'fruit-rage[web]')" in capsys.readouterr().err
