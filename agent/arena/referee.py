"""One game of Fruit Rage between two players, judged as the spec says: each move's time
is charged to the mover's clock, a clock at zero or below loses, an invalid answer loses,
and at the end the higher score wins, equal scores going to the player with more time left.

A player is an in-process Player (`choose(board, clock_left) -> Move`, see agent.players),
charged the CPU its call uses, or one that takes its own turns and charges itself
(`take_turn(board, clock_left) -> Turn`): a program run as its own process per move
(CommandPlayer) or, in `fruit-rage play`, a person at the terminal. What a move is charged
and when it is stopped is the referee's clock rule (agent.arena.processes.referee_clock).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Sequence, Union

from agent.arena.command_player import CommandPlayer
from agent.arena.inprocess import timed_choose
from agent.arena.processes.referee_clock import COMPETITION_CLOCK, CPU_CLOCK, DEFAULT_GRACE, RefereeClock
from agent.arena.turns import FAULT_INVALID, FAULT_TIME, Turn
from agent.board import Board, Move
from agent.players import what_was_raised
from agent.rules import is_empty

if TYPE_CHECKING:
    from agent.players import Player

# A person against the agent (`fruit-rage play`, the browser page): the person's clock, the
# wall time they think, and the agent's, CPU. The same two everywhere.
PERSON_CLOCK, AGENT_CLOCK = 120.0, 30.0
RECORD_FORMAT = 2  # 2: "format", "date", "versions", and per move "depth"/"value" when reported
SIDES = ("A", "B")


class SelfTimedPlayer(Protocol):
    """A player that plays and charges its own turns (a CommandPlayer, `play`'s human)."""

    name: str

    def take_turn(self, board: Board, clock_left: float, /) -> Turn: ...


@dataclass
class GameRecord:
    """A game: who played, the start, every turn, and the result. `to_dict()` is the
    record that `fruit-rage match --out` writes as JSON, one per line."""

    agents: tuple[str, str]  # the players' names, A then B
    first: str  # "A" or "B"
    board: tuple[str, ...]  # the starting rows
    types: int
    start_clocks: tuple[float, ...]  # A's and B's clocks at the start, CPU seconds
    turns: list[tuple[str, Turn]] = field(default_factory=list)  # (side, Turn), in order
    scores: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    clocks: dict[str, float] = field(default_factory=dict)  # left at the end (so far, during a game)
    winner: Optional[str] = None  # "A", "B", or None for a draw
    reason: str = ""
    fault: Optional[str] = None  # the loser's fault; None when decided by score
    versions: tuple[Optional[str], Optional[str]] = (None, None)  # each player's version when it is this project's
    date: str = ""  # when it ended, UTC, ISO 8601
    game: Optional[int] = None  # its number in a match, from 1
    seed: Optional[int] = None  # the seed its board was drawn from
    pair: Optional[int] = None  # the board's number in a paired match
    position: Optional[int] = None  # which of the match's given positions it started from, from 1
    clock_kinds: tuple[str, str] = (CPU_CLOCK, CPU_CLOCK)  # what A's and B's clocks measure

    @property
    def margin(self) -> int:
        """A's score minus B's."""
        return self.scores["A"] - self.scores["B"]

    def to_dict(self) -> dict[str, Any]:
        """The record as plain values (json.dumps writes it)."""
        record: dict[str, Any] = {
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
        if self.clock_kinds != (CPU_CLOCK, CPU_CLOCK):  # a person's clock, in `play`; --clock wall
            record["clock"] = dict(zip(SIDES, self.clock_kinds))
        return record

    to_json = to_dict  # its name up to 0.1: it returns a dict, not JSON text


def _turn_record(side: str, turn: Turn) -> dict[str, Any]:
    record: dict[str, Any] = {"player": side, "move": turn.name, "cpu": round(turn.seconds, 6), "points": turn.points}
    if turn.depth is not None:
        record.update(depth=turn.depth, value=turn.value)
    if turn.fault is not None:
        record.update(fault=turn.fault, reason=turn.reason)
    return record


def take_turn(
    player: Union[Player, SelfTimedPlayer], board: Board, clock_left: float, clock: RefereeClock = COMPETITION_CLOCK
) -> Turn:
    """`player`'s turn on `board`: through its own take_turn when it charges itself, else
    as an in-process Player (see agent.arena.inprocess) under the `clock` rule."""
    if hasattr(player, "take_turn"):
        turn: Turn = player.take_turn(board, clock_left)
        return turn
    answer, cpu, stopped = timed_choose(player, board, clock_left, clock)
    if stopped is not None:
        return Turn(cpu, fault=stopped.verdict, reason=stopped.reason(cpu))
    if isinstance(answer, SystemExit):
        return Turn(cpu, fault=FAULT_INVALID, reason=f"tried to end its process: SystemExit({answer.code!r:.60})")
    if isinstance(answer, BaseException):
        return Turn(cpu, fault=FAULT_INVALID, reason=f"raised {what_was_raised(answer)}"[:300])
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


def play_game(
    player_a: Union[Player, SelfTimedPlayer],
    player_b: Union[Player, SelfTimedPlayer],
    board: Board,
    clocks: Sequence[float] = (300.0, 300.0),
    first: str = "A",
    on_move: Optional[Callable[[str, Turn, GameRecord], None]] = None,
    grace: float = DEFAULT_GRACE,
    on_start: Optional[Callable[[GameRecord], None]] = None,
    clock: str = CPU_CLOCK,
) -> GameRecord:
    """Play `board` out between player_a (side A) and player_b (B), `first` moving first,
    each starting with its entry of `clocks` (CPU seconds; wall seconds for in-process
    players under clock=WALL_CLOCK). A move that asks for no CPU for `grace` seconds more
    than its clock is stopped by the watchdog (agent.arena.processes.referee_clock). on_start(record)
    is called before the first turn and on_move(side, turn, record) after every turn, with
    the record so far."""
    return play_refereed_game(player_a, player_b, board, RefereeClock(clock, grace), clocks, first, on_move, on_start)


def play_refereed_game(
    player_a: Union[Player, SelfTimedPlayer],
    player_b: Union[Player, SelfTimedPlayer],
    board: Board,
    rule: RefereeClock,
    clocks: Sequence[float] = (300.0, 300.0),
    first: str = "A",
    on_move: Optional[Callable[[str, Turn, GameRecord], None]] = None,
    on_start: Optional[Callable[[GameRecord], None]] = None,
) -> GameRecord:
    """play_game under the clock rule `rule`."""
    if first not in SIDES:
        raise ValueError(f"first must be 'A' or 'B', not {first!r}")
    players = dict(zip(SIDES, (player_a, player_b)))
    for side, player in players.items():
        if isinstance(player, CommandPlayer) and player.side is None:
            player.side = side
    record = GameRecord(
        agents=(player_name(player_a), player_name(player_b)),
        first=first,
        board=board.rows,
        types=board.types,
        start_clocks=tuple(clocks),
        clocks=dict(zip(SIDES, clocks)),
        versions=(getattr(player_a, "version", None), getattr(player_b, "version", None)),
        clock_kinds=(getattr(player_a, "clock", rule.kind), getattr(player_b, "clock", rule.kind)),
    )
    if on_start is not None:
        on_start(record)
    mover = first
    while not board.is_over:
        turn = take_turn(players[mover], board, record.clocks[mover], rule)
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
            assert turn.grid is not None  # a turn without a fault has the grid after it
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
    record.date = _now()
    return record


def lost_by_the_mover(record: GameRecord, reason: str, fault: str = FAULT_INVALID) -> GameRecord:
    """The game so far (`record`, as on_move last saw it) ended for the side to move, whose
    process ended in the middle of its turn (or was ended, `fault` FAULT_TIME, for running
    past its clock): that side loses, `reason` recorded; or, when the board was already
    played out, the scores decide."""
    mover = _other(record.turns[-1][0]) if record.turns else record.first
    grid = record.turns[-1][1].grid if record.turns else None  # None after a faulted turn
    if grid is not None and is_empty(grid):
        winner, record.reason = decide([record.scores[s] for s in SIDES], [record.clocks[s] for s in SIDES])
        record.winner = None if winner is None else SIDES[winner]
    else:
        record.turns.append((mover, Turn(0.0, fault=fault, reason=reason)))
        record.winner, record.fault, record.reason = _other(mover), fault, reason
    record.date = _now()
    return record


def _now() -> str:
    """UTC, ISO 8601, to the second: when a game ended."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def player_name(player: object) -> str:
    """The name a game's record gives `player`: its own name, else its class's."""
    return str(getattr(player, "name", None) or type(player).__name__)


def decide(scores: Sequence[int], clocks: Sequence[float]) -> tuple[Optional[int], str]:
    """(winner index or None for a draw, reason) of a board played out."""
    if scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        return winner, f"score {scores[winner]} to {scores[1 - winner]}"
    if clocks[0] != clocks[1]:
        winner = 0 if clocks[0] > clocks[1] else 1
        return winner, (f"tied at {scores[0]}, more time left: {clocks[winner]:.3f} s to {clocks[1 - winner]:.3f} s")
    return None, f"tied at {scores[0]} with equal time left"
