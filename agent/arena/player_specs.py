"""Players as the command line names them: a built-in name, `py:package.module:factory`,
or a shell command in the competition protocol, each a picklable factory of fresh players."""

from __future__ import annotations

import time
from dataclasses import dataclass

from agent.arena.agent_commands import BUILT_IN_NAMES
from agent.arena.command_player import CommandPlayer
from agent.arena.processes.referee_clock import BACKSTOP_SLACK, COMPETITION_CLOCK, RefereeClock
from agent.arena.processes.workers import run_tasks
from agent.arena.referee import player_name

IN_PROCESS_NAMES = BUILT_IN_NAMES  # the built-ins that can also play in-process


@dataclass(frozen=True)
class PlayerSpec:
    """A player as named on the command line, and a picklable factory of fresh ones: a
    built-in name (ours, greedy, random, minimax3), `py:package.module:factory`, or a
    shell command in the input.txt/output.txt protocol. Built-ins are programs run per
    move, as in a competition, unless `in_process`."""

    text: str
    in_process: bool = False
    clock: RefereeClock = COMPETITION_CLOCK  # the referee's rule for a program's moves
    params: tuple = ()  # (name, value) pairs for a Python player's factory or a built-in
    isolate: bool = False  # run each side's programs as a user of its own (root only)

    @property
    def charges_itself(self) -> bool:
        return not (self.text.startswith("py:") or (self.in_process and self.text in IN_PROCESS_NAMES))

    def check(self, clock: float) -> str:
        """The name the records give its players (player_name); ValueError saying why no
        player can be made, or why a built-in program cannot run as its side's own user
        (--isolate), before the first game. A Python player is made in a worker process,
        held to the referee's rule as a move with its game's `clock` seconds: its module's
        code or its factory could end the process that makes it (os._exit), run on in C,
        sleep or block the stop signals, none of which may be the match's."""
        if self.text.startswith("py:"):
            names: list = []

            def made(spec: PlayerSpec, name: str) -> bool:
                names.append(name)
                return True

            run_tasks(
                [self],
                1,
                _make_player,
                made,
                player_not_made,
                watching=lambda spec, notes: self.clock.watch(clock, time.monotonic(), BACKSTOP_SLACK),
            )
            return names[0]
        player = self()
        if self.isolate and isinstance(player, CommandPlayer) and self.text in BUILT_IN_NAMES:
            from agent.arena.processes.side_users import python_problem

            command = player.spec.command
            assert isinstance(command, list)  # a built-in runs as an argument list, not a shell command
            problem = python_problem(command[0], player.spec.env)
            if problem:
                raise ValueError(
                    f"{self.text}: with --isolate it runs as a user of its own, who cannot run this project's "
                    f"Python ({problem}): install fruit-rage where any user may read it (a virtual environment "
                    f"outside /root, say), or leave out --isolate"
                )
        return player_name(player)

    def __call__(self):
        if self.text.startswith("py:"):
            from agent.players import player_from_python

            return player_from_python(self.text, **dict(self.params))
        if self.in_process and self.text in IN_PROCESS_NAMES:
            from agent.players import player_from_name

            player = player_from_name(self.text, **dict(self.params))
            if not self.params:
                player.name = self.text
            return player
        if self.params:
            built_in = self.text in IN_PROCESS_NAMES  # played as a program, it takes no parameters
            raise ValueError(
                f"{self.text}: parameters go to Python players and in-process built-ins only"
                + ("; add --in-process" if built_in else "")
            )
        return CommandPlayer(self.text, clock=self.clock, isolate=self.isolate)


def _make_player(spec: PlayerSpec, note) -> str:
    """In a worker: a player of `spec` made, and its name (the player need not cross back)."""
    return player_name(spec())


def player_not_made(spec: PlayerSpec, end, notes: list) -> None:
    """ValueError saying how the worker making a player of `spec` ended (a WorkerEnd)."""
    if end.verdict is not None:
        raise ValueError(f"{spec.text!r}: its making was stopped, {end.reason}")
    raise ValueError(f"{spec.text!r}: ended its process when made ({end.how})")
