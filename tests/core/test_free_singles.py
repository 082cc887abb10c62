"""Free singles (ext/free_singles.pyx): the core's fruit that can never merge and its free
singles against rules.py's, and searches to the end that drop them in pairs against plain
minimax, on boards built to hold them: in even and odd numbers, beside single fruit that
could still merge one column away, and under fruit that can. Each built board is checked
to tell a wrong drop apart: its value changes if the singles that may merge are
dropped too, or an odd one is dropped with the pairs."""

import functools
import random

import pytest
from fruit_helpers import random_grid, settle

from agent import rules
from agent._core import EVAL_NONE, Bitboard, Searcher


@functools.lru_cache(maxsize=None)
def solve(grid):
    """Plain minimax to the end over the reference rules, memoised by grid."""
    if rules.is_empty(grid):
        return 0
    return max(len(g) ** 2 - solve(rules.remove_and_fall(grid, g)) for g in rules.groups(grid))


def without(grid, cells):
    """`grid` with `cells` taken out and every column fallen."""
    return rules.remove_and_fall(grid, frozenset(cells))


def plain_drop(grid):
    """The drop of free pairs as rules.py says it: (grid, dropped)."""
    free = rules.free_singles(grid)
    dropped = len(free) - len(free) % 2 if len(free) >= 2 else 0
    return dropped_in_pairs(grid, free), dropped


def sparse_grid(rng, n, types):
    """A settled grid whose columns keep a random share of their height: many single fruit."""
    return random_grid(rng, n, types, rng.choice([0.3, 0.6, 0.8]))


def lone_in_column(grid):
    """A wrong test of "can never merge" that forgets the neighbouring columns."""
    n = len(grid)
    return {
        (row, col)
        for row, col in rules.cells(grid)
        if grid[row][col] != rules.EMPTY and [r for r in range(n) if grid[r][col] == grid[row][col]] == [row]
    }


def free_among(grid, lone):
    """The fruit of `lone` with only fruit of `lone` above them."""
    return {(row, col) for row, col in lone if all((r, col) in lone for r in range(row) if grid[r][col] != rules.EMPTY)}


def dropped_in_pairs(grid, free):
    """`grid` without the fruit of `free` in pairs, the lowest of the leftmost column's kept
    when they are odd (what the drop does with what it is given)."""
    free = sorted(free, key=lambda cell: (cell[1], -cell[0]))
    if len(free) < 2:
        return grid
    return without(grid, free[len(free) % 2 :])


# Boards built to hold free singles beside fruit one step from being free (found by a
# search over small random boards for the property each test below checks).
BUILT = {
    "even": ("*****", "*****", "*1***", "50*30", "24211"),
    "odd": ("*****", "1****", "0****", "24***", "33123"),
    # a 2 with a 2 one column away, lone fruit under fruit that may merge
    "near": ("4***", "2*1*", "344*", "0420"),
}


def test_the_built_boards_tell_a_wrong_drop_apart():
    """Each built board's value changes under a broken drop: an odd free single
    dropped with the pairs, fruit whose type is one column away taken as never merging,
    or lone fruit under fruit that may merge taken as free."""
    even, odd, near = BUILT["even"], BUILT["odd"], BUILT["near"]
    assert len(rules.free_singles(even)) % 2 == 0 and len(rules.free_singles(even)) >= 4
    assert len(rules.free_singles(odd)) % 2 == 1
    assert solve(without(odd, rules.free_singles(odd))) != solve(odd)
    assert solve(dropped_in_pairs(near, free_among(near, lone_in_column(near)))) != solve(near)
    assert solve(dropped_in_pairs(near, rules.never_merging(near))) != solve(near)


