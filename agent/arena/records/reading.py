"""Reading the game records that `match --out` writes, one JSON object per line.

Every record a command gets has been checked here once (check_record): its fields have
the types the commands use and its moves replay under the rules, so `replay`, `audit`
and `phases` can trust it, and a corrupt file gets a message instead of a traceback."""

from __future__ import annotations

import codecs
import json
import math
import sys
from typing import Iterator, NamedTuple, Optional

from agent.arena.records.json_prefix import cut_object_keys
from agent.cli_support import open_regular_file, plural, printable, without_bom
from agent.rules import DIGITS, EMPTY, MAX_SIZE, fruit_count, is_empty, is_settled, legal_cell, play

SIDES = ("A", "B")
FAULTS = ("time", "invalid", "stalled")  # agent.arena.turns.FAULTS, as a record names them
NUMBER = (int, float)
# Longest line read: a 26x26 game's record is well under 1 MB even with commands as long as
# a shell takes (676 moves with their CPU, depth and value take about 70 kB). A file of one
# endless line (/dev/zero) must not be read whole.
LINE_LIMIT = 16 * 1024 * 1024
# Every top-level field of a record as `match --out` writes it (referee.GameRecord.to_dict),
# and those it writes only in some matches; "hints" only the browser page writes, in a game
# where the person took some.
MATCH_FIELDS = tuple(
    "format date game seed size types time agents versions first board moves scores clocks winner reason fault".split()
)
OPTIONAL_MATCH_FIELDS = ("time_b", "pair", "position", "clock", "hints")
# A record gives CPU seconds to 6 places (referee.GameRecord.to_dict): each figure is within
# half of this of the time charged.
CPU_ROUNDING = 1e-6
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


def read_records(path: str, game: Optional[int] = None, program: str = "fruit-rage") -> list:
    """The records in the file, in file order (only game `game`, when given), each one
    checked; ValueError naming the file, the line or game, and what is wrong. `program`
    (`fruit-rage replay`) names the command in a warning."""
    records = _parse_lines(path, program)
    chosen = [record for record in records if game is None or record["game"] == game]
    if game is not None and not chosen:
        raise ValueError(f"{path} has no game {game} (games recorded: {len(records)})")
    for record in chosen:
        try:
            check_record(record)
        except ValueError as error:
            raise ValueError(f"{path}: game {record['game']}: {error}") from None
    return chosen


def find_game(path: str, game: int, program: str = "fruit-rage") -> dict:
    return read_records(path, game, program)[0]


def _parse_lines(path: str, program: str) -> list:
    """Every line's JSON object that has a game number; blank lines are skipped, and so,
    with a warning, is a last line that is a record cut short (a match interrupted
    mid-write), so that the games before it stay usable."""
    try:
        with open_regular_file(path) as handle:
            lines = list(record_lines(handle, path))
    except OSError as error:
        raise ValueError(_unreadable(path, error)) from None
    for line in lines:
        if line.record is None:
            print(f"{program}: warning: {path}: line {line.number} is cut short, skipped", file=sys.stderr)
    return [line.record for line in lines if line.record is not None]


class Line(NamedTuple):
    """A line of a results file that holds a game record."""

    number: int  # from 1
    start: int  # the offset of its first byte in the file
    record: Optional[dict]  # None: the last line, a record cut short
    whole: bool  # a newline ends it


def record_lines(handle, path: str, fields: Optional[tuple] = None) -> Iterator[Line]:
    """The lines of the open results file `handle` that hold records (blank ones left
    out), read one at a time, none longer than LINE_LIMIT; ValueError naming `path`, the
    line and what is wrong for any other line, except a last line (no newline after it)
    that is a record line cut short (with no key but `fields`, when given)."""
    start = 0
    for number, line in enumerate(_read_lines(handle, path), 1):
        length = len(line)
        if number == 1:
            line = without_bom(line)  # a file saved by a Windows editor
        if len(line) > LINE_LIMIT:
            raise ValueError(
                f"{path}: line {number} is not a game record (longer than {LINE_LIMIT // (1024 * 1024)} MB)"
            )
        if line.strip():
            record, problem = _parse_line(line)
            whole = line.endswith(b"\n")
            if problem is None:
                yield Line(number, start, record, whole)
            elif not whole and is_record_cut_short(line, fields):
                yield Line(number, start, None, False)
            else:
                raise ValueError(f"{path}: line {number} {problem}")
        start += length


