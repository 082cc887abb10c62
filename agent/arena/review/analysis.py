"""Move-by-move analysis of a recorded game: for every move, the move the agent's search
finds best in its position and that position's value, the value of the move played, and
the points the move gave away against the best; a label from those points, and per side
the points given away in all and an accuracy figure. `fruit-rage analyse` prints it and the
browser page shows it; both call analyse_game.

Every position is searched under the same node budget, so the figures are the same on any
machine. From the end of the game back, each position is solved exactly by the core's
search to the end, as long as a solve fits in SOLVE_FACTOR times the budget (a solve that
does not fit happens once a game); the positions before the first one that does not get
the agent's iterative deepening under the budget (agent.engine.Limit(nodes=...)), whose
value is an estimate unless it too reached the end.

A position's value is the margin its mover can expect over the rest of the game. A move
played is worth its points less the value of the position it leaves (the opponent's), and
gives away what the position's value exceeds that; a move that takes the group the search
chose is worth the position's value and gives nothing away. A move found worth more than
the position's estimate (the search from the position it leaves looks a ply deeper) is the
best move known there, and gives nothing away either."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable, Optional

from agent.arena.review.replayed import game_positions
from agent.arena.review.searches import PositionValue, search_position, solve
from agent.board import Board, Move

DEFAULT_NODES = 200_000
SOLVE_FACTOR = 10
# The labels by points given away, the worst first: a move is the first one whose floor it
# reaches; below them all it is "good", and "best" when it gives nothing away.
LABEL_FLOORS = (("blunder", 30), ("mistake", 10), ("inaccuracy", 3))
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
EXACT_MARK = "*"  # follows a move's values when its searches reached the end of the game (CLI and page)
_FLOORS_TEXT = [f"{'an' if name[0] in 'aeiou' else 'a'} {name} from {floor}" for name, floor in LABEL_FLOORS[::-1]]
# Every label defined, for the help, the README and the page's legend alike.
THRESHOLDS_TEXT = (
    f"a move is best when it gives nothing away, good when it gives away fewer than {LABEL_FLOORS[-1][1]} points, "
    f"{_FLOORS_TEXT[0]} points given away, {', '.join(_FLOORS_TEXT[1:])}; "
    "accuracy is a side's points as a share of its points plus the points it gave away"
)


class AnalysisCancelled(Exception):
    """The caller asked the analysis to stop."""


@dataclass(frozen=True)
class MoveAnalysis:
    number: int  # from 1, as `replay` counts
    side: str  # "A" or "B"
    move: str  # as recorded
    points: int  # what it scored
    best_move: str  # the agent's choice; the move as played when it takes that group or does better
    best_value: int  # the position's value for the mover, with the best move
    played_value: int  # the value of the move played, for the mover
    points_lost: int  # best_value - played_value, never below 0
    label: str  # one of LABELS
    exact: bool  # both values come from searches that reached the end of the game

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class SideSummary:
    agent: str
    moves: int
    points: int  # scored with the moves analysed
    points_lost: int
    accuracy: Optional[float]  # percent; None when the side scored and lost nothing
    labels: dict  # label -> how many of its moves have it

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class GameAnalysis:
    game: int
    size: int
    types: int
    agents: dict  # {"A": name, "B": name}
    scores: dict
    nodes: int  # the search's node budget per position
    moves: tuple  # MoveAnalysis, one per legal move
    sides: dict  # "A"/"B" -> SideSummary
    hints: dict  # side -> hints taken in the game (the browser page records them)

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "size": self.size,
            "types": self.types,
            "agents": dict(self.agents),
            "scores": dict(self.scores),
            "nodes": self.nodes,
            "hints": dict(self.hints),
            "moves": [move.to_dict() for move in self.moves],
            "sides": {side: summary.to_dict() for side, summary in self.sides.items()},
        }


def label(points_lost: int) -> str:
    for name, floor in LABEL_FLOORS:
        if points_lost >= floor:
            return name
    return "good" if points_lost else "best"


def solve_position(board: Board, nodes: int) -> Optional[PositionValue]:
    """The exact value of `board` and a best move, or None when solving it takes more than
    about SOLVE_FACTOR * `nodes` nodes. The value of an empty board is 0."""
    return solve(board, max_nodes=SOLVE_FACTOR * nodes)


def analyse_game(
    record: dict,
    nodes: int = DEFAULT_NODES,
    progress: Optional[Callable[[int, int], None]] = None,
    cancelled: Optional[Callable[[], bool]] = None,
) -> GameAnalysis:
    """The analysis of a checked record (agent.arena.records.reading) with `nodes` nodes a
    position. `progress(done, total)` is called as the positions are searched, the last
    first; AnalysisCancelled as soon as `cancelled()` says so between two searches."""
    positions = game_positions(record)
    total = len(positions)
    values: dict[int, PositionValue] = {}  # by position, filled the last first
    solving = True  # until a solve fails: an earlier, larger position would fail too
    for done, index in enumerate(reversed(range(total))):
        if cancelled is not None and cancelled():
            raise AnalysisCancelled("the analysis was cancelled")
        if progress is not None:
            progress(done, total)
        board = positions[index].board
        value = solve_position(board, nodes) if solving else None
        if value is None:
            solving = False
            value = search_position(board, nodes)
        values[index] = value
    if progress is not None:
        progress(total, total)
    judged = []
    for number, (side, board, name, points) in enumerate(positions[:-1], 1):
        assert name is not None  # every position but the last has its move
        judged.append(_judge(number, side, board, name, points, values[number - 1], values[number]))
    moves = tuple(judged)
    return GameAnalysis(
        game=record["game"],
        size=record["size"],
        types=record["types"],
        agents=dict(record["agents"]),
        scores=dict(record["scores"]),
        nodes=nodes,
        moves=moves,
        sides={side: _summary(record["agents"][side], [m for m in moves if m.side == side]) for side in "AB"},
        hints=_hints(record),
    )


def _judge(number: int, side: str, board: Board, name: str, points: int, here: PositionValue, after: PositionValue):
    assert here.move is not None  # a position with a move played has a best move
    if Move.from_name(name).cell in board.group_at(here.move).cells:  # the best group, named as played
        best, best_value, played_value, exact = name, here.value, here.value, here.exact
    else:
        best, best_value = here.move.name, here.value
        played_value, exact = points - after.value, here.exact and after.exact
        if played_value > best_value:  # the played move, searched a ply deeper, does better: it is the best known
            best, best_value = name, played_value
    lost = best_value - played_value
    return MoveAnalysis(number, side, name, points, best, best_value, played_value, lost, label(lost), exact)


def _summary(agent: str, moves: list) -> SideSummary:
    points = sum(move.points for move in moves)
    lost = sum(move.points_lost for move in moves)
    counts = {name: sum(move.label == name for move in moves) for name in LABELS}
    accuracy = round(100 * points / (points + lost), 1) if points + lost else None
    return SideSummary(agent, len(moves), points, lost, accuracy, counts)


def _hints(record: dict) -> dict:
    """The hints each side took, as the page records them (checked by check_record)."""
    return {side: count for side, count in record.get("hints", {}).items() if count}
