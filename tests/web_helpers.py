"""Helpers of the web tests: a real `python -m agent.web` server on a free port (serve,
load, hostile and browser tests) and the memory of its process, files of long recorded
games, and the page's colours read from its style sheet (palette and terminal tests)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from paths import PROJECT_ROOT

import agent.web
from agent.board import Board

STYLE = (Path(agent.web.__file__).parent / "static" / "style.css").read_text()


def variables(prefix: str) -> list:
    found = dict(re.findall(rf"--{prefix}-(\d):\s*(#[0-9A-Fa-f]{{6}})", STYLE))
    return [found.get(str(digit)) for digit in range(10)]


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of #RRGGBB."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


STARTUP_SECONDS = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def children(pid: int) -> list:
    """The processes whose parent is `pid` (the pool's workers of a server)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def serve_command(*args) -> list:
    return [sys.executable, "-m", "agent.web", *map(str, args)]


@contextlib.contextmanager
def running_server(*args, log_path):
    """(base URL, process) of `python -m agent.web` on a free 127.0.0.1 port, its output
    in `log_path` (a Path); stopped with Ctrl-C (SIGINT) on leaving, killed if it does not stop."""
    port = free_port()
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            serve_command("--port", port, *args), cwd=PROJECT_ROOT, stdout=log, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                if httpx.get(base + "/api/options", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {log_path.read_text()}")
            time.sleep(0.1)
        yield base, process
    finally:
        stop(process)


def stop(process) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def rss_mb(pid: int) -> float:
    """A process's resident memory (VmRSS) in MB."""
    with open(f"/proc/{pid}/status") as status:
        kilobytes = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return kilobytes / 1024


def long_game_record(size: int, types: int, seed: int) -> dict:
    """A game as `match --out` records it in which each side takes a smallest group every
    turn: about as many moves as a board of `size` allows."""
    rng = random.Random(seed)
    board = start = Board.random(seed, size, types)
    side = first = "A"
    moves, scores = [], {"A": 0, "B": 0}
    while not board.is_over:
        group = min(board.groups(), key=lambda group: (group.points, rng.random()))
        board, points = board.play(group.move)
        moves.append({"player": side, "move": group.move.name, "cpu": 0.01, "points": points})
        scores[side] += points
        side = "B" if side == "A" else "A"
    return {
        "game": 1,
        "seed": seed,
        "size": size,
        "types": types,
        "time": 10.0,
        "agents": {"A": "alpha", "B": "beta"},
        "first": first,
        "board": list(start.rows),
        "moves": moves,
        "scores": scores,
        "winner": None if scores["A"] == scores["B"] else max(scores, key=scores.get),
        "reason": "",
        "fault": None,
    }


def records_file(record: dict, games: int) -> bytes:
    """A JSONL file of `games` copies of `record` numbered from 1."""
    return b"".join(json.dumps({**record, "game": game}).encode() + b"\n" for game in range(1, games + 1))