def is_record_cut_short(line: bytes, fields: Optional[tuple] = None) -> bool:
    """Whether `line` is the start of a record's line, as a write cut short leaves it: a
    JSON object that the line ends inside of (with no key but `fields`, when given)."""
    try:  # not final: a character the cut split in two is left out
        text = codecs.getincrementaldecoder("utf-8")().decode(line)
    except UnicodeDecodeError:
        return False
    keys = cut_object_keys(text)
    return keys is not None and (fields is None or set(keys) <= set(fields))


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


def _read_lines(handle, path: str):
    """The file's lines, each with its newline (the last may have none), each at most a
    byte beyond LINE_LIMIT."""
    while True:
        try:
            line = handle.readline(LINE_LIMIT + 1)
        except OSError as error:
            raise ValueError(_unreadable(path, error)) from None
        if not line:
            return
        yield line


def _unreadable(path: str, error: OSError) -> str:
    # "results.jsonl: no such file or directory", not "[Errno 2] ...: 'results.jsonl'"
    return f"{path}: {(error.strerror or str(error)).lower()}"


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
    scores = record["scores"]
    if sorted(scores) != list(SIDES) or not all(type(scores[side]) is int for side in SIDES):  # not bool
        raise ValueError("the record's 'scores' are not a whole number for A and one for B")
    if record.get("winner", "") not in (None, *SIDES):
        raise ValueError("the record names no winner A or B (or null for a draw)")
    if record.get("fault") not in (None, *FAULTS):
        raise ValueError("the record's 'fault' is not 'time', 'invalid', 'stalled' or null")
    for key in ("pair", "position"):
        if key in record and not _field(record, key, int, "a whole number") >= 1:
            raise ValueError(f"the record's {key!r} is not a number from 1")
    if "hints" in record:
        _check_hints(record)
    grid = _replay_moves(record, _starting_grid(record))
    _check_ending(record, grid)
    _check_clocks(record)
    _check_result(record)


def _check_hints(record: dict) -> None:
    """The hints a side took (a game from the browser page): a whole number from 0 each."""
    hints = _field(record, "hints", dict, "a count for A or B")
    for side in hints:
        if side not in SIDES or not _field(hints, side, int, "a whole number", "the record's 'hints'") >= 0:
            raise ValueError("the record's 'hints' are not a count from 0 for A or B")


def _field(mapping: dict, key: str, kinds, what: str, owner: str = "the record"):
    """mapping[key] when it is one of `kinds` (true and false are not numbers here)."""
    if key not in mapping:
        raise ValueError(f"{owner} has no {key!r}")
    value = mapping[key]
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise ValueError(f"{owner}'s {key!r} is not {what}")
    return value


def _starting_grid(record: dict) -> tuple:
    size, board, types = record["size"], record["board"], record["types"]
    if not 1 <= size <= MAX_SIZE:
        raise ValueError(f"the board size {size} is not 1..{MAX_SIZE}")
    if types < 1:
        raise ValueError(f"the record's 'types' is {types}, not 1 or more")
    if len(board) != size:
        raise ValueError(f"the board has {plural(len(board), 'row')}, not {size}")
    for number, row in enumerate(board, 1):
        if not (isinstance(row, str) and len(row) == size and all(ch in DIGITS + EMPTY for ch in row)):
            raise ValueError(f"board row {number} is {row!r}, not {size} digits or '*'")
        largest = max(row.replace(EMPTY, ""), default="")
        if largest and int(largest) >= types:
            raise ValueError(
                f"board row {number} holds fruit {largest}, but the record's 'types' is {types} (fruit 0..{types - 1})"
            )
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
        if move.get("fault") is not None:
            _check_fault(grid, move, owner)
            if number < len(moves):
                raise ValueError(f"{owner} lost the game, yet more moves follow it")
        else:
            grid = _play_recorded_move(grid, move, owner)
        side = "B" if side == "A" else "A"
    return grid


