"""The one place the web page meets the library: positions and the built-in players of the
public API, and the arena's records and phases. Every library name the page uses comes
through here, so a change of the library is met in this module alone."""

from __future__ import annotations

import os
import time

from agent._version import __version__ as VERSION
from agent.arena.processes.referee_clock import CPU_CLOCK, WALL_CLOCK
from agent.arena.records.reading import (
    MATCH_FIELDS,
    OPTIONAL_MATCH_FIELDS,
    check_record,
    is_record_cut_short,
    starting_clocks,
    time_measured,
)
from agent.arena.referee import AGENT_CLOCK, PERSON_CLOCK, GameRecord, decide
from agent.arena.review.analysis import DEFAULT_NODES, EXACT_MARK, LABEL_FLOORS, THRESHOLDS_TEXT, analyse_game
from agent.arena.review.phases import match_phases
from agent.arena.review.searches import search_position
from agent.arena.turns import Turn
from agent.board import Board, Move
from agent.players import BUILT_IN_PLAYERS, player_from_name
from agent.rules import MAX_SIZE, MAX_TYPES

PLAYER_NAMES = tuple(BUILT_IN_PLAYERS)
RECORD_FIELDS = MATCH_FIELDS + OPTIONAL_MATCH_FIELDS  # every top-level field `match --out` writes

__all__ = [
    "AGENT_CLOCK",
    "CPU_CLOCK",
    "PERSON_CLOCK",
    "DEFAULT_NODES",
    "EXACT_MARK",
    "LABEL_FLOORS",
    "THRESHOLDS_TEXT",
    "VERSION",
    "WALL_CLOCK",
    "GameRecord",
    "Turn",
    "analyse",
    "hint",
    "MAX_SIZE",
    "MAX_TYPES",
    "PLAYER_NAMES",
    "RECORD_FIELDS",
    "Board",
    "Move",
    "check_record",
    "choose_move",
    "decide",
    "is_record_cut_short",
    "match_phases",
    "starting_clocks",
    "time_measured",
]


def choose_move(player: str, rows: tuple, types: int, clock_left: float) -> tuple:
    """((row, col) of the move, CPU seconds it took) of the built-in `player` on the board
    `rows` with `clock_left` seconds on its clock. Runs in a pool worker; the player's own
    time management keeps it within the clock."""
    board = Board(rows, types)
    started = time.process_time()
    move = player_from_name(player).choose(board, clock_left)
    return move.cell, time.process_time() - started


def analyse(send, record: dict, nodes: int) -> dict:
    """The analysis of a checked record (agent.arena.review.analysis) as JSON; send((done, total))
    as it goes. Runs in a process of its own (agent.web.jobs), which stops by itself if the
    server is gone."""
    server = os.getppid()
    return analyse_game(
        record, nodes, progress=lambda done, total: send((done, total)), cancelled=lambda: os.getppid() != server
    ).to_dict()


def hint(rows: tuple, nodes: int) -> dict:
    """The agent's choice on the board `rows` for whoever moves, searched as an analysis
    searches a position: the group's name and cells, the position's value, and whether it
    is exact. Runs in a pool worker."""
    board = Board(rows)
    found = search_position(board, nodes)
    assert found.move is not None  # a board with a move to hint has a best one
    group = board.group_at(found.move)
    return {
        "move": group.move.name,
        "cells": [list(cell) for cell in sorted(group.cells)],
        "value": found.value,
        "exact": found.exact,
    }
