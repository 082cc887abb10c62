"""Searching a position from Python: `search(board, Limit(...)) -> SearchResult`, the
class the competition move's deepening returns too (agent.move), here with each
move a Move; and `solve(board)`, the one search to the end that an exact value needs.

>>> from agent import Board, Limit, search
>>> result = search(Board(["001", "122", "112"]), Limit(depth=9))
>>> result.exact, result.value, result.move.name
(True, 3, 'A1')
>>> [move.name for move in result.pv]
['A1', 'A3', 'B3', 'C3']
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from agent.board import Board, Move
from agent.move import IterationInfo as IterationInfo
from agent.move import SearchResult as SearchResult

if TYPE_CHECKING:
    from agent.move.timing import TimeManager


@dataclass(frozen=True)
class Limit:
    """How long a search may run: at most `cpu` seconds of process CPU time, to `depth`
    plies, or until the iteration during which it has visited `nodes` nodes; whichever
    comes first. Depth and nodes give the same search on any machine."""

    cpu: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None

    def __post_init__(self) -> None:
        if self.cpu is None and self.depth is None and self.nodes is None:
            raise ValueError("a Limit needs cpu, depth or nodes")
        if self.cpu is not None and not (self.cpu > 0 and math.isfinite(self.cpu)):
            raise ValueError(f"Limit.cpu must be a positive number of seconds, not {self.cpu!r}")
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, int) and value >= 1):
                raise ValueError(f"Limit.{name} must be a whole number >= 1, not {value!r}")


def search(
    board: Board,
    limit: Limit,
    *,
    opponent: str = "best",
    evaluation: Optional[str] = None,
    core_options: Optional[dict[str, Any]] = None,
) -> SearchResult[Move]:
    """The agent's search of `board` within `limit`. `opponent="greedy"` searches as if
    the opponent always took a largest group (see `fruit-rage move --opponent`);
    `evaluation` names the horizon's evaluation (agent.move.deepening.EVALUATION_KINDS; None:
    the agent's own); `core_options`: more agent._core.Searcher options, for research
    (e.g. reduction)."""
    from agent.move.timing import TimeManager

    now = time.process_time()
    end = now + limit.cpu if limit.cpu is not None else math.inf
    return run_search(
        board,
        lambda root_moves, speed, reduction: TimeManager.until(now, end, root_moves, speed, reduction, board.size),
        opponent=opponent,
        evaluation=evaluation,
        core_options=core_options,
        max_depth=limit.depth,
        max_nodes=limit.nodes,
        tt_bits=None if limit.cpu is not None else 20,
    )


def run_search(
    board: Board,
    time_manager: Callable[[int, float, int], TimeManager],
    *,
    opponent: str = "best",
    evaluation: Optional[str] = None,
    core_options: Optional[dict[str, Any]] = None,
    max_depth: Optional[int] = None,
    max_nodes: Optional[int] = None,
    tt_bits: Optional[int] = None,
) -> SearchResult[Move]:
    """`search` under a time policy: `time_manager(root_moves, nodes_per_second,
    reduction)` makes the move's agent.move.timing.TimeManager; `tt_bits` None: the table the
    manager sizes; `core_options` are added to the searcher's options."""
    from agent.move.calibration import DEFAULT_NODES_PER_SECOND
    from agent.move.deepening import search_options, think

    if board.is_over:
        raise ValueError("the board is empty: there is no move to search")
    options = {**search_options(board.size, opponent == "greedy", evaluation), **(core_options or {})}
    core = board.core()
    manager = time_manager(core.group_count(), DEFAULT_NODES_PER_SECOND, options.get("reduction", 0))
    return think(
        core,
        manager,
        tt_bits=manager.table_bits(time.process_time()) if tt_bits is None else tt_bits,
        searcher_options=options,
        max_depth=max_depth,
        max_nodes=max_nodes,
        principal_variation=True,
    ).with_moves(Move.from_cell)


SOLVE_TABLE_BITS = 22  # 64 MiB: room for the nodes of the solves the reviews allow
NO_DEADLINE = 1e300  # agent._core.Searcher.search's default: no CPU cap


def solve(
    board: Board, *, cpu: Optional[float] = None, max_nodes: Optional[int] = None, tt_bits: int = SOLVE_TABLE_BITS
) -> Optional[SearchResult[Move]]:
    """The exact value of `board` and a best move, from one search to the end of the game
    (a full window, the core's defaults, no deepening), or None when it takes more than
    `cpu` seconds of CPU (counted once its table of 2**`tt_bits` entries is allocated) or
    `max_nodes` nodes. `search` deepens under the agent's options and a clock; a solve is
    the least work an exact value needs, given up at a cap: what the reviews and the
    regret oracle ask for. ValueError on an empty board (its value is 0, with no move)."""
    if board.is_over:
        raise ValueError("the board is empty: its value is 0 and it has no move")
    from agent._core import Searcher

    searcher = Searcher(board.core(), tt_bits=tt_bits)
    start = time.process_time()
    found = searcher.search(board.fruit, deadline=NO_DEADLINE if cpu is None else start + cpu, max_nodes=max_nodes or 0)
    if not (found.completed and found.exact):
        return None
    assert found.move is not None  # an exact search of a board with fruit has a move
    move = Move(*found.move)
    depth = IterationInfo(board.fruit, found.value, move, True, found.nodes, time.process_time() - start, True)
    hit_rate = found.tt_hits / found.tt_probes if found.tt_probes else 0.0
    return SearchResult(move, found.value, board.fruit, True, found.nodes, (move,), (depth,), hit_rate)
