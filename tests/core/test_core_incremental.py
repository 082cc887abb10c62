"""The core's shortcuts against their plain twins: a child's groups built from its
parent's against a walk of the child, what the search reads one ply above the horizon
against the child's whole list, and perft (built on both) against the reference rules."""

import random

import pytest
from fruit_helpers import grids, random_grid
from hypothesis import given, settings
from hypothesis import strategies as st

from agent import rules
from agent._core import EVAL_NONE, ORDER_HISTORY, ORDER_SIZE, ORDER_TT, Bitboard, Searcher


@settings(max_examples=200, deadline=None)
@given(grids(max_types=10))
def test_a_childs_groups_built_from_its_parents_are_its_own_in_the_same_order(grid):
    for cell, groups in Bitboard(grid).groups_after_moves().items():
        child = Bitboard(grid).play(cell)[0]
        assert groups == child.groups(), cell


@pytest.mark.parametrize("size, types, emptiness", [(26, 9, 0.0), (26, 2, 0.0), (26, 10, 0.4), (15, 5, 0.0)])
def test_a_childs_groups_on_large_boards(size, types, emptiness):
    grid = random_grid(random.Random(size + types), size, types, emptiness)
    for cell, groups in Bitboard(grid).groups_after_moves().items():
        assert groups == Bitboard(grid).play(cell)[0].groups(), cell


def assert_frontier_views_match_the_childs_groups(grid, min_size):
    board = Bitboard(grid)
    for cell, view in board.frontier_views(min_size).items():
        child = board.play(cell)[0]
        groups = child.groups()  # in the core's order
        moves = [g for g in groups if len(g) >= min_size]
        smaller = sorted((len(g) for g in groups if len(g) < min_size), reverse=True)
        assert view["moves"] == moves, cell
        assert view["keyed"] == moves, cell
        largest = [g for g in moves if len(g) == max(map(len, moves))] if moves else []
        assert view["largest"] == largest, cell
        assert view["unlisted"] == min(len(smaller), 2), cell
        assert view["largest_unlisted"] == (smaller[0] if smaller else 0), cell
        multi = sorted((len(g) for g in groups if len(g) > 1), reverse=True)
        assert view["multi"] == len(multi), cell
        assert view["largest_sizes"] == multi[:8], cell
        singles = [sum(1 for g in groups if len(g) == 1 and min(g)[1] == col) for col in range(child.n)]
        assert view["singles"] == singles, cell


@settings(max_examples=100, deadline=None)
@given(grids(max_types=10), st.integers(1, 6))
def test_frontier_views_are_the_childs_groups(grid, min_size):
    assert_frontier_views_match_the_childs_groups(grid, min_size)


@pytest.mark.parametrize(
    "size, types, emptiness, min_size", [(26, 9, 0.0, 2), (26, 3, 0.3, 1), (26, 3, 0.3, 4), (20, 2, 0.5, 9)]
)
def test_frontier_views_on_large_boards(size, types, emptiness, min_size):
    assert_frontier_views_match_the_childs_groups(random_grid(random.Random(7), size, types, emptiness), min_size)


@settings(max_examples=150, deadline=None)
@given(grids(max_size=7, max_types=10), st.integers(0, 3))
def test_perft_equals_the_rules(grid, depth):
    """Full and partly empty boards, p up to 10: every ply's shortcut (groups built from the
    parent's, the last ply counted without masks, no hashing) against the plain rules."""
    assert Bitboard(grid).perft(depth) == rules.perft(grid, depth)


@pytest.mark.parametrize("seed", range(6))
def test_deeper_perft_equals_the_rules(seed):
    rng = random.Random(seed)
    grid = random_grid(rng, rng.randint(3, 4), rng.randint(2, 4), 0.3 if seed % 2 else 0.0)
    assert Bitboard(grid).perft(5) == rules.perft(grid, 5)


SEARCH_OPTIONS = [
    {},
    {"reduction": 2, "full_moves": 4},
    {"ordering": ORDER_TT | ORDER_SIZE},
    {"ordering": ORDER_SIZE | ORDER_HISTORY},
    {"tt_bits": 0},
    {"eval_kind": EVAL_NONE},
]


@pytest.mark.parametrize("options", SEARCH_OPTIONS, ids=str)
def test_the_frontier_shortcut_searches_the_same_tree_as_whole_lists(options):
    """Above the horizon the search reads a node's moves from its parent's list and tries
    the first alone; listing them whole must give the same values, moves and node counts."""
    rng = random.Random(31)
    for _ in range(6):
        n = rng.choice([6, 10, 14, 20, 26])
        grid = random_grid(rng, n, rng.randint(2, 10), rng.choice([0.0, 0.4]))
        fast = Searcher(Bitboard(grid), **options)
        plain = Searcher(Bitboard(grid), frontier_shortcut=False, **options)
        for depth in range(1, 5 if n < 20 else 4):
            a, b = fast.search(depth), plain.search(depth)
            assert (a.value, a.move, a.nodes, a.tt_hits, a.exact) == (b.value, b.move, b.nodes, b.tt_hits, b.exact)
        a, b = fast.search(3, -5, 5), plain.search(3, -5, 5)
        assert (a.value, a.move, a.nodes) == (b.value, b.move, b.nodes)
