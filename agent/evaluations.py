"""The evaluations of the core's search, each paired with its plain-Python oracle.

An evaluation is what the search guesses is still to come, for the player to move, in a
position it does not search further. The core computes it fast (ext/evaluation.pyx);
the oracle says the same thing plainly over the reference rules, and
tests/core/test_core_evaluations.py holds every registered kind to its oracle and to the
invariants the search relies on: never negative (the frontier's pruning drops a move
whose points cannot beat alpha even against an evaluation of 0), and never part of an
exact result (a solved position's value is its true final margin, whatever the kind).

Adding an evaluation:
1. Core: a `cdef int32_t ... noexcept nogil` function in ext/evaluation.pyx, a new EVAL_*
   value in ext/evaluation.pxd's `cpdef enum` (and EVAL_KINDS one higher), and its line
   in evaluate()'s dispatch. It must be >= 0 on every position. If it reads the parent's
   GroupSummary (the cheap way to the largest groups), add it to needs_summary(); the
   evaluated position's groups, when it needs them, it lists into its `scratch` list.
   Fitted weights go in evaluation.pxd's weights `cpdef
   enum`, and are read from agent._core here.
2. Oracle: a plain function grid -> int over agent.rules (the existing ones live there).
3. Registration: its name and EVAL_* in agent.move.deepening.EVALUATION_KINDS, by which
   a player is given it (`SearchPlayer(evaluation=NAME)`), and one `Evaluation(NAME,
   oracle)` line in EVALUATIONS below.
The tests then cover it; `Searcher(board, eval_kind=...)` accepts it.
"""

from agent import rules
from agent._core import (
    BLEND_CONSTANT,
    BLEND_EXCHANGE,
    BLEND_PAIR,
    LARGEST_CONSTANT,
    LARGEST_EXCHANGE,
    LARGEST_PAIR,
    LARGEST_SQUARE,
)
from agent.move.deepening import EVALUATION_KINDS

# The weights compiled into the core (ext/evaluation.pxd), in the order the oracles take them.
PAIR_EXCHANGE_WEIGHTS = (BLEND_PAIR, BLEND_EXCHANGE, BLEND_CONSTANT)
LARGEST_WEIGHTS = (LARGEST_PAIR, LARGEST_EXCHANGE, LARGEST_SQUARE, LARGEST_CONSTANT)


class Evaluation:
    __slots__ = ("name", "kind", "oracle")

    def __init__(self, name: str, oracle):
        self.name = name  # for test ids and messages, as the search options name it
        self.kind = EVALUATION_KINDS[name]  # the core's EVAL_* value
        self.oracle = oracle  # grid -> int, the same value computed plainly

    def __repr__(self):
        return f"Evaluation({self.name!r})"


def bare_margin(grid) -> int:
    """Nothing is guessed: the value at the horizon is the margin so far."""
    return 0


EVALUATIONS = (
    Evaluation("none", bare_margin),
    Evaluation("greedy-pair", rules.greedy_pair_value),
    Evaluation("pair-exchange", lambda grid: rules.pair_exchange_blend(grid, PAIR_EXCHANGE_WEIGHTS)),
    # the agent's own from 12x12 up (docs/research/2026-12-strength-log.md, "The fourth
    # candidate")
    Evaluation("largest-exchange", lambda grid: rules.largest_exchange_blend(grid, LARGEST_WEIGHTS)),
)
