"""What `fruit-rage play` shows. At a terminal, one screen redrawn in place on the
terminal's alternate screen, its board folded to fit (the terminal's own screen comes
back at the end, with the result under it); when the output is not a terminal, every
board and line in sequence, for a log."""

from __future__ import annotations

import shutil
import textwrap

from agent.arena.terminal.boards import beside, fitted_board, render_board, use_colour, visible_width
from agent.arena.terminal.tables import crop, fit_lines, terminal_width

ALTERNATE_SCREEN, NORMAL_SCREEN = "\x1b[?1049h", "\x1b[?1049l"
HOME_AND_CLEAR = "\x1b[H\x1b[J"
# The most lines a message under the board takes (a refused move and why, at 80 columns).
MESSAGE_LINES = 2
# A frame's lines besides its board: the game's two header lines, the last two moves, the
# score and clocks, a message, and the prompt or the agent's spinner.
LINES_BESIDE_BOARD = 6 + MESSAGE_LINES


def clock_shown(seconds: float) -> str:
    """A clock as `play` shows it, in the score line and the prompt alike: `105.0 s`."""
    return f"{max(0.0, seconds):.1f} s"


class Screen:
    """The terminal, or the stream that stands for it: colour or not, and at a terminal
    the alternate screen and its size."""

    def __init__(self, stdout):
        self.stdout = stdout
        self.colour = use_colour(stdout)
        self.terminal = bool(getattr(stdout, "isatty", lambda: False)())
        self.opened = False

    def open(self) -> None:
        """At a terminal: draw on the alternate screen from now on."""
        if self.terminal and not self.opened:
            self.write(ALTERNATE_SCREEN)
            self.opened = True

    def close(self) -> None:
        """Give the terminal its own screen back (what follows is printed there)."""
        if self.opened:
            self.write(NORMAL_SCREEN)
            self.opened = False

    def size(self) -> tuple:
        size = shutil.get_terminal_size()
        return size.lines, size.columns

    def board(self, grid, before: tuple[tuple[str, ...], frozenset] | None = None) -> str:
        """The board as a frame holds it: at a terminal folded to fit what the frame
        leaves, with `before` ((grid, group): the board the agent just moved on, its group
        marked) beside it when both fit whole; when not a terminal, whole."""
        if not self.terminal:
            return render_board(grid, colour=self.colour)
        lines, columns = self.size()
        room = lines - LINES_BESIDE_BOARD
        if before is not None and len(grid) + 2 <= room:  # the two boards under a caption each
            pair = beside(
                [
                    "The agent's move:\n" + render_board(*before, self.colour),
                    "Now:\n" + render_board(grid, colour=self.colour),
                ]
            )
            if max(map(visible_width, pair.split("\n"))) <= columns:
                return pair
        return fitted_board(grid, colour=self.colour, lines=room, columns=columns)

    def wrapped(self, message: str) -> list:
        """A message as the frame's lines: wrapped to the terminal's width, at most
        MESSAGE_LINES of them (the last cropped), indented as it starts."""
        columns = self.size()[1]
        indent = message[: len(message) - len(message.lstrip())]
        lines = textwrap.wrap(message, columns, subsequent_indent=indent, break_on_hyphens=False) or [""]
        if len(lines) > MESSAGE_LINES:
            lines = lines[: MESSAGE_LINES - 1] + [crop(" ".join(lines[MESSAGE_LINES - 1 :]), columns)]
        return lines

    def frame(self, header: list, board: str, footer: list) -> str:
        """A whole screen: header lines, the board, footer lines; every line but the
        board's cropped to the terminal's width."""
        columns = self.size()[1]
        fitted = [crop(line, columns) for line in header], [crop(line, columns) for line in footer]
        return HOME_AND_CLEAR + "\n".join([*fitted[0], board, *fitted[1]])

    def say(self, text: str) -> None:
        """`text` and a newline, each line wrapped to fit: the terminal's width, or 80
        columns (COLUMNS) when not one."""
        self.write(fit_lines(text, self.size()[1] if self.terminal else terminal_width()) + "\n")

    def write(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()
