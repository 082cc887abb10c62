"""Boards for the terminal: column letters on top, row numbers on the left, every fruit
type its digit on its own background colour, and a move's group highlighted. Plain
digits when not on a terminal or when NO_COLOR is set (https://no-color.org). A board
too tall for the terminal is folded: its rows in bands side by side, every cell still
its digit. And the person's typed lines, read safely and against a deadline."""

from __future__ import annotations

import io
import math
import os
import re
import select
import time

from agent.rules import COLUMN_LETTERS, EMPTY

# Paul Tol's colour-blind-safe "muted" scheme, as the browser page uses, one colour per
# fruit digit 0..9: (its xterm-256 colour, the ink its digit is written in). The digit
# itself tells types apart where colours do not (colour blindness, NO_COLOR).
TOL_MUTED = (
    "#CC6677",
    "#332288",
    "#DDCC77",
    "#117733",
    "#88CCEE",
    "#882255",
    "#44AA99",
    "#999933",
    "#AA4499",
    "#DDDDDD",
)
BLACK_INK, WHITE_INK = 16, 231
FRUIT_COLOURS = (
    (168, BLACK_INK),
    (54, WHITE_INK),
    (186, BLACK_INK),
    (29, WHITE_INK),
    (117, BLACK_INK),
    (89, WHITE_INK),
    (72, BLACK_INK),
    (101, BLACK_INK),
    (132, BLACK_INK),
    (253, BLACK_INK),
)
# A highlighted fruit swaps digit and background, underlined: no plain fruit looks so.
HIGHLIGHT = "7;4"
RESET = "\x1b[0m"
EMPTY_SHOWN = EMPTY  # a hole as input.txt and the README show it
HIGHLIGHT_PLAIN = "#"  # without colour a highlighted fruit shows as this mark
LABEL = 4  # columns of a row's number and the space after it
BAND_GAP = "   "  # between the bands of a folded board, and between boards side by side
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


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


def render_board(grid, highlight=frozenset(), colour: bool = False, rows=None, compact: bool = False) -> str:
    """The board (only `rows`, a range, when given) under its column letters; `compact`:
    no space between cells, so that a wide board takes half the columns."""
    n = len(grid)
    between = "" if compact else " "
    lines = [" " * LABEL + between.join(COLUMN_LETTERS[:n])]
    for row in range(n) if rows is None else rows:
        cells = (_cell(grid[row][col], (row, col) in highlight, colour) for col in range(n))
        lines.append(f"{row + 1:>{LABEL - 1}} " + between.join(cells))
    return "\n".join(lines)


def _cell(ch: str, highlighted: bool, colour: bool) -> str:
    if ch == EMPTY:
        return EMPTY_SHOWN
    if not colour:
        return HIGHLIGHT_PLAIN if highlighted else ch
    background, ink = FRUIT_COLOURS[int(ch)]
    codes = f"1;38;5;{ink};48;5;{background}" + (f";{HIGHLIGHT}" if highlighted else "")
    return f"\x1b[{codes}m{ch}{RESET}"


def fitted_board(grid, highlight=frozenset(), colour: bool = False, lines=None, columns=None) -> str:
    """The board in at most `lines` lines and `columns` columns (None: no limit): whole
    when it fits, else folded into the fewest bands of rows, side by side, that fit its
    height, their cells spaced when that fits the width. Every cell shows its digit in
    every layout; a board that fits no layout is drawn whole."""
    n = len(grid)
    for bands in range(1, n + 1):
        band_rows = math.ceil(n / bands)
        if lines is not None and band_rows + 1 > lines:
            continue
        for compact in (False, True):
            width = bands * (LABEL + (n if compact else 2 * n - 1)) + (bands - 1) * len(BAND_GAP)
            if columns is None or width <= columns:
                tops = range(0, n, band_rows)
                return beside(
                    render_board(grid, highlight, colour, range(top, min(n, top + band_rows)), compact) for top in tops
                )
    return render_board(grid, highlight, colour)


def visible_width(line: str) -> int:
    """The columns a line takes on a terminal: its colour codes take none."""
    return len(ESCAPE.sub("", line))


def beside(blocks) -> str:
    """Blocks of lines side by side, top-aligned, BAND_GAP apart."""
    columns = [block.split("\n") for block in blocks]
    height = max(map(len, columns))
    padded = []
    for lines in columns:
        width = max(map(visible_width, lines))
        padded.append([line + " " * (width - visible_width(line)) for line in lines + [""] * (height - len(lines))])
    return "\n".join(BAND_GAP.join(row).rstrip() for row in zip(*padded))


class LineReader:
    """A person's typed lines, each waited for until a deadline. Reads the file descriptor
    itself, so that a line already typed is never left in a buffer while the wait times
    out; a stream with no descriptor (a test's StringIO) is read without a deadline.
    Bytes that are not text read as replacement characters; "" is the end of input."""

    def __init__(self, stream):
        self.stream = typed_input(stream)
        try:
            self.fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None
        self.encoding = getattr(self.stream, "encoding", None) or "utf-8"
        self.pending = b""

    def readline(self, timeout=None):
        """The next line with its newline, "" at end of input, None if nothing was typed
        within `timeout` seconds (None: wait as long as it takes)."""
        if self.fd is None:
            return self.stream.readline()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.pending:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return None
            if not select.select([self.fd], [], [], wait)[0]:
                return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                line, self.pending = self.pending, b""
                return line.decode(self.encoding, errors="replace")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return (line + b"\n").decode(self.encoding, errors="replace")
