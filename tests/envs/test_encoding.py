"""The shared encoding: planes, actions and masks read off exact boards."""

import numpy as np
import pytest

from agent import Board, Move
from agent.envs import encoding


def test_the_planes_of_a_board_are_its_fruit_types_then_its_holes():
    board = Board(["1*", "02"])
    planes = encoding.planes(board, 3)
    assert planes.shape == encoding.observation_shape(2, 3) == (4, 2, 2)
    assert planes.dtype == np.int8
    assert planes.tolist() == [
        [[0, 0], [1, 0]],  # fruit 0
        [[1, 0], [0, 0]],  # fruit 1
        [[0, 0], [0, 1]],  # fruit 2
        [[0, 1], [0, 0]],  # the holes
    ]


def test_the_mask_holds_one_action_per_group_its_naming_cell():
    board = Board(["001", "011", "221"])
    mask = encoding.action_mask(board)
    named = {encoding.move_of(action, 3) for action in np.flatnonzero(mask)}
    assert named == {group.move for group in board.groups()} == {Move(1, 0), Move(1, 1), Move(2, 0)}
    assert named == {board.normalize(Move(row, col)) for row in range(3) for col in range(3)}


@pytest.mark.parametrize(
    "seed, size, types", [(seed, 5, 2) for seed in range(20)] + [(seed, 12, 4) for seed in range(8)] + [(0, 26, 9)]
)
def test_the_legal_actions_are_the_board_s_legal_moves_on_random_positions(seed, size, types):
    board = Board.random(seed, size, types)
    moves = np.random.default_rng(seed)
    while not board.is_over:
        actions = encoding.legal_actions(board)
        assert [encoding.move_of(action, size) for action in actions] == board.legal_moves()
        board, _ = board.play(encoding.move_of(moves.choice(actions), size))
    assert encoding.legal_actions(board) == [] and not encoding.action_mask(board).any()


@pytest.mark.parametrize("action", [0, 1, 4, 9, -1, "A1", 2.0])
def test_only_a_naming_cell_is_a_legal_action(action):
    mask = encoding.action_mask(Board(["*01", "001", "221"]))
    # the groups' naming cells: A2 (action 3), A3 (6) and C3 (8)
    assert [encoding.is_legal(mask, legal) for legal in (3, np.int32(6), 8)] == [True] * 3
    assert not encoding.is_legal(mask, action)


def test_a_board_with_a_type_beyond_the_declared_ones_is_refused():
    with pytest.raises(ValueError, match="fruit type 3"):
        encoding.check_board(Board(["03", "12"]), 3)
