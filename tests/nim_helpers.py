"""Test helpers: a plain minimax oracle and an instrumented game wrapper.

The oracle is deliberately the textbook formulation, apart from the engine: player 0
maximises and player 1 minimises a value seen from player 0's side, every move is
searched (no pruning), and only a memo on (state, depth) keeps the sweeps fast.
"""

from __future__ import annotations

import io
import sys
from functools import lru_cache
from typing import NamedTuple, Optional


def plain_minimax(game, state, depth: Optional[int] = None, evaluate=None):
    """(value for the player to move at `state`, first move in move order reaching it)."""

    def for_player_0(value, s):
        return value if game.to_move(s) == 0 else -value

    @lru_cache(maxsize=None)
    def value(s, plies_left) -> float:
        if game.is_terminal(s):
            return for_player_0(game.utility(s), s)
        if plies_left == 0:
            return for_player_0(evaluate(s), s)
        below = None if plies_left is None else plies_left - 1
        children = [value(game.apply(s, m), below) for m in game.legal_moves(s)]
        return max(children) if game.to_move(s) == 0 else min(children)

    if game.is_terminal(state):
        return game.utility(state), None
    below = None if depth is None else depth - 1
    sign = 1 if game.to_move(state) == 0 else -1
    scored = [(sign * value(game.apply(state, m), below), m) for m in game.legal_moves(state)]
    best = max(v for v, _ in scored)
    return best, next(m for v, m in scored if v == best)


class Visit(NamedTuple):
    inner: object
    ply: int  # plies below the root of the search


class CountingGame:
    """Wraps a game so a test can see every state a search touches and how deep it is."""

    def __init__(self, game):
        self.game = game
        self.visits = []
        self.evaluated_plies = []

    def root(self, state) -> Visit:
        self.visits.append(0)
        return Visit(state, 0)

    def to_move(self, s: Visit) -> int:
        return self.game.to_move(s.inner)

    def legal_moves(self, s: Visit):
        return self.game.legal_moves(s.inner)

    def apply(self, s: Visit, move) -> Visit:
        self.visits.append(s.ply + 1)
        return Visit(self.game.apply(s.inner, move), s.ply + 1)

    def is_terminal(self, s: Visit) -> bool:
        return self.game.is_terminal(s.inner)

    def utility(self, s: Visit) -> float:
        return self.game.utility(s.inner)

    def evaluator(self, evaluate):
        def counted(s: Visit) -> float:
            self.evaluated_plies.append(s.ply)
            return evaluate(s.inner)

        return counted


def run_cli(main, monkeypatch, capsys, argv, stdin=""):
    """(exit code, stdout, stderr) of `main(argv)` with `stdin` as standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse
        code = exit.code
    out, err = capsys.readouterr()
    return code, out, err
