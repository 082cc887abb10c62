"""One game of Fruit Rage between two players, judged as the spec says: each move's time
is charged to the mover's clock, a clock at zero or below loses, an invalid answer loses,
and at the end the higher score wins, equal scores going to the player with more time left.

A player is an in-process Player (`choose(board, clock_left) -> Move`, see agent.players),
charged the CPU its call uses, or one that takes its own turns and charges itself
(`take_turn(board, clock_left) -> Turn`): a program run as its own process per move
(CommandPlayer) or, in `fruit-rage play`, a person at the terminal.
"""

from __future__ import annotations

import datetime
import threading
from dataclasses import dataclass, field
from typing import Callable, Optional

from agent import __version__
from agent.arena.agents import BUILT_IN_NAMES, AgentSpec, agent_spec
from agent.arena.inprocess import timed_choose
from agent.arena.process import MoveRunner
from agent.board import Board, Move
from agent.gamefile import format_input, format_input_seconds, parse_output
from agent.rules import legal_cell, play

RECORD_FORMAT = 2  # 2: "format", "date", "versions", and per move "depth"/"value" when reported
FAULT_TIME = "time"
FAULT_INVALID = "invalid"
SIDES = ("A", "B")
CPU_CLOCK, WALL_CLOCK = "cpu", "wall"  # what a player's clock measures: its CPU, or a person's thinking
DEFAULT_GRACE = 10.0  # wall seconds a move may run past its clock before it is stopped


@dataclass(frozen=True)
class Turn:
    """What a turn produced: a legal move with its next grid, or the fault that loses."""

    seconds: float  # charged to the mover's clock
    name: Optional[str] = None  # the move as the player gave it, e.g. "G8"
    grid: Optional[tuple] = None  # the grid after the move
    points: int = 0
    fault: Optional[str] = None  # FAULT_TIME, FAULT_INVALID or None
    reason: str = ""  # why it loses
    depth: Optional[int] = None  # the player's search depth, when it reports one
    value: Optional[int] = None  # and the value it expected


@dataclass
class GameRecord:
    """A game: who played, the start, every turn, and the result. `to_dict()` is the
    record that `fruit-rage match --out` writes as JSON, one per line."""

    agents: tuple  # the players' names, A then B
    first: str  # "A" or "B"
    board: tuple  # the starting rows
    types: int
    start_clocks: tuple  # A's and B's clocks at the start, CPU seconds
    turns: list = field(default_factory=list)  # (side, Turn), in order
    scores: dict = field(default_factory=lambda: {"A": 0, "B": 0})
    clocks: dict = field(default_factory=dict)  # left at the end (so far, during a game)
    winner: Optional[str] = None  # "A", "B", or None for a draw
    reason: str = ""
    fault: Optional[str] = None  # the loser's fault; None when decided by score
    versions: tuple = (None, None)  # each player's version when it is this project's
    date: str = ""  # when it ended, UTC, ISO 8601
    game: Optional[int] = None  # its number in a match, from 1
    seed: Optional[int] = None  # the seed its board was drawn from
    pair: Optional[int] = None  # the board's number in a paired match
    position: Optional[int] = None  # which of the match's given positions it started from, from 1
    clock_kinds: tuple = (CPU_CLOCK, CPU_CLOCK)  # what A's and B's clocks measure

    @property
    def margin(self) -> int:
        """A's score minus B's."""
        return self.scores["A"] - self.scores["B"]

    def to_dict(self) -> dict:
        """The record as plain values (json.dumps writes it)."""
        record = {
            "format": RECORD_FORMAT,
            "date": self.date,
            "game": self.game,
            "seed": self.seed,
            "size": len(self.board),
            "types": self.types,
            "time": self.start_clocks[0],
            "agents": dict(zip(SIDES, self.agents)),
            "versions": dict(zip(SIDES, self.versions)),
            "first": self.first,
            "board": list(self.board),
            "moves": [_turn_record(side, turn) for side, turn in self.turns],
            "scores": dict(self.scores),
            "clocks": {side: round(clock, 6) for side, clock in self.clocks.items()},
            "winner": self.winner,
            "reason": self.reason,
            "fault": self.fault,
        }
        if self.start_clocks[1] != self.start_clocks[0]:
            record["time_b"] = self.start_clocks[1]
        if self.pair is not None:
            record["pair"] = self.pair
        if self.position is not None:
            record["position"] = self.position
        if self.clock_kinds != (CPU_CLOCK, CPU_CLOCK):  # a person's clock, in `play`
            record["clock"] = dict(zip(SIDES, self.clock_kinds))
        return record

    to_json = to_dict  # its name up to 0.1: it returns a dict, not JSON text


