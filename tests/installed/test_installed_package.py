"""Smoke tests of the package as a user installs it: a wheel in a virtual environment of
its own, every command run from a folder outside the repository.

Not part of the default run. `.ci/run` builds the wheel, installs it with its [web]
extra into a fresh venv and runs this file with
    FRUIT_RAGE_VENV=/path/to/venv FRUIT_RAGE_WHEEL=/path/to/fruit_rage-....whl
Without them every test is skipped (failed under CI=true), saying which is not set.
The repository's own rules (agent.rules, imported by this test process) are the oracle
for the installed agent's moves."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from paths import PROJECT_ROOT, SAMPLES

from agent import rules
from agent.gamefile import format_input, parse_input, parse_output

pytestmark = pytest.mark.installed


def _required(name: str) -> str:
    """The variable's value. Without it there is no wheel to test: skipped when the suite
    is run alone, failed under CI=true (.ci/run sets both up)."""
    value = os.environ.get(name)
    if not value:
        message = f"{name} is not set: this suite tests an installed wheel (.ci/run sets it up)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return value


@pytest.fixture(scope="module")
def venv() -> str:
    return _required("FRUIT_RAGE_VENV")


@pytest.fixture(scope="module")
def wheel() -> str:
    return _required("FRUIT_RAGE_WHEEL")


@pytest.fixture
def folder(tmp_path):
    """A user's folder: outside the repository, empty but for what the test puts there."""
    assert not os.path.realpath(tmp_path).startswith(os.path.realpath(PROJECT_ROOT) + os.sep)
    return tmp_path


def _env(venv: str) -> dict:
    """A shell as the user has it after `source venv/bin/activate`: nothing of the
    repository on the import path."""
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = os.path.join(venv, "bin") + os.pathsep + env.get("PATH", "")
    env["VIRTUAL_ENV"] = venv
    return env


