"""The shared encoding: planes, actions, masks and rewards read off exact boards."""

import numpy as np
import pytest

from agent import Board, Move
from agent.envs import encoding


def test_the_observation_is_the_fruit_types_the_holes_the_mover_and_the_scaled_points():
    board = Board(["1*", "02"])
    planes = encoding.observation(board, 3, mover=1, scores=[10, 5], most_points=20)
    assert planes.shape == encoding.observation_shape(2, 3) == (7, 2, 2)
    assert planes.dtype == np.float32
    assert planes.tolist() == [
        [[0, 0], [1, 0]],  # fruit 0
        [[1, 0], [0, 0]],  # fruit 1
        [[0, 0], [0, 1]],  # fruit 2
        [[0, 1], [0, 0]],  # the holes
        [[1, 1], [1, 1]],  # player 1 to move
        [[0.5, 0.5], [0.5, 0.5]],  # player 0's points, 10 of 20
        [[0.25, 0.25], [0.25, 0.25]],  # player 1's, 5 of 20
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


@pytest.mark.parametrize("action", [3, np.int32(6), np.array(8), np.array(0, dtype=np.uint8)])
def test_an_integer_a_numpy_integer_or_a_0_d_integer_array_is_an_action(action):
    assert encoding.action_index(action, 3) == int(action)


@pytest.mark.parametrize(
    "action", [True, np.bool_(False), 2.0, "A1", None, np.array([3]), np.array([3, 4]), np.array(1.0)]
)
def test_anything_else_is_no_action(action):
    with pytest.raises(TypeError, match="whole number"):
        encoding.action_index(action, 3)


@pytest.mark.parametrize("action", [-1, 9, 99])
def test_a_number_outside_the_board_s_cells_is_no_action(action):
    with pytest.raises(ValueError, match="outside the 3x3 board"):
        encoding.action_index(action, 3)


@pytest.mark.parametrize(
    "shape, error, message",
    [
        ((None, 3, None), TypeError, "size must be a whole number of 1..26, not None"),
        ((True, 3, None), TypeError, "size must be"),
        ((2.0, 3, None), TypeError, "size must be"),
        ((27, 3, None), ValueError, "size must be a whole number of 1..26, not 27"),
        ((4, 2.5, None), TypeError, "types must be a whole number of 1..9, not 2.5"),
        ((4, 0, None), ValueError, "types must be"),
        ((4, None, ["01", "10"]), TypeError, "board must be an agent.Board, not list"),
        ((4, None, Board(["**", "**"])), ValueError, "the board is empty"),
    ],
)
def test_a_game_shape_that_makes_no_game_is_refused_by_name(shape, error, message):
    with pytest.raises(error, match=message):
        encoding.game_shape(*shape)


def test_most_points_is_each_type_taken_as_one_group():
    assert encoding.most_points(Board(["1*0", "001", "221"])) == 3 * 3 + 3 * 3 + 2 * 2
    assert encoding.game_most_points(5) == 5**4


@pytest.mark.parametrize("kind", encoding.REWARD_KINDS)
def test_rewards_of_each_kind(kind):
    rewards = encoding.Rewards(kind, most_points=100)
    board = Board(["1*0", "001", "221"])  # most points 22
    paid = {"points": (25.0, 0.0, -22.0), "normalised": (0.25, 0.0, -0.22), "outcome": (0.0, 1.0, -1.0)}[kind]
    assert (rewards.of_points(25), rewards.at_end(7), rewards.of_illegal(board)) == paid
    assert str(rewards.of_points(0)) == str(rewards.of_points(-0)) == "0.0"  # never -0.0
    with pytest.raises(ValueError, match="reward must be one of points, normalised, outcome, not 'margin'"):
        encoding.Rewards("margin", 100)


def test_a_board_with_a_type_beyond_the_declared_ones_is_refused():
    with pytest.raises(ValueError, match="fruit type 3"):
        encoding.check_board(Board(["03", "12"]), 3)
