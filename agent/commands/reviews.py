"""How analyse and audit run their reviews alike: the records read and checked, then every
game reviewed in the records' order
(agent.arena.matches.review_runner, --jobs or --cluster), with the progress of the games,
a game that could not be reviewed said and counted, and a Ctrl-C, a SIGTERM, a lost
cluster or a search without memory stopping the command with its message."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable, Optional

from agent.arena.matches.cluster import ClusterError
from agent.arena.matches.preflight import warn_of_jobs
from agent.arena.matches.review_runner import NotReviewed, review_games
from agent.arena.processes.stop_signals import stop_signals_interrupt
from agent.arena.records.reading import read_records
from agent.arena.terminal.progress import review_progress
from agent.cli_support import interrupted


@dataclass(frozen=True)
class ReviewsRun:
    stopped: Optional[int]  # the exit code of a run that stopped before its end, else None
    not_reviewed: int  # games whose review failed (their worker died, or idled too long)

    @property
    def exit_code(self) -> int:
        return self.stopped if self.stopped is not None else 1 if self.not_reviewed else 0


def run_reviews(
    command: str, review: Callable, records: list, arguments: tuple, show: Callable, args, *, done: str, work: str
) -> ReviewsRun:
    """`review(record, *arguments)` of every record, `show(record, result)` for each in the
    records' order; a game not reviewed is said as `game N not DONE: why`, and a run that
    stops as `...; WORK stopped`."""
    program = f"fruit-rage {command}"
    progress = review_progress(len(records))
    failed = []

    def finished(record: dict, result) -> None:
        if isinstance(result, NotReviewed):
            failed.append(record)
            print(f"{program}: game {record['game']} not {done}: {result.reason}", file=sys.stderr, flush=True)
        else:
            show(record, result)
        progress.update(record)

    try:
        with stop_signals_interrupt():  # SIGTERM, SIGHUP: as Ctrl-C
            review_games(review, records, arguments, finished, jobs=args.jobs, cluster=args.cluster)
    except KeyboardInterrupt:
        progress.close()
        return ReviewsRun(interrupted(program), len(failed))
    except MemoryError as error:  # no room for a search's table or move lists
        progress.close()
        print(f"{program}: out of memory ({error})", file=sys.stderr)
        return ReviewsRun(1, len(failed))
    except ClusterError as error:
        progress.close()
        print(f"{program}: {error}; {work} stopped", file=sys.stderr)
        return ReviewsRun(1, len(failed))
    progress.close()
    return ReviewsRun(None, len(failed))


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
