"""The PettingZoo AEC environment, read by PettingZoo's own conformance tests and by the
project's referee."""

import warnings

import numpy as np
import pytest
from envs_helpers import referee_margin
from pettingzoo.test import api_test, seed_test

from agent import Board
from agent.envs import encoding
from agent.envs.pettingzoo import env, raw_env

SIZES = [(1, 1), (2, 3), (4, 3), (6, 4), (12, 9), (26, 9)]
# What api_test says of every environment whose observation is a dict with an action
# mask, PettingZoo's own board games included.
DICT_OBSERVATION_NOTES = ("Observation space for each agent probably should be", "Observation is not a NumPy array")
pytestmark = [pytest.mark.filterwarnings(f"ignore:{note}:UserWarning") for note in DICT_OBSERVATION_NOTES]


@pytest.mark.parametrize("size, types", SIZES)
def test_pettingzoo_api_test_passes_with_no_other_note(size, types):
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always")
        api_test(env(size=size, types=types), num_cycles=1000)
    assert [str(note.message) for note in notes if not str(note.message).startswith(DICT_OBSERVATION_NOTES)] == []


@pytest.mark.parametrize("size, types", SIZES)
def test_pettingzoo_seed_test_passes(size, types):
    seed_test(lambda: env(size=size, types=types), num_cycles=1000)


def test_api_test_passes_on_a_given_board_and_with_outcome_rewards():
    api_test(env(board=Board(["*01", "001", "221"]), reward="outcome"), num_cycles=100)


def random_rollout(game, seed):
    """(each player's summed rewards, the moves, the starting board) of a game of random
    legal actions through the AEC loop."""
    game.reset(seed=seed)
    start, size = game.unwrapped.board, game.unwrapped.size
    choices = np.random.default_rng(seed)
    returns = dict.fromkeys(game.possible_agents, 0)
    moves = []
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        returns[agent] += reward
        action = None
        if not (terminated or truncated):
            action = int(choices.choice(np.flatnonzero(observation["action_mask"])))
            moves.append(encoding.move_of(action, size))
        game.step(action)
    return returns, moves, start


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("size, types", [(3, 2), (8, 4), (26, 9)])
def test_a_random_game_s_returns_are_the_margin_the_referee_records(seed, size, types):
    returns, moves, start = random_rollout(env(size=size, types=types), seed)
    margin = referee_margin(start, moves)
    assert returns == {"player_0": margin, "player_1": -margin}


@pytest.mark.parametrize("seed", range(6))
def test_outcome_rewards_are_the_sign_of_the_referee_s_margin(seed):
    returns, moves, start = random_rollout(env(size=4, types=2, reward="outcome"), seed)
    result = encoding.outcome(referee_margin(start, moves))
    assert returns == {"player_0": result, "player_1": -result}


def test_an_illegal_action_ends_the_game_as_pettingzoo_s_board_games_end_it():
    game = env(board=Board(["*01", "001", "221"]), render_mode="ansi")
    game.reset()
    game.step(4)  # a cell of the 0s' group, not the group's naming cell (A2, action 3)
    assert game.terminations == {"player_0": True, "player_1": True}
    assert game.rewards == {"player_0": -1, "player_1": 0}
    assert game.render() == "*01\n001\n221\npoints: player_0 0, player_1 0; game over\n"


def test_the_raw_environment_refuses_an_illegal_action():
    game = raw_env(board=Board(["*01", "001", "221"]))
    game.reset()
    with pytest.raises(ValueError, match="not the naming cell"):
        game.step(0)


def test_a_seed_draws_the_project_s_board_and_only_the_mover_has_legal_actions():
    game = raw_env(size=5, types=3)
    game.reset(seed=7)
    first = game.board
    game.reset(seed=7)
    assert game.board == first and game.board.types == 3 and game.board.fruit == 25
    mover = game.observe("player_0")
    assert np.array_equal(mover["observation"], encoding.planes(first, 3))
    assert np.array_equal(mover["action_mask"], encoding.action_mask(first))
    assert not game.observe("player_1")["action_mask"].any()


def test_render_gives_the_rows_and_points_or_an_image():
    game = raw_env(board=Board(["01", "21"]), render_mode="ansi")
    game.reset()
    game.step(3)  # B2: the two 1s, 4 points
    assert game.render() == "0*\n2*\npoints: player_0 4, player_1 0; player_1 to move\n"
    image = raw_env(board=Board(["01", "21"]), render_mode="rgb_array")
    image.reset()
    picture = image.render()
    assert picture.shape == (32, 32, 3) and picture.dtype == np.uint8
    assert len({tuple(picture[8, 8]), tuple(picture[8, 24]), tuple(picture[24, 8])}) == 3


@pytest.mark.parametrize(
    "options, message",
    [
        ({"reward": "margin"}, "reward must be"),
        ({"render_mode": "human"}, "render_mode must be"),
        ({"size": 27}, "size of 1..26"),
        ({"board": Board(["03", "12"]), "types": 3}, "fruit type 3"),
    ],
)
def test_a_wrong_option_is_refused_when_the_environment_is_made(options, message):
    with pytest.raises(ValueError, match=message):
        raw_env(**options)
