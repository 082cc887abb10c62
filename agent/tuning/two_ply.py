"""A two-ply search in Python over the core, with a chosen evaluation at its leaves: a
way to measure what an evaluation is worth in play before anyone writes it in the core.

Both plies look at the same few moves whatever the evaluation (the `width` best by
points minus the greedy-pair value of the position they leave), so two of these players
differ only in how they judge the positions two plies on.

>>> from agent import Board
>>> player = greedy_pair_player(width=4)
>>> player.choose(Board(["001", "122", "112"]), 10.0).name
'A1'
"""

from __future__ import annotations

import math

from agent.board import Board, Move

# Below this many seconds on its clock the player takes its first candidate unsearched.
LOW_CLOCK = 0.5


def greedy_pair(core_board) -> int:
    """The mover takes the largest group, the opponent the next (rules.greedy_pair_value,
    from the core's groups)."""
    sizes = sorted((len(cells) for cells in core_board.groups()), reverse=True) + [0, 0]
    return sizes[0] ** 2 - sizes[1] ** 2


def greedy_exchange(core_board) -> int:
    """The mover takes a largest group, the opponent the largest group that leaves
    (agent.rules.greedy_exchange_value, from the core's groups)."""
    from agent.tuning.fast_features import greedy_exchange as exchange

    groups = core_board.groups()
    return exchange(core_board, groups, max((len(cells) for cells in groups), default=0))


def candidates(core_board, width: int) -> list:
    """[(cell, child core board, points)] for the `width` moves of highest points minus
    the greedy-pair value of the position they leave (ties in the core's group order)."""
    scored = []
    for cells in core_board.groups():
        child, points = core_board.play(cells[0])
        scored.append((points - greedy_pair(child), cells[0], child, points))
    scored.sort(key=lambda entry: -entry[0])
    return [(cell, child, points) for _, cell, child, points in scored[:width]]


class TwoPlyPlayer:
    """Negamax over two plies of `width` candidates each, `evaluate(core board)` at the
    leaves (the mover's expected margin to come), alpha-beta at the reply ply."""

    def __init__(self, evaluate, width: int = 8, name: str = "two-ply"):
        if not (isinstance(width, int) and width >= 1):
            raise ValueError(f"width must be a whole number >= 1, not {width!r}")
        self.evaluate = evaluate
        self.width = width
        self.name = name

    def choose(self, board: Board, clock_left: float) -> Move:
        width = 1 if clock_left < LOW_CLOCK else self.width
        return board.normalize(Move(*self.best(board.core(), width)[1]))

    def best(self, core_board, width: int) -> tuple:
        """(value, cell) of the best candidate of `core_board` searched two plies deep;
        a lone candidate is not searched (its value is then None)."""
        root = candidates(core_board, width)
        if len(root) == 1:
            return None, root[0][0]
        best_value, best_cell = -math.inf, None
        for cell, child, points in root:
            value = points - self.reply_value(child, points - best_value)
            if value > best_value:
                best_value, best_cell = value, cell
        return best_value, best_cell

    def reply_value(self, position, enough: float) -> float:
        """The opponent's best over its candidates in `position`, stopping once it reaches
        `enough` (the root move is then no better than the best one found)."""
        if position.fruit == 0:
            return 0
        best = -math.inf
        for _, leaf, points in candidates(position, self.width):
            best = max(best, points - (self.evaluate(leaf) if leaf.fruit else 0))
            if best >= enough:
                break
        return best


def greedy_pair_player(width: int = 8) -> TwoPlyPlayer:
    """The two-ply search with the evaluation the agent's search uses now."""
    return TwoPlyPlayer(greedy_pair, width, f"two-ply(greedy-pair,w={width})")


def greedy_exchange_player(width: int = 8) -> TwoPlyPlayer:
    """The two-ply search with the greedy exchange at its leaves: the greedy pair with the
    merges that taking the largest group makes."""
    return TwoPlyPlayer(greedy_exchange, width, f"two-ply(greedy-exchange,w={width})")


def fitted_player(weights: str, width: int = 8, as_core: bool = False) -> TwoPlyPlayer:
    """The two-ply search with the evaluation of a `fruit-rage tune-eval` weights file;
    `as_core`: rounded to a whole number and never below 0, as the core's evaluations
    must be (its frontier pruning relies on values >= 0)."""
    from agent.tuning.fit import FittedEvaluation

    evaluation = FittedEvaluation.load(weights)
    if as_core:
        return TwoPlyPlayer(lambda board: max(0, round(evaluation(board))), width, f"two-ply(fitted-as-core,w={width})")
    return TwoPlyPlayer(evaluation, width, f"two-ply(fitted,w={width})")


def core_player(evaluation: str = "pair-exchange"):
    """The agent as it plays (`ours`), its search's horizon evaluated by `evaluation` (a
    name of agent.move.deepening.EVALUATION_KINDS): the core's counterpart of the players
    above, `py:agent.tuning.two_ply:core_player` in a match."""
    from agent.players import SearchPlayer

    return SearchPlayer(evaluation=evaluation)
