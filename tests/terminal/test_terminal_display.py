"""Boards at the terminal: a look of its own for every fruit type, a board folded to fit
against the grid it draws, and typed lines read against a deadline."""

from __future__ import annotations

import io
import os

import pytest
from fruit_helpers import random_grid
from screen_helpers import coloured_cells, colours_are_the_fruit_s, read_board
from web_helpers import contrast, variables

from agent.arena.terminal.boards import (
    FRUIT_COLOURS,
    TOL_MUTED,
    LineReader,
    fitted_board,
    render_board,
    use_colour,
    visible_width,
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


def test_a_board_that_fits_is_drawn_whole():
    grid = random_grid(__import__("random").Random(1), 26, 9)
    for colour in (True, False):
        assert fitted_board(grid, colour=colour, lines=27, columns=80) == render_board(grid, colour=colour)
        assert fitted_board(grid, colour=colour) == render_board(grid, colour=colour)


@pytest.mark.parametrize("colour", [True, False])
@pytest.mark.parametrize("size, lines, columns", [(26, 17, 80), (26, 10, 100), (26, 30, 40), (13, 6, 80), (5, 4, 30)])
def test_a_board_too_big_is_folded_to_fit_with_every_cell_s_type_readable(size, lines, columns, colour):
    import random

    rng = random.Random(size + lines)
    grid = random_grid(rng, size, 9)
    grid = tuple(("*" * (size // 3) + row[size // 3 :]) if r < size // 2 else row for r, row in enumerate(grid))
    highlight = {(size - 1, 0), (size - 1, size - 1)}
    text = fitted_board(grid, highlight, colour, lines, columns)
    assert len(text.split("\n")) <= lines and max(map(visible_width, text.split("\n"))) <= columns
    marked = tuple(
        "".join("#" if (r, c) in highlight and not colour else ch for c, ch in enumerate(row))
        for r, row in enumerate(grid)
    )
    assert read_board(text, size) == marked
    if colour:
        assert colours_are_the_fruit_s(text)
        assert sum(marked for *_, marked in coloured_cells(text)) == len(highlight)


def test_a_board_no_layout_fits_is_drawn_whole():
    grid = random_grid(__import__("random").Random(2), 26, 9)
    assert fitted_board(grid, lines=5, columns=80) == render_board(grid)


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
