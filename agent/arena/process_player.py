"""A Python player (`py:`) in a worker process of its own, as a match plays one, for `play
--agent py:...`: made there, the making held to the referee's rule as a move with the
player's clock; each move taken there under the player's own timers (take_turn), the
worker watched from outside by the same rule BACKSTOP_SLACK behind (a player that disarms
or blocks its timers, is stuck in one long C call or is stopped loses the move for what the
watch found); a stop of the referee (SIGTERM, Ctrl-C) ends the worker by the stop rule,
whatever signals the player blocks."""

from __future__ import annotations

import time
from typing import Any

from agent.arena.player_specs import PlayerSpec, player_not_made
from agent.arena.processes.referee_clock import BACKSTOP_SLACK, MoveWatch
from agent.arena.processes.workers import Worker, WorkerEnd, process_context, stop_processes
from agent.arena.referee import player_name, take_turn
from agent.arena.turns import FAULT_INVALID, Turn
from agent.board import Board


class ProcessPlayer:
    """`spec`'s player made in a worker process, its making allowed `clock` seconds by the
    referee's rule; ValueError saying why when none can be made. It charges itself
    (take_turn); close() ends its worker."""

    def __init__(self, spec: PlayerSpec, clock: float):
        self.spec = spec
        self.worker = Worker(process_context(), _serve, watching=self._watching)
        self.closed = False
        made = self._run(("make", spec, clock))
        if isinstance(made, WorkerEnd):
            self.close()
            player_not_made(spec, made, [])
        self.name, self.version = made

    def take_turn(self, board: Board, clock_left: float) -> Turn:
        turn = self._run(("move", board, clock_left))
        if not isinstance(turn, WorkerEnd):
            return turn
        cpu = self.worker.watch.used.cpu if self.worker.watch is not None else 0.0
        if turn.verdict is not None:
            return Turn(cpu, fault=turn.verdict, reason=f"{turn.reason}; its process ended")
        return Turn(cpu, fault=FAULT_INVALID, reason=f"its process ended during its move ({turn.how})")

    def close(self) -> None:
        """Its worker ended, by the stop rule when it does not end by itself, and waited for."""
        if not self.closed:
            self.closed = True
            stop_processes([self.worker.process])
            self.worker.close()

    def _run(self, task: tuple) -> Any:
        """The task's result or its worker's WorkerEnd; the task's exception (the making's
        ValueError), or a stop of this process, ends the worker first."""
        try:
            return self.worker.run(task)
        except BaseException:
            self.close()
            raise

    def _watching(self, task: tuple, notes: list) -> MoveWatch:
        """The watch of a making or a move: its clock (the task's last item), BACKSTOP_SLACK
        behind the player's own timers."""
        return self.spec.clock.watch(task[-1], time.monotonic(), BACKSTOP_SLACK)


_made: tuple = ()  # in the worker: (the spec, its player), once made


def _serve(task: tuple, note) -> Any:
    """In the worker: the player made, (its name, its version); or its turn, by its
    spec's rule."""
    global _made
    if task[0] == "make":
        spec = task[1]
        _made = (spec, spec())
        return player_name(_made[1]), getattr(_made[1], "version", None)
    spec, player = _made
    _, board, clock_left = task
    return take_turn(player, board, clock_left, spec.clock)
