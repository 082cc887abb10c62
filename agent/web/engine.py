"""The one place the web page meets the library: positions and the built-in players of the
public API, and the arena's records and phases. Every library name the page uses comes
through here, so a change of the library is met in this module alone."""

from __future__ import annotations

import os
import tempfile
import time

from agent.arena.phases import match_phases
from agent.arena.records import read_records, starting_clocks
from agent.arena.referee import decide
from agent.board import Board, Move
from agent.players import BUILT_IN_PLAYERS, player_from_name
from agent.rules import MAX_SIZE

PLAYER_NAMES = tuple(BUILT_IN_PLAYERS)
MAX_TYPES = 9

__all__ = [
    "MAX_SIZE",
    "MAX_TYPES",
    "PLAYER_NAMES",
    "Board",
    "Move",
    "choose_move",
    "decide",
    "match_phases",
    "read_uploaded_records",
    "starting_clocks",
]


def choose_move(player: str, rows: tuple, types: int, clock_left: float) -> tuple:
    """((row, col) of the move, CPU seconds it took) of the built-in `player` on the board
    `rows` with `clock_left` seconds on its clock. Runs in a pool worker; the player's own
    time management keeps it within the clock."""
    board = Board(rows, types)
    started = time.process_time()
    move = player_from_name(player).choose(board, clock_left)
    return move.cell, time.process_time() - started


def read_uploaded_records(data: bytes, label: str) -> list:
    """The checked records in an uploaded JSONL file, read by the same code as a file on
    disk; ValueError naming `label` (never the temporary file) and what is wrong."""
    with tempfile.TemporaryDirectory(prefix="fruit-rage-upload-") as folder:
        path = os.path.join(folder, "upload.jsonl")
        with open(path, "wb") as handle:
            handle.write(data)
        try:
            return read_records(path)
        except ValueError as error:
            raise ValueError(str(error).replace(path, label)) from None
