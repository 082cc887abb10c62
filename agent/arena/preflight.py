"""What match, tournament and tune check before their first game: that every player can
be made, that the --positions are boards, and that a --cluster answers. A refusal names
the problem and the exit code (2: the arguments, 1: the cluster)."""
from __future__ import annotations

from agent.arena.agents import PlayerSpec


class Refused(Exception):
    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def prepare(args, labels, params=()) -> tuple:
    """(a PlayerSpec per label, the --positions' Boards or None); the first label's player
    gets `params`. Refused when a game could not be played."""
    specs = [PlayerSpec(label, args.in_process, args.grace, params if i == 0 else (), args.isolate)
             for i, label in enumerate(labels)]
    for spec in specs:
        try:
            spec.check()   # a command that surely cannot run, or a relative path in it
        except ValueError as error:
            raise Refused(str(error), 2) from None
    positions = None
    if args.positions:
        from agent.arena.positions import load_positions

        try:
            positions = load_positions(args.positions)
        except ValueError as error:
            raise Refused(f"--positions {error}", 2) from None
    if args.cluster:
        from agent.arena.cluster import ClusterError, check_cluster

        try:
            check_cluster(args.cluster)
        except ClusterError as error:
            raise Refused(str(error), 1) from None
    return specs, positions
