"""Position features: hand-computed values on small boards, and the core's computation
(agent.tuning.fast_features) held to the plain-Python oracle (agent.tuning.features)."""

from __future__ import annotations

import doctest
import math
import random

import pytest
from fruit_helpers import random_grid

from agent import Board, rules
from agent.rules import random_board
from agent.tuning import fast_features, features

# Five single fruit; taking the 1 lets the top 0 fall onto the 0 below it.
SINGLES = ("0**", "1**", "020")
# Taking the pair of 1s drops the top 0s onto the bottom row: a group of 5.
STACKED = ("00*", "11*", "000")


def named(grid) -> dict:
    return dict(zip(features.FEATURE_NAMES, features.feature_vector(grid)))


def test_per_type_counts_fragmentation_and_concentration():
    assert features.fruit_by_type(SINGLES) == {"0": 3, "1": 1, "2": 1}
    assert features.fragmentation(SINGLES) == 1.0 and features.fragmentation(STACKED) == 3 / 7
    assert features.type_concentration(STACKED) == pytest.approx((5**2 + 2**2) / 7**2)


def test_merge_potential_of_each_group():
    # in rules.groups order: (0,0) 0, (1,0) 1, (2,0) 0, (2,1) 2, (2,2) 0
    assert features.merge_potentials(SINGLES) == [(1, 2), (1, 1), (1, 2), (1, 1), (1, 1)]
    # the top 0s, the 1s, the bottom 0s
    assert features.merge_potentials(STACKED) == [(2, 5), (2, 2), (3, 5)]


def test_fallen_positions_follow_gravity():
    moved = features.fallen_positions(SINGLES, {(1, 0)})
    assert moved[(0, 0)] == (1, 0) and moved[(2, 0)] == (2, 0) and (1, 0) not in moved


def test_the_whole_vector_of_five_singles():
    values = named(SINGLES)
    assert (values["fruit"], values["groups"], values["fragmentation"]) == (5, 5, 1.0)
    assert values["type_concentration"] == pytest.approx(11 / 25)
    assert [values[name] for name in ("groups_1", "groups_2", "groups_3_4", "groups_5_8", "groups_9_up")] == [
        5,
        0,
        0,
        0,
        0,
    ]
    assert values["column_height_mean"] == pytest.approx(5 / 3)
    assert values["column_height_spread"] == pytest.approx(math.sqrt(8 / 9))
    assert (values["greedy_pair"], values["alternating"], values["third_fourth"]) == (0, 1, 0)
    assert values["greedy_exchange"] == 0  # taking the 1 would hand over a pair: 1 - 4
    assert (values["joinable_groups"], values["merge_max"], values["merge_gain"]) == (2, 2, 3)
    assert (values["large_group_parity"], values["group_count_parity"]) == (0, 1)


def test_one_removal_from_a_large_group():
    values = named(STACKED)
    assert [values[name] for name in ("groups_1", "groups_2", "groups_3_4")] == [0, 2, 1]
    assert (values["greedy_pair"], values["alternating"], values["third_fourth"]) == (5, 9, 4)
    assert values["greedy_exchange"] == 9 - 4  # the bottom 0s; the 1s and top 0s fall as pairs
    assert (values["joinable_groups"], values["merge_max"], values["merge_gain"]) == (2, 5, 16)
    assert features.moves_until_large_group(STACKED) == 1
    assert values["large_group_parity"] == -1
    assert values["group_count_parity"] == 1


def test_the_greedy_exchange_counts_the_merge_the_first_move_makes():
    # taking the three 0s drops the 1 onto the row of 1s: the opponent takes three
    grid = ("1***", "0***", "0***", "011*")
    assert features.greedy_pair_value(grid) == 3**2 - 2**2
    assert rules.greedy_exchange_value(grid) == 3**2 - 3**2


def test_the_blend_of_pair_and_exchange_is_whole_and_never_below_zero():
    # greedy pair 5 and greedy exchange 5: (465 * 5 + 325 * 5 + 4222) / 1000 = 8.172
    assert rules.pair_exchange_blend(STACKED, (465, 325, 4222)) == 8
    assert rules.pair_exchange_blend(STACKED, (1000, 0, 500)) == 6  # 5.5 rounds up
    assert rules.pair_exchange_blend(STACKED, (1000, 1000, -20_000)) == 0
    assert rules.pair_exchange_blend(("**", "**"), (465, 325, 4222)) == 0


def test_a_large_group_to_take_now():
    grid = ("000", "000", "111")
    assert features.moves_until_large_group(grid) == 0 and named(grid)["large_group_parity"] == 1
    assert features.moves_until_large_group(("01", "10")) is None


def test_the_empty_board():
    values = named(("**", "**"))
    assert all(value == 0 for name, value in values.items() if name != "group_count_parity")


def test_the_core_computes_the_oracle_s_vector_on_random_grids():
    rng = random.Random(30)
    for _ in range(150):
        grid = random_grid(rng, rng.randint(1, 9), rng.randint(1, 5), rng.choice([0.0, 0.2, 0.5, 0.9]))
        assert fast_features.feature_vector(grid) == pytest.approx(features.feature_vector(grid)), grid


def test_the_core_computes_the_oracle_s_vector_along_a_game():
    board = Board.random(4, 12, 4)
    while not board.is_over:
        assert fast_features.feature_vector(board) == pytest.approx(features.feature_vector(board.rows))
        # a largest group, then the first group in reading order: two plies a check
        board = board.play(max(board.groups(), key=lambda group: group.size).move)[0]
        if not board.is_over:
            board = board.play(board.legal_moves()[0])[0]


def test_a_full_board_of_nine_types():
    grid = random_board(7, 14, 9)
    assert fast_features.feature_vector(Board(grid).core()) == pytest.approx(features.feature_vector(grid))
    assert fast_features.feature_vector(Board(grid)) == fast_features.feature_vector(grid)


def test_the_names_match_the_vector():
    assert len(features.FEATURE_NAMES) == len(set(features.FEATURE_NAMES)) == len(features.feature_vector(("01", "00")))


def test_the_docstring_example():
    failed, attempted = doctest.testmod(features)
    assert attempted > 0 and failed == 0


def test_without_merges_the_merge_features_are_zero_and_the_rest_the_same():
    rng = random.Random(31)
    for _ in range(30):
        grid = random_grid(rng, rng.randint(1, 9), rng.randint(1, 5), rng.choice([0.0, 0.5]))
        full, plain = fast_features.feature_vector(grid), fast_features.feature_vector(grid, merges=False)
        for name, with_merges, without in zip(features.FEATURE_NAMES, full, plain):
            assert without == (0.0 if name in features.MERGE_FEATURES else with_merges)
