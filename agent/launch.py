"""The cheapest command line that plays one move with this installation.

A competition charges each move's start-up to the clock, and a plain `python -m agent`
pays for `site` (every .pth file of the environment) and runpy. With -S and the package's
folder on PYTHONPATH the move path imports only the standard library and agent itself:
it needs nothing from site-packages."""
from __future__ import annotations

import os
import shlex
import sys

MOVE_CODE = "import agent.cli as c; raise SystemExit(c.main())"


def package_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def move_command() -> list:
    return [sys.executable, "-S", "-c", MOVE_CODE]


def move_environment() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = package_root()
    return env


def shell_line() -> str:
    return f"PYTHONPATH={shlex.quote(package_root())} " + " ".join(shlex.quote(part) for part in move_command())


def run(args) -> int:
    print(shell_line())
    return 0
