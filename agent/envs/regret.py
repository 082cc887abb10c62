"""Every move scored against perfect play: the exact value of a position, each move's
regret, and a whole policy's mean regret over many boards.

>>> from agent import Board, Move
>>> from agent.envs.regret import exact_value, regrets
>>> board = Board(["001", "122", "112"])
>>> exact_value(board)  # the mover's margin over the rest of the game with best play
3
>>> {move.name: regret for move, regret in regrets(board).items()}
{'A1': 0, 'C1': 6, 'B2': 6, 'A3': 0}

A move's regret is the points it gives up against the best move: the position's exact
value less the move's (its points minus the exact value of the position after it, to the
other player), in the mover's margin; 0 for a best move. Values come from the agent's
search to the end of the game, which finishes in milliseconds on 5x5 boards, in under a
second on most 6x6 boards, and in a median of about half a second (on an AMD EPYC host) on
the agent's own 26x26 endgames of 24 to 31 groups; a position it does not finish within
`cpu` seconds raises TimeoutError.

This module needs no third-party library.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from agent.board import Board, Move
from agent.engine import SearchResult, solve
from agent.players import Player

# Seconds of CPU an exact value may take before TimeoutError.
DEFAULT_CPU = 60.0
# The clock a scored player is told it has left at every move.
DEFAULT_CLOCK = 10.0
# The solver's table: 2**18 entries are plenty for the boards these searches finish on.
TABLE_BITS = 18


def exact_value(board: Board, cpu: float = DEFAULT_CPU) -> int:
    """The margin the player to move makes over the rest of the game with best play by
    both (0 on an empty board). TimeoutError when the search to the end takes more than
    `cpu` seconds of CPU."""
    return 0 if board.is_over else _solved(board, cpu).value


def perfect_move(board: Board, cpu: float = DEFAULT_CPU) -> Move:
    """A best move of `board` (one whose regret is 0), as the search to the end finds it."""
    if board.is_over:
        raise ValueError("the board is empty: there is no move to make")
    return _solved(board, cpu).move


def _solved(board: Board, cpu: float) -> SearchResult[Move]:
    """agent.engine.solve's result for `board`; TimeoutError past `cpu` seconds of CPU."""
    solved = solve(board, cpu=cpu, tt_bits=TABLE_BITS)
    if solved is None:
        raise TimeoutError(f"no exact value within {cpu:g} s of CPU for the {board.size}x{board.size} board {board}")
    return solved


class PerfectPlayer:
    """A player (agent.Player) that plays a best move every time: its regret is 0."""

    name = "perfect"

    def __init__(self, cpu: float = DEFAULT_CPU) -> None:
        self.cpu = cpu

    def choose(self, board: Board, clock_left: float) -> Move:
        return perfect_move(board, self.cpu)


def move_value(board: Board, move: Move, cpu: float = DEFAULT_CPU) -> int:
    """The mover's margin over the rest of the game when it plays `move` on `board` and
    both play perfectly after it."""
    after, points = board.play(move)
    return points - exact_value(after, cpu)


def regrets(board: Board, cpu: float = DEFAULT_CPU) -> dict[Move, int]:
    """Every legal move of `board` (as Board.legal_moves names it) with its regret: the
    best move's value less its own."""
    values = {move: move_value(board, move, cpu) for move in board.legal_moves()}
    best = max(values.values())
    return {move: best - value for move, value in values.items()}


def move_regret(board: Board, move: Move, cpu: float = DEFAULT_CPU) -> int:
    """The regret of playing `move` on `board` (any cell of a group plays it)."""
    return exact_value(board, cpu) - move_value(board, move, cpu)


@dataclass(frozen=True)
class PolicyScore:
    """A policy's moves scored against perfect play: how many, their regrets added up,
    how many were perfect (regret 0), and of the moves whose own search the player proved
    exact (an agent.SearchPlayer's ``last_result.exact``), how many and their regret."""

    name: str
    moves: int
    total_regret: int
    perfect_moves: int
    solved_moves: int
    solved_regret: int

    @property
    def mean_regret(self) -> float:
        """Points given up a move, on average."""
        return self.total_regret / self.moves

    @property
    def perfect_share(self) -> float:
        """The share of moves that were a best move."""
        return self.perfect_moves / self.moves


def score_policy(
    player: Player,
    boards: Iterable[Board],
    clock: float = DEFAULT_CLOCK,
    cpu: float = DEFAULT_CPU,
    progress: Optional[Callable[[int], None]] = None,
) -> PolicyScore:
    """`player` plays both sides of a game on each of `boards`, told it has `clock`
    seconds left at every move, and every move is scored against perfect play.
    `progress(games)` is called after each game."""
    moves = total = perfect = solved = solved_total = 0
    for games, board in enumerate(boards, start=1):
        value = exact_value(board, cpu)
        while not board.is_over:
            move = player.choose(board, clock)
            board, points = board.play(move)
            after = exact_value(board, cpu)
            regret = value - (points - after)
            moves, total, perfect = moves + 1, total + regret, perfect + (regret == 0)
            result = getattr(player, "last_result", None)
            if getattr(result, "exact", False):
                solved, solved_total = solved + 1, solved_total + regret
            value = after
        if progress is not None:
            progress(games)
    if moves == 0:
        raise ValueError("no board to score the policy on")
    return PolicyScore(getattr(player, "name", type(player).__name__), moves, total, perfect, solved, solved_total)
