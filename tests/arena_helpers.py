"""Scripted agents for the arena tests: tiny programs speaking the competition protocol,
each misbehaving in one chosen way."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import textwrap

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fruit_rage(*args, stdin_text: str = ""):
    """`python -m agent ARGS` in the project folder, with `stdin_text` as its input."""
    return subprocess.run([sys.executable, "-m", "agent", *map(str, args)], cwd=PROJECT_ROOT,
                          input=stdin_text, capture_output=True, text=True, timeout=120)


# Shared prologue: read the position, and a helper answering with the largest group.
_PROLOGUE = f"""\
import sys, time
sys.path.insert(0, {PROJECT_ROOT!r})
from agent.gamefile import read_input, format_output, write_atomically
from agent.rules import groups, move_name, play, top_left
game = read_input("input.txt")
def answer_greedy():
    cell = top_left(max(groups(game.grid), key=len))
    write_atomically("output.txt", format_output(move_name(cell), play(game.grid, cell)[0]))
"""

SCRIPTS = {
    # Burns the CPU seconds given as its argument, then plays the greedy move.
    "burn": """
        seconds = float(sys.argv[1])
        while time.process_time() < seconds:
            pass
        answer_greedy()
    """,
    "hang": """
        time.sleep(3600)
    """,
    "crash": """
        raise RuntimeError("scripted crash")
    """,
    "garbage": """
        open("output.txt", "w").write("hello\\n")
    """,
    # The right move, but the board written unchanged.
    "wrong_board": """
        cell = top_left(max(groups(game.grid), key=len))
        write_atomically("output.txt", format_output(move_name(cell), game.grid))
    """,
    # An empty cell when there is one (there is after the first move), else greedy.
    "empty_cell": """
        holes = [(r, c) for r, row in enumerate(game.grid) for c, ch in enumerate(row) if ch == "*"]
        if holes:
            write_atomically("output.txt", format_output(move_name(holes[0]), game.grid))
        else:
            answer_greedy()
    """,
}


def scripted_agent(tmp_path, name: str, *args) -> str:
    """A shell command running scripted agent `name` (written into tmp_path)."""
    path = tmp_path / f"{name}.py"
    path.write_text(_PROLOGUE + textwrap.dedent(SCRIPTS[name]))
    return " ".join(shlex.quote(part) for part in (sys.executable, str(path), *map(str, args)))
