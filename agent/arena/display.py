"""Boards for the terminal: column letters on top, row numbers on the left, one colour per
fruit type, and a move's group highlighted. Plain text when not on a terminal or when
NO_COLOR is set (https://no-color.org). And the person's input, read safely."""
from __future__ import annotations

import io
import os

from agent.rules import COLUMN_LETTERS, EMPTY

# ANSI foreground colours, bold, one per fruit type 0..9.
TYPE_COLOURS = ("91", "92", "93", "94", "95", "96", "31", "32", "33", "34")
HIGHLIGHT = "7"   # reverse video
RESET = "\x1b[0m"
EMPTY_SHOWN = "."
HIGHLIGHT_PLAIN = "#"  # without colour a highlighted fruit shows as this mark


def typed_input(stdin):
    """`stdin` made safe to read a person's lines from: bytes that are not text in its
    encoding read as replacement characters (a line then names no cell) instead of raising,
    and a closed stdin (None) reads as end of input."""
    if stdin is None:
        return io.StringIO("")
    if hasattr(stdin, "reconfigure"):
        stdin.reconfigure(errors="replace")
    return stdin


def use_colour(stream) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


def render_board(grid, highlight=frozenset(), colour: bool = False) -> str:
    n = len(grid)
    lines = ["    " + " ".join(COLUMN_LETTERS[:n])]
    for row in range(n):
        cells = (_cell(grid[row][col], (row, col) in highlight, colour) for col in range(n))
        lines.append(f"{row + 1:>3} " + " ".join(cells))
    return "\n".join(lines)


def _cell(ch: str, highlighted: bool, colour: bool) -> str:
    if ch == EMPTY:
        return EMPTY_SHOWN
    if not colour:
        return HIGHLIGHT_PLAIN if highlighted else ch
    codes = ["1", TYPE_COLOURS[int(ch)]] + ([HIGHLIGHT] if highlighted else [])
    return f"\x1b[{';'.join(codes)}m{ch}{RESET}"