def _run(venv: str, folder, *words: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        list(words),
        cwd=folder,
        env=_env(venv),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _assert_legal_answer(input_text: str, output_text: str) -> None:
    """output.txt names a legal move and the exact board after it, by the oracle's rules."""
    grid = parse_input(input_text).grid
    move, board_after = parse_output(output_text, len(grid))
    expected, _points = rules.play(grid, rules.legal_cell(grid, move))
    assert board_after == expected


def test_version_is_the_wheels(venv, wheel, folder):
    version = os.path.basename(wheel).split("-")[1]
    done = _run(venv, folder, "fruit-rage", "--version")
    assert done.returncode == 0 and done.stdout.split() == ["fruit-rage", version], done.stdout + done.stderr


def test_the_compiled_core_is_imported_from_the_venv(venv, folder):
    done = _run(venv, folder, "python", "-c", "import agent, agent._core; agent.search; print(agent._core.__file__)")
    assert done.returncode == 0, done.stderr
    core = os.path.realpath(done.stdout.strip())
    assert core.startswith(os.path.realpath(venv) + os.sep) and core.endswith(".so"), core


def test_move_writes_a_legal_move(venv, folder):
    sample = os.path.join(SAMPLES, "05-worked-10x10", "input.txt")
    with open(sample, encoding="utf-8") as file:
        input_text = file.read()
    (folder / "input.txt").write_text(input_text)
    done = _run(venv, folder, "fruit-rage", "move", "--input", "input.txt", "--output", "output.txt")
    assert done.returncode == 0, done.stderr
    _assert_legal_answer(input_text, (folder / "output.txt").read_text())


def test_the_lean_line_plays_a_move_from_the_installed_copy(venv, folder):
    printed = _run(venv, folder, "fruit-rage", "command")
    assert printed.returncode == 0, printed.stderr
    line = printed.stdout.strip()
    assignment = shlex.split(line)[0]
    assert assignment.startswith("PYTHONPATH=") and os.path.realpath(assignment.split("=", 1)[1]).startswith(
        os.path.realpath(venv) + os.sep
    ), line
    input_text = format_input(rules.random_board(11, 26, 9), 9, 30.0)
    (folder / "input.txt").write_text(input_text)
    done = subprocess.run(line, shell=True, cwd=folder, env=_env(venv), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    _assert_legal_answer(input_text, (folder / "output.txt").read_text())


@pytest.mark.parametrize("script", ["red-blue-nim", "tictactoe", "start-game", "exp-nim"])
def test_the_light_games_answer_help(venv, folder, script):
    done = _run(venv, folder, script, "--help")
    assert done.returncode == 0 and "usage:" in done.stdout, done.stderr


def test_a_python_player_in_the_users_folder(venv, folder):
    (folder / "my_players.py").write_text(
        "class FirstGroupPlayer:\n"
        "    name = 'first-group'\n\n"
        "    def choose(self, board, clock_left):\n"
        "        return board.legal_moves()[0]\n"
    )
    done = _run(
        venv,
        folder,
        "fruit-rage",
        "match",
        "py:my_players:FirstGroupPlayer",
        "greedy",
        "--games",
        "2",
        "--size",
        "6",
        "--types",
        "3",
        "--time",
        "10",
        "--out",
        "games.jsonl",
    )
    assert done.returncode == 0, done.stderr
    assert "first-group" in done.stdout
    assert len((folder / "games.jsonl").read_text().splitlines()) == 2


# A user's code on the public API, type-checked against the installed wheel: the calls
# that are right pass --strict, and each wrong one is reported (so the types are seen, not
# Any), the compiled core's stub too (Board.core()).
_USER_TYPED = """\
from agent import Board, GreedyPlayer, Limit, MatchSettings, Move, Player, RandomPlayer, run_match, search


def best_move(rows: list[str], depth: int) -> Move:
    board = Board(rows)
    result = search(board, Limit(depth=depth))
    after, points = board.play(result.move)
    leaves: int = board.core().perft(1)
    assert after.size == board.size and points + leaves > 0
    return result.move


def greedy() -> Player:
    return GreedyPlayer()


margins: list[int] = [
    record.margin for record in run_match(greedy, RandomPlayer, MatchSettings(2, 5, 3)).records
]
"""
_USER_WRONG = """\
from agent import Board, Limit, search

result = search(Board(["01", "10"]), Limit(depth="3"))
value: str = result.value
result.move.name.append("A1")
Board(["01", "10"]).core().perft("deep")
"""


def test_a_users_type_checker_reads_the_installed_types(venv, folder):
    (folder / "typed.py").write_text(_USER_TYPED)
    (folder / "wrong.py").write_text(_USER_WRONG)
    done = _run(
        venv,
        folder,
        sys.executable,  # this environment's mypy, reading the venv's packages
        "-m",
        "mypy",
        "--strict",
        "--no-incremental",
        "--python-executable",
        os.path.join(venv, "bin", "python"),
        "typed.py",
        "wrong.py",
        timeout=300,
    )
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    assert done.returncode == 1, done.stdout + done.stderr
    assert [line.split(":")[:2] + [line.rsplit("[", 1)[-1]] for line in errors] == [
        ["wrong.py", "3", "arg-type]"],
        ["wrong.py", "4", "assignment]"],
        ["wrong.py", "5", "attr-defined]"],
        ["wrong.py", "6", "arg-type]"],
    ], done.stdout


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers.get_content_type(), response.read().decode("utf-8")


def _linked_assets(html: str, fetch) -> dict:
    """Every static asset the page loads: its <link href> and <script src>, and the
    modules those scripts import, followed to the end. {path: content type}."""
    found = {}
    pending = [path for path in re.findall(r'(?:href|src)="(/static/[^"]+)"', html)]
    while pending:
        path = pending.pop()
        if path in found:
            continue
        status, kind, body = fetch(path)
        assert status == 200, path
        found[path] = kind
        if path.endswith(".js"):
            folder = path.rsplit("/", 1)[0]
            pending += [f"{folder}/{name[2:]}" for name in re.findall(r'from "(\./[^"]+)"', body)]
    return found


def test_serve_answers_the_page_and_its_assets_then_stops_on_sigint(venv, folder):
    port = _free_port()
    server = subprocess.Popen(
        ["fruit-rage", "serve", "--port", str(port)],
        cwd=folder,
        env=_env(venv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                status, kind, html = _get(base + "/")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, server.communicate()[1]
                assert time.monotonic() < deadline, "the server did not answer within 60 s"
                time.sleep(0.2)
        assert status == 200 and kind == "text/html"
        assets = _linked_assets(html, lambda path: _get(base + path))
        assert any(path.endswith(".css") for path in assets) and any(path.endswith(".js") for path in assets)
        for path, kind in assets.items():
            expected = "text/css" if path.endswith(".css") else ("text/javascript", "application/javascript")
            assert kind in expected, (path, kind)
        # Every file the repository's page has is reachable from the page.
        static = os.path.join(PROJECT_ROOT, "agent", "web", "static")
        shipped = {
            "/static/" + os.path.relpath(os.path.join(root, name), static).replace(os.sep, "/")
            for root, _, names in os.walk(static)
            for name in names
            if name.endswith((".js", ".css"))
        }
        assert shipped <= set(assets), shipped - set(assets)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            _, stderr = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            raise
    assert server.returncode == 130, stderr