def _turn_record(side: str, turn: Turn) -> dict:
    record = {"player": side, "move": turn.name, "cpu": round(turn.seconds, 6), "points": turn.points}
    if turn.depth is not None:
        record.update(depth=turn.depth, value=turn.value)
    if turn.fault is not None:
        record.update(fault=turn.fault, reason=turn.reason)
    return record


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
        raise ValueError(f"wrong board after {name}: row {row + 1} is {written[row]!r}, should be {expected[row]!r}")
    return name, expected, points


class CommandPlayer:
    """A program in the input.txt/output.txt protocol, run as a fresh process per move
    in a fresh folder, charged the CPU time that process uses. `command` is a built-in
    name (ours, greedy, random, minimax3: the project's own programs) or a shell command.
    ValueError at once when the command surely cannot run."""

    def __init__(
        self,
        command,
        name: Optional[str] = None,
        runner: Optional[MoveRunner] = None,
        grace: float = DEFAULT_GRACE,
        isolate: bool = False,
        side: Optional[str] = None,
    ):
        self.spec = command if isinstance(command, AgentSpec) else agent_spec(command)
        self.name = name or self.spec.label
        self.runner = runner or shared_runner(grace, isolate)
        self.side = side  # its private folder's name; play_game sets it to A or B when None
        self.version = __version__ if self.spec.label in BUILT_IN_NAMES else None  # ours or a baseline

    def choose(self, board: Board, clock_left: float) -> Move:
        """The program's move; RuntimeError saying why when its answer loses the game."""
        turn = self.take_turn(board, clock_left)
        if turn.fault is not None:
            raise RuntimeError(f"{self.name}: {turn.reason}")
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
        if run.killed:
            return Turn(
                run.cpu,
                fault=FAULT_TIME,
                reason=f"killed: still running {self.runner.grace:g} s after its time ran out",
            )
        if run.output is None:
            return Turn(run.cpu, fault=FAULT_INVALID, reason=run.output_problem + _exit_detail(run))
        try:
            name, next_grid, points = check_output(grid, run.output)
        except ValueError as error:
            return Turn(run.cpu, fault=FAULT_INVALID, reason=str(error))
        return Turn(run.cpu, name, next_grid, points)


_shared_runners = {}  # (grace, isolate) -> the MoveRunner this process's CommandPlayers share
_shared_lock = threading.Lock()


def shared_runner(grace: float, isolate: bool = False) -> MoveRunner:
    """The runner of this process's CommandPlayers with that grace and isolation: one
    place that can stop every move they are running (stop_shared_runners)."""
    with _shared_lock:
        runner = _shared_runners.get((grace, isolate))
        if runner is None:
            runner = _shared_runners[grace, isolate] = MoveRunner(grace=grace, isolate=isolate)
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


