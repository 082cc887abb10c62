"""The quiescence extension for hot moves (issue 44, Searcher(quiescence=..., hot_size=...)):
fixed-depth searches with it on equal minimax with agent.rules.quiescence_value at the
horizon, exactly, on small random boards; off, the search is the one it was."""

import pytest
from fruit_helpers import mid_game

from agent import rules
from agent._core import Board, Searcher
from agent.evaluations import EVALUATIONS

BY_NAME = {e.name: e for e in EVALUATIONS}


def test_the_oracle_on_a_board_worked_out_by_hand():
    grid = ("000", "112", "334")
    evaluate = BY_NAME["greedy-pair"].oracle
    # greedy pair 9 - 4; taking the 000 (the one group of 3) leaves 112/334, worth 4 - 4
    assert rules.quiescence_value(grid, 0, 3, evaluate) == 5
    assert rules.quiescence_value(grid, 1, 3, evaluate) == max(5, 9 - 0)
    # no group of 4: standing pat is all there is
    assert rules.quiescence_value(grid, 2, 4, evaluate) == 5
    assert rules.negamax_quiescence_value(grid, 0, 1, 3, evaluate) == 9


@pytest.mark.parametrize("evaluation", ["greedy-pair", "pair-exchange", "largest-exchange"])
@pytest.mark.parametrize(
    "size, types, share, hot_size",
    [(4, 2, 0.2, 2), (5, 2, 0.3, 3), (5, 3, 0.2, 2), (6, 3, 0.3, 3), (6, 2, 0.4, 4), (7, 4, 0.5, 2)],
)
def test_a_fixed_depth_search_with_quiescence_equals_the_oracle(evaluation, size, types, share, hot_size):
    oracle = BY_NAME[evaluation].oracle
    kind = BY_NAME[evaluation].kind
    for seed in range(3 if size < 7 else 1):  # the oracle takes seconds a 7x7 board
        grid = mid_game(seed, size, types, share)
        for depth in (1, 2, 3):
            for plies in (1, 2):
                expected = rules.negamax_quiescence_value(grid, depth, plies, hot_size, oracle)
                for alpha_beta in (False, True):
                    searcher = Searcher(
                        Board(grid),
                        eval_kind=kind,
                        alpha_beta=alpha_beta,
                        tt_bits=0,
                        quiescence=plies,
                        hot_size=hot_size,
                    )
                    assert searcher.search(depth).value == expected, (seed, depth, plies, alpha_beta)


@pytest.mark.parametrize("size, types, hot_size", [(6, 3, 2), (7, 3, 3)])
def test_iterative_deepening_with_the_table_and_reduction_keeps_the_oracles_values(size, types, hot_size):
    oracle = BY_NAME["pair-exchange"].oracle
    kind = BY_NAME["pair-exchange"].kind
    for seed in range(3):
        grid = mid_game(seed, size, types, 0.4)
        searcher = Searcher(Board(grid), eval_kind=kind, quiescence=2, hot_size=hot_size)
        for depth in (1, 2, 3):
            expected = rules.negamax_quiescence_value(grid, depth, 2, hot_size, oracle)
            assert searcher.search(depth).value == expected, (seed, depth)


def test_off_by_default_and_the_same_search_when_off():
    grid = mid_game(1, 8, 3, 0.3)
    plain = Searcher(Board(grid), tt_bits=0).search(3)
    off = Searcher(Board(grid), tt_bits=0, quiescence=0, hot_size=2).search(3)
    assert (off.value, off.move, off.nodes) == (plain.value, plain.move, plain.nodes)


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        Searcher(Board(("01", "10")), quiescence=-1)
    with pytest.raises(ValueError):
        Searcher(Board(("01", "10")), hot_size=0)
