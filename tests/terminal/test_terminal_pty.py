"""`fruit-rage play` and `replay` at a real terminal: a pseudo-terminal of 24 rows and 80
columns, the program reading and writing it as it would a person's."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest
from arena_helpers import fruit_rage
from paths import PROJECT_ROOT

ROWS, COLUMNS = 24, 80
WAIT = 60  # seconds any step may take at most on a busy machine
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """`fruit-rage ARGS` on a pseudo-terminal of ROWS x COLUMNS."""

    def __init__(self, *args):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = {**os.environ, "COLUMNS": str(COLUMNS), "LINES": str(ROWS), "TERM": "xterm-256color"}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agent", *map(str, args)],
            cwd=PROJECT_ROOT,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.output = b""

    def read_until(self, text: str) -> str:
        """Everything shown so far, once `text` has been shown after what was read before."""
        start = len(self.output)
        deadline = time.monotonic() + WAIT
        while text.encode() not in self.output[start:]:
            if not self._read(deadline - time.monotonic()):
                raise AssertionError(f"{text!r} never shown; the screen had:\n{self.text()[-2000:]}")
        return self.text()

    def type(self, line: str) -> None:
        os.write(self.master, line.encode())

    def finish(self) -> tuple:
        """(everything shown, exit code) once the program ends by itself."""
        deadline = time.monotonic() + WAIT
        while self._read(deadline - time.monotonic()):
            pass
        try:
            code = self.process.wait(timeout=max(1.0, deadline - time.monotonic()))
        finally:
            self.close()
        return self.text(), code

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)

    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace").replace("\r\n", "\n")

    def _read(self, wait: float) -> bool:
        """False once the program has closed the terminal (or `wait` passed)."""
        if wait <= 0 or not select.select([self.master], [], [], wait)[0]:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: no process has the terminal open any more
            return False
        self.output += chunk
        return bool(chunk)


@pytest.fixture
def terminal():
    opened = []

    def start(*args):
        opened.append(Terminal(*args))
        return opened[-1]

    yield start
    for session in opened:
        if session.process.poll() is None:
            session.close()


def plain(text: str) -> str:
    """What a person reads: the text without its colour and cursor codes."""
    return ESCAPE.sub("", text)


def test_play_ends_when_your_clock_runs_out_with_one_message_and_the_score(terminal):
    session = terminal("play", "--size", 3, "--types", 2, "--seed", 1, "--agent", "greedy", "--time", 1)
    shown, code = session.finish()  # nothing is typed: the clock alone must end the game
    shown = plain(shown)
    assert code == 0, shown
    assert "Your move (1 s left): " in shown
    assert shown.count("ran out of time") == 1 and "wins" not in shown
    assert ("You lose: you ran out of time, no move within the 1.0 s left. Final score: you 0, agent 0.") in shown


def test_play_at_a_terminal_shows_the_agent_thinking_then_its_group_highlighted(terminal):
    session = terminal("play", "--size", 3, "--types", 2, "--seed", 1, "--agent", "greedy", "--first", "computer")
    shown = session.read_until("Your move")
    assert "is thinking" in plain(shown)  # the spinner's line
    styles = [set(codes.split(";")) for codes in re.findall(r"\x1b\[([0-9;]*)m", shown)]
    assert any({"4", "7"} <= style for style in styles)  # the group it took, swapped and underlined
    assert "Agent (greedy) played" in plain(shown)
    session.type("q\n")
    shown, code = session.finish()
    assert code == 0 and plain(shown).rstrip().endswith("Game abandoned.")


def test_a_26x26_board_and_its_status_fit_24_rows(terminal):
    session = terminal("play", "--size", 26, "--types", 9, "--seed", 3, "--agent", "greedy")
    shown = plain(session.read_until("Your move"))
    session.type("q\n")
    screen = shown[: shown.rindex("Your move")].split("\n")
    header = max(i for i, line in enumerate(screen) if line.strip().startswith("A B C D"))
    assert len(screen) - header + 1 <= ROWS - 1  # board, status and prompt, the line above kept
    assert all(len(line) <= COLUMNS for line in shown.split("\n"))
    assert session.finish()[1] == 0


def test_replay_at_a_terminal_steps_back(terminal, tmp_path):
    out = tmp_path / "results.jsonl"
    assert (
        fruit_rage(
            "match",
            "greedy",
            "random",
            "--games",
            1,
            "--size",
            4,
            "--types",
            3,
            "--time",
            10,
            "--seed",
            4,
            "--out",
            out,
        ).returncode
        == 0
    )
    session = terminal("replay", out)
    for typed in ("\n", "b\n"):
        session.read_until("q quits: ")
        session.type(typed)
    session.read_until("q quits: ")
    session.type("q\n")
    shown, code = session.finish()
    moves = [line.split(":")[0] for line in plain(shown).split("\n") if line.startswith("Move ")]
    assert code == 0 and moves == ["Move 1", "Move 2", "Move 1"]