def take_turn(player, board: Board, clock_left: float, grace: float = DEFAULT_GRACE) -> Turn:
    """`player`'s turn on `board`: through its own take_turn when it charges itself, else
    as an in-process Player (see agent.arena.inprocess)."""
    if hasattr(player, "take_turn"):
        return player.take_turn(board, clock_left)
    answer, cpu, stopped = timed_choose(player, board, clock_left, grace)
    if stopped:
        return Turn(cpu, fault=FAULT_TIME, reason=f"ran out of time: still thinking after {cpu:.3f} s CPU")
    if isinstance(answer, Exception):
        return Turn(cpu, fault=FAULT_INVALID, reason=f"raised {type(answer).__name__}: {answer}"[:300])
    if not isinstance(answer, Move):
        return Turn(cpu, fault=FAULT_INVALID, reason=f"answered {type(answer).__name__} {answer!r:.60}, not a Move")
    try:
        next_board, points = board.play(answer)
    except ValueError as error:
        return Turn(cpu, answer.name, fault=FAULT_INVALID, reason=f"illegal move: {error}")
    report = getattr(player, "last_result", None)
    return Turn(
        cpu,
        answer.name,
        next_board.rows,
        points,
        depth=getattr(report, "depth", None),
        value=getattr(report, "value", None),
    )


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


def play_game(
    player_a,
    player_b,
    board: Board,
    clocks=(300.0, 300.0),
    first: str = "A",
    on_move: Optional[Callable] = None,
    grace: float = DEFAULT_GRACE,
) -> GameRecord:
    """Play `board` out between player_a (side A) and player_b (B), `first` moving first,
    each starting with its entry of `clocks` (CPU seconds). on_move(side, turn, record)
    is called after every turn, with the record so far."""
    if first not in SIDES:
        raise ValueError(f"first must be 'A' or 'B', not {first!r}")
    players = dict(zip(SIDES, (player_a, player_b)))
    for side, player in players.items():
        if isinstance(player, CommandPlayer) and player.side is None:
            player.side = side
    record = GameRecord(
        agents=(_name(player_a), _name(player_b)),
        first=first,
        board=board.rows,
        types=board.types,
        start_clocks=tuple(clocks),
        clocks=dict(zip(SIDES, clocks)),
        versions=(getattr(player_a, "version", None), getattr(player_b, "version", None)),
        clock_kinds=(getattr(player_a, "clock", CPU_CLOCK), getattr(player_b, "clock", CPU_CLOCK)),
    )
    mover = first
    while not board.is_over:
        turn = take_turn(players[mover], board, record.clocks[mover], grace)
        record.clocks[mover] -= turn.seconds
        # Past its time, what a move wrote no longer counts: an overrun with an empty or
        # garbled output.txt is a time loss, not an invalid move.
        if turn.fault != FAULT_TIME and record.clocks[mover] <= 0:
            turn = Turn(
                turn.seconds,
                turn.name,
                fault=FAULT_TIME,
                reason=f"ran out of time: used {turn.seconds:.3f} s with "
                f"{turn.seconds + record.clocks[mover]:.3f} s left",
            )
        record.turns.append((mover, turn))
        if turn.fault is not None:
            record.winner, record.fault, record.reason = _other(mover), turn.fault, turn.reason
        else:
            board = Board(turn.grid, board.types)
            record.scores[mover] += turn.points
        if on_move is not None:
            on_move(mover, turn, record)
        if turn.fault is not None:
            break
        mover = _other(mover)
    else:
        winner, record.reason = decide([record.scores[s] for s in SIDES], [record.clocks[s] for s in SIDES])
        record.winner = None if winner is None else SIDES[winner]
    record.date = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return record


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def _name(player) -> str:
    return str(getattr(player, "name", None) or type(player).__name__)


def decide(scores, clocks) -> tuple:
    """(winner index or None for a draw, reason) of a board played out."""
    if scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        return winner, f"score {scores[winner]} to {scores[1 - winner]}"
    if clocks[0] != clocks[1]:
        winner = 0 if clocks[0] > clocks[1] else 1
        return winner, (f"tied at {scores[0]}, more time left: {clocks[winner]:.3f} s to {clocks[1 - winner]:.3f} s")
    return None, f"tied at {scores[0]} with equal time left"
