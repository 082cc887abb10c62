"""Fruit Rage as an OpenSpiel game, ``python_fruit_rage``: sequential, deterministic,
perfect information and zero-sum, so OpenSpiel's algorithms (MCTS, alpha-beta,
AlphaZero, ...) play it.

>>> import pyspiel
>>> import agent.envs.openspiel  # registers python_fruit_rage
>>> game = pyspiel.load_game("python_fruit_rage(size=4,types=3,seed=1)")
>>> state = game.new_initial_state()
>>> len(state.legal_actions()), state.action_to_string(state.legal_actions()[0])
(9, 'B1')

The parameters are ``size`` (1..26), ``types`` (1..9) and ``seed``: the game starts on
the full board agent.Board.random(seed, size, types). Actions and the observation tensor
(``types + 1`` planes of ``size x size``) are encoded as agent.envs.encoding says; the
observation string is the rows, top first, and each player's points. A game's returns
are the final margin: player 0's points minus player 1's, and its negative.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from agent.board import Board
from agent.envs import encoding, missing_library

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as error:
    raise missing_library("OpenSpiel", error) from error

DEFAULT_PARAMETERS = {"size": 8, "types": 4, "seed": 0}


def deterministic_game_type(short_name: str, long_name: str, parameters: dict) -> pyspiel.GameType:
    """The GameType of a two-player, sequential, deterministic, perfect-information,
    zero-sum game paid at its end, with observation strings and tensors: Fruit Rage's and
    Red-Blue Nim's."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
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


GAME_TYPE = deterministic_game_type("python_fruit_rage", "Python Fruit Rage", DEFAULT_PARAMETERS)


def game_info(size: int) -> pyspiel.GameInfo:
    # A margin never exceeds taking the whole box as one group: (size * size) ** 2.
    most = float((size * size) ** 2)
    return pyspiel.GameInfo(
        num_distinct_actions=size * size,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-most,
        max_utility=most,
        utility_sum=0.0,
        max_game_length=size * size,
    )


class FruitRageGame(pyspiel.Game):
    """The game of `params` (size, types, seed; DEFAULT_PARAMETERS for those not given)."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        values = {**DEFAULT_PARAMETERS, **(params or {})}
        self.start = Board.random(values["seed"], values["size"], values["types"])
        self.size, self.types = values["size"], values["types"]
        super().__init__(GAME_TYPE, game_info(self.size), params or {})

    def new_initial_state(self) -> "FruitRageState":
        return FruitRageState(self)

    def new_state_at(self, board: Board) -> "FruitRageState":
        """A state of this game's size at `board`, player 0 to move, no points scored:
        where a bot is asked for a move in a game played elsewhere."""
        if board.size != self.size:
            raise ValueError(f"the game is {self.size}x{self.size}, the board {board.size}x{board.size}")
        encoding.check_board(board, self.types)
        state = FruitRageState(self)
        state.board = board
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.size, self.types, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class FruitRageState(pyspiel.State):
    """A position of the game: the board, each player's points and who moves."""

    def __init__(self, game: FruitRageGame) -> None:
        super().__init__(game)
        self.board = game.start
        self.size = game.size
        self.scores = [0, 0]
        self._mover = 0

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self.board.is_over else self._mover

    def _legal_actions(self, player: int) -> list[int]:
        return encoding.legal_actions(self.board)

    def _apply_action(self, action: int) -> None:
        # OpenSpiel leaves the check to the game; without it another cell of a group
        # would play as the group's one action
        if action not in encoding.legal_actions(self.board):
            raise ValueError(f"action {action} is not the naming cell of a group on the board")
        self.board, points = self.board.play(encoding.move_of(action, self.size))
        self.scores[self._mover] += points
        self._mover = 1 - self._mover

    def _action_to_string(self, player: int, action: int) -> str:
        return encoding.move_of(action, self.size).name

    def is_terminal(self) -> bool:
        return self.board.is_over

    def returns(self) -> list[float]:
        margin = float(self.scores[0] - self.scores[1]) if self.board.is_over else 0.0
        return [margin, -margin]

    def __str__(self) -> str:
        return board_string(self)


class BoardObserver:
    """The observation of a state (the same for both players): the planes, and the rows
    with each player's points as a string."""

    def __init__(self, size: int, types: int, params: Any) -> None:
        if params:
            raise ValueError(f"the observation takes no parameters, not {params}")
        self.types = types
        shape = encoding.observation_shape(size, types)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: FruitRageState, player: int) -> None:
        self.dict["observation"][...] = encoding.planes(state.board, self.types)

    def string_from(self, state: FruitRageState, player: int) -> str:
        return board_string(state)


def board_string(state: FruitRageState) -> str:
    return "\n".join([*state.board.rows, f"points: {state.scores[0]} {state.scores[1]}"])


pyspiel.register_game(GAME_TYPE, FruitRageGame)
