"""Fruit Rage as a Gymnasium environment, ``FruitRage-v0``: the learner plays one side of
a game against one of the project's players.

>>> import gymnasium
>>> import agent.envs.gymnasium  # registers FruitRage-v0
>>> from agent import Board
>>> env = gymnasium.make("FruitRage-v0", board=Board(["01", "21"]), opponent="greedy")
>>> observation, info = env.reset()
>>> observation.shape, info["action_mask"].tolist()
((7, 2, 2), [1, 0, 1, 1])
>>> observation, reward, terminated, truncated, info = env.step(3)  # B2: 4 points
>>> reward, terminated  # and greedy's reply took a single fruit, 1 point
(3.0, False)

Observations, actions and rewards are encoded as agent.envs.encoding says, with the
legal actions in ``info["action_mask"]``; the learner is player 0 when it moves first,
player 1 when second. A step is the learner's move and the opponent's reply. With
``reward="points"`` its reward is the learner's points minus the opponent's (the
opponent's opening move, when the learner is second, counts in the first step), so an
episode's return is the learner's final margin; ``"normalised"`` divides that by the
game's most points (a return in [-1, 1]); ``"outcome"`` gives 1, 0 or -1 at the end. An
illegal action forfeits: the episode ends with a reward worse than any legal play could
end it (encoding.Rewards.of_illegal). An action that is no cell (a float, a bool, a
number outside 0..size*size-1) is an error, as in PettingZoo.

With ``regret=True`` each step's info holds the learner's move's regret against perfect
play, ``info["regret"]`` (agent.envs.regret: an exact search, so small boards only).
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np

from agent.board import Board
from agent.envs import encoding, missing_library, regret, rendering
from agent.players import Player, RandomPlayer, player_from_name

try:
    import gymnasium
except ImportError as error:
    raise missing_library("Gymnasium", error) from error

ENV_ID = "FruitRage-v0"
# The CPU seconds an opponent is told it has left for each move: a player with a node or
# depth limit ignores it; one on the time policy spends a share of it.
OPPONENT_CLOCK = 300.0
# "ours" named with no options searches this many nodes a move: a step takes milliseconds
# and a seeded episode repeats, where the time policy would think for seconds, differently
# each run.
OURS_NODES = 2000
LEARNER_SIDES = ("first", "second")


class FruitRageEnv(gymnasium.Env):
    """A game against `opponent`: a Player (e.g. ``agent.SearchPlayer(nodes=2000)``) or a
    built-in player's name (``"random"``, ``"greedy"``, ``"minimax3"``, ``"ours"``) made
    with `opponent_options` (agent.players.player_from_name; ``"ours"`` with none searches
    OURS_NODES nodes a move, and ``"random"`` with no seed draws its moves from the
    environment's random generator).

    `board`, an agent.Board, is the start of every game; otherwise each reset draws a new
    full `size` x `size` board of `types` fruit types from the environment's random
    generator (seeded by ``reset(seed=...)``). `learner` is ``"first"`` or ``"second"``
    to move; `reward` ``"points"``, ``"normalised"`` or ``"outcome"``; `regret` puts the
    learner's move's regret in each step's info; `render_mode` ``"human"``, ``"ansi"`` or
    ``"rgb_array"``.
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
        regret: bool = False,
        render_mode: Optional[str] = None,
    ) -> None:
        if learner not in LEARNER_SIDES:
            raise ValueError(f"learner must be 'first' or 'second', not {learner!r}")
        if not isinstance(regret, bool):
            raise TypeError(f"regret must be True or False, not {regret!r}")
        rendering.check_render_mode(render_mode)
        size, types = encoding.game_shape(size, types, board)
        self.size, self.types, self.given_board = size, types, board
        self.rewards_of = encoding.Rewards(reward, encoding.game_most_points(size))
        self.opponent, self._draws_random_seeds = opponent_of(opponent, opponent_options)
        self.learner, self.regret, self.render_mode = learner, regret, render_mode
        self._learner_index = LEARNER_SIDES.index(learner)
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
        if self._draws_random_seeds:
            self.opponent = RandomPlayer(seed=int(self.np_random.integers(2**31)))
        self.scores = {"learner": 0, "opponent": 0}
        self._mover = 0
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
        index = encoding.action_index(action, self.size)
        if not self._mask[index]:
            self._mask = np.zeros_like(self._mask)  # the game ends here, on the board as it is
            return self._observation(), self.rewards_of.of_illegal(self.board), True, False, self._info()
        before, move = self.board, encoding.move_of(index, self.size)
        self.board, points = before.play(move)
        info = {"regret": regret.move_regret(before, move)} if self.regret else {}
        self.scores["learner"] += points
        self._mover = 1 - self._learner_index
        replied = 0 if self.board.is_over else self._opponent_moves()
        self._mask = encoding.action_mask(self.board)
        terminated = self.board.is_over
        reward = self.rewards_of.of_points(points - replied - self._opening_points)
        self._opening_points = 0
        if terminated:
            reward += self.rewards_of.at_end(self.scores["learner"] - self.scores["opponent"])
        return self._observation(), reward, terminated, False, {**self._info(), **info}

    def _opponent_moves(self) -> int:
        # any cell of a group plays it, as the referee takes it: the player's own name stands
        self.board, points = self.board.play(self.opponent.choose(self.board, OPPONENT_CLOCK))
        self.scores["opponent"] += points
        self._mover = self._learner_index
        return points

    def _observation(self) -> np.ndarray:
        by_player = [self.scores["learner"], self.scores["opponent"]]
        if self._learner_index == 1:
            by_player.reverse()
        return encoding.observation(self.board, self.types, self._mover, by_player, self.rewards_of.most_points)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "scores": dict(self.scores)}

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: 'human', 'ansi' or 'rgb_array'")
            return None
        to_move = "learner" if self._mask.any() else None
        return rendering.render(self.render_mode, self.board, self.scores, to_move)


def opponent_of(opponent: Union[str, Player], options: Optional[dict[str, Any]]) -> tuple[Player, bool]:
    """(the opponent, whether each reset seeds it anew): a Player as it is, or the
    built-in player of that name made with `options`."""
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"opponent_options must be a dict of the player's options, not {options!r}")
    if not isinstance(opponent, str):
        if options:
            raise ValueError("opponent_options are for an opponent given by its name")
        if not callable(getattr(opponent, "choose", None)):
            raise TypeError(f"opponent must be a player's name or a Player (with choose), not {opponent!r}")
        return opponent, False
    options = dict(options or {})
    if opponent == "ours" and not options:
        options["nodes"] = OURS_NODES
    return player_from_name(opponent, **options), opponent == "random" and "seed" not in options


gymnasium.register(id=ENV_ID, entry_point="agent.envs.gymnasium:FruitRageEnv")
