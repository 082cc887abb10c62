"""The environments' speed: a random game on a full 26x26 p9 board, through the
PettingZoo AEC loop (every step observed, masked and played on the core), and the same
kind of game through the plain-Python rules, the speed the environments would have
without the core. Each reports its steps a second, and the second the ratio of the two
(issue 61 asks for at least 20): run both, in this order, as

    python3 -m pytest tests/benchmarks/test_bench_envs.py -p no:xdist --benchmark-only \
        --benchmark-timer=time.process_time

(see test_bench_core.py for comparing runs)."""

import numpy as np

from agent import Board, rules
from agent.envs.pettingzoo import raw_env

# steps a second of each rollout, for the ratio
MEASURED: dict[str, float] = {}


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
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(legal[choices.integers(len(legal))]))
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
    MEASURED["aec"] = moves / benchmark.stats.stats.mean
    benchmark.extra_info["steps per second"] = round(MEASURED["aec"])


def test_bench_a_random_26x26_game_through_the_plain_python_rules(benchmark):
    moves = benchmark(rules_random_game, 1)
    MEASURED["rules"] = moves / benchmark.stats.stats.mean
    benchmark.extra_info["steps per second"] = round(MEASURED["rules"])
    if "aec" in MEASURED:
        benchmark.extra_info["aec api / plain rules"] = round(MEASURED["aec"] / MEASURED["rules"], 1)
