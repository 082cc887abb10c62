"""`fruit-rage phases RESULTS [--parts P]`: where the margin of recorded games was made
(agent/arena/review/phases.py)."""

from __future__ import annotations

import sys

from agent.arena.records.reading import read_records
from agent.arena.review.phases import match_phases, phases_table
from agent.arena.terminal.tables import terminal_width


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
