"""Fruit Rage as an OpenSpiel game, ``python_fruit_rage``: sequential, perfect
information and zero-sum, so OpenSpiel's algorithms (MCTS, alpha-beta, AlphaZero, ...)
play it.

>>> import pyspiel
>>> import agent.envs.openspiel  # registers python_fruit_rage
>>> game = pyspiel.load_game("python_fruit_rage(size=4,types=3,seed=1)")
>>> state = game.new_initial_state()
>>> len(state.legal_actions()), state.action_to_string(state.legal_actions()[0])
(9, 'B1')

The parameters are ``size`` (1..26), ``types`` (1..9), ``seed`` and ``reward``. With a
``seed`` of 0 or more every game starts on the full board agent.Board.random(seed, size,
types), and the game is deterministic (OpenSpiel's alpha-beta solves it); with -1 (the
default) each game deals a new full board by chance, cell by cell in reading order, each
fruit type equally likely: ``size * size`` chance nodes before the first move.
``reward`` (``points``, ``normalised`` or ``outcome``, as agent.envs.encoding says) sets
the returns: player 0's final margin and its negative; that divided by the game's most
points, in [-1, 1]; or 1, 0, -1.

Actions and the observation tensor (the board's planes, who moves and each player's
scaled points: everything a state's value depends on) are encoded as
agent.envs.encoding says; before the deal is done, the cells not dealt yet are 0 on
every plane. The observation string is the rows, top first (``?`` for a cell not dealt
yet), each player's points and who moves (or ``dealing``).

A state's serialisation is its actions, one a line, which deserialisation replays
through the rules (agent.envs.openspiel_strings): no pickle is ever read.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from agent.board import Board
from agent.envs import encoding, missing_library, openspiel_strings

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as error:
    raise missing_library("OpenSpiel", error) from error

DEALT = -1  # the seed of a game whose every board is dealt by chance
DEFAULT_PARAMETERS = {"size": 8, "types": 4, "seed": DEALT, "reward": "points"}
# A state made at a board (FruitRageGame.new_state_at) says so on its serialisation's
# first line, the rows joined by "/".
BOARD_TAG = "board="


def two_player_game_type(short_name: str, long_name: str, parameters: dict, dealt: bool) -> pyspiel.GameType:
    """The GameType of a two-player, sequential, perfect-information, zero-sum game paid
    at its end, with observation strings and tensors: Fruit Rage's and Red-Blue Nim's.
    `dealt`: chance deals the start (explicit chance nodes); else it is deterministic."""
    chance = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if dealt else chance.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


SHORT_NAME = "python_fruit_rage"
LONG_NAME = "Python Fruit Rage"


class FruitRageGame(pyspiel.Game):
    """The game of `params` (size, types, seed, reward; DEFAULT_PARAMETERS for those not
    given)."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        values = {**DEFAULT_PARAMETERS, **(params or {})}
        self.size, self.types = encoding.game_shape(values["size"], values["types"], None)
        seed = values["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < DEALT:
            raise ValueError(f"seed must be a whole number from 0 (that board every game), or -1 (dealt), not {seed!r}")
        self.dealt = seed == DEALT
        self.start = None if self.dealt else Board.random(seed, self.size, self.types)
        self.rewards_of = encoding.Rewards(values["reward"], encoding.game_most_points(self.size))
        cells = self.size * self.size
        bound = self.rewards_of.largest_return()
        info = pyspiel.GameInfo(
            num_distinct_actions=cells,
            max_chance_outcomes=self.types if self.dealt else 0,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=2 * cells if self.dealt else cells,  # the deal, then a fruit a move at most
        )
        game_type = two_player_game_type(SHORT_NAME, LONG_NAME, DEFAULT_PARAMETERS, self.dealt)
        super().__init__(game_type, info, params or {})

    def new_initial_state(self) -> "FruitRageState":
        return FruitRageState(self, self.start)

    def new_state_at(self, board: Board) -> "FruitRageState":
        """A state of this game's size at `board`, player 0 to move, no points scored:
        where a bot is asked for a move in a game played elsewhere."""
        if board.size != self.size:
            raise ValueError(f"the game is {self.size}x{self.size}, the board {board.size}x{board.size}")
        encoding.check_board(board, self.types)
        state = FruitRageState(self, board)
        state.made_at = board
        return state

    def max_chance_nodes_in_history(self) -> int:
        return self.size * self.size if self.dealt else 0

    def deserialize_state(self, text: str) -> "FruitRageState":
        """The state that `text` (FruitRageState.serialize's) names: its actions replayed
        through the rules from the start, or from the board its first line names.
        ValueError for anything else."""
        lines = text.split("\n") if text else []
        if lines and lines[0].startswith(BOARD_TAG):
            try:
                board = Board(lines[0][len(BOARD_TAG) :].split("/"))
            except ValueError as error:
                raise ValueError(f"the state's board is not one: {error}") from None
            return openspiel_strings.replayed(self.new_state_at(board), lines[1:])
        return openspiel_strings.replayed(self.new_initial_state(), lines)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class FruitRageState(pyspiel.State):
    """A position of the game: the board (None until the deal is done, `dealt` holding the
    fruit types dealt so far), each player's points and who moves."""

    def __init__(self, game: FruitRageGame, board: Optional[Board]) -> None:
        super().__init__(game)
        # the state keeps plain values only: OpenSpiel copies a state (clone) with
        # deepcopy, which does not keep a Python game's own attributes
        self.size, self.types, self.rewards_of = game.size, game.types, game.rewards_of
        self.board = board
        self.dealt: list[int] = []
        self.made_at: Optional[Board] = None
        self.scores = [0, 0]
        self.mover = 0

    def current_player(self) -> int:
        if self.board is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.TERMINAL) if self.board.is_over else self.mover

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(fruit, 1.0 / self.types) for fruit in range(self.types)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.board is not None  # OpenSpiel asks a chance node for chance_outcomes
        return encoding.legal_actions(self.board)

    def _apply_action(self, action: int) -> None:
        if self.board is None:
            if not 0 <= action < self.types:
                raise ValueError(f"chance outcome {action} is not a fruit type of 0..{self.types - 1}")
            self.dealt.append(action)
            if len(self.dealt) == self.size * self.size:
                digits = "".join(map(str, self.dealt))
                self.board = Board([digits[row : row + self.size] for row in range(0, len(digits), self.size)])
            return
        # OpenSpiel leaves the check to the game; without it another cell of a group
        # would play as the group's one action
        if action not in encoding.legal_actions(self.board):
            raise ValueError(f"action {action} is not the naming cell of a group on the board")
        self.board, points = self.board.play(encoding.move_of(action, self.size))
        self.scores[self.mover] += points
        self.mover = 1 - self.mover

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return encoding.move_of(action, self.size).name

    def is_terminal(self) -> bool:
        return self.board is not None and self.board.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        margin = self.scores[0] - self.scores[1]
        first = self.rewards_of.of_points(margin) + self.rewards_of.at_end(margin)
        return [first, -first + 0.0]

    def serialize(self) -> str:
        """The actions, one a line, after the board's line of a state made at a board."""
        lines = [str(action) for action in self.history()]
        if self.made_at is not None:
            lines.insert(0, BOARD_TAG + "/".join(self.made_at.rows))
        return "\n".join(lines)

    def __str__(self) -> str:
        return board_string(self)


