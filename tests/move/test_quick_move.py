"""The quick move (ext/quick_move.c, in front of the lean launch line): with less than
its threshold left it answers a largest group, the board after it exactly as the rules
say; anything it does not read exactly as agent/gamefile.py does, or any option added to
the line, it hands to Python untouched."""

from __future__ import annotations

import os
import random
import subprocess

import pytest
from fruit_helpers import random_grid

from agent.board import naming_cell
from agent.gamefile import format_input
from agent.move import launch
from agent.rules import groups, move_name, parse_move_name, play

BELOW = "0.08"
# What the quick move hands a move to, in the four words of the launch line's Python
# (PYTHON -S -c CODE): a program that says it was called, and how.
PYTHON_STANDS_IN = ["/bin/echo", "-S", "-c", "python-called"]
CALLED = "-S -c python-called"


def quick(folder, text: "str | bytes", *options: str) -> subprocess.CompletedProcess:
    """The quick move on input.txt = `text` in `folder`, handing on to the stand-in."""
    path = folder / "input.txt"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return subprocess.run(
        [launch.QUICK_MOVE, BELOW, *PYTHON_STANDS_IN, *options], cwd=folder, capture_output=True, text=True
    )


def answered(done, folder) -> bool:
    """Whether the quick move answered itself (and did not hand the move on)."""
    return done.returncode == 0 and CALLED not in done.stdout and (folder / "output.txt").exists()


def played_out(grid) -> list:
    """Boards on the way to the end of a random game from `grid` (partly empty ones)."""
    rng, boards = random.Random(len(grid)), [grid]
    while any(ch != "*" for row in grid for ch in row) and len(boards) < 8:
        grid = play(grid, min(rng.choice(groups(grid))))[0]
        boards.append(grid)
    return [board for board in boards if any(ch != "*" for row in board for ch in row)]


def test_the_quick_move_is_built_and_leads_the_launch_line():
    assert os.access(launch.QUICK_MOVE, os.X_OK)
    assert launch.move_command()[:2] == [launch.QUICK_MOVE, BELOW]


@pytest.mark.parametrize("size, types", [(1, 1), (2, 3), (5, 2), (10, 4), (12, 4), (20, 7), (26, 9), (26, 1)])
def test_it_takes_a_largest_group_and_writes_the_board_the_rules_give(tmp_path, size, types):
    for grid in played_out(random_grid(random.Random(size * 10 + types), size, types)):
        done = quick(tmp_path, format_input(grid, types, 0.05))
        assert answered(done, tmp_path), done.stdout + done.stderr
        name, *rows = (tmp_path / "output.txt").read_text().splitlines()
        cell = parse_move_name(name)
        group = next(group for group in groups(grid) if cell in group)
        assert len(group) == max(len(other) for other in groups(grid))
        assert cell == naming_cell(group) and name == move_name(cell)  # as the agent names moves
        assert tuple(rows) == play(grid, cell)[0]
        (tmp_path / "output.txt").unlink()


GRID = ("012", "120", "201")
PLAIN = format_input(GRID, 3, 0.05)


@pytest.mark.parametrize(
    "text",
    [
        format_input(GRID, 3, 0.08),  # at its threshold: time enough for Python
        format_input(GRID, 3, 5.0),
        PLAIN.replace("\n", "\r"),  # old Mac line ends: Python's to read
        "\ufeff" + PLAIN,
        PLAIN.replace("0.05", "5e-2"),
        PLAIN.replace("0.05", "+0.05"),
        PLAIN.replace("0.05", "0"),
        PLAIN.replace("0.05", "nan"),
        PLAIN.replace("3\n3\n", "3\n+3\n", 1),
        PLAIN.replace("012\n", "0123\n"),  # a row too long
        PLAIN.replace("012\n", "0x2\n"),
        PLAIN.replace("120\n", "1*0\n"),  # fruit floating over a hole
        format_input(("***", "***", "***"), 3, 0.05),  # an empty board
        PLAIN.replace("201\n", ""),  # a row missing
        PLAIN + "text after the board\n",
        format_input(random_grid(random.Random(1), 27, 3), 3, 0.05),  # n out of range
        "3\n3\n0.05\n",
        "",
    ],
)
def test_anything_it_does_not_read_exactly_as_python_does_goes_to_python(tmp_path, text):
    done = quick(tmp_path, text)
    assert not answered(done, tmp_path) and done.stdout == CALLED + "\n"


def test_what_it_reads_as_python_does_it_answers(tmp_path):
    for text in (
        PLAIN,
        PLAIN.rstrip("\n"),
        PLAIN.replace("\n", "  \n"),
        PLAIN + "\n\n",
        PLAIN.replace("3\n3", "3\n10"),
    ):
        done = quick(tmp_path, text)
        assert answered(done, tmp_path), repr(text)
        (tmp_path / "output.txt").unlink()


def test_an_option_on_the_line_goes_to_python_whatever_the_clock(tmp_path):
    done = quick(tmp_path, PLAIN, "move", "--verbose")
    assert not answered(done, tmp_path) and done.stdout == CALLED + " move --verbose\n"


@pytest.mark.parametrize("kind", ["symbolic link to the input", "hard link to the input", "folder", "fifo"])
def test_an_output_txt_that_is_not_a_plain_file_of_its_own_goes_to_python(tmp_path, kind):
    (tmp_path / "input.txt").write_text(PLAIN)
    output = tmp_path / "output.txt"
    if kind == "symbolic link to the input":
        output.symlink_to(tmp_path / "input.txt")
    elif kind == "hard link to the input":
        os.link(tmp_path / "input.txt", output)
    elif kind == "folder":
        output.mkdir()
    else:
        os.mkfifo(output)
    done = quick(tmp_path, PLAIN)
    assert done.stdout == CALLED + "\n" and (tmp_path / "input.txt").read_text() == PLAIN


def test_a_plain_output_txt_is_replaced_whole_and_no_temporary_file_stays(tmp_path):
    (tmp_path / "output.txt").write_text("an old answer\n")
    assert answered(quick(tmp_path, PLAIN), tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["input.txt", "output.txt"]