def _check_fault(grid: tuple, move: dict, owner: str) -> None:
    """A move that lost the game says how, scored nothing, and if it lost by an invalid
    answer, named no legal move (a fault written over a move that was played)."""
    if move["fault"] not in FAULTS:
        raise ValueError(f"{owner}'s 'fault' is not 'time', 'invalid' or 'stalled'")
    _field(move, "reason", str, "text", owner)
    if move.get("points", 0) != 0:
        raise ValueError(f"{owner} lost the game, yet it has points")
    if move["fault"] == "invalid" and isinstance(move.get("move"), str):
        try:
            legal_cell(grid, move["move"])
        except ValueError:
            return
        raise ValueError(f"{owner} lost the game as invalid, yet {move['move']!r} is a legal move")


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
    if lost and record["fault"] != record["moves"][-1]["fault"]:
        raise ValueError(
            f"move {len(record['moves'])} lost the game by {record['moves'][-1]['fault']}, "
            f"but the record's 'fault' is {record['fault']}"
        )


def _check_clocks(record: dict) -> None:
    """Only a time loss runs a clock out, and one that names a move came after the clock
    ran out (a move stopped or never started names none); the clocks left at the end,
    when recorded, are the starting ones less the moves' CPU. So a record whose CPU
    figures were changed, or a time loss written over a move that was played, is refused."""
    left = starting_clocks(record)
    for number, move in enumerate(record["moves"], 1):
        side, rounding = move["player"], CPU_ROUNDING * number
        left[side] -= move["cpu"]
        if move.get("fault") != "time" and left[side] <= -rounding:
            raise ValueError(f"move {number} runs {side}'s clock out, yet it is no time loss")
        if move.get("fault") == "time" and isinstance(move.get("move"), str) and left[side] > rounding:
            raise ValueError(f"move {number} lost on time with {left[side]:.6f} s left")
    if "clocks" not in record:
        return
    clocks = _field(record, "clocks", dict, "a clock for A and B")
    for side in SIDES:
        recorded = _field(clocks, side, NUMBER, "a number", "the record's 'clocks'")
        if not abs(recorded - left[side]) <= CPU_ROUNDING * (len(record["moves"]) + 1):
            raise ValueError(f"its moves leave {side} {left[side]:.6f} s, not the {recorded:.6f} s recorded")


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
    elif "clocks" in record and abs(record["clocks"]["A"] - record["clocks"]["B"]) > CPU_ROUNDING:
        winner = "A" if record["clocks"]["A"] > record["clocks"]["B"] else "B"  # a tie goes to the time left
    else:
        return  # which the record need not hold, nor tell apart from equal when within its rounding
    if record["winner"] != winner:
        raise ValueError(f"the record names {record['winner'] or 'no'} winner, but {winner} won")


def shown_agents(agents: dict) -> dict:
    """A record's agent names ({"A": name, "B": name}) as a terminal may show them: a
    record may come from anywhere (see printable)."""
    return {side: printable(name) for side, name in agents.items()}


def is_wall_clock(record: dict, side: str) -> bool:
    """Whether a side's recorded seconds are wall time, a person's thinking or a match on
    the wall clock (its record's "clock" says "wall", as `play --out`, the page's saved
    games and `match --clock wall` write), not CPU."""
    kinds = record.get("clock")
    return isinstance(kinds, dict) and kinds.get(side) == "wall"


def time_measured(record: dict, side: str) -> str:
    """What a side's recorded seconds are: `CPU`, or `wall time`."""
    return "wall time" if is_wall_clock(record, side) else "CPU"


def starting_clocks(record: dict) -> dict:
    """Each side's clock at the start of a recorded game."""
    return {"A": record["time"], "B": record.get("time_b", record["time"])}


def describe_clocks(time: float, time_b: Optional[float]) -> str:
    """`60 s each`, or `A 60 s, B 120 s` in a time-odds match."""
    if time_b is None or time_b == time:
        return f"{time:g} s each"
    return f"A {time:g} s, B {time_b:g} s"
