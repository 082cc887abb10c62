"""What match, tournament and tune check before their first game: that every player can
be made, that the --positions are boards, and that a --cluster answers. A refusal names
the problem and the exit code (2: the arguments, 1: the cluster)."""

from __future__ import annotations

import os
import sys

from agent.arena.player_specs import PlayerSpec
from agent.arena.processes.referee_clock import RefereeClock
from agent.cli_support import plural, printable


class Refused(Exception):
    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def prepare(args, labels, params=()) -> tuple:
    """(a PlayerSpec per label, the --positions' Boards or None, the name the records give
    each label's players); the first label's player gets `params`. Refused when a game
    could not be played."""
    clock = RefereeClock(args.clock, args.grace)
    specs = [
        PlayerSpec(label, args.in_process, clock, params if i == 0 else (), args.isolate)
        for i, label in enumerate(labels)
    ]
    names = []
    for i, spec in enumerate(specs):
        own_clock = getattr(args, "time_b", None) if i == 1 else None  # match's B may have a clock of its own
        try:
            names.append(spec.check(own_clock or args.time))  # a command that surely cannot run, a relative path
        except ValueError as error:
            raise Refused(printable(error), 2) from None  # a player's own text: escaped
    positions = None
    if args.positions:
        from agent.arena.matches.openings import load_positions

        try:
            positions = load_positions(args.positions)
        except ValueError as error:
            raise Refused(f"--positions {error}", 2) from None
    if args.cluster:
        from agent.arena.matches.cluster import ClusterError, check_cluster

        try:
            check_cluster(args.cluster)
        except ClusterError as error:
            raise Refused(str(error), 1) from None
    return specs, positions, tuple(names)


def warn_of_jobs(args, command: str) -> None:
    """As fastchess warns of a concurrency above the CPUs: games would share cores (their
    CPU clocks stay fair, their wall time does not)."""
    cpus = available_cpus()
    if args.cluster is None and args.jobs > cpus:
        print(
            f"fruit-rage {command}: warning: --jobs {args.jobs} exceeds the {plural(cpus, 'CPU')} here: "
            f"games share cores",
            file=sys.stderr,
        )


def available_cpus() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
