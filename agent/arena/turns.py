"""A turn of a game and how it is judged: what the mover answered and was charged, or the
fault that loses; and a program's output.txt checked against the rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from agent.arena.processes.referee_clock import FAULT_STALLED as FAULT_STALLED
from agent.arena.processes.referee_clock import FAULT_TIME as FAULT_TIME
from agent.gamefile import parse_output
from agent.rules import legal_cell, play

FAULT_INVALID = "invalid"  # its answer was no legal move, or it gave none
FAULTS = (FAULT_TIME, FAULT_INVALID, FAULT_STALLED)  # the ways to lose a game but on points


@dataclass(frozen=True)
class Turn:
    """What a turn produced: a legal move with its next grid, or the fault that loses."""

    seconds: float  # charged to the mover's clock
    name: Optional[str] = None  # the move as the player gave it, e.g. "G8"
    grid: Optional[tuple[str, ...]] = None  # the grid after the move
    points: int = 0
    fault: Optional[str] = None  # one of FAULTS, or None
    reason: str = ""  # why it loses
    depth: Optional[int] = None  # the player's search depth, when it reports one
    value: Optional[int] = None  # and the value it expected


def check_output(grid: tuple[str, ...], text: str) -> tuple[str, tuple[str, ...], int]:
    """(move name, next grid, points) from an agent's output.txt; ValueError saying why it
    is not exactly the right answer."""
    try:
        name, written = parse_output(text, len(grid))
    except ValueError as error:
        raise ValueError(f"garbled output.txt: {error}") from None
    try:
        cell = legal_cell(grid, name)
    except ValueError as error:
        raise ValueError(f"illegal move: {error}") from None
    expected, points = play(grid, cell)
    if written != expected:
        row = next((i for i, (a, b) in enumerate(zip(written, expected)) if a != b), 0)
        raise ValueError(f"wrong board after {name}: row {row + 1} is {written[row]!r}, should be {expected[row]!r}")
    return name, expected, points
