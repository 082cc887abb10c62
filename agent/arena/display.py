"""Boards for the terminal: column letters on top, row numbers on the left, every fruit
type its digit on its own background colour, and a move's group highlighted. Plain
digits when not on a terminal or when NO_COLOR is set (https://no-color.org). A board
too tall for the terminal is drawn two rows a line. And the person's typed lines, read
safely and against a deadline."""

from __future__ import annotations

import io
import os
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
HIGHLIGHT_HALF = WHITE_INK  # in a two-rows-a-line board
RESET = "\x1b[0m"
EMPTY_SHOWN = "."
HIGHLIGHT_PLAIN = "#"  # without colour a highlighted fruit shows as this mark
UPPER_HALF, LOWER_HALF = "\u2580", "\u2584"


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
    background, ink = FRUIT_COLOURS[int(ch)]
    codes = f"1;38;5;{ink};48;5;{background}" + (f";{HIGHLIGHT}" if highlighted else "")
    return f"\x1b[{codes}m{ch}{RESET}"


def render_half_rows(grid, highlight=frozenset()) -> str:
    """The board in colour at half its height: each line shows two rows, the upper one in
    the top half of each character cell, so that a 26x26 board takes 14 lines."""
    n = len(grid)
    lines = ["      " + " ".join(COLUMN_LETTERS[:n])]
    for top in range(0, n, 2):
        label = f"{top + 1}-{top + 2}" if top + 1 < n else f"{top + 1}"
        cells = []
        for col in range(n):
            upper = _half_colour(grid, top, col, highlight)
            lower = _half_colour(grid, top + 1, col, highlight) if top + 1 < n else None
            cells.append(_half_cell(upper, lower))
        lines.append(f"{label:>5} " + " ".join(cells))
    return "\n".join(lines)


def _half_colour(grid, row: int, col: int, highlight):
    """The xterm colour of a cell in the half-height board, None when empty."""
    ch = grid[row][col]
    if ch == EMPTY:
        return None
    return HIGHLIGHT_HALF if (row, col) in highlight else FRUIT_COLOURS[int(ch)][0]


def _half_cell(upper, lower) -> str:
    if upper is None and lower is None:
        return EMPTY_SHOWN
    if upper is None:
        return f"\x1b[38;5;{lower}m{LOWER_HALF}{RESET}"
    if lower is None:
        return f"\x1b[38;5;{upper}m{UPPER_HALF}{RESET}"
    return f"\x1b[38;5;{upper};48;5;{lower}m{UPPER_HALF}{RESET}"


def fitted_board(grid, highlight=frozenset(), colour: bool = False, lines=None) -> str:
    """The board in at most `lines` lines when it can be: at full height when it fits
    (or no limit is given), else in colour at half height. Without colour it stays full:
    half rows show fruit by colour alone."""
    if colour and lines is not None and len(grid) + 1 > lines:
        return render_half_rows(grid, highlight)
    return render_board(grid, highlight, colour)


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
