"""The environments' speed: a random game on a full 26x26 p9 board, through the
PettingZoo AEC loop (every step observed, masked and played on the core), and the same
kind of game through the plain-Python rules, the speed the environments would have
without the core. Run as the other benchmarks (see test_bench_core.py)."""

import numpy as np

from agent import Board, rules
from agent.envs.pettingzoo import raw_env


def aec_random_game(game, seed):
    """The number of moves of a random game through the AEC API."""
    game.reset(seed=seed)
    choices = np.random.default_rng(seed)
    moves = 0
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        game.step(int(choices.choice(np.flatnonzero(observation["action_mask"]))))
        moves += 1
    return moves


def rules_random_game(seed):
    """The number of moves of a random game played with agent.rules."""
    grid = Board.random(seed, 26, 9).rows
    choices = np.random.default_rng(seed)
    moves = 0
    while not rules.is_empty(grid):
        groups = rules.groups(grid)
        grid = rules.remove_and_fall(grid, groups[choices.integers(len(groups))])
        moves += 1
    return moves


def test_bench_a_random_26x26_game_through_the_aec_api(benchmark):
    game = raw_env(size=26, types=9)
    moves = benchmark(aec_random_game, game, 1)
    benchmark.extra_info["steps per second"] = moves / benchmark.stats.stats.mean


def test_bench_a_random_26x26_game_through_the_plain_python_rules(benchmark):
    moves = benchmark(rules_random_game, 1)
    benchmark.extra_info["steps per second"] = moves / benchmark.stats.stats.mean
