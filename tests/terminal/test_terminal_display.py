"""Boards at the terminal: a look of its own for every fruit type, the half-height board
against the grid it draws, and typed lines read against a deadline."""

from __future__ import annotations

import io
import os
import re

import pytest
from fruit_helpers import random_grid
from web_helpers import contrast, variables

from agent.arena.display import (
    FRUIT_COLOURS,
    HIGHLIGHT_HALF,
    LOWER_HALF,
    TOL_MUTED,
    UPPER_HALF,
    LineReader,
    fitted_board,
    render_board,
    render_half_rows,
    use_colour,
)

CUBE_LEVELS = (0, 95, 135, 175, 215, 255)


def xterm_rgb(index: int) -> tuple:
    """The colour of xterm-256 colour `index` (16..255: the 6x6x6 cube, then 24 greys)."""
    if index >= 232:
        return (8 + 10 * (index - 232),) * 3
    index -= 16
    return CUBE_LEVELS[index // 36], CUBE_LEVELS[index // 6 % 6], CUBE_LEVELS[index % 6]


def hex_of(rgb) -> str:
    return "#" + "".join(f"{channel:02X}" for channel in rgb)


def test_the_terminal_uses_the_page_s_colour_blind_safe_scheme_at_its_nearest_xterm_colours():
    assert list(TOL_MUTED) == [colour.upper() for colour in variables("fruit")]
    for colour, (index, _) in zip(TOL_MUTED, FRUIT_COLOURS):
        wanted = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        nearest = min(range(16, 256), key=lambda i: sum((a - b) ** 2 for a, b in zip(wanted, xterm_rgb(i))))
        assert index == nearest, colour


def test_every_digit_reads_on_its_colour():
    for digit, (index, ink) in enumerate(FRUIT_COLOURS):
        assert contrast(hex_of(xterm_rgb(index)), hex_of(xterm_rgb(ink))) >= 4.5, digit


def test_every_fruit_type_looks_its_own_way_with_and_without_colour():
    for colour in (True, False):
        looks = [render_board((str(digit),), colour=colour).splitlines()[1] for digit in range(10)]
        assert len(set(looks)) == 10
        assert all(str(digit) in look for digit, look in enumerate(looks))  # the glyph survives any palette
        marked = {render_board((str(digit),), {(0, 0)}, colour).splitlines()[1] for digit in range(10)}
        assert not marked & set(looks)


def test_no_color_turns_colour_off_even_at_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Terminal())


HALF_CELL = re.compile(r"\.|\x1b\[([0-9;]*)m(.)\x1b\[0m")


def decoded_half_rows(text: str, size: int) -> list:
    """Each cell's colour (None: empty) read back from a half-height board."""
    colours = [[None] * size for _ in range(size)]
    for line_number, line in enumerate(text.splitlines()[1:]):
        cells = line[6:].split(" ")
        assert len(cells) == size
        for col, cell in enumerate(cells):
            match = HALF_CELL.fullmatch(cell)
            assert match, cell
            if cell == ".":
                continue
            codes = match.group(1)
            fg = int(re.search(r"38;5;(\d+)", codes).group(1))
            bg = re.search(r"48;5;(\d+)", codes)
            upper, lower = (fg, bg and int(bg.group(1))) if match.group(2) == UPPER_HALF else (None, fg)
            assert match.group(2) in (UPPER_HALF, LOWER_HALF)
            colours[2 * line_number][col] = upper
            if 2 * line_number + 1 < size:
                colours[2 * line_number + 1][col] = lower
    return colours


@pytest.mark.parametrize("size", [1, 5, 26])
def test_the_half_height_board_shows_every_cell_s_colour(size):
    import random

    rng = random.Random(size)
    grid = random_grid(rng, size, 9)
    grid = tuple(("*" * (size // 3) + row[size // 3 :]) if r < size // 2 else row for r, row in enumerate(grid))
    highlight = {(size - 1, 0), (size - 1, size - 1)}
    expected = [
        [
            None if ch == "*" else HIGHLIGHT_HALF if (r, c) in highlight else FRUIT_COLOURS[int(ch)][0]
            for c, ch in enumerate(row)
        ]
        for r, row in enumerate(grid)
    ]
    text = render_half_rows(grid, highlight)
    assert decoded_half_rows(text, size) == expected
    assert len(text.splitlines()) == 1 + (size + 1) // 2


def test_a_board_is_halved_only_in_colour_and_only_when_it_does_not_fit():
    grid = random_grid(__import__("random").Random(1), 26, 9)
    assert fitted_board(grid, colour=True, lines=27) == render_board(grid, colour=True)
    assert fitted_board(grid, colour=True, lines=21) == render_half_rows(grid)
    assert fitted_board(grid, colour=False, lines=21) == render_board(grid)
    assert fitted_board(grid, colour=True) == render_board(grid, colour=True)


@pytest.fixture
def pipe():
    read_end, write_end = os.pipe()
    reader = os.fdopen(read_end, "r", encoding="utf-8")
    yield reader, write_end
    reader.close()
    try:
        os.close(write_end)
    except OSError:
        pass


def test_lines_typed_ahead_are_read_at_once_and_silence_times_out(pipe):
    stream, write_end = pipe
    reader = LineReader(stream)
    os.write(write_end, b"A1\nB2\nC")
    assert reader.readline(timeout=5) == "A1\n"
    assert reader.readline(timeout=0.001) == "B2\n"  # already read from the pipe: no wait
    assert reader.readline(timeout=0.05) is None  # "C" is no line yet
    os.write(write_end, b"3\n\xff\n")
    assert reader.readline(timeout=5) == "C3\n"
    assert reader.readline(timeout=5) == "\ufffd\n"
    os.write(write_end, b"D4")
    os.close(write_end)
    assert reader.readline() == "D4" and reader.readline() == ""


def test_a_stream_without_a_descriptor_is_read_plainly():
    reader = LineReader(io.StringIO("A1\n"))
    assert reader.readline(timeout=0.001) == "A1\n" and reader.readline() == ""
    assert LineReader(None).readline(timeout=1) == ""
