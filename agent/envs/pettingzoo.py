"""Fruit Rage as a PettingZoo AEC environment: two players, ``player_0`` moving first.

>>> import numpy as np
>>> from agent import Board
>>> from agent.envs.pettingzoo import env
>>> game = env(board=Board(["01", "21"]))
>>> game.reset()
>>> observation, reward, terminated, truncated, info = game.last()
>>> observation["observation"].shape, np.flatnonzero(observation["action_mask"]).tolist()
((7, 2, 2), [0, 2, 3])
>>> game.step(3)  # B2, the naming cell of the two 1s: 4 points
>>> game.rewards
{'player_0': 4.0, 'player_1': -4.0}

Observations, actions and rewards are encoded as agent.envs.encoding says: the
observation is the board's planes with who moves and each player's scaled points, the
same for both players (only the mover's action mask has legal actions); ``reward`` is
``"points"`` (a move's points to the mover and their negative to the other, so a
player's return is its final margin), ``"normalised"`` (the same divided by the game's
most points, in [-1, 1]) or ``"outcome"`` (1, 0 or -1 to each player at the end, as
PettingZoo's board games give). An illegal action forfeits the game: it ends, its mover
loses more than any legal play could cost (encoding.Rewards.of_illegal) and the other
player gains as much.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from agent.board import Board
from agent.envs import encoding, missing_library, regret, rendering

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector, wrappers
except ImportError as error:
    raise missing_library("PettingZoo", error) from error

PLAYERS = ("player_0", "player_1")


def env(**options: Any) -> AECEnv:
    """The environment as PettingZoo's board games come: raw_env (`options` are its), with
    the calls held in order (reset first)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))


class raw_env(AECEnv):
    """A Fruit Rage game between ``player_0`` (first to move) and ``player_1``.

    `board`, an agent.Board, is the start of every game (its size and types then come
    from it unless `types` is given); otherwise each reset draws a new full `size` x
    `size` board of `types` fruit types from the environment's random generator, seeded
    by ``reset(seed=...)``. `reward` is ``"points"``, ``"normalised"`` or ``"outcome"``;
    with `regret`, each move's regret against perfect play (agent.envs.regret, an exact
    search: small boards only) is in its mover's info, ``infos[player]["regret"]``.
    `render_mode` is ``"human"``, ``"ansi"`` or ``"rgb_array"``.

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
        regret: bool = False,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        rendering.check_render_mode(render_mode)
        size, types = encoding.game_shape(size, types, board)
        if not isinstance(regret, bool):
            raise TypeError(f"regret must be True or False, not {regret!r}")
        self.rewards_of = encoding.Rewards(reward, encoding.game_most_points(size))
        self.size, self.types, self.render_mode, self.regret = size, types, render_mode, regret
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
        self.rewards = dict.fromkeys(PLAYERS, 0.0)
        self._cumulative_rewards = dict.fromkeys(PLAYERS, 0.0)
        self.terminations = dict.fromkeys(PLAYERS, False)
        self.truncations = dict.fromkeys(PLAYERS, False)
        self.infos: dict[str, dict[str, Any]] = {player: {} for player in PLAYERS}
        self._turns = AgentSelector(self.agents)
        self.agent_selection = self._turns.reset()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in PLAYERS:
            raise ValueError(f"no player {agent!r}: the players are {', '.join(PLAYERS)}")
        mover = agent == self.agent_selection and not self.terminations[agent]
        mask = self._mask.copy() if mover else np.zeros_like(self._mask)
        scores = [self.scores[player] for player in PLAYERS]
        to_move = PLAYERS.index(self.agent_selection)
        planes = encoding.observation(self.board, self.types, to_move, scores, self.rewards_of.most_points)
        return {"observation": planes, "action_mask": mask}

    def step(self, action: Any) -> None:
        mover = self.agent_selection
        if self.terminations[mover] or self.truncations[mover]:
            self._was_dead_step(action)
            return
        index = encoding.action_index(action, self.size)
        other = PLAYERS[1 - PLAYERS.index(mover)]
        self._cumulative_rewards[mover] = 0.0
        self._clear_rewards()
        if not self._mask[index]:
            forfeit = self.rewards_of.of_illegal(self.board)
            self.rewards[mover], self.rewards[other] = forfeit, -forfeit
            self._mask = np.zeros_like(self._mask)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            before, move = self.board, encoding.move_of(index, self.size)
            self.board, points = before.play(move)
            self._mask = encoding.action_mask(self.board)
            self.scores[mover] += points
            if self.regret:
                self.infos[mover]["regret"] = regret.move_regret(before, move)
            self.rewards[mover], self.rewards[other] = (
                self.rewards_of.of_points(points),
                self.rewards_of.of_points(-points),
            )
            if self.board.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
                margin = self.scores[mover] - self.scores[other]
                self.rewards[mover] += self.rewards_of.at_end(margin)
                self.rewards[other] += self.rewards_of.at_end(-margin)
        self.agent_selection = self._turns.next()
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: 'human', 'ansi' or 'rgb_array'")
            return None
        # a forfeit ends the game before the box is empty
        to_move = None if not self.agents or any(self.terminations.values()) else self.agent_selection
        return rendering.render(self.render_mode, self.board, self.scores, to_move)

    def close(self) -> None:
        """Nothing to release: render draws no window."""
