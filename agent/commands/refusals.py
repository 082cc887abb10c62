"""What several subcommands refuse alike before any work, with exit code 2: an odd --games
with --paired (match, tournament), and a results file with no game to review (analyse,
audit)."""

from __future__ import annotations

import sys
from typing import Optional

from agent.arena.matches.preflight import warn_of_jobs
from agent.arena.records.reading import read_records


def odd_paired_games(args) -> str:
    """Why --paired cannot pair --games (every board is played twice), or ""."""
    if args.paired and args.games % 2:
        return f"--paired plays every board twice, so --games must be even (got {args.games})"
    return ""


def records_to_review(command: str, args) -> Optional[list]:
    """The records of args.results (game args.game alone, when given), checked: every move
    replays; None, after `fruit-rage COMMAND` says why, when it cannot be read or holds no
    game. Then the warning of more --jobs than CPUs."""
    program = f"fruit-rage {command}"
    try:
        records = read_records(args.results, args.game, program)
    except ValueError as error:
        print(f"{program}: {error}", file=sys.stderr)
        return None
    if not records:
        print(f"{program}: {args.results} holds no games", file=sys.stderr)
        return None
    warn_of_jobs(args, command)
    return records
