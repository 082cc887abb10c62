"""What the replay view shows of a file of recorded games (as `match --out` writes them):
a line per game, one game move by move with A's margin after each move, and the phases of
the whole file, from the data `fruit-rage phases` prints."""

from __future__ import annotations

import json
import os

from agent.cli_support import open_regular_file
from agent.web import library, strict_records

MAX_RECORDS_BYTES = 4 * 1024 * 1024
RECORDS_SUFFIX = ".jsonl"
PHASE_PARTS = 10


def record_file_names(folder: str) -> list:
    """The record files the server offers: regular *.jsonl files right in `folder`. A link
    is left out, as it may lead outside the folder."""
    with os.scandir(folder) as entries:
        return sorted(
            entry.name
            for entry in entries
            if entry.name.endswith(RECORDS_SUFFIX) and entry.is_file(follow_symlinks=False)
        )


def read_record_file(folder: str, name: str) -> bytes:
    """The bytes of the file `name` from the listing of `folder`; LookupError for a name
    the listing lacks (so no name can reach another folder), ValueError for a file too big
    or one that is no longer a regular file."""
    if name not in record_file_names(folder):
        raise LookupError(f"no record file named {name!r}")
    with open_regular_file(os.path.join(folder, name), os.O_NOFOLLOW) as handle:
        data = handle.read(MAX_RECORDS_BYTES + 1)
    if len(data) > MAX_RECORDS_BYTES:
        raise ValueError(f"{name} is larger than {MAX_RECORDS_BYTES // (1024 * 1024)} MB")
    return data


def load_records(data: bytes, label: str) -> tuple:
    """(each game's record as compact JSON, what the page shows of the file); ValueError
    naming `label`. A game is kept as its JSON, the fewest bytes that hold it: the server
    counts what it keeps by them."""
    records = strict_records.read_records(data, label)
    if not records:
        raise ValueError(f"{label} holds no game records")
    view = {
        "label": label,
        "games": [game_summary(index, record) for index, record in enumerate(records)],
        "phases": phases_view(records),
    }
    return [json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode() for record in records], view


def game_summary(index: int, record: dict) -> dict:
    return {
        "index": index,
        "game": record["game"],
        "agents": record["agents"],
        "first": record["first"],
        "size": record["size"],
        "types": record["types"],
        "moves": len(record["moves"]),
        "scores": record["scores"],
        "winner": record["winner"],
        "reason": record["reason"],
        "hints": record.get("hints", {}),  # a game from the page: the hints the person took
    }


def game_view(index: int, kept: bytes) -> dict:
    """The game `load_records` kept, move by move: the board before every move and after
    the last one, the group each move took, and A's margin (A's points minus B's) after
    each move on the board. A losing last move (time, invalid) takes nothing."""
    record = json.loads(kept)
    board = library.Board(record["board"], record["types"])
    rows, moves, margins = [list(board.rows)], [], []
    scores = {"A": 0, "B": 0}
    for number, move in enumerate(record["moves"], 1):
        shown = {
            "number": number,
            "side": move["player"],
            "cpu": move["cpu"],
            "measured": library.time_measured(record, move["player"]),
        }
        if move.get("fault"):
            moves.append({**shown, "move": move.get("move"), "fault": move["reason"]})
            break
        played = library.Move.from_name(move["move"])
        group = board.group_at(played)
        board, points = board.play(played)
        scores[move["player"]] += points
        moves.append(
            {**shown, "move": move["move"], "points": points, "cells": [list(cell) for cell in sorted(group.cells)]}
        )
        rows.append(list(board.rows))
        margins.append(scores["A"] - scores["B"])
    return {
        **game_summary(index, record),
        "rows": rows,
        "moves": moves,
        "margins": margins,
        "time": library.starting_clocks(record),
    }


def phases_view(records: list) -> dict:
    """agent.arena.review.phases over the file, as the chart draws it: for A moving first and for
    A moving second, the mean margin of A once each tenth of the fruit is gone."""
    try:
        phases = library.match_phases(records, PHASE_PARTS)
    except ValueError as error:
        return {"problem": str(error)}
    if not phases.games:
        return {"problem": "every game ended by a fault"}
    series = []
    for first, label in (("A", "moved first"), ("B", "moved second")):
        games = phases.margins[first]
        if games:
            series.append(
                {
                    "first": first,
                    "label": f"{phases.agents['A']} {label}",
                    "games": len(games),
                    "margins": [sum(game[k] for game in games) / len(games) for k in range(phases.parts)],
                }
            )
    return {
        "problem": None,
        "agents": phases.agents,
        "parts": phases.parts,
        "fruit_gone": [round(100 * (k + 1) / phases.parts) for k in range(phases.parts)],
        "series": series,
        "cpu_per_game": [seconds / phases.games for seconds in phases.cpu],
        "a_time": phases.a_time,
        "games": phases.games,
        "skipped": phases.skipped,
    }
