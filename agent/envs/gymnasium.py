"""Fruit Rage as a Gymnasium environment, ``FruitRage-v0``: the learner plays one side of
a game against one of the project's players.

>>> import gymnasium
>>> import agent.envs.gymnasium  # registers FruitRage-v0
>>> from agent import Board
>>> env = gymnasium.make("FruitRage-v0", board=Board(["01", "21"]), opponent="greedy")
>>> observation, info = env.reset()
>>> observation.shape, info["action_mask"].tolist()
((4, 2, 2), [1, 0, 1, 1])
>>> observation, reward, terminated, truncated, info = env.step(3)  # B2: 4 points
>>> reward, terminated  # and greedy's reply took a single fruit, 1 point
(3.0, False)

Observations and actions are encoded as agent.envs.encoding says, with the legal actions
in ``info["action_mask"]``. A step is the learner's move and the opponent's reply; with
``reward="points"`` its reward is the learner's points minus the opponent's (the
opponent's opening move, when the learner is second, counts in the first step), so an
episode's return is the learner's final margin; with ``reward="outcome"`` it is 1, 0 or
-1 at the end. An illegal action ends the episode with `illegal_reward`, as PettingZoo's
board games end one.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np

from agent.board import Board
from agent.envs import encoding, missing_library, rendering
from agent.players import Player, player_from_name

try:
    import gymnasium
except ImportError as error:
    raise missing_library("Gymnasium", error) from error

ENV_ID = "FruitRage-v0"
# The CPU seconds an opponent is told it has left for each move: a player with a node or
# depth limit ignores it; one on the time policy spends a share of it.
OPPONENT_CLOCK = 300.0
LEARNER_SIDES = ("first", "second")


class FruitRageEnv(gymnasium.Env):
    """A game against `opponent`: a Player (e.g. ``agent.SearchPlayer(nodes=2000)``) or a
    built-in player's name (``"random"``, ``"greedy"``, ``"minimax3"``, ``"ours"``) made
    with `opponent_options` (agent.players.player_from_name).

    `board`, an agent.Board, is the start of every game; otherwise each reset draws a full
    `size` x `size` board of `types` fruit types from the seed. `learner` is ``"first"``
    or ``"second"`` to move; `reward` ``"points"`` or ``"outcome"``; `render_mode`
    ``"ansi"`` or ``"rgb_array"``.
    """

    metadata = {"render_modes": list(rendering.RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        size: int = 8,
        types: Optional[int] = None,
        board: Optional[Board] = None,
        opponent: Union[str, Player] = "greedy",
        opponent_options: Optional[dict[str, Any]] = None,
        learner: str = "first",
        reward: str = "points",
        illegal_reward: float = -1.0,
        render_mode: Optional[str] = None,
    ) -> None:
        encoding.check_reward_kind(reward)
        if learner not in LEARNER_SIDES:
            raise ValueError(f"learner must be 'first' or 'second', not {learner!r}")
        rendering.check_render_mode(render_mode)
        size, types = encoding.game_shape(size, types, board)
        self.size, self.types, self.given_board = size, types, board
        self.opponent = (
            player_from_name(opponent, **(opponent_options or {})) if isinstance(opponent, str) else opponent
        )
        self.learner, self.reward_kind, self.illegal_reward = learner, reward, illegal_reward
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(
            0, 1, encoding.observation_shape(size, types), dtype=encoding.OBSERVATION_DTYPE
        )
        self.action_space = gymnasium.spaces.Discrete(size * size)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if self.given_board is not None:
            self.board = self.given_board
        else:
            self.board = Board.random(int(self.np_random.integers(2**31)), self.size, self.types)
        self.scores = {"learner": 0, "opponent": 0}
        self._opening_points = 0
        if self.learner == "second":
            self._opening_points = self._opponent_moves()
            if self.board.is_over:
                raise ValueError("the opponent's first move empties the board: no game is left to learn from")
        self._mask = encoding.action_mask(self.board)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self._mask.any():
            raise RuntimeError("the game is over: reset() starts the next")
        if not encoding.is_legal(self._mask, action):
            self._mask = np.zeros_like(self._mask)  # the game ends here, on the board as it is
            return self._observation(), float(self.illegal_reward), True, False, self._info()
        self.board, points = self.board.play(encoding.move_of(action, self.size))
        self.scores["learner"] += points
        replied = 0 if self.board.is_over else self._opponent_moves()
        self._mask = encoding.action_mask(self.board)
        terminated = self.board.is_over
        if self.reward_kind == "points":
            reward = points - replied - self._opening_points
            self._opening_points = 0
        else:
            reward = encoding.outcome(self.scores["learner"] - self.scores["opponent"]) if terminated else 0
        return self._observation(), float(reward), terminated, False, self._info()

    def _opponent_moves(self) -> int:
        # any cell of a group plays it, as the referee takes it: the player's own name stands
        self.board, points = self.board.play(self.opponent.choose(self.board, OPPONENT_CLOCK))
        self.scores["opponent"] += points
        return points

    def _observation(self) -> np.ndarray:
        return encoding.planes(self.board, self.types)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "scores": dict(self.scores)}

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: 'ansi' or 'rgb_array'")
            return None
        if self.render_mode == "ansi":
            return rendering.ansi(self.board, self.scores, "learner" if self._mask.any() else None)
        return rendering.rgb(self.board)


gymnasium.register(id=ENV_ID, entry_point="agent.envs.gymnasium:FruitRageEnv")
