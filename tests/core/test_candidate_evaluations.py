"""The candidate evaluation past the search ceiling (issue 44) that the agent adopted, the
largest exchange, held to its oracle in agent.rules on positions of real games (random
moves from full boards), by hand on boards worked out on paper, and inside the search;
and the plain features the labels' feature sets weigh beside it (the hot sum, the greedy
line, the best exchange) on boards worked out by hand. The rejected candidates' code and
tests are at the commit docs/research/2026-12-strength-log.md names."""

import pytest
from fruit_helpers import mid_game

from agent import rules
from agent._core import Bitboard, Searcher
from agent.evaluations import EVALUATIONS

LARGEST_EXCHANGE = next(e for e in EVALUATIONS if e.name == "largest-exchange")


def test_the_features_on_a_board_worked_out_by_hand():
    grid = ("000", "112", "334")
    # largest groups 3, 2, 2, 1: 9 - 4 + 4 - 1
    assert rules.hot_exchange_value(grid, 4) == 8
    # 000 (+9); the 3s, whose key 0 is below the 1s' 1 (-4); the 1s fallen to the bottom
    # (+4); of the 2 and the 4, the 4 (key 64 < 65) (-1); the greedy pair of the 2 (+1)
    assert rules.greedy_line_value(grid, 4) == 9
    assert rules.group_key(grid, rules.group_at(grid, (1, 0))) == 1
    assert rules.group_key(grid, rules.group_at(grid, (2, 0))) == 0


def test_the_largest_exchange_on_a_board_worked_out_by_hand():
    grid = ("000", "112", "334")
    # g1 = 3, g2 = 2: pair 5; taking the 0s leaves the 1s, 2 and 3s, 4 apart: reply 2,
    # exchange 5; (273 * 5 + 273 * 5 + 151 * 9 + 3622 + 500) // 1000 = 8
    assert rules.greedy_pair_value(grid) == 5 and rules.greedy_exchange_value(grid) == 5
    assert rules.largest_exchange_blend(grid, (273, 273, 151, 3622)) == 8
    # a blend below 0 is 0, as the frontier's pruning needs
    assert rules.largest_exchange_blend(grid, (0, -1000, 0, 0)) == 0
    assert rules.largest_exchange_blend(("**", "**"), (273, 273, 151, 3622)) == 0


def test_the_best_exchange_feature_on_boards_worked_out_by_hand():
    grid = ("000", "112", "334")
    # the 0s (9) leave a reply of 2 (4): 5, the greedy exchange; the 1s or the 3s (4)
    # leave the fallen 0s, 2 (4): 0; a single: 1 - 4
    assert rules.greedy_exchange_value(grid) == rules.best_exchange_value(grid) == 5
    grid = ("101", "220", "101")
    # the largest group, the 2s (4), lets the 0s fall together, 3 (9): -5; the single 1
    # at the bottom left (1) drops the 2 above it away from the other 2, and every group
    # left is single (1): 0, the best
    assert rules.greedy_exchange_value(grid) == 4 - 9
    assert rules.best_exchange_value(grid) == 0
    assert rules.best_exchange_value(("**", "**")) == 0


def test_the_greedy_line_stops_when_the_board_empties():
    assert rules.greedy_line_value(("00", "11"), 4) == 4 - 4
    assert rules.greedy_line_value(("0",), 4) == 1


@pytest.mark.parametrize(
    "size, types, share",
    [(26, 9, 0.0), (26, 9, 0.3), (26, 4, 0.5), (20, 7, 0.2), (15, 5, 0.6), (12, 4, 0.3), (12, 3, 0.8), (8, 2, 0.5)],
)
def test_the_core_evaluates_every_child_of_a_mid_game_position_as_the_oracle(size, types, share):
    evaluation = LARGEST_EXCHANGE
    for seed in range(3):
        grid = mid_game(seed, size, types, share)
        values = Bitboard(grid).evaluations_after_moves(evaluation.kind)
        for group in rules.groups(grid):
            cell = next(cell for cell in values if cell in group)
            assert values[cell] == evaluation.oracle(rules.remove_and_fall(grid, group)), (seed, cell)


@pytest.mark.parametrize("size, types", [(4, 2), (5, 3), (6, 3)])
def test_a_fixed_depth_search_equals_minimax_with_the_oracle_at_the_horizon(size, types):
    evaluation = LARGEST_EXCHANGE
    for seed in range(4):
        grid = mid_game(seed, size, types, 0.2)
        for depth in (1, 2, 3):
            expected = rules.negamax_value(grid, depth, evaluation.oracle)
            for alpha_beta in (False, True):
                searcher = Searcher(Bitboard(grid), eval_kind=evaluation.kind, alpha_beta=alpha_beta, tt_bits=0)
                assert searcher.search(depth).value == expected, (seed, depth, alpha_beta)
