"""Reading the game records that `match --out` writes, one JSON object per line.

Every record a command gets has been checked here once (check_record): its fields have
the types the commands use and its moves replay under the rules, so `replay`, `audit`
and `phases` can trust it, and a corrupt file gets a message instead of a traceback."""

from __future__ import annotations

import json
import math
import sys
from typing import Optional

from agent.cli_support import plural, without_bom
from agent.rules import DIGITS, EMPTY, MAX_SIZE, fruit_count, is_empty, is_settled, legal_cell, play

SIDES = ("A", "B")
NUMBER = (int, float)
# Longest line read: a 26x26 game's record is well under 1 MB even with commands as long as
# a shell takes. A file of one endless line (/dev/zero) must not be read whole.
LINE_LIMIT = 16 * 1024 * 1024
# (field, types, what it must be): the top-level fields the commands read.
FIELDS = (
    ("board", list, "a list of rows"),
    ("moves", list, "a list of moves"),
    ("size", int, "a whole number"),
    ("seed", int, "a whole number"),
    ("types", int, "a whole number"),
    ("time", NUMBER, "a number"),
    ("scores", dict, "a score for A and B"),
    ("reason", str, "text"),
)


def read_records(path: str, game: Optional[int] = None) -> list:
    """The records in the file, in file order (only game `game`, when given), each one
    checked; ValueError naming the file, the line or game, and what is wrong."""
    records = _parse_lines(path)
    chosen = [record for record in records if game is None or record["game"] == game]
    if game is not None and not chosen:
        raise ValueError(f"{path} has no game {game} (games recorded: {len(records)})")
    for record in chosen:
        try:
            check_record(record)
        except ValueError as error:
            raise ValueError(f"{path}: game {record['game']}: {error}") from None
    return chosen


def find_game(path: str, game: int) -> dict:
    return read_records(path, game)[0]


def _parse_lines(path: str) -> list:
    """Every line's JSON object that has a game number; blank lines are skipped, and so,
    with a warning, is a last line cut short (no newline after it: a match interrupted
    mid-write), so that the games before it stay usable."""
    records = []
    for line_no, line in enumerate(_read_lines(path), 1):
        if line_no == 1:
            line = without_bom(line)  # a file saved by a Windows editor
        if len(line) > LINE_LIMIT:
            raise ValueError(
                f"{path}: line {line_no} is not a game record (longer than {LINE_LIMIT // (1024 * 1024)} MB)"
            )
        if not line.strip():
            continue
        record, problem = _parse_line(line)
        if problem is None:
            records.append(record)
        elif not line.endswith(b"\n"):
            print(f"fruit-rage: warning: {path}: line {line_no} is cut short, skipped", file=sys.stderr)
        else:
            raise ValueError(f"{path}: line {line_no} {problem}")
    return records


