"""`match --resume F.jsonl`: go on with a match from the games its results file holds.

The file is the match's own record: every finished game is one line, written whole as the
game ends. A match stopped by Ctrl-C, a crash or a full disk leaves whole lines and at most
one line cut short at the end; that line is dropped (the file is cut back to the last whole
line) and its game played again, so no game is lost and none counted twice. Anything else
is refused before the first game, the file left as it was: a line that is not a record of
this very match, or whose moves do not give its result, since a file may have been edited."""

from __future__ import annotations

from typing import Optional

from agent.arena.matches.games import MatchSettings, board_number, first_mover, game_seed
from agent.arena.records.reading import MATCH_FIELDS, OPTIONAL_MATCH_FIELDS, check_record, record_lines
from agent.board import Board


class ResumeError(ValueError):
    """The file cannot be resumed as this match: the message says why."""


def read_finished(handle, path: str) -> tuple:
    """(the (line number, record) of every game the open file `handle` holds, each
    checked, the offset of its last line when that is cut short, else None).
    ResumeError naming the line and what is wrong for a line that is no game record."""
    finished, cut_at = [], None
    try:
        for line in record_lines(handle, path, MATCH_FIELDS + OPTIONAL_MATCH_FIELDS):
            if line.record is not None:
                _check_line(path, line.number, line.record)
            if line.whole:
                finished.append((line.number, line.record))
            else:
                cut_at = line.start  # no newline after it: a write cut short
    except ValueError as error:
        raise ResumeError(str(error)) from None
    return finished, cut_at


def _check_line(path: str, number: int, record: dict) -> None:
    """ValueError naming the line unless `record` has the fields a match writes, no
    other, and holds together (check_record)."""
    missing = [key for key in MATCH_FIELDS if key not in record]
    unknown = [key for key in record if key not in MATCH_FIELDS + OPTIONAL_MATCH_FIELDS]
    try:
        if missing:
            raise ValueError(f"the record has no {missing[0]!r}")
        if unknown:
            raise ValueError(f"the record has a field no match writes, {unknown[0][:40]!r}")
        check_record(record)
    except ValueError as error:
        raise ValueError(f"{path}: line {number}, game {record['game']}: {error}") from None


def seed_of(finished: list) -> Optional[int]:
    """The match seed the records were drawn from, or None for an empty file."""
    if not finished:
        return None
    first = finished[0][1]
    return (first["seed"] - first.get("pair", first["game"])) // 100_000


def check_same_match(path: str, finished: list, settings: MatchSettings, names: tuple, clock: str = "cpu") -> None:
    """ResumeError unless every record is a different game of this very match, between
    players of these `names` (as records give them, player_name) on the same `clock`
    (cpu or wall)."""
    clocks = settings.clocks
    lines: dict[int, int] = {}  # game: the line that holds it
    for number, record in finished:
        game = record["game"]
        if not 1 <= game <= settings.games:
            raise ResumeError(f"{path}: line {number}: game {game} is not one of this match's {settings.games} games")
        if game in lines:
            raise ResumeError(f"{path}: line {number}: game {game} is on line {lines[game]} already")
        lines[game] = number
        board = board_number(settings, game)
        seed = game_seed(settings.seed, board)
        expected = {
            "seed": seed,
            "time": clocks[0],
            "agents": dict(zip("AB", names)),
            "pair": board if settings.paired else None,
        }
        if settings.positions:
            position = (board - 1) % len(settings.positions) + 1
            expected.update(position=position, board=list(settings.positions[position - 1].rows))
        else:
            expected.update(size=settings.size, types=settings.types)
        differing = [key for key in expected if record.get(key) != expected[key]]
        if record.get("time_b", clocks[0]) != clocks[1]:
            differing.append("time_b")
        if record.get("clock", {"A": "cpu", "B": "cpu"}) != {"A": clock, "B": clock}:
            differing.append("clock")
        if not differing:  # then what the seed decides: who moves first, and the board drawn
            decided: dict[str, object] = {"first": first_mover(settings.seed, game)}
            if not settings.positions:
                decided["board"] = list(Board.random(seed, settings.size, settings.types).rows)
            differing = [key for key in decided if record[key] != decided[key]]
        if differing:
            raise ResumeError(
                f"{path}: line {number}: game {game} was played with other match arguments "
                f"({', '.join(differing)} differ): give the same arguments as before"
            )
