"""Monte Carlo playouts at the root: in the opening, the agent's move and the next few
candidates are each played out to the end of the game several times with
epsilon-greedy rollouts, and the move with the best mean margin is played. Past the
opening the agent plays as it is. A search idea tried in Python before the core.

>>> from agent import Board
>>> board = Board(["001", "122", "112"])
>>> playout(board.core(), random.Random(1), epsilon=0.0)   # largest groups: 9 - 9 + 4 - 1
3
"""

from __future__ import annotations

import random

from agent.board import Board, Move
from agent.eval_search import candidates


def rollout_groups(groups: list) -> list:
    """The groups in the order rollouts draw from: by their top-left cell."""
    return sorted(groups, key=min)


def playout(core_board, rng: random.Random, epsilon: float) -> int:
    """The margin, for the side to move, of a game played out to its end: each move a
    random group with probability `epsilon`, else a largest group (the first by its
    top-left cell)."""
    margin, sign, position = 0, 1, core_board
    while position.fruit:
        groups = rollout_groups(position.groups())
        cells = rng.choice(groups) if rng.random() < epsilon else max(groups, key=len)
        position, points = position.play(cells[0])
        margin += sign * points
        sign = -sign
    return margin


class RootPlayoutPlayer:
    """The agent, except while at least `1 - opening` of a full board's fruit is left:
    then its move and the best `top - 1` other candidates (by points minus the greedy
    pair they leave) get `playouts` epsilon-greedy playouts each, and the best mean wins
    (the agent's move on ties). The playouts are seeded by the position."""

    def __init__(self, top: int = 4, playouts: int = 8, epsilon: float = 0.25, opening: float = 0.1):
        if not (isinstance(top, int) and top >= 1 and isinstance(playouts, int) and playouts >= 1):
            raise ValueError(f"top and playouts must be whole numbers >= 1, not {top!r} and {playouts!r}")
        if not 0 <= epsilon <= 1 or not 0 <= opening <= 1:
            raise ValueError(f"epsilon and opening are shares from 0 to 1, not {epsilon!r} and {opening!r}")
        self.top, self.playouts, self.epsilon, self.opening = top, playouts, epsilon, opening
        self.name = f"ours+playouts(top={top},n={playouts},eps={epsilon:g},opening={opening:g})"

    def choose(self, board: Board, clock_left: float) -> Move:
        from agent.players import SearchPlayer

        move = board.normalize(SearchPlayer().choose(board, clock_left))
        if board.fruit < (1 - self.opening) * board.size**2 or self.top == 1:
            return move
        return self.best_by_playouts(board, move)

    def best_by_playouts(self, board: Board, move: Move) -> Move:
        """The best of `move` and the other candidates by mean playout margin."""
        core = board.core()
        rng = random.Random("\n".join(board.rows))
        others = [
            (cell, child, points)
            for cell, child, points in candidates(core, self.top)
            if board.normalize(Move(*cell)) != move
        ][: self.top - 1]
        options = [(move.cell, *core.play(move.cell)), *others]
        best, best_score = move, None
        for cell, child, points in options:
            score = points - sum(playout(child, rng, self.epsilon) for _ in range(self.playouts)) / self.playouts
            if best_score is None or score > best_score:
                best, best_score = board.normalize(Move(*cell)), score
        return best
