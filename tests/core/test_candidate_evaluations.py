"""The candidate evaluations past the search ceiling (issue 44): the hot exchange, the
greedy line, the largest exchange, the large groups, the best exchange, and the largest and
the best exchange weighted to rank a move's children (the sibling exchange, the sibling
best exchange), held to their oracles in agent.rules on positions of real games (random
moves from full boards), by hand on boards worked out on paper, and inside the search."""

import pytest
from fruit_helpers import children_to_check, mid_game

from agent import rules
from agent._core import Board, Searcher
from agent.evaluations import EVALUATIONS

CANDIDATE_NAMES = [
    "hot-exchange",
    "greedy-line",
    "largest-exchange",
    "large-groups",
    "best-exchange",
    "sibling-exchange",
    "sibling-best-exchange",
]
CANDIDATES = [e for e in EVALUATIONS if e.name in CANDIDATE_NAMES]
each_candidate = pytest.mark.parametrize("evaluation", CANDIDATES, ids=lambda e: e.name)


def test_every_candidate_is_registered():
    assert [e.name for e in CANDIDATES] == CANDIDATE_NAMES


def test_the_oracles_on_a_board_worked_out_by_hand():
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


def test_the_large_groups_on_a_board_worked_out_by_hand():
    grid = ("000", "112", "334")
    # pair 5, exchange 5, g1^2 9 as above; groups of at least 3 fruit: the 0s
    # (258 * 5 + 258 * 5 + 106 * 9 + 1570 * 1 + 3859 + 500) // 1000 = 9
    assert rules.large_groups_blend(grid, (258, 258, 106, 1570, 3859), 3) == 9
    # of at least 2: the 0s, the 1s and the 3s, 2 * 1570 more
    assert rules.large_groups_blend(grid, (258, 258, 106, 1570, 3859), 2) == 12
    assert rules.large_groups_blend(("**", "**"), (258, 258, 106, 1570, 3859), 2) == 0


def test_the_best_exchange_on_boards_worked_out_by_hand():
    grid = ("000", "112", "334")
    # the 0s (9) leave a reply of 2 (4): 5, the greedy exchange; the 1s or the 3s (4)
    # leave the fallen 0s, 2 (4): 0; a single: 1 - 4
    assert rules.greedy_exchange_value(grid) == rules.best_exchange_value(grid) == 5
    # (180 * 5 + 130 * 5 + 161 * 9 + 298 * 5 + 3762 + 500) // 1000 = 8
    assert rules.best_exchange_blend(grid, (180, 130, 161, 298, 3762)) == 8
    grid = ("101", "220", "101")
    # the largest group, the 2s (4), lets the 0s fall together, 3 (9): -5; the single 1
    # at the bottom left (1) drops the 2 above it away from the other 2, and every group
    # left is single (1): 0, the best
    assert rules.greedy_exchange_value(grid) == 4 - 9
    assert rules.best_exchange_value(grid) == 0
    # (180 * 3 + 130 * -5 + 161 * 4 + 298 * 0 + 3762 + 500) // 1000 = 4
    assert rules.best_exchange_blend(grid, (180, 130, 161, 298, 3762)) == 4
    # weights below 0 count too: (-163 * 3 - 53 * -5 + 427 * 4 + 704 * 0 + 2431 + 500) // 1000
    assert rules.best_exchange_blend(grid, (-163, -53, 427, 704, 2431)) == 4
    assert rules.best_exchange_blend(grid, (-163, -53, 0, 704, 2431)) == 2
    assert rules.best_exchange_value(("**", "**")) == 0 == rules.best_exchange_blend(("**", "**"), (1, 1, 1, 1, 1))


def test_the_greedy_line_stops_when_the_board_empties():
    assert rules.greedy_line_value(("00", "11"), 4) == 4 - 4
    assert rules.greedy_line_value(("0",), 4) == 1


@each_candidate
@pytest.mark.parametrize(
    "size, types, share",
    [(26, 9, 0.0), (26, 9, 0.3), (26, 4, 0.5), (20, 7, 0.2), (15, 5, 0.6), (12, 4, 0.3), (12, 3, 0.8), (8, 2, 0.5)],
)
def test_the_core_evaluates_every_child_of_a_mid_game_position_as_the_oracle(evaluation, size, types, share):
    for seed in range(3):
        grid = mid_game(seed, size, types, share)
        values = Board(grid).evaluations_after_moves(evaluation.kind)
        for group in children_to_check(evaluation, rules.groups(grid)):
            cell = next(cell for cell in values if cell in group)
            assert values[cell] == evaluation.oracle(rules.remove_and_fall(grid, group)), (seed, cell)


@each_candidate
@pytest.mark.parametrize("size, types", [(4, 2), (5, 3), (6, 3)])
def test_a_fixed_depth_search_equals_minimax_with_the_oracle_at_the_horizon(evaluation, size, types):
    for seed in range(4):
        grid = mid_game(seed, size, types, 0.2)
        for depth in (1, 2, 3):
            expected = rules.negamax_value(grid, depth, evaluation.oracle)
            for alpha_beta in (False, True):
                searcher = Searcher(Board(grid), eval_kind=evaluation.kind, alpha_beta=alpha_beta, tt_bits=0)
                assert searcher.search(depth).value == expected, (seed, depth, alpha_beta)
