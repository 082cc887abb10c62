"""One game of Fruit Rage between two players, judged as the spec says: each move's time
is charged to the mover's clock, a clock at zero or below loses, an invalid answer loses,
and at the end the higher score wins, equal scores going to the player with more time left.

A player is any callable (grid, types, time_left) -> Move: a command agent run as its own
process (CommandPlayer) or, in `fruit-rage play`, a person at the terminal.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from agent.arena.agents import AgentSpec
from agent.arena.process import MoveRunner
from agent.gamefile import format_input, format_input_seconds, parse_output
from agent.rules import is_empty, legal_cell, play

FAULT_TIME = "time"
FAULT_INVALID = "invalid"


@dataclass(frozen=True)
class Move:
    """What a turn produced: a legal move with its next grid, or the fault that loses."""
    seconds: float                 # charged to the mover's clock
    name: Optional[str] = None     # as the player wrote it, e.g. "G8"
    grid: Optional[tuple] = None   # the grid after the move
    points: int = 0
    fault: Optional[str] = None    # FAULT_TIME, FAULT_INVALID or None
    reason: str = ""               # why it loses


@dataclass
class GameResult:
    moves: list = field(default_factory=list)   # (player index, Move), in order
    scores: list = field(default_factory=lambda: [0, 0])
    clocks: list = field(default_factory=list)
    winner: Optional[int] = None                # None: a draw
    reason: str = ""
    fault: Optional[str] = None                 # the loser's fault; None when decided by score


def check_output(grid, text: str) -> tuple:
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
        raise ValueError(f"wrong board after {name}: row {row + 1} is {written[row]!r}, "
                         f"should be {expected[row]!r}")
    return name, expected, points


class CommandPlayer:
    """An agent command, run as a fresh process per move under the referee's clock."""

    def __init__(self, spec: AgentSpec, runner: MoveRunner):
        self.spec = spec
        self.runner = runner

    def __call__(self, grid, types: int, time_left: float) -> Move:
        if format_input_seconds(time_left) == "0":  # the agent would read no time at all
            return Move(0.0, fault=FAULT_TIME,
                        reason=f"ran out of time: {time_left:.1e} s left, below input.txt's microsecond")
        run = self.runner.run(self.spec.command, self.spec.shell, format_input(grid, types, time_left),
                              time_left, env=self.spec.env)
        if run.killed:
            return Move(run.cpu, fault=FAULT_TIME,
                        reason=f"killed: still running {self.runner.grace:g} s after its time ran out")
        if run.output is None:
            return Move(run.cpu, fault=FAULT_INVALID, reason=run.output_problem + _exit_detail(run))
        try:
            name, next_grid, points = check_output(grid, run.output)
        except ValueError as error:
            return Move(run.cpu, fault=FAULT_INVALID, reason=str(error))
        return Move(run.cpu, name, next_grid, points)


def _exit_detail(run) -> str:
    if run.exit_code == 127:
        what = "command not found"
    elif run.exit_code == 126:
        what = "cannot run it"
    elif run.exit_code < 0:
        what = f"killed by signal {-run.exit_code}"
    else:
        what = f"exit code {run.exit_code}"
    return f" ({what}: {run.stderr_tail})" if run.stderr_tail else f" ({what})"


def play_game(players, grid, types: int, clocks, first: int,
              on_move: Optional[Callable] = None) -> GameResult:
    """Play `grid` out between players[0] and players[1], players[first] moving first,
    each starting with its entry of `clocks` (CPU seconds).
    on_move(player, move, result) is called after every turn, with the result so far."""
    result = GameResult(clocks=list(clocks))
    mover = first
    while not is_empty(grid):
        move = players[mover](grid, types, result.clocks[mover])
        result.clocks[mover] -= move.seconds
        result.moves.append((mover, move))
        # Past its time, what a move wrote no longer counts: an overrun with an empty or
        # garbled output.txt is a time loss, not an invalid move.
        if move.fault != FAULT_TIME and result.clocks[mover] <= 0:
            move = Move(move.seconds, move.name, fault=FAULT_TIME,
                        reason=f"ran out of time: used {move.seconds:.3f} s with "
                               f"{move.seconds + result.clocks[mover]:.3f} s left")
            result.moves[-1] = (mover, move)
        if move.fault is not None:
            result.winner, result.fault, result.reason = 1 - mover, move.fault, move.reason
        else:
            grid = move.grid
            result.scores[mover] += move.points
        if on_move is not None:
            on_move(mover, move, result)
        if move.fault is not None:
            return result
        mover = 1 - mover
    result.winner, result.reason = decide(result.scores, result.clocks)
    return result


def decide(scores, clocks) -> tuple:
    """(winner index or None for a draw, reason) of a board played out."""
    if scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        return winner, f"score {scores[winner]} to {scores[1 - winner]}"
    if clocks[0] != clocks[1]:
        winner = 0 if clocks[0] > clocks[1] else 1
        return winner, (f"tied at {scores[0]}, more time left: {clocks[winner]:.3f} s "
                        f"to {clocks[1 - winner]:.3f} s")
    return None, f"tied at {scores[0]} with equal time left"
