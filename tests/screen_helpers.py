"""Reading back what the terminal shows: a board as `play` and `replay` draw it, whole or
folded into bands of rows side by side, in colour or not."""

from __future__ import annotations

import re

from agent.arena.terminal.boards import FRUIT_COLOURS

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLOURED_CELL = re.compile(r"\x1b\[([0-9;]*)m(.)\x1b\[0m")


def plain(text: str) -> str:
    """What a person reads: the text without its colour and cursor codes."""
    return ESCAPE.sub("", text)


def read_board(text: str, size: int) -> tuple:
    """The grid a drawing of a board shows, rows top first ('*' for a hole; a marked fruit
    drawn without colour reads '#'). Fails unless every row shows once, every cell of it."""
    cells = rf"[0-9*#](?: [0-9*#]){{{size - 1}}}|[0-9*#]{{{size}}}"
    band = re.compile(rf"(?<!\S)(\d+) ({cells})(?!\S)")
    rows = {}
    for line in plain(text).split("\n"):
        for label, shown in band.findall(line):
            assert int(label) not in rows, f"row {label} shown twice"
            rows[int(label)] = shown.replace(" ", "")
    assert sorted(rows) == list(range(1, size + 1)), f"rows shown: {sorted(rows)}"
    return tuple(rows[number] for number in range(1, size + 1))


def coloured_cells(text: str) -> list:
    """(digit, its background's xterm colour, marked) for every fruit drawn in colour."""
    found = []
    for codes, ch in COLOURED_CELL.findall(text):
        parts = codes.split(";")
        background = int(parts[parts.index("48") + 2])
        found.append((ch, background, "7" in parts and "4" in parts))
    return found


def colours_are_the_fruit_s(text: str) -> bool:
    """Every fruit drawn in colour is on its type's own colour."""
    return all(FRUIT_COLOURS[int(ch)][0] == background for ch, background, _ in coloured_cells(text))
