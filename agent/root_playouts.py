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
import time

from agent.board import Board, Move
from agent.eval_search import candidates


def rollout_groups(groups: list) -> list:
    """The groups in the order rollouts draw from: by their top-left cell."""
    return sorted(groups, key=min)


def playout(core_board, rng: random.Random, epsilon: float, deadline: float = float("inf")):
    """The margin, for the side to move, of a game played out to its end: each move a
    random group with probability `epsilon`, else a largest group (the first by its
    top-left cell). None if the process's CPU clock passes `deadline` first."""
    margin, sign, position = 0, 1, core_board
    while position.fruit:
        if time.process_time() > deadline:
            return None
        groups = rollout_groups(position.groups())
        cells = rng.choice(groups) if rng.random() < epsilon else max(groups, key=len)
        position, points = position.play(cells[0])
        margin += sign * points
        sign = -sign
    return margin


class RootPlayoutPlayer:
    """The agent, except while at least `1 - opening` of a full board's fruit is left:
    then its move and the best `top - 1` other candidates (by points minus the greedy
    pair they leave) get up to `playouts` epsilon-greedy playouts each, in rounds, within
    `cpu_share` of the clock left, and the best mean wins (the agent's move on ties, or
    when no playout of it finished). The playouts are seeded by the position."""

    def __init__(
        self,
        top: int = 4,
        playouts: int = 8,
        epsilon: float = 0.25,
        opening: float = 0.1,
        cpu_share: float = 0.05,
    ):
        if not (isinstance(top, int) and top >= 1 and isinstance(playouts, int) and playouts >= 1):
            raise ValueError(f"top and playouts must be whole numbers >= 1, not {top!r} and {playouts!r}")
        if not 0 <= epsilon <= 1 or not 0 <= opening <= 1 or not 0 <= cpu_share < 1:
            raise ValueError(
                f"epsilon, opening and cpu_share are shares from 0 to 1, not {epsilon!r}, {opening!r} and {cpu_share!r}"
            )
        self.top, self.playouts, self.epsilon, self.opening, self.cpu_share = top, playouts, epsilon, opening, cpu_share
        self.name = f"ours+playouts(top={top},n={playouts},eps={epsilon:g},opening={opening:g},cpu={cpu_share:g})"

    def choose(self, board: Board, clock_left: float) -> Move:
        from agent.players import SearchPlayer

        if board.fruit < (1 - self.opening) * board.size**2 or self.top == 1:
            return board.normalize(SearchPlayer().choose(board, clock_left))
        budget = self.cpu_share * clock_left
        move = board.normalize(SearchPlayer().choose(board, clock_left - budget))
        return self.best_by_playouts(board, move, time.process_time() + budget)

    def best_by_playouts(self, board: Board, move: Move, deadline: float = float("inf")) -> Move:
        """The best of `move` and the other candidates by mean playout margin, over the
        playouts that finished before the CPU clock's `deadline`."""
        core = board.core()
        rng = random.Random("\n".join(board.rows))
        others = [
            (cell, child, points)
            for cell, child, points in candidates(core, self.top)
            if board.normalize(Move(*cell)) != move
        ][: self.top - 1]
        options = [(move.cell, *core.play(move.cell)), *others]
        totals, counts = self.play_out_in_rounds([child for _, child, _ in options], rng, deadline)
        best, best_score = move, None
        for (cell, _, points), total, count in zip(options, totals, counts):
            if count == 0:
                break  # options are played out in order: none after this one finished either
            score = points - total / count
            if best_score is None or score > best_score:
                best, best_score = board.normalize(Move(*cell)), score
        return best

    def play_out_in_rounds(self, children: list, rng: random.Random, deadline: float) -> tuple:
        """(sum of margins, playouts finished) for each child: a playout of each in turn,
        `playouts` rounds, until the CPU clock passes `deadline`."""
        totals, counts = [0] * len(children), [0] * len(children)
        for _ in range(self.playouts):
            for i, child in enumerate(children):
                margin = playout(child, rng, self.epsilon, deadline)
                if margin is None:
                    return totals, counts
                totals[i] += margin
                counts[i] += 1
        return totals, counts
