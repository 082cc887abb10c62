"""The PettingZoo AEC environment, read by PettingZoo's own conformance tests and by the
project's referee."""

import warnings

import numpy as np
import pytest
from envs_helpers import referee_margin
from pettingzoo.test import api_test, render_test, seed_test

from agent import Board
from agent.envs import encoding
from agent.envs.pettingzoo import env, raw_env
from agent.envs.regret import regrets

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


@pytest.mark.parametrize("reward", ["points", "normalised", "outcome"])
def test_api_test_passes_on_a_given_board_with_each_kind_of_reward(reward):
    api_test(env(board=Board(["*01", "001", "221"]), reward=reward), num_cycles=100)


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
    assert all(str(paid) != "-0.0" for paid in returns.values())


def test_an_illegal_action_forfeits_more_than_the_fruit_left_could_give():
    game = env(board=Board(["*01", "001", "221"]), render_mode="ansi")
    game.reset()
    game.step(4)  # a cell of the 0s' group, not the group's naming cell (A2, action 3)
    assert game.terminations == {"player_0": True, "player_1": True}
    # three 0s, three 1s and two 2s: 9 + 9 + 4 points if each type were one group
    assert game.rewards == {"player_0": -22.0, "player_1": 22.0}
    assert game.render() == "*01\n001\n221\npoints: player_0 0, player_1 0; game over\n"


@pytest.mark.parametrize("action, error", [(9, ValueError), (-1, ValueError), (1.0, TypeError), (True, TypeError)])
def test_an_action_that_is_no_cell_is_an_error_that_says_so(action, error):
    game = raw_env(board=Board(["*01", "001", "221"]))
    game.reset()
    with pytest.raises(error, match="whole number|outside the 3x3 board"):
        game.step(action)
    assert not any(game.terminations.values())  # the game goes on


def test_a_legal_action_as_a_0_d_integer_array_is_played():
    game = raw_env(board=Board(["*01", "001", "221"]))
    game.reset()
    game.step(np.array(3))  # what Stable-Baselines3's predict returns
    assert game.scores == {"player_0": 9, "player_1": 0}


def test_a_seed_draws_the_project_s_board_and_only_the_mover_has_legal_actions():
    game = raw_env(size=5, types=3)
    game.reset(seed=7)
    first = game.board
    game.reset(seed=7)
    assert game.board == first and game.board.types == 3 and game.board.fruit == 25
    game.reset(seed=8)
    assert game.board != first
    game.reset(seed=7)
    mover = game.observe("player_0")
    assert np.array_equal(mover["observation"], encoding.observation(first, 3, 0, [0, 0], 5**4))
    assert np.array_equal(mover["action_mask"], encoding.action_mask(first))
    assert not game.observe("player_1")["action_mask"].any()
    with pytest.raises(ValueError, match="no player 'player_7'"):
        game.observe("player_7")


def test_the_observation_says_who_moves_and_each_player_s_points():
    game = raw_env(board=Board(["*01", "001", "221"]))  # most points 3**4
    game.reset()
    game.step(3)  # the three 0s: 9 points
    planes = game.observe("player_1")["observation"]
    assert planes[4].min() == planes[4].max() == 1  # player 1 to move
    assert planes[5].min() == planes[5].max() == np.float32(9 / 81) and not planes[6].any()


def test_normalised_returns_are_the_margin_over_the_most_points():
    game = env(board=Board.random(3, 4, 2), reward="normalised")
    returns, moves, start = random_rollout(game, 3)
    margin = referee_margin(start, moves)
    assert returns["player_0"] == pytest.approx(margin / 4**4)
    assert returns["player_0"] == -returns["player_1"] and -1 <= returns["player_0"] <= 1


@pytest.mark.parametrize("seed", range(3))
def test_with_regret_each_mover_s_info_holds_its_move_s_regret(seed):
    game = raw_env(size=4, types=3, regret=True)
    game.reset(seed=seed)
    choices = np.random.default_rng(seed)
    while not game.board.is_over:
        before, mover = game.board, game.agent_selection
        action = int(choices.choice(np.flatnonzero(game.observe(mover)["action_mask"])))
        game.step(action)
        assert game.infos[mover]["regret"] == regrets(before)[encoding.move_of(action, 4)]


def test_pettingzoo_render_test_passes(capsys):
    render_test(lambda render_mode: env(size=4, types=3, render_mode=render_mode))
    assert "points: player_0" in capsys.readouterr().out  # "human" prints the text


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
        ({"render_mode": "window"}, "render_mode must be"),
        ({"size": 27}, "size must be a whole number of 1..26, not 27"),
        ({"types": 2.5}, "types must be a whole number of 1..9, not 2.5"),
        ({"size": None}, "size must be"),
        ({"size": True}, "size must be"),
        ({"regret": "yes"}, "regret must be True or False"),
        ({"board": Board(["03", "12"]), "types": 3}, "fruit type 3"),
    ],
)
def test_a_wrong_option_is_refused_when_the_environment_is_made(options, message):
    with pytest.raises((TypeError, ValueError), match=message):
        raw_env(**options)