class BoardObserver:
    """The observation of a state (the same for both players): the planes, who moves and
    each player's scaled points; and as a string, the rows, the points and who moves."""

    def __init__(self, game: FruitRageGame, params: Any) -> None:
        if params:
            raise ValueError(f"the observation takes no parameters, not {params}")
        self.types, self.most_points = game.types, game.rewards_of.most_points
        shape = encoding.observation_shape(game.size, game.types)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: FruitRageState, player: int) -> None:
        planes = self.dict["observation"]
        if state.board is None:
            planes[...] = 0
            fruit_planes = planes[: self.types].reshape(self.types, -1)
            fruit_planes[state.dealt, np.arange(len(state.dealt))] = 1
        else:
            planes[: self.types + 1] = encoding.board_planes(state.board, self.types)
        encoding.write_status(planes, self.types, state.mover, state.scores, self.most_points)

    def string_from(self, state: FruitRageState, player: int) -> str:
        return board_string(state)


def board_string(state: FruitRageState) -> str:
    if state.board is None:
        cells = "".join(map(str, state.dealt)).ljust(state.size * state.size, "?")
        rows = [cells[row : row + state.size] for row in range(0, len(cells), state.size)]
    else:
        rows = list(state.board.rows)
    if state.board is None:
        to_move = "dealing"
    else:
        to_move = "game over" if state.is_terminal() else f"player {state.mover} to move"
    return "\n".join([*rows, f"points: {state.scores[0]} {state.scores[1]}; {to_move}"])


pyspiel.register_game(two_player_game_type(SHORT_NAME, LONG_NAME, DEFAULT_PARAMETERS, True), FruitRageGame)
openspiel_strings.replay_on_deserialisation(SHORT_NAME)
