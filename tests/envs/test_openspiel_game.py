"""The OpenSpiel game python_fruit_rage, read by OpenSpiel's own random_sim_test, and
solved by its alpha_beta_search to the project's exact values."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.minimax import alpha_beta_search

import agent.envs.openspiel  # noqa: F401  (registers python_fruit_rage)
from agent import Board, Limit, search
from agent.envs import encoding


@pytest.mark.parametrize(
    "parameters", ["size=1,types=1,seed=0", "size=3,types=2,seed=4", "size=6,types=4,seed=1", "size=10,types=9,seed=2"]
)
@pytest.mark.parametrize("serialize", [False, True])
def test_openspiel_random_sim_test_passes(parameters, serialize):
    game = pyspiel.load_game(f"python_fruit_rage({parameters})")
    pyspiel.random_sim_test(game, num_sims=5, serialize=serialize, verbose=False)


def test_the_game_is_the_project_s_board_with_its_encoding():
    game = pyspiel.load_game("python_fruit_rage(size=4,types=3,seed=1)")
    board = Board.random(1, 4, 3)
    assert (game.num_distinct_actions(), game.max_game_length(), game.max_utility()) == (16, 16, 256.0)
    assert game.observation_tensor_shape() == [4, 4, 4]
    state = game.new_initial_state()
    assert state.legal_actions() == encoding.legal_actions(board)
    assert np.array_equal(np.reshape(state.observation_tensor(0), (4, 4, 4)), encoding.planes(board, 3))
    assert state.observation_string(1) == "\n".join([*board.rows, "points: 0 0"])
    move = board.legal_moves()[0]
    after, points = board.play(move)
    state.apply_action(encoding.action_of(move, 4))
    assert state.current_player() == 1 and state.board == after
    assert state.observation_string(0).endswith(f"points: {points} 0")


def test_an_action_that_is_not_a_naming_cell_is_refused():
    state = pyspiel.load_game("python_fruit_rage(size=4,types=3,seed=1)").new_initial_state()
    assert 0 not in state.legal_actions()  # A1 lies in the group that A2 names
    with pytest.raises(ValueError, match="not the naming cell"):
        state.apply_action(0)
    assert state.board == Board.random(1, 4, 3)


def test_the_default_game_is_an_eight_by_eight_board_of_four_types():
    state = pyspiel.load_game("python_fruit_rage").new_initial_state()
    assert state.board == Board.random(0, 8, 4)


def exact_value(board: Board) -> int:
    """The mover's margin over the rest of the game with best play, as the agent's search
    solves it."""
    result = search(board, Limit(depth=board.size * board.size))
    assert result.exact
    return result.value


@pytest.mark.parametrize(
    "size, types, seeds", [(3, 2, range(150)), (3, 3, range(30)), (4, 2, range(20)), (4, 3, range(1))]
)
def test_openspiel_alpha_beta_gives_the_project_s_exact_values(size, types, seeds):
    """201 boards in all."""
    for seed in seeds:
        game = pyspiel.load_game(f"python_fruit_rage(size={size},types={types},seed={seed})")
        value, _ = alpha_beta_search(game)
        assert value == exact_value(Board.random(seed, size, types)), seed


@pytest.mark.parametrize("seed", range(10))
def test_alpha_beta_from_a_position_in_play_counts_the_points_already_scored(seed):
    game = pyspiel.load_game(f"python_fruit_rage(size=4,types=3,seed={seed})")
    state = game.new_initial_state()
    choices = np.random.default_rng(seed)
    for _ in range(3):
        if not state.is_terminal():
            state.apply_action(int(choices.choice(state.legal_actions())))
    if state.is_terminal():
        return
    mover = state.current_player()
    value, _ = alpha_beta_search(game, state=state)
    assert value == state.scores[mover] - state.scores[1 - mover] + exact_value(state.board)
