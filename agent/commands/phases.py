"""`fruit-rage phases RESULTS [--parts P]`: where the margin of recorded games was made
(agent/arena/review/phases.py)."""

from __future__ import annotations

import sys

from agent.arena.records.reading import read_records
from agent.arena.review.phases import match_phases, phases_table
from agent.arena.terminal.tables import terminal_width
from agent.cli_support import number
from agent.commands.options import RECORDED_BY, add_results_argument

DESCRIPTION = (
    "For games recorded by " + RECORDED_BY + ": agent A's mean margin once each part of the fruit is "
    "gone, for the games A moved first and those it moved second, and A's CPU in each part. It "
    "shows how much of a result is the first mover's head start and where an agent gains on its "
    "opponent."
)


def add_arguments(p) -> None:
    add_results_argument(p)
    p.add_argument(
        "--parts",
        type=number(int, 1, 20),
        default=10,
        help="how many equal parts of the fruit to split the games into, 1..20 (default: 10)",
    )


def run(args) -> int:
    try:
        records = read_records(args.results, program="fruit-rage phases")  # checked: every move replays
    except ValueError as error:
        return _fail(str(error))
    try:
        phases = match_phases(records, args.parts)
    except ValueError as error:
        return _fail(f"{args.results}: {error}")
    if not phases.games:
        return _fail(f"{args.results}: every game ended by a fault")
    print(phases_table(phases, terminal_width(sys.stdout)))
    return 0


def _fail(message: str) -> int:
    print(f"fruit-rage phases: {message}", file=sys.stderr)
    return 2
