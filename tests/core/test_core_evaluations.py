"""Every evaluation registered in agent/evaluations.py: the core's values against the
oracle's, and the invariants the search relies on (never negative, never part of an
exact result)."""

import random

import pytest
from fruit_helpers import grids, random_grid
from hypothesis import given, settings

import agent._core as core
from agent import rules
from agent._core import Bitboard, Searcher
from agent.evaluations import EVALUATIONS

each_evaluation = pytest.mark.parametrize("evaluation", EVALUATIONS, ids=lambda e: e.name)


def test_every_evaluation_kind_of_the_core_is_registered_once():
    kinds = sorted(getattr(core, name) for name in dir(core) if name.startswith("EVAL_"))
    assert kinds == sorted(e.kind for e in EVALUATIONS)
    assert len({e.name for e in EVALUATIONS}) == len(EVALUATIONS)


def test_an_unregistered_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="eval_kind"):
        Searcher(Bitboard(("01", "10")), eval_kind=max(e.kind for e in EVALUATIONS) + 1)


def assert_core_evaluates_every_child_as_the_oracle(evaluation, grid):
    values = Bitboard(grid).evaluations_after_moves(evaluation.kind)
    groups = rules.groups(grid)
    assert len(values) == len(groups)
    for group in groups:
        cell = next(cell for cell in values if cell in group)
        assert values[cell] == evaluation.oracle(rules.play(grid, cell)[0]), cell


@each_evaluation
@settings(max_examples=25, deadline=None)  # the large boards have a test of their own below
@given(grid=grids(max_types=10))
def test_the_core_evaluates_as_the_oracle(evaluation, grid):
    """As the search does: the position each move leaves, from the groups of the one it
    was played in."""
    assert_core_evaluates_every_child_as_the_oracle(evaluation, grid)


@each_evaluation
@pytest.mark.parametrize("size, types, emptiness", [(26, 9, 0.0), (26, 3, 0.3), (20, 2, 0.5), (12, 4, 0.0)])
def test_the_core_evaluates_as_the_oracle_after_every_move_of_large_boards(evaluation, size, types, emptiness):
    for seed in range(2):
        assert_core_evaluates_every_child_as_the_oracle(
            evaluation, random_grid(random.Random(seed), size, types, emptiness)
        )


@each_evaluation
@settings(max_examples=300, deadline=None)
@given(grid=grids(max_types=10))
def test_never_negative(evaluation, grid):
    """The frontier drops a move whose points cannot beat alpha against an evaluation of 0:
    a negative one would make the dropped move better than it was taken for."""
    assert evaluation.oracle(grid) >= 0
    assert all(value >= 0 for value in Bitboard(grid).evaluations_after_moves(evaluation.kind).values())


def small_positions(count):
    rng = random.Random(28)
    return [random_grid(rng, rng.randint(2, 4), rng.randint(1, 4), 0.45) for _ in range(count)]


@each_evaluation
def test_a_solved_position_is_worth_its_final_margin_whatever_the_evaluation(evaluation):
    """Searched to the end the value is exact and the evaluation takes no part in it; a
    shallower search that says its value is exact is right too."""
    for grid in small_positions(12):
        final_margin = rules.negamax_value(grid, rules.fruit_count(grid))
        result = Searcher(Bitboard(grid), eval_kind=evaluation.kind).search(99)
        assert result.exact and result.value == final_margin
        for depth in (1, 2, 3):
            result = Searcher(Bitboard(grid), eval_kind=evaluation.kind).search(depth)
            assert not result.exact or result.value == final_margin, depth


@each_evaluation
def test_at_the_horizon_the_search_uses_the_oracles_value(evaluation):
    """Depth-limited, the search (plain minimax and alpha-beta with its frontier pruning)
    equals minimax over the rules with the oracle at the horizon."""
    for grid in small_positions(8) + [random_grid(random.Random(5), 5, 3)]:
        for depth in (1, 2, 3):
            expected = rules.negamax_value(grid, depth, evaluation.oracle)
            for alpha_beta in (False, True):
                searcher = Searcher(Bitboard(grid), eval_kind=evaluation.kind, alpha_beta=alpha_beta, tt_bits=0)
                assert searcher.search(depth).value == expected, (depth, alpha_beta)
