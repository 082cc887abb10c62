"""The Cython core against the pure-Python reference rules."""

import random

import pytest
from fruit_helpers import grids, random_grid
from hypothesis import given, settings
from hypothesis import strategies as st

from agent import rules
from agent._core import Bitboard


def as_sets(groups):
    return sorted((frozenset(g) for g in groups), key=min)


@settings(max_examples=300, deadline=None)
@given(grids())
def test_rows_round_trip(grid):
    board = Bitboard(grid)
    assert board.rows() == grid
    assert board.fruit == rules.fruit_count(grid)


@settings(max_examples=300, deadline=None)
@given(grids())
def test_same_groups(grid):
    assert as_sets(Bitboard(grid).groups()) == as_sets(rules.groups(grid))


@settings(max_examples=150, deadline=None)
@given(grids(max_size=12))
def test_every_move_gives_the_reference_board_score_and_hash(grid):
    board = Bitboard(grid)
    for group in rules.groups(grid):
        cell = min(group)
        expected_grid, expected_points = rules.play(grid, cell)
        child, points = board.play(cell)
        assert child.rows() == expected_grid
        assert points == expected_points == len(group) ** 2
        assert child.hash == child.hash_from_scratch() == Bitboard(expected_grid).hash


@settings(max_examples=100, deadline=None)
@given(grids(), st.data())
def test_random_playouts_stay_in_step(grid, data):
    """Long sequences of moves on boards up to 26x26: the incremental hash never drifts."""
    board = Bitboard(grid)
    for _ in range(data.draw(st.integers(1, 30))):
        if rules.is_empty(grid):
            assert board.fruit == 0 and board.hash == 0
            break
        cell = min(data.draw(st.sampled_from(rules.groups(grid))))
        grid, points = rules.play(grid, cell)
        board, core_points = board.play(cell)
        assert board.rows() == grid and core_points == points
        assert board.hash == board.hash_from_scratch()


def test_hash_distinguishes_positions_of_one_board_size():
    rng = random.Random(4)
    seen = {}
    for _ in range(2000):
        grid = random_grid(rng, 5, rng.randint(1, 4), 0.3)
        seen.setdefault(Bitboard(grid).hash, set()).add(grid)
    assert all(len(grids_) == 1 for grids_ in seen.values())


def test_play_rejects_empty_and_off_board_cells():
    board = Bitboard(("*0", "10"))
    with pytest.raises(ValueError):
        board.play((0, 0))
    with pytest.raises(ValueError):
        board.play((2, 0))


@pytest.mark.parametrize("seed", range(12))
def test_perft_matches_reference(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 5)
    grid = random_grid(rng, n, rng.randint(1, 4), 0.3 if seed % 3 == 0 else 0.0)
    board = Bitboard(grid)
    for depth in range(4):
        assert board.perft(depth) == rules.perft(grid, depth)


def move_sequences(grid, length):
    """Every sequence of exactly `length` moves from `grid`, as tuples of groups: perft's
    definition written out, independent of both counts."""
    if length == 0:
        yield ()
        return
    for group in rules.groups(grid):
        for rest in move_sequences(rules.remove_and_fall(grid, group), length - 1):
            yield (group, *rest)


def test_perft_counts_move_sequences_of_exactly_the_depth():
    """Taking the 1 merges the two 0 groups: that game ends after 2 moves, the others after
    3. A game that ends before the depth adds nothing (chess programs' perft)."""
    grid = ("*0*", "*1*", "000")
    expected = [sum(1 for _ in move_sequences(grid, depth)) for depth in range(6)]
    assert expected == [1, 3, 5, 4, 0, 0]
    assert [Bitboard(grid).perft(d) for d in range(6)] == expected == [rules.perft(grid, d) for d in range(6)]


def test_a_board_one_move_empties_counts_0_at_depth_2():
    grid = ("0" * 10,) * 10
    assert [Bitboard(grid).perft(d) for d in range(4)] == [1, 1, 0, 0] == [rules.perft(grid, d) for d in range(4)]


@pytest.mark.parametrize("seed", range(6))
def test_perft_equals_the_sequences_on_small_boards(seed):
    rng = random.Random(seed)
    grid = random_grid(rng, 3, rng.randint(2, 3), 0.4)
    for depth in range(5):
        assert Bitboard(grid).perft(depth) == sum(1 for _ in move_sequences(grid, depth)), depth


def test_perft_of_the_worked_10x10_example():
    grid = (
        "3102322310",
        "0121232013",
        "3021111113",
        "0221031132",
        "0230011012",
        "0323321010",
        "2003022012",
        "2202200021",
        "0130000020",
        "2200022231",
    )
    board = Bitboard(grid)
    assert [board.perft(d) for d in range(3)] == [rules.perft(grid, d) for d in range(3)]
