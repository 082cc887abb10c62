"""The cheapest command line that plays one move with this installation.

A competition charges each move's start-up to the clock, and a plain `python -m agent`
pays for `site` (every .pth file of the environment) and runpy. With -S and the package's
folder on PYTHONPATH the move path imports only the standard library and agent itself:
it needs nothing from site-packages. Printing this command, calibrating and starting a
match also write the package's bytecode, so that no move compiles a module.

In front of Python stands the quick move (ext/quick_move.c, built beside this file): a
move with less than timing.QUICK_ANSWER_BELOW seconds left, too little for Python to
start, is answered there in about a millisecond; it hands every other move to Python."""

from __future__ import annotations

import os
import shlex
import sys

from agent.move.timing import QUICK_ANSWER_BELOW

# `-c` puts the current folder first on the import path: an agent.py (or agent/ package)
# in the folder the referee runs the move in would be imported instead of this package.
MOVE_CODE = 'import sys; sys.path[0] == "" and sys.path.pop(0); import agent.move_command as m; m.play_and_exit()'


# The packages a move imports from, installed side by side.
MOVE_PACKAGES = ("agent", "nim_games")

# The agent package's folder (this file is in agent/move/), and the folder that holds it.
PACKAGE_FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def package_root() -> str:
    return os.path.dirname(PACKAGE_FOLDER)


def compile_bytecode(folder: str | None = None) -> None:
    """Write the bytecode of the modules a move loads (or of `folder`'s) now: agent's and
    nim_games' (agent's console helpers live there). A move process then loads it instead
    of compiling every module from source: where PYTHONDONTWRITEBYTECODE is set (CI
    machines, containers) or the folder is not writable at move time, that compiling costs
    each move ~7 ms of its clock (median 16.5 -> 9.5 ms per move here), and 35 ms more
    on a slow machine. Quietly does nothing where the folder is read-only."""
    import compileall

    folders = [folder] if folder else [os.path.join(package_root(), name) for name in MOVE_PACKAGES]
    for path in folders:
        compileall.compile_dir(path, quiet=2)


QUICK_MOVE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quick_move")


def python_command() -> list:
    """The Python that plays a move, without `site`: the words before its code."""
    return [sys.executable, "-S"]


def move_command() -> list:
    """The move's command line: the quick move in front of Python, where it was built (it
    answers the competition's call alone, the line with no option added: see its source)."""
    python = [*python_command(), "-c", MOVE_CODE]
    if os.access(QUICK_MOVE, os.X_OK):
        return [QUICK_MOVE, f"{QUICK_ANSWER_BELOW:g}", *python]
    return python


def move_environment() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = package_root()
    return env


def shell_line() -> str:
    return f"PYTHONPATH={shlex.quote(package_root())} " + " ".join(shlex.quote(part) for part in move_command())
