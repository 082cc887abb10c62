"""A program in the input.txt/output.txt protocol as a player: a fresh process per move, in
a fresh folder, charged the CPU time of every process it starts; and the runners this
process's programs share, so that a stop reaches every move they are running."""

from __future__ import annotations

import threading
from typing import Optional, Union

from agent._version import __version__
from agent.arena.agent_commands import BUILT_IN_NAMES, AgentCommand, agent_command
from agent.arena.processes.move_runner import MoveRunner, ProcessRun
from agent.arena.processes.referee_clock import COMPETITION_CLOCK, RefereeClock
from agent.arena.processes.workers import ended_how
from agent.arena.turns import FAULT_INVALID, FAULT_TIME, Turn, check_output
from agent.board import Board, Move
from agent.gamefile import format_input, format_input_seconds


class CommandPlayer:
    """A program in the input.txt/output.txt protocol, run as a fresh process per move
    in a fresh folder, charged the CPU time that process uses (the wall time, under a
    wall `clock`). `command` is a built-in name (ours, greedy, random, minimax3: the
    project's own programs) or a shell command. ValueError at once when the command surely
    cannot run."""

    def __init__(
        self,
        command: Union[str, AgentCommand],
        name: Optional[str] = None,
        runner: Optional[MoveRunner] = None,
        clock: RefereeClock = COMPETITION_CLOCK,
        isolate: bool = False,
        side: Optional[str] = None,
    ) -> None:
        self.spec = command if isinstance(command, AgentCommand) else agent_command(command)
        self.name = name or self.spec.label
        self.runner = runner or shared_runner(clock, isolate)
        self.clock = self.runner.clock.kind  # what its clock charges, for the record
        self.side = side  # its private folder's name; play_game sets it to A or B when None
        self.version = __version__ if self.spec.label in BUILT_IN_NAMES else None  # ours or a baseline

    def choose(self, board: Board, clock_left: float) -> Move:
        """The program's move; RuntimeError saying why when its answer loses the game."""
        turn = self.take_turn(board, clock_left)
        if turn.fault is not None:
            raise RuntimeError(f"{self.name}: {turn.reason}")
        assert turn.name is not None  # a turn without a fault names its move
        return Move.from_name(turn.name)

    def take_turn(self, board: Board, clock_left: float) -> Turn:
        grid = board.rows
        if format_input_seconds(clock_left) == "0":  # the agent would read no time at all
            return Turn(
                0.0, fault=FAULT_TIME, reason=f"ran out of time: {clock_left:.1e} s left, below input.txt's microsecond"
            )
        run = self.runner.run(
            self.spec.command,
            self.spec.shell,
            format_input(grid, board.types, clock_left),
            clock_left,
            env=self.spec.env,
            side=self.side or "agent",
        )
        charged = self.runner.clock.charge(run.cpu, run.wall)
        if run.stopped is not None:
            return Turn(charged, fault=run.stopped, reason=run.stop_reason)
        if run.output is None:
            return Turn(charged, fault=FAULT_INVALID, reason=run.output_problem + _exit_detail(run))
        try:
            name, next_grid, points = check_output(grid, run.output)
        except ValueError as error:
            return Turn(charged, fault=FAULT_INVALID, reason=str(error))
        return Turn(charged, name, next_grid, points)


_shared_runners: dict[
    tuple[RefereeClock, bool], MoveRunner
] = {}  # (clock, isolate) -> the MoveRunner this process's CommandPlayers share
_shared_lock = threading.Lock()


def shared_runner(clock: RefereeClock = COMPETITION_CLOCK, isolate: bool = False) -> MoveRunner:
    """The runner of this process's CommandPlayers with that clock rule and isolation: one
    place that can stop every move they are running (stop_shared_runners)."""
    with _shared_lock:
        runner = _shared_runners.get((clock, isolate))
        if runner is None:
            runner = _shared_runners[clock, isolate] = MoveRunner(clock, isolate=isolate)
        return runner


def stop_shared_runners(kill: bool = True) -> None:
    """Kill every move the shared runners run (Ctrl-C in a match; `kill` False: a match
    that ended) and remove their match folders; later players get fresh runners."""
    with _shared_lock:
        runners = list(_shared_runners.values())
        _shared_runners.clear()
    for runner in runners:
        if kill:
            runner.stop()
        runner.close()


def _exit_detail(run: ProcessRun) -> str:
    if run.exit_code == 127:
        what = "command not found"
    elif run.exit_code == 126:
        what = "cannot run it"
    else:
        what = ended_how(run.exit_code)
    return f" ({what}: {run.stderr_tail})" if run.stderr_tail else f" ({what})"
