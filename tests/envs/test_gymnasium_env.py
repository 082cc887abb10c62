"""The Gymnasium environment FruitRage-v0, read by Gymnasium's own env_checker and by the
project's referee."""

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from envs_helpers import referee_margin_against_greedy
from gymnasium.utils.env_checker import check_env

from agent import Board, SearchPlayer
from agent.envs import encoding
from agent.envs.gymnasium import ENV_ID, FruitRageEnv


@pytest.mark.parametrize(
    "options",
    [
        {"size": 1, "types": 1},
        {"size": 4, "types": 3},
        {"size": 8, "types": 4, "learner": "second", "opponent": "random"},
        {"size": 6, "types": 3, "reward": "outcome", "opponent": "ours", "opponent_options": {"nodes": 500}},
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


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward():
    board = Board(["*01", "001", "221"])
    env = FruitRageEnv(board=board, illegal_reward=-5.0, render_mode="ansi")
    env.reset()
    observation, reward, terminated, truncated, info = env.step(4)  # not a naming cell
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert np.array_equal(observation, encoding.planes(board, 3)) and not info["action_mask"].any()
    assert env.render().endswith("game over\n")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(3)


def test_the_opponent_is_the_named_player_or_the_one_given():
    searcher = SearchPlayer(nodes=300)
    assert FruitRageEnv(opponent=searcher).opponent is searcher
    assert FruitRageEnv(opponent="ours", opponent_options={"depth": 2}).opponent.name == "ours(depth=2)"
    with pytest.raises(ValueError, match="no built-in player"):
        FruitRageEnv(opponent="alphazero")


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
    assert done.stdout.split("\n")[0] == "FruitRage-v0 (4, 5, 5)"
