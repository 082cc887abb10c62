"""A file of game records from outside (an upload, a file of --records) read strictly: a
line's values are counted before json builds any of them, a field `match --out` never
writes is refused, what neither the replay nor the library's check reads is left out, and
the work that check of the moves will take is weighed before it starts."""

from __future__ import annotations

import io
import json
import re

from agent.cli_support import plural, without_bom
from agent.web import library

# The fields of a move `match --out` writes (agent.arena.referee._turn_record); every
# other object in a record holds a value for each side.
MOVE_FIELDS = frozenset(("player", "move", "cpu", "points", "depth", "value", "fault", "reason"))
SIDES = frozenset(("A", "B"))
# What neither the replay nor the library's check reads: left out of what is kept.
UNREAD_FIELDS = frozenset(("format", "date", "versions"))
UNREAD_MOVE_FIELDS = frozenset(("depth", "value"))
# A record of the largest board has at most one move a cell, of at most 8 fields each:
# well under this many values (objects, lists and items) on its line.
LINE_VALUES = 10_000
# Moves times board cells the library's check may replay for one file (the phases replay
# them once more): a few seconds of one core.
WORK_BUDGET = 20_000_000
STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
SHOWN_NAME = 40  # characters of a refused field's name a message shows


class TooMuchWork(ValueError):
    """The file's moves would take longer to check than the server gives one file."""


def read_records(data: bytes, label: str) -> list:
    """The records of the JSONL file `data`, only their kept fields, each checked by the
    library; ValueError naming `label`, the line or game, and what is wrong. Blank lines
    are skipped, and so is a last line that is a record cut short (a match interrupted
    mid-write)."""
    records = []
    for number, line in enumerate(io.BytesIO(data), 1):
        if number == 1:
            line = without_bom(line)
        if not line.strip():
            continue
        try:
            records.append(_record_of_line(line))
        except ValueError as error:
            if line.endswith(b"\n") or not library.is_record_cut_short(line):
                raise ValueError(f"{label}: line {number} {error}") from None
    _weigh(records, label)
    for record in records:
        try:
            _check_types(record)
            library.check_record(record)
        except ValueError as error:
            raise ValueError(f"{label}: game {record['game']}: {error}") from None
    return records


def _record_of_line(line: bytes) -> dict:
    """The kept fields of the record on `line`; ValueError saying what is wrong with it."""
    values = STRING.sub(b"", line)
    if values.count(b"{") + values.count(b"[") + values.count(b",") >= LINE_VALUES:
        raise ValueError(f"is not a game record (more than {LINE_VALUES} values)")
    try:
        record = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("is not UTF-8 text") from None
    except (ValueError, RecursionError):  # not JSON (or a number too long, or nested too deep)
        raise ValueError("is not a game record") from None
    game = record.get("game") if isinstance(record, dict) else None
    if not isinstance(game, int) or isinstance(game, bool):
        raise ValueError("is not a game record")
    _refuse_unknown(record, library.RECORD_FIELDS, "the record")
    for name, value in record.items():
        if isinstance(value, dict):
            _refuse_unknown(value, SIDES, f"the record's {name!r}")
    moves = record.get("moves")
    if isinstance(moves, list):
        for number, move in enumerate(moves, 1):
            if isinstance(move, dict):
                _refuse_unknown(move, MOVE_FIELDS, f"move {number}")
        record["moves"] = [_kept(move, UNREAD_MOVE_FIELDS) if isinstance(move, dict) else move for move in moves]
    kept = _kept(record, UNREAD_FIELDS)
    try:  # an escaped lone surrogate ("\\ud800") decodes, but no text can hold it
        json.dumps(kept, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("holds an escaped character that is not text") from None
    return kept


def _refuse_unknown(mapping: dict, known, owner: str) -> None:
    unknown = next((name for name in mapping if name not in known), None)
    if unknown is not None:
        shown = unknown if len(unknown) <= SHOWN_NAME else unknown[:SHOWN_NAME] + "..."
        raise ValueError(f"is not a game record: {owner} has a field match --out never writes, {shown!r}")


def _kept(mapping: dict, unread: frozenset) -> dict:
    return {name: value for name, value in mapping.items() if name not in unread}


def _weigh(records: list, label: str) -> None:
    """TooMuchWork when checking the records would replay more than WORK_BUDGET moves times
    board cells."""
    work = moves = largest = 0
    for record in records:
        board, played = record.get("board"), record.get("moves")
        if isinstance(board, list) and isinstance(played, list):
            side = min(len(board), library.MAX_SIZE)  # a longer board is refused unplayed
            work += len(played) * side * side
            moves += len(played)
            largest = max(largest, side)
    if work > WORK_BUDGET:
        raise TooMuchWork(
            f"{label} is too long to check at once: its {plural(len(records), 'game')} replay {moves:,} moves "
            f"on boards of up to {largest}x{largest} ({work:,} moves times board cells, at most "
            f"{WORK_BUDGET:,}); split it into smaller files"
        )


def _check_types(record: dict) -> None:
    types = record.get("types")
    if isinstance(types, int) and not isinstance(types, bool) and not 1 <= types <= library.MAX_TYPES:
        raise ValueError(f"the record's 'types' is {types}, not 1..{library.MAX_TYPES}")