def _parse_line(line: bytes) -> tuple:
    """(the game record on the line, None), or (None, what is wrong with the line)."""
    try:
        record = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        return None, "is not UTF-8 text"
    except (ValueError, RecursionError):  # not JSON (or a number too long, or nested too deep)
        return None, "is not a game record"
    game = record.get("game") if isinstance(record, dict) else None
    if not isinstance(game, int) or isinstance(game, bool):
        return None, "is not a game record"
    try:  # an escaped lone surrogate ("\\ud800") decodes, but no text can print it
        json.dumps(record, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return None, "holds an escaped character that is not text"
    return record, None


def _read_lines(path: str):
    """The file's lines, each with its newline (the last may have none), each at most a
    byte beyond LINE_LIMIT."""
    try:
        with open(path, "rb") as handle:
            while True:
                line = handle.readline(LINE_LIMIT + 1)
                if not line:
                    return
                yield line
    except OSError as error:
        # "results.jsonl: no such file or directory", not "[Errno 2] ...: 'results.jsonl'"
        raise ValueError(f"{path}: {(error.strerror or str(error)).lower()}") from None


def check_record(record: dict) -> None:
    """ValueError saying what is wrong with a game record: a field missing or of the wrong
    type, or moves that the rules do not allow or that do not end the game."""
    agents = record.get("agents")
    if not (
        isinstance(agents, dict)
        and sorted(agents) == list(SIDES)
        and all(isinstance(name, str) for name in agents.values())
    ):
        raise ValueError("the record names no agents A and B")
    if record.get("first") not in SIDES:
        raise ValueError("the record names no first mover A or B")
    for key, kinds, what in FIELDS:
        _field(record, key, kinds, what)
    for key in ("time", "time_b"):
        if key in record and not 0 < _field(record, key, NUMBER, "a number") < math.inf:
            raise ValueError(f"the record's {key!r} is not a number of seconds above 0")
    for side in SIDES:
        _field(record["scores"], side, int, "a whole number", "the record's 'scores'")
    if record.get("winner", "") not in (None, *SIDES):
        raise ValueError("the record names no winner A or B (or null for a draw)")
    grid = _replay_moves(record, _starting_grid(record))
    _check_ending(record, grid)
    _check_result(record)


def _field(mapping: dict, key: str, kinds, what: str, owner: str = "the record"):
    """mapping[key] when it is one of `kinds` (true and false are not numbers here)."""
    if key not in mapping:
        raise ValueError(f"{owner} has no {key!r}")
    value = mapping[key]
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise ValueError(f"{owner}'s {key!r} is not {what}")
    return value


def _starting_grid(record: dict) -> tuple:
    size, board = record["size"], record["board"]
    if not 1 <= size <= MAX_SIZE:
        raise ValueError(f"the board size {size} is not 1..{MAX_SIZE}")
    if len(board) != size:
        raise ValueError(f"the board has {plural(len(board), 'row')}, not {size}")
    for number, row in enumerate(board, 1):
        if not (isinstance(row, str) and len(row) == size and all(ch in DIGITS + EMPTY for ch in row)):
            raise ValueError(f"board row {number} is {row!r}, not {size} digits or '*'")
    grid = tuple(board)
    if not is_settled(grid):
        raise ValueError("the board has fruit floating above a hole")
    return grid


def _replay_moves(record: dict, grid: tuple) -> tuple:
    """The grid after the record's moves, each checked on the way: the players take
    turns, and only the last move may be a fault (a time loss or an invalid answer)."""
    moves = record["moves"]
    if not moves:
        raise ValueError("the record has no moves")
    side = record["first"]
    for number, move in enumerate(moves, 1):
        owner = f"move {number}"
        if not isinstance(move, dict):
            raise ValueError(f"{owner} is not a move record")
        player = _field(move, "player", str, "A or B", owner)
        if player != side:
            raise ValueError(f"{owner} is played by {player!r}, but it is {side}'s turn")
        if not 0 <= _field(move, "cpu", NUMBER, "a number", owner) < math.inf:
            raise ValueError(f"{owner}'s 'cpu' is not a number of seconds from 0")
        if move.get("fault"):
            _field(move, "reason", str, "text", owner)
            if number < len(moves):
                raise ValueError(f"{owner} lost the game, yet more moves follow it")
        else:
            grid = _play_recorded_move(grid, move, owner)
        side = "B" if side == "A" else "A"
    return grid


def _play_recorded_move(grid: tuple, move: dict, owner: str) -> tuple:
    """The grid after a recorded legal move; ValueError when the rules do not allow it
    or it scored other points than recorded."""
    name = _field(move, "move", str, "a cell name", owner)
    try:
        cell = legal_cell(grid, name)
    except ValueError as error:
        raise ValueError(f"{owner}: {error}") from None
    grid, points = play(grid, cell)
    recorded = _field(move, "points", int, "a whole number", owner)
    if recorded != points:
        raise ValueError(f"{owner} ({name}) scores {plural(points, 'point')}, not the {recorded} recorded")
    return grid


def _check_ending(record: dict, grid: tuple) -> None:
    """A game ends when the board is empty or a move loses it, and the record's 'fault'
    says which (phases leaves the games ended by a fault out)."""
    lost = bool(record["moves"][-1].get("fault"))
    if not lost and not is_empty(grid):
        raise ValueError(f"its moves stop with {fruit_count(grid)} fruit left, and none lost the game")
    if lost and not record.get("fault"):
        raise ValueError(f"move {len(record['moves'])} lost the game, but the record has no 'fault'")
    if record.get("fault") and not lost:
        raise ValueError("the record has a 'fault', but no move lost the game")


def _check_result(record: dict) -> None:
    """The recorded scores are the sums of the moves' points, and the winner is the side
    they (or the losing move) make the winner: `replay` shows them and `audit` compares
    best play with them, so a record contradicting its own moves is refused."""
    points = {"A": 0, "B": 0}
    for move in record["moves"]:
        if not move.get("fault"):
            points[move["player"]] += move["points"]
    scores = record["scores"]
    if points != {side: scores[side] for side in SIDES}:
        raise ValueError(
            f"its moves score A {points['A']} - B {points['B']}, not the A {scores['A']} - B {scores['B']} recorded"
        )
    last = record["moves"][-1]
    if last.get("fault"):
        winner = "B" if last["player"] == "A" else "A"
    elif points["A"] != points["B"]:
        winner = "A" if points["A"] > points["B"] else "B"
    else:
        return  # a tie goes to the time left, which the record need not hold
    if record["winner"] != winner:
        raise ValueError(f"the record names {record['winner'] or 'no'} winner, but {winner} won")


def starting_clocks(record: dict) -> dict:
    """Each side's clock at the start of a recorded game."""
    return {"A": record["time"], "B": record.get("time_b", record["time"])}


def describe_clocks(time: float, time_b: Optional[float]) -> str:
    """`60 s each`, or `A 60 s, B 120 s` in a time-odds match."""
    if time_b is None or time_b == time:
        return f"{time:g} s each"
    return f"A {time:g} s, B {time_b:g} s"
