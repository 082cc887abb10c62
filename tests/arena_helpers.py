"""For the arena tests: scripted agents (tiny programs speaking the competition protocol,
each misbehaving in one chosen way) and game records of random play."""

from __future__ import annotations

import json
import os
import random
import shlex
import signal
import subprocess
import sys
import textwrap
import time

from fruit_helpers import random_grid
from paths import PROJECT_ROOT

from agent.rules import groups, move_name, play, top_left


def fruit_rage(*args, stdin_text: str = ""):
    """`python -m agent ARGS` in the project folder, with `stdin_text` as its input."""
    return subprocess.run(
        [sys.executable, "-m", "agent", *map(str, args)],
        cwd=PROJECT_ROOT,
        input=stdin_text,
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_refused(subcommand: str, cases) -> None:
    """Each (arguments, message) case: `fruit-rage SUBCOMMAND ARGUMENTS` exits 2 with the
    message on stderr and no traceback."""
    for args, message in cases:
        done = fruit_rage(subcommand, *args)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


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
    # Burns CPU for ever.
    "spin": """
        while True:
            pass
    """,
    # Stops its own process (SIGSTOP), which then never runs again.
    "stop_itself": """
        import os, signal
        os.kill(os.getpid(), signal.SIGSTOP)
    """,
    "crash": """
        raise RuntimeError("scripted crash")
    """,
    "garbage": """
        open("output.txt", "w").write("hello\\n")
    """,
    # Leaves a FIFO named output.txt, which no one will ever write to.
    "fifo_answer": """
        import os
        os.mkfifo("output.txt")
    """,
    # Leaves output.txt as a link to a device that never ends.
    "device_answer": """
        import os
        os.symlink("/dev/zero", "output.txt")
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


def processes_running(text: str) -> list:
    """The ids of the processes whose command line holds `text`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if text.encode() in handle.read():
                    found.append(pid)
        except OSError:
            pass
    return found


def hangup_by_default() -> None:
    """For subprocess's preexec_fn: SIGHUP to its default action in the command started,
    as a terminal session has it, even where the tests run under nohup (whose ignored
    SIGHUP the command rightly keeps ignoring)."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def wait_for_script(path: str) -> None:
    """Wait (up to 30 s) until the scripted agent at `path` runs as a move: a process whose
    own arguments hold `path`, not a referee that was only given it in a command line (nor
    a child forked from one, which carries the referee's arguments until it runs a
    program)."""
    for _ in range(600):
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    if path.encode() in handle.read().split(b"\0"):
                        return
            except OSError:
                pass
        time.sleep(0.05)
    raise AssertionError(f"{path} never ran")


def gone(text: str) -> bool:
    """True once no process's command line holds `text`: a process just sent SIGKILL may
    take a moment to go, so this looks again for a few seconds."""
    for _ in range(100):
        if not processes_running(text):
            return True
        time.sleep(0.05)
    return False


def random_game_record(seed: int, size: int, types: int, fault_at=None) -> dict:
    """A game of random moves as `match --out` records it; `fault_at` turns that move
    (counting from 0) into a time loss that ends the game."""
    rng = random.Random(seed)
    grid = board = random_grid(rng, size, types)
    side, moves, scores = rng.choice("AB"), [], {"A": 0, "B": 0}
    first = side
    while groups(grid):
        cell = top_left(rng.choice(groups(grid)))
        if len(moves) == fault_at:
            moves.append(
                {
                    "player": side,
                    "move": move_name(cell),
                    "cpu": 10.0,  # its clock ran out
                    "points": 0,
                    "fault": "time",
                    "reason": "out of time",
                }
            )
            break
        grid, points = play(grid, cell)
        moves.append({"player": side, "move": move_name(cell), "cpu": 0.01, "points": points})
        scores[side] += points
        side = "B" if side == "A" else "A"
    if fault_at is not None:
        winner = "B" if side == "A" else "A"
    else:
        winner = None if scores["A"] == scores["B"] else max(scores, key=scores.get)
    return {
        "game": seed,
        "seed": seed,
        "size": size,
        "types": types,
        "time": 10.0,
        "agents": {"A": "alpha", "B": "beta"},
        "first": first,
        "board": list(board),
        "moves": moves,
        "scores": scores,
        "winner": winner,
        "reason": "",
        "fault": "time" if fault_at is not None else None,
    }


def bad_move_file(tmp_path):
    """A results file whose one game (game 3) has "XYZ" for its second move."""
    record = random_game_record(3, 4, 3)
    record["moves"][1]["move"] = "XYZ"
    path = tmp_path / "bad_move.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return path
