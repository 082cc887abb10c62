"""The core's edge for the environments (agent.envs.encoding) against the slow obvious
readings of the same board: the naming cells from agent.Board.normalize on every fruit
cell (the plain-Python rules), the planes cell by cell from the rows."""

import numpy as np
import pytest
from fruit_helpers import grids
from hypothesis import given, settings
from hypothesis import strategies as st

from agent import Board, Move, rules
from agent._core import Bitboard

EMPTY_AND_TINY = [("*",), ("0",), ("7",), ("**", "**"), ("**", "1*"), ("***", "***", "***")]


def naming_cells_by_normalize(grid):
    board = Board(grid)
    n = len(grid)
    return {
        board.normalize(Move(row, col)).cell for row in range(n) for col in range(n) if grid[row][col] != rules.EMPTY
    }


def planes_cell_by_cell(grid, planes):
    n = len(grid)
    expected = np.zeros((planes, n, n), dtype=np.int8)
    for row in range(n):
        for col in range(n):
            ch = grid[row][col]
            expected[planes - 1 if ch == rules.EMPTY else int(ch), row, col] = 1
    return expected


def core_naming_cells(grid):
    n = len(grid)
    mask = np.full(n * n, 7, dtype=np.int8)  # every cell is written, none left over
    Bitboard(grid).write_naming_cells(mask)
    assert set(mask.tolist()) <= {0, 1}
    return {divmod(int(action), n) for action in np.flatnonzero(mask)}


def core_planes(grid, planes):
    n = len(grid)
    out = np.full((planes, n, n), 7, dtype=np.int8)
    Bitboard(grid).write_planes(out)
    return out


@settings(max_examples=200, deadline=None)
@given(grids(max_size=14))
def test_the_naming_cells_are_those_normalize_gives(grid):
    assert core_naming_cells(grid) == naming_cells_by_normalize(grid)


@settings(max_examples=300, deadline=None)
@given(grids(), st.integers(0, 1))
def test_the_planes_are_the_rows_cell_by_cell(grid, extra_types):
    # a game may declare more types than the board still holds: their planes are empty
    planes = int(max(ch for row in grid for ch in row if ch != rules.EMPTY)) + 2 + extra_types
    assert (core_planes(grid, planes) == planes_cell_by_cell(grid, planes)).all()


@pytest.mark.parametrize("grid", EMPTY_AND_TINY)
def test_empty_and_tiny_boards(grid):
    assert Bitboard(grid).rows() == grid
    assert core_naming_cells(grid) == naming_cells_by_normalize(grid)
    assert (core_planes(grid, 9) == planes_cell_by_cell(grid, 9)).all()


@settings(max_examples=60, deadline=None)
@given(grids(max_size=10), st.data())
def test_a_board_s_groups_stay_its_own_over_many_moves(grid, data):
    """A core board lists its groups once and reuses them: every move played from one
    board, and each child's own groups, agree with the rules."""
    board = Bitboard(grid)
    while not rules.is_empty(grid):
        assert core_naming_cells(grid) == naming_cells_by_normalize(grid)
        groups = rules.groups(grid)
        assert board.group_count() == len(groups)
        for group in groups:
            assert board.play(min(group))[0].rows() == rules.play(grid, min(group))[0]
        cell = min(data.draw(st.sampled_from(groups)))
        board, grid = board.play(cell)[0], rules.play(grid, cell)[0]
    assert board.rows() == grid and board.group_count() == 0


@pytest.mark.parametrize("shape", [(9, 2, 3), (9, 3, 2), (2, 2, 2), (3, 2, 2, 1)])
def test_planes_of_the_wrong_shape_are_refused(shape):
    with pytest.raises(ValueError):
        Bitboard(("12", "02")).write_planes(np.zeros(shape, dtype=np.int8))


@pytest.mark.parametrize("array", [np.zeros(3, np.int8), np.zeros(5, np.int8), np.zeros(4, np.int64)])
def test_a_mask_of_the_wrong_size_or_type_is_refused(array):
    with pytest.raises(ValueError):
        Bitboard(("12", "02")).write_naming_cells(array)
