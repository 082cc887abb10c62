"""A small game-agnostic search engine: negamax with alpha-beta pruning.

A game is anything that follows the `Game` protocol below; the engine knows nothing else
about it. Values are always from the side of the player to move (negamax), so a game only
has to say what a finished position is worth to whoever would move next.

Options:

- `depth`: search at most this many plies (None = to the end of the game); positions cut
  off there are scored by the `evaluate` function (also from the mover's side).
- `tt`: a dict used as a transposition table; pass the same dict again to reuse what an
  earlier search learned (only with the same game and evaluation function).

The chosen move is the first one, in the game's move order, that reaches the best value.
`to_move` is not needed by negamax; it is in the protocol for the textbook max/min
formulation that the tests check the engine against.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Generic, Hashable, Iterable, Optional, Protocol, TypeVar

#: A position of a game: hashable, the transposition table's key.
State = TypeVar("State", bound=Hashable)
#: A move of a game, whatever the game makes it.
Move = TypeVar("Move")


class Game(Protocol[State, Move]):
    def to_move(self, state: State) -> int:
        """The player (0 or 1) whose turn it is."""

    def legal_moves(self, state: State) -> Iterable[Move]:
        """The moves of a non-terminal state, best guesses first (an iterator is fine:
        the search stops reading it at a cut-off)."""

    def apply(self, state: State, move: Move) -> State:
        """The state after `move`; `state` itself is left unchanged."""

    def is_terminal(self, state: State) -> bool:
        """Whether the game is over."""

    def utility(self, state: State) -> float:
        """The value of a terminal state for the player to move in it."""


Evaluation = Callable[[State], float]

# Kinds of transposition-table entries: the stored value is exact, or only a bound
# because the search that produced it was cut off by the alpha-beta window.
EXACT, LOWER_BOUND, UPPER_BOUND = "exact", "lower", "upper"


@dataclass(frozen=True)
class TTEntry:
    depth: float  # plies searched below this state; math.inf = to the end
    kind: str
    value: float


@dataclass(frozen=True)
class SearchResult(Generic[Move]):
    value: float  # for the player to move at the root
    move: Optional[Move]  # None only at a terminal root
    nodes: int  # states visited, the root included


def search(
    game: Game,
    state,
    depth: Optional[int] = None,
    evaluate: Optional[Evaluation] = None,
    tt: Optional[dict] = None,
) -> SearchResult:
    """The value of `state` for its player to move and the move that achieves it."""
    if depth is not None and (depth < 1 or evaluate is None):
        raise ValueError("a depth limit must be >= 1 and needs an evaluation function")
    return _Search(game, evaluate, tt).root(state, math.inf if depth is None else depth)


class _Search:
    def __init__(self, game: Game, evaluate: Optional[Evaluation], tt: Optional[dict]):
        self.game = game
        self.evaluate = evaluate
        self.tt = tt
        self.nodes = 0

    def root(self, state, depth: float) -> SearchResult:
        self.nodes += 1
        if self.game.is_terminal(state):
            return SearchResult(self.game.utility(state), None, self.nodes)
        best_value, best_move = -math.inf, None
        for move in self.game.legal_moves(state):
            # The window stays open above, so every improvement is an exact value and a
            # later move that only ties is never preferred.
            value = -self.negamax(self.game.apply(state, move), depth - 1, -math.inf, -best_value)
            if value > best_value:
                best_value, best_move = value, move
        self.store(state, depth, EXACT, best_value)
        return SearchResult(best_value, best_move, self.nodes)

    def negamax(self, state, depth: float, alpha: float, beta: float) -> float:
        """Fail-soft alpha-beta: the exact value if it lies inside (alpha, beta), else a
        bound on the far side of the window."""
        self.nodes += 1
        game = self.game
        if game.is_terminal(state):
            return game.utility(state)
        if depth <= 0:
            assert self.evaluate is not None  # search() takes a depth only with an evaluation
            return self.evaluate(state)
        entry = self.tt.get(state) if self.tt is not None else None
        if entry is not None and entry.depth >= depth:
            if (
                entry.kind == EXACT
                or (entry.kind == LOWER_BOUND and entry.value >= beta)
                or (entry.kind == UPPER_BOUND and entry.value <= alpha)
            ):
                return entry.value
        best = -math.inf
        for move in game.legal_moves(state):
            value = -self.negamax(game.apply(state, move), depth - 1, -beta, -max(alpha, best))
            if value > best:
                best = value
                if best >= beta:
                    break
        if best <= alpha:
            kind = UPPER_BOUND
        elif best >= beta:
            kind = LOWER_BOUND
        else:
            kind = EXACT
        self.store(state, depth, kind, best)
        return best

    def store(self, state, depth: float, kind: str, value: float) -> None:
        if self.tt is not None:
            self.tt[state] = TTEntry(depth, kind, value)
