"""Fruit Rage as a PettingZoo AEC environment: two players, ``player_0`` moving first.

>>> import numpy as np
>>> from agent import Board
>>> from agent.envs.pettingzoo import env
>>> game = env(board=Board(["01", "21"]))
>>> game.reset()
>>> observation, reward, terminated, truncated, info = game.last()
>>> observation["observation"].shape, np.flatnonzero(observation["action_mask"]).tolist()
((4, 2, 2), [0, 2, 3])
>>> game.step(3)  # B2, the naming cell of the two 1s: 4 points
>>> game.rewards
{'player_0': 4, 'player_1': -4}

Observations and actions are encoded as agent.envs.encoding says. The reward of a move,
with ``reward="points"``, is its points to the mover and minus them to the other, so a
player's return is its final margin; with ``reward="outcome"`` it is 1, 0 or -1 to each
player at the end (a win, a draw, a loss), as PettingZoo's board games give.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from agent.board import Board
from agent.envs import encoding, missing_library, rendering

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector, wrappers
except ImportError as error:
    raise missing_library("PettingZoo", error) from error

PLAYERS = ("player_0", "player_1")


def env(illegal_reward: float = -1.0, **options: Any) -> AECEnv:
    """The environment as PettingZoo's board games come: an illegal action ends the game,
    scoring `illegal_reward` to the player who made it (TerminateIllegalWrapper); an action
    outside the space is an error; and the calls must come in order (reset first).
    `options` are raw_env's."""
    game: AECEnv = raw_env(**options)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=illegal_reward)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


class raw_env(AECEnv):
    """A Fruit Rage game between ``player_0`` (first to move) and ``player_1``.

    `board`, an agent.Board, is the start of every game (its size and types then come
    from it unless `types` is given); otherwise each reset draws a full `size` x `size`
    board of `types` fruit types from the environment's seed (``reset(seed=...)``).
    `reward` is ``"points"`` or ``"outcome"``; `render_mode` ``"ansi"`` or ``"rgb_array"``.
    An illegal action raises ValueError here; env() ends the game instead.

    ``scores`` holds each player's points so far and ``board`` the position.
    """

    metadata = {
        "render_modes": list(rendering.RENDER_MODES),
        "name": "fruit_rage_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        size: int = 8,
        types: Optional[int] = None,
        board: Optional[Board] = None,
        reward: str = "points",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        encoding.check_reward_kind(reward)
        rendering.check_render_mode(render_mode)
        size, types = encoding.game_shape(size, types, board)
        self.size, self.types, self.reward_kind, self.render_mode = size, types, reward, render_mode
        self.given_board = board
        self.possible_agents = list(PLAYERS)
        shape = encoding.observation_shape(size, types)
        self.observation_spaces = {
            player: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0, 1, shape, dtype=encoding.OBSERVATION_DTYPE),
                    "action_mask": gymnasium.spaces.Box(0, 1, (size * size,), dtype=np.int8),
                }
            )
            for player in PLAYERS
        }
        self.action_spaces = {player: gymnasium.spaces.Discrete(size * size) for player in PLAYERS}
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        if self.given_board is not None:
            self.board = self.given_board
        else:
            self.board = Board.random(int(self._seeds.integers(2**31)), self.size, self.types)
        self._mask = encoding.action_mask(self.board)
        self.agents = list(PLAYERS)
        self.scores = dict.fromkeys(PLAYERS, 0)
        self.rewards = dict.fromkeys(PLAYERS, 0)
        self._cumulative_rewards = dict.fromkeys(PLAYERS, 0)
        self.terminations = dict.fromkeys(PLAYERS, False)
        self.truncations = dict.fromkeys(PLAYERS, False)
        self.infos: dict[str, dict[str, Any]] = {player: {} for player in PLAYERS}
        self._turns = AgentSelector(self.agents)
        self.agent_selection = self._turns.reset()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mover = agent == self.agent_selection and not self.terminations[agent]
        mask = self._mask.copy() if mover else np.zeros_like(self._mask)
        return {"observation": encoding.planes(self.board, self.types), "action_mask": mask}

    def step(self, action: Any) -> None:
        mover = self.agent_selection
        if self.terminations[mover] or self.truncations[mover]:
            self._was_dead_step(action)
            return
        if not encoding.is_legal(self._mask, action):
            raise ValueError(f"action {action!r} is not the naming cell of a group on the board")
        self.board, points = self.board.play(encoding.move_of(action, self.size))
        self._mask = encoding.action_mask(self.board)
        other = PLAYERS[1 - PLAYERS.index(mover)]
        self.scores[mover] += points
        self._cumulative_rewards[mover] = 0
        self._clear_rewards()
        if self.reward_kind == "points":
            self.rewards[mover], self.rewards[other] = points, -points
        if self.board.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            if self.reward_kind == "outcome":
                result = encoding.outcome(self.scores[mover] - self.scores[other])
                self.rewards[mover], self.rewards[other] = result, -result
        self.agent_selection = self._turns.next()
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: 'ansi' or 'rgb_array'")
            return None
        if self.render_mode == "ansi":
            # an illegal action under env() ends the game before the box is empty
            to_move = None if not self.agents or any(self.terminations.values()) else self.agent_selection
            return rendering.ansi(self.board, self.scores, to_move)
        return rendering.rgb(self.board)

    def close(self) -> None:
        """Nothing to release: render draws no window."""
