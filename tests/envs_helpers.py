"""Helpers of the environment tests (tests/envs): a player that replays given moves, so
the project's referee can score a game an environment played."""

from agent import Board, GreedyPlayer, Move, play_game


class Replayer:
    """Plays `moves` in order, one a turn."""

    name = "replayer"

    def __init__(self, moves):
        self.moves = iter(moves)

    def choose(self, board, clock_left):
        return next(self.moves)


def referee_margin(board: Board, moves: list[Move]) -> int:
    """The margin of the first mover, as the referee records it, when the two sides
    alternate `moves` on `board`."""
    record = play_game(Replayer(moves[0::2]), Replayer(moves[1::2]), board)
    assert not record.fault and len(record.turns) == len(moves)
    return record.margin


def referee_margin_against_greedy(board: Board, learner_moves: list[Move], learner_first: bool) -> int:
    """The learner's margin, as the referee records it, when it plays `learner_moves`
    against the project's GreedyPlayer."""
    learner, greedy = Replayer(learner_moves), GreedyPlayer()
    record = play_game(learner, greedy, board, first="A" if learner_first else "B")
    assert not record.fault
    return record.margin


def mean_returns_against_greedy(interface: str, reward: str, episodes: int, size: int = 8) -> dict:
    """{"illegal": ..., "random": ...}: the mean return over `episodes` seeded episodes on
    `size` x `size` boards of 4 types against the project's greedy player, of always
    playing an illegal action and of random legal play, through the Gymnasium environment
    ("gymnasium") or PettingZoo's env() with greedy as player_1 ("pettingzoo")."""
    import numpy as np

    from agent.envs import encoding

    def choose(policy, mask, choices):
        if policy == "illegal":
            return int(np.flatnonzero(mask == 0)[0])  # a cell that names no group
        return int(choices.choice(np.flatnonzero(mask)))

    def gymnasium_return(policy, seed):
        from agent.envs.gymnasium import FruitRageEnv

        env = FruitRageEnv(size=size, types=4, opponent="greedy", reward=reward)
        observation, info = env.reset(seed=seed)
        choices, total, terminated = np.random.default_rng(seed), 0.0, False
        while not terminated:
            observation, paid, terminated, truncated, info = env.step(choose(policy, info["action_mask"], choices))
            total += paid
        return total

    def pettingzoo_return(policy, seed):
        from agent.envs.pettingzoo import env

        game, greedy = env(size=size, types=4, reward=reward), GreedyPlayer()
        game.reset(seed=seed)
        choices, total = np.random.default_rng(seed), 0.0
        for player in game.agent_iter():
            observation, paid, terminated, truncated, _ = game.last()
            total += paid if player == "player_0" else 0.0
            if terminated or truncated:
                action = None
            elif player == "player_0":
                action = choose(policy, observation["action_mask"], choices)
            else:
                board = game.unwrapped.board
                action = encoding.action_of(board.normalize(greedy.choose(board, 10.0)), size)
            game.step(action)
        return total

    episode_return = gymnasium_return if interface == "gymnasium" else pettingzoo_return
    return {
        policy: sum(episode_return(policy, seed) for seed in range(episodes)) / episodes
        for policy in ("illegal", "random")
    }
