"""`match --resume F.jsonl`: go on with a match from the games its results file holds.

The file is the match's own record: every finished game is one line, written and flushed
as the game ends. A match stopped by Ctrl-C, a crash or a full disk leaves whole lines and
at most one line cut short at the end; that line is dropped (the file is cut back to the
last whole line) and its game played again, so no game is lost and none counted twice."""

from __future__ import annotations

import json
import os

from agent.arena.match import MatchSettings, board_number, game_seed
from agent.cli_support import without_bom


class ResumeError(ValueError):
    """The file cannot be resumed as this match: the message says why."""


def read_finished(path: str) -> tuple:
    """(the records of the whole lines, the byte length of those lines). A missing file
    is an empty match. ResumeError for a line in the middle that is no game record."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return [], 0
    except OSError as error:
        raise ResumeError(f"cannot read {path}: {error.strerror}") from None
    text = without_bom(data)  # as read_records reads the file
    records, kept = [], len(data) - len(text)
    lines = text.split(b"\n")
    for number, line in enumerate(lines[:-1], 1):  # each followed by a newline
        try:
            record = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            record = None
        if not (isinstance(record, dict) and isinstance(record.get("game"), int)):
            if number == len(lines) - 1 and not lines[-1]:
                break  # the last line is garbage: a write cut short mid-line
            raise ResumeError(f"{path}: line {number} is not a game record")
        records.append(record)
        kept += len(line) + 1
    return records, kept


def seed_of(records: list):
    """The match seed the records were drawn from, or None for an empty file."""
    if not records:
        return None
    first = records[0]
    if not isinstance(first.get("seed"), int):
        raise ResumeError(f"game {first['game']} has no seed")
    return (first["seed"] - first.get("pair", first["game"])) // 100_000


def check_same_match(path: str, records: list, settings: MatchSettings, labels: tuple) -> None:
    """ResumeError unless every record is a game of this very match."""
    clocks = settings.clocks
    for record in records:
        game = record["game"]
        board = board_number(settings, game)
        expected = {"seed": game_seed(settings.seed, board), "time": clocks[0], "agents": dict(zip("AB", labels))}
        if settings.positions:
            position = (board - 1) % len(settings.positions) + 1
            expected.update(position=position, board=list(settings.positions[position - 1].rows))
        else:
            expected.update(size=settings.size, types=settings.types)
        actual = {key: record.get(key) for key in expected}
        if not 1 <= game <= settings.games:
            raise ResumeError(f"{path}: game {game} is not one of this match's {settings.games} games")
        differing = [key for key in expected if actual[key] != expected[key]]
        if record.get("time_b", clocks[0]) != clocks[1]:
            differing.append("time_b")
        if settings.paired != ("pair" in record):
            differing.append("paired")
        if differing:
            raise ResumeError(
                f"{path}: game {game} was played with other match arguments "
                f"({', '.join(differing)} differ): give the same arguments as before"
            )


def cut_back(path: str, length: int) -> None:
    """Drop whatever follows the first `length` bytes (a line cut short)."""
    if os.path.exists(path) and os.path.getsize(path) != length:
        os.truncate(path, length)
