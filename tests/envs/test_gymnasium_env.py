"""The Gymnasium environment FruitRage-v0, read by Gymnasium's own env_checker and by the
project's referee."""

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from envs_helpers import mean_returns_against_greedy, referee_margin_against_greedy
from gymnasium.utils.env_checker import check_env

from agent import Board, SearchPlayer
from agent.envs import encoding
from agent.envs.gymnasium import ENV_ID, FruitRageEnv
from agent.envs.regret import regrets


@pytest.mark.parametrize(
    "options",
    [
        {"size": 1, "types": 1},
        {"size": 4, "types": 3},
        {"size": 8, "types": 4, "learner": "second", "opponent": "random"},
        {"size": 6, "types": 3, "reward": "outcome", "opponent": "ours", "opponent_options": {"nodes": 500}},
        {"size": 5, "types": 3, "reward": "normalised", "regret": True},
        {"size": 4, "types": 2, "render_mode": "rgb_array"},
        {"size": 26, "types": 9, "opponent": "greedy"},
        {"board": Board(["*01", "001", "221"]), "opponent": SearchPlayer(nodes=100)},
    ],
)
def test_gymnasium_check_env_passes_with_no_warning(options):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(ENV_ID, **options).unwrapped)


def learner_episode(env, seed):
    """(the rewards, the learner's moves) of an episode of random legal actions."""
    observation, info = env.reset(seed=seed)
    choices = np.random.default_rng(seed)
    rewards, moves, terminated = [], [], False
    while not terminated:
        action = int(choices.choice(np.flatnonzero(info["action_mask"])))
        moves.append(encoding.move_of(action, env.unwrapped.size))
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        assert not truncated and env.observation_space.contains(observation)
    return rewards, moves


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("size, types", [(4, 2), (10, 4), (26, 9)])
@pytest.mark.parametrize("learner", ["first", "second"])
def test_an_episode_against_greedy_returns_the_margin_the_referee_records(seed, size, types, learner):
    start = Board.random(seed, size, types)
    env = gymnasium.make(ENV_ID, board=start, opponent="greedy", learner=learner)
    rewards, moves = learner_episode(env, seed)
    margin = referee_margin_against_greedy(start, moves, learner_first=learner == "first")
    assert sum(rewards) == margin
    scores = env.unwrapped.scores
    assert scores["learner"] - scores["opponent"] == margin


@pytest.mark.parametrize("seed", range(5))
def test_outcome_rewards_come_at_the_end_as_the_sign_of_the_margin(seed):
    start = Board.random(seed, 5, 2)
    rewards, moves = learner_episode(FruitRageEnv(board=start, reward="outcome", opponent="greedy"), seed)
    assert rewards[:-1] == [0] * (len(rewards) - 1)
    assert rewards[-1] == encoding.outcome(referee_margin_against_greedy(start, moves, learner_first=True))


@pytest.mark.parametrize("reward, forfeit", [("points", -22.0), ("normalised", -22 / 81), ("outcome", -1.0)])
def test_an_illegal_action_forfeits_more_than_the_fruit_left_could_give(reward, forfeit):
    board = Board(["*01", "001", "221"])  # three 0s, three 1s, two 2s: at most 9 + 9 + 4 points
    env = FruitRageEnv(board=board, reward=reward, render_mode="ansi")
    env.reset()
    observation, reward, terminated, truncated, info = env.step(4)  # not a naming cell
    assert (reward, terminated, truncated) == (forfeit, True, False)
    assert (
        np.array_equal(observation, encoding.observation(board, 3, 0, [0, 0], 3**4)) and not info["action_mask"].any()
    )
    assert env.render().endswith("game over\n")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(3)


@pytest.mark.parametrize("action, error", [(99, ValueError), (-1, ValueError), (1.0, TypeError), (True, TypeError)])
def test_an_action_that_is_no_cell_is_an_error_and_the_episode_goes_on(action, error):
    env = FruitRageEnv(board=Board(["*01", "001", "221"]))
    env.reset()
    with pytest.raises(error, match="whole number|outside the 3x3 board"):
        env.step(action)
    assert env.step(np.array(3))[2] is False  # a 0-d integer array, as Stable-Baselines3 gives, is played


def test_with_regret_each_step_s_info_holds_the_learner_s_move_s_regret():
    env = FruitRageEnv(size=4, types=3, opponent="random", regret=True)
    observation, info = env.reset(seed=5)
    choices, terminated = np.random.default_rng(5), False
    while not terminated:
        before = env.unwrapped.board
        action = int(choices.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        assert info["regret"] == regrets(before)[encoding.move_of(action, 4)]


def test_the_observation_holds_the_learner_s_side_and_both_players_points():
    env = FruitRageEnv(board=Board(["*01", "001", "221"]), learner="second", opponent="greedy")
    observation, info = env.reset()  # greedy took the three 0s (A2), the first of the largest
    assert env.scores == {"learner": 0, "opponent": 9}
    assert observation[4].min() == 1  # player 1, the learner, to move
    assert observation[5].max() == np.float32(9 / 81) and not observation[6].any()


def test_the_opponent_is_the_named_player_or_the_one_given():
    searcher = SearchPlayer(nodes=300)
    assert FruitRageEnv(opponent=searcher).opponent is searcher
    assert FruitRageEnv(opponent="ours", opponent_options={"depth": 2}).opponent.name == "ours(depth=2)"
    assert FruitRageEnv(opponent="ours").opponent.name == "ours(nodes=2000)"  # no clock: episodes repeat
    with pytest.raises(ValueError, match="no built-in player"):
        FruitRageEnv(opponent="alphazero")
    with pytest.raises(TypeError, match="opponent must be"):
        FruitRageEnv(opponent=42)


def test_the_random_opponent_draws_from_the_environment_s_seed():
    def opponent_moves(seed):
        env = FruitRageEnv(board=Board.random(1, 6, 3), opponent="random")
        observation, info = env.reset(seed=seed)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
        return env.unwrapped.board

    assert opponent_moves(1) == opponent_moves(1)
    assert len({opponent_moves(seed).rows for seed in range(6)}) > 1


def test_render_gives_the_rows_and_points_or_an_image():
    env = FruitRageEnv(board=Board(["01", "21"]), render_mode="ansi")
    env.reset()
    assert env.render() == "01\n21\npoints: learner 0, opponent 0; learner to move\n"
    env = FruitRageEnv(board=Board(["01", "21"]), render_mode="rgb_array")
    env.reset()
    assert env.render().shape == (32, 32, 3)


def test_gymnasium_make_finds_the_environment_by_its_module_in_a_fresh_process():
    code = (
        "import gymnasium; "
        "env = gymnasium.make('agent.envs.gymnasium:FruitRage-v0', size=5, types=3); "
        "print(env.spec.id, env.reset(seed=0)[0].shape)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "FruitRage-v0 (7, 5, 5)"


@pytest.mark.parametrize("interface", ["gymnasium", "pettingzoo"])
@pytest.mark.parametrize("reward", ["points", "normalised", "outcome"])
def test_always_playing_an_illegal_action_returns_less_than_random_legal_play(interface, reward):
    """Against greedy on 8x8 boards, over 30 seeded episodes (docs/rl.md gives the figures
    of 200): the forfeit is never the cheapest way out. With outcome rewards it is a loss,
    -1, the bottom of the scale, which random play against greedy also gets every game."""
    means = mean_returns_against_greedy(interface, reward, episodes=30)
    if reward == "outcome":
        assert means["illegal"] == -1.0 <= means["random"]
    else:
        assert means["illegal"] < means["random"]
