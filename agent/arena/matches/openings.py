"""`match --positions`: starting boards from a file or a folder instead of random ones, so
that the io_samples or a set of hard positions can serve as openings.

A file holds one or more positions in input.txt format, one after another (blank lines
between them are allowed); each block's time line is read and ignored, the match's
clocks apply. A folder serves every file named input.txt below it, in path order (the
io_samples layout), or, where there is none, every *.txt file directly in it."""

from __future__ import annotations

import os

from agent.board import Board
from agent.cli_support import open_regular_file, without_bom
from agent.gamefile import InputError, parse_input

MAX_POSITIONS = 100_000
MAX_POSITIONS_BYTES = 80 * 1024 * 1024  # MAX_POSITIONS positions of 26 rows take about 72 MB


def load_positions(path: str) -> tuple:
    """The Boards at `path`; ValueError naming the file and line of what is wrong."""
    if os.path.isdir(path):
        files = sorted(os.path.join(folder, "input.txt") for folder, _, names in os.walk(path) if "input.txt" in names)
        if not files:
            files = sorted(
                os.path.join(path, name)
                for name in os.listdir(path)
                if name.endswith(".txt") and os.path.isfile(os.path.join(path, name))
            )
        boards = [board for file in files for board in _positions_in(file)]
    else:
        boards = _positions_in(path)
    if not boards:
        raise ValueError(f"{path}: no position found")
    if len(boards) > MAX_POSITIONS:
        raise ValueError(f"{path}: more than {MAX_POSITIONS} positions")
    return tuple(boards)


def _positions_in(path: str) -> list:
    try:
        with open_regular_file(path) as handle:
            data = handle.read(MAX_POSITIONS_BYTES + 1)
        if len(data) > MAX_POSITIONS_BYTES:
            raise ValueError(f"{path}: larger than {MAX_POSITIONS_BYTES // (1024 * 1024)} MB")
        lines = without_bom(data).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot read it: {getattr(error, 'strerror', None) or error}") from None
    boards: list[Board] = []
    start = 0
    while True:
        while start < len(lines) and not lines[start].strip():
            start += 1
        if start == len(lines):
            return boards
        try:
            n = int(lines[start].strip())
        except ValueError:
            raise ValueError(
                f"{path}: line {start + 1}: expected a board size n, got {lines[start].strip()[:40]!r}"
            ) from None
        block = lines[start : start + 3 + max(n, 0)]
        try:
            game = parse_input("\n".join(block) + "\n")
        except InputError as error:
            raise ValueError(f"{path}: position {len(boards) + 1} (from line {start + 1}): {error}") from None
        # a fruit at or above the declared p is read, as in a competition; the match then
        # declares types enough for it, in its programs' inputs and in its records
        boards.append(Board(game.grid, max(game.types, Board(game.grid).types)))
        start += len(block)