@pytest.mark.parametrize("name", sorted(BUILT))
def test_a_search_to_the_end_drops_free_pairs_and_keeps_the_value(name):
    grid = BUILT[name]
    board = Bitboard(grid)
    dropped_board, dropped = board.without_free_pairs()
    assert (dropped_board.rows(), dropped) == plain_drop(grid)
    assert solve(dropped_board.rows()) == solve(grid)
    for free_singles in (True, False):
        found = Searcher(board, tt_bits=12, eval_kind=EVAL_NONE, free_singles=free_singles).search(board.fruit)
        assert (found.value, found.exact) == (solve(grid), True)


def test_the_core_finds_the_fruit_rules_finds():
    """never_merging_count and without_free_pairs against rules.py, on 1x1 to 12x12 boards."""
    rng = random.Random(63)
    for _ in range(2000):
        grid = sparse_grid(rng, rng.randint(1, 12), rng.randint(1, 9))
        board = Bitboard(grid)
        assert board.never_merging_count() == len(rules.never_merging(grid))
        kept, dropped = board.without_free_pairs()
        assert (kept.rows(), dropped) == plain_drop(grid)
        assert kept.fruit == board.fruit - dropped
        assert kept.hash == kept.hash_from_scratch()


def test_searches_to_the_end_match_plain_minimax():
    """Sparse boards (many single fruit): the value of one search to the end, and of a
    deepening to it in one searcher, is plain minimax's, with and without free singles."""
    rng = random.Random(64)
    tried = 0
    while tried < 150:
        grid = sparse_grid(rng, rng.randint(2, 6), rng.randint(2, 6))
        if not 2 <= rules.fruit_count(grid) <= 10:
            continue
        tried += 1
        board = Bitboard(grid)
        for free_singles in (True, False):
            once = Searcher(board, tt_bits=10, eval_kind=EVAL_NONE, free_singles=free_singles).search(board.fruit)
            assert (once.value, once.exact) == (solve(grid), True), grid
        deepening = Searcher(board, tt_bits=10, eval_kind=EVAL_NONE)
        for depth in range(1, board.fruit + 1):
            last = deepening.search(depth)
        assert (last.value, last.exact) == (solve(grid), True), grid


def test_solve_keys_meet_where_values_must_agree():
    # the types of fruit that can never merge do not matter
    assert Bitboard(settle(["5", "121", "6"], 3)).solve_key() == Bitboard(settle(["7", "121", "8"], 3)).solve_key()
    # nor where the free singles are, only whether they are odd
    one = Bitboard(settle(["01", "5", "10", "", "0"], 5))
    elsewhere = Bitboard(settle(["01", "", "10", "", "05"], 5))
    assert rules.free_singles(one.rows()) and rules.free_singles(elsewhere.rows())
    assert one.solve_key() == elsewhere.solve_key()
    assert one.solve_key() != Bitboard(settle(["01", "", "10", "", "0"], 5)).solve_key()
    # a fruit that may still merge keeps its type
    assert Bitboard(settle(["01", "1"], 2)).solve_key() != Bitboard(settle(["01", "2"], 2)).solve_key()


def test_columns_read_from_the_parents_search_the_same_tree_as_columns_read_whole():
    """A node searched to the end reads the columns of its move's band only, from its
    parent's (also where the root keeps free singles its children drop); reading every
    column (frontier_shortcut=False) must give the same values, moves and node counts."""
    rng = random.Random(65)
    solved = 0
    while solved < 12:
        grid = random_grid(rng, rng.choice([8, 12, 16]), rng.randint(4, 9), 0.85)
        if not 12 <= rules.fruit_count(grid) <= 22 or len(rules.free_singles(grid)) < 2:
            continue
        solved += 1
        board = Bitboard(grid)
        fast = Searcher(board, tt_bits=16, eval_kind=EVAL_NONE).search(board.fruit)
        plain = Searcher(board, tt_bits=16, eval_kind=EVAL_NONE, frontier_shortcut=False).search(board.fruit)
        found = [(result.value, result.move, result.nodes, result.tt_hits) for result in (fast, plain)]
        assert found[0] == found[1] and fast.exact
