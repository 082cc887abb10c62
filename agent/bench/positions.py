"""The benchmark's positions file, read and checked: sets of positions with their values.

The format (positions.json beside this module is the project's own):

    {"reference_processor": "Intel Xeon (Sapphire Rapids)",
     "sets": [{"name": "exact-6x6-full", "mode": "exact", "depth": null,
               "reference_cpu_s_total": 2.153,
               "positions": [{"grid": ["020101", ...], "value": 18, "reference_cpu_s": 0.016}, ...]},
              {"name": "depth4-26x26-full", "mode": "depth", "depth": 4, "evaluation": "none", ...}]}

mode exact: `value` is the true final margin for the side to move with best play; mode
depth: the margin of the points taken within `depth` plies by best play, the horizon worth
0. The reference times (CPU seconds of another searcher) are optional, and so is the
processor they were measured on. Any other key is
ignored. Everything in a file is checked before anything is searched: a file from outside
is hostile."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Optional

from agent.cli_support import open_regular_file, printable, without_bom

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "positions.json")
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_NAME_LENGTH = 80
MAX_DEPTH = 676  # a move takes at least one fruit of a 26x26 box
MODES = ("exact", "depth")


@dataclass(frozen=True)
class BenchPosition:
    grid: tuple  # rows, top first, as agent.Board takes them
    value: int  # the margin for the side to move (see the module's docstring)
    reference_cpu_s: Optional[float]


@dataclass(frozen=True)
class BenchSet:
    name: str
    mode: str  # "exact" or "depth"
    depth: Optional[int]  # plies searched in mode depth; None in mode exact
    reference_cpu_s_total: Optional[float]
    positions: tuple  # of BenchPosition
    reference_processor: Optional[str] = None  # where the reference times were measured


def read_sets(path: Optional[str] = None) -> list:
    """The sets of the positions file at `path` (default: the project's own); ValueError
    naming the file, and the set, position and field at fault, for anything else."""
    shown = printable(path or DEFAULT_PATH)
    try:
        with open_regular_file(path or DEFAULT_PATH) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{shown}: {(error.strerror or str(error)).lower()}") from None
    except ValueError as error:  # a folder, a FIFO, a device
        raise ValueError(printable(error)) from None
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{shown}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB: not a positions file")
    try:
        content = json.loads(without_bom(data), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ValueError(f"{shown}: not JSON: not a positions file") from None
    if not isinstance(content, dict) or not isinstance(content.get("sets"), list) or not content["sets"]:
        raise ValueError(f"{shown}: needs an object whose `sets` is a list of one set or more")
    processor = content.get("reference_processor")
    if processor is not None and not _is_name(processor):
        raise ValueError(f"{shown}: reference_processor: not a printable text of 1..{MAX_NAME_LENGTH} characters")
    sets = [_bench_set(entry, f"{shown}: set {number}", processor) for number, entry in enumerate(content["sets"], 1)]
    named: set[str] = set()
    for bench_set in sets:
        if bench_set.name in named:
            raise ValueError(f"{shown}: two sets are named {bench_set.name!r}")
        named.add(bench_set.name)
    return sets


def _no_constant(text: str):
    raise ValueError(f"{text} is not a number here")


def _is_name(text) -> bool:
    return isinstance(text, str) and 0 < len(text) <= MAX_NAME_LENGTH and text.isprintable()


def _bench_set(entry, where: str, reference_processor: Optional[str]) -> BenchSet:
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: not an object")
    name = entry.get("name")
    if not isinstance(name, str) or not _is_name(name):
        raise ValueError(f"{where}: name: not a printable text of 1..{MAX_NAME_LENGTH} characters")
    where = f"{where} ({name})"
    mode, depth = entry.get("mode"), entry.get("depth")
    if mode not in MODES:
        raise ValueError(f"{where}: mode: {_shown(mode)}, not one of {', '.join(MODES)}")
    if mode == "exact" and depth is not None:
        raise ValueError(f"{where}: depth: an exact set is searched to the end: its depth is null")
    if mode == "depth" and not _whole(depth, 1, MAX_DEPTH):
        raise ValueError(f"{where}: depth: {_shown(depth)}, not a whole number of 1..{MAX_DEPTH}")
    if entry.get("evaluation") not in (None, "none"):
        raise ValueError(f"{where}: evaluation: {_shown(entry['evaluation'])}: only none (the horizon worth 0)")
    positions = entry.get("positions")
    if not isinstance(positions, list) or not positions:
        raise ValueError(f"{where}: positions: not a list of one position or more")
    return BenchSet(
        name=name,
        mode=mode,
        depth=depth,
        reference_cpu_s_total=_seconds(entry.get("reference_cpu_s_total"), f"{where}: reference_cpu_s_total"),
        positions=tuple(_position(item, f"{where}: position {number}") for number, item in enumerate(positions, 1)),
        reference_processor=reference_processor,
    )


def _position(entry, where: str) -> BenchPosition:
    from agent.board import Board

    if not isinstance(entry, dict):
        raise ValueError(f"{where}: not an object")
    grid = entry.get("grid")
    if not isinstance(grid, list):
        raise ValueError(f"{where}: grid: not a list of rows")
    try:
        board = Board(grid)
    except ValueError as error:
        raise ValueError(f"{where}: grid: {printable(error)}") from None
    if board.is_over:
        raise ValueError(f"{where}: grid: the box is empty: there is nothing to search")
    value = entry.get("value")
    # no margin can exceed the points of taking the whole box at once
    if not _whole(value, -(board.fruit**2), board.fruit**2):
        raise ValueError(f"{where}: value: {_shown(value)}, not a margin this board can have")
    assert isinstance(value, int)  # _whole checked it
    return BenchPosition(tuple(grid), value, _seconds(entry.get("reference_cpu_s"), f"{where}: reference_cpu_s"))


def _whole(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _seconds(value, where: str) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 <= value and math.isfinite(value)):
        raise ValueError(f"{where}: {_shown(value)}, not a number of seconds >= 0")
    return float(value)


def _shown(value) -> str:
    """A value from the file as a message quotes it: escaped and cut short."""
    text = printable(json.dumps(value) if not isinstance(value, str) else repr(value))
    return text if len(text) <= 40 else text[:37] + "..."
