"""Red-Blue Nim (nim_games.red_blue, both rule sets and both versions) as an OpenSpiel
game, ``python_red_blue_nim``.

>>> import pyspiel
>>> import agent.envs.openspiel_nim  # registers python_red_blue_nim
>>> game = pyspiel.load_game("python_red_blue_nim(rules=classic,version=standard,red=3,blue=4)")
>>> state = game.new_initial_state()
>>> [state.action_to_string(action) for action in state.legal_actions()]
['take 1 blue', 'take 2 blue', 'take 1 red', 'take 2 red']

The parameters are ``rules`` (classic or free), ``version`` (standard or misere) and the
piles ``red`` and ``blue`` (0..nim_games.red_blue.MAX_PILE) the game starts from. An
action takes ``r`` red and ``b`` blue marbles: ``r * (most_blue + 1) + b``, where a move
takes at most ``most_red`` red and ``most_blue`` blue (2 each under the classic rules,
the piles under the free ones). The returns are nim_games.red_blue's values of the end:
under the classic rules the points won or lost, under the free ones WIN minus the moves
the game took, to the winner, and the negative to the loser. The observation string and
tensor are the piles and who moves. A state's serialisation is its actions, one a line,
which deserialisation replays through the rules (agent.envs.openspiel_strings): no pickle
is ever read.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from agent.envs import missing_library, openspiel_strings
from agent.envs.openspiel import two_player_game_type
from nim_games.red_blue import MAX_PILE, POINTS_PER_BLUE, POINTS_PER_RED, RULES, VERSIONS, WIN, RedBlueNim, Take

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as error:
    raise missing_library("OpenSpiel", error) from error

DEFAULT_PARAMETERS = {"rules": "classic", "version": "standard", "red": 5, "blue": 5}
CLASSIC_MOST_TAKEN = 2
GAME_TYPE = two_player_game_type("python_red_blue_nim", "Python Red-Blue Nim", DEFAULT_PARAMETERS, dealt=False)


class RedBlueNimGame(pyspiel.Game):
    """The game of `params` (rules, version, red, blue; DEFAULT_PARAMETERS for those not
    given)."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        values = {**DEFAULT_PARAMETERS, **(params or {})}
        if values["rules"] not in RULES or values["version"] not in VERSIONS:
            raise ValueError(f"rules are one of {RULES} and versions one of {VERSIONS}, not {values}")
        self.red, self.blue = values["red"], values["blue"]
        if not (0 <= self.red <= MAX_PILE and 0 <= self.blue <= MAX_PILE):
            raise ValueError(f"a pile holds 0..{MAX_PILE} marbles, not {self.red} and {self.blue}")
        self.rules = RedBlueNim(values["rules"], values["version"])
        classic = values["rules"] == "classic"
        self.most_red = CLASSIC_MOST_TAKEN if classic else self.red
        self.most_blue = CLASSIC_MOST_TAKEN if classic else self.blue
        # at least 1: OpenSpiel needs min_utility < max_utility, even for two empty piles
        most = max(1, POINTS_PER_RED * self.red + POINTS_PER_BLUE * self.blue) if classic else WIN
        info = pyspiel.GameInfo(
            num_distinct_actions=(self.most_red + 1) * (self.most_blue + 1),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=float(-most),
            max_utility=float(most),
            utility_sum=0.0,
            max_game_length=max(1, self.red + self.blue),
        )
        super().__init__(GAME_TYPE, info, params or {})

    def new_initial_state(self) -> "RedBlueNimState":
        return RedBlueNimState(self)

    def deserialize_state(self, text: str) -> "RedBlueNimState":
        """The state whose actions `text` (RedBlueNimState.serialize's) lists, replayed
        through the rules; ValueError for anything else."""
        return openspiel_strings.replayed(self.new_initial_state(), text.split("\n") if text else [])

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return PilesObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class RedBlueNimState(pyspiel.State):
    """A position: nim_games.red_blue's NimState."""

    def __init__(self, game: RedBlueNimGame) -> None:
        super().__init__(game)
        # the state keeps plain values only: OpenSpiel copies a state (clone) with
        # deepcopy, which does not keep a Python game's own attributes
        self.rules, self.most_blue = game.rules, game.most_blue
        self.nim = game.rules.initial_state(game.red, game.blue)

    def action(self, take: Take) -> int:
        return take.red * (self.most_blue + 1) + take.blue

    def take(self, action: int) -> Take:
        return Take(*divmod(action, self.most_blue + 1))

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self.is_terminal() else self.nim.player

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.action(take) for take in self.rules.legal_moves(self.nim))

    def _apply_action(self, action: int) -> None:
        if action not in self._legal_actions(self.nim.player):
            raise ValueError(f"action {action} is not a legal take here")
        self.nim = self.rules.apply(self.nim, self.take(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return f"take {self.take(action)}"

    def is_terminal(self) -> bool:
        return self.rules.is_terminal(self.nim)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        mover_value = float(self.rules.utility(self.nim))
        return [mover_value, -mover_value] if self.nim.player == 0 else [-mover_value, mover_value]

    def serialize(self) -> str:
        """The actions, one a line."""
        return "\n".join(str(action) for action in self.history())

    def __str__(self) -> str:
        return piles_string(self)


class PilesObserver:
    """The observation of a state, the same for both players: the red pile, the blue pile
    and the player to move."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"the observation takes no parameters, not {params}")
        self.tensor = np.zeros(3, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RedBlueNimState, player: int) -> None:
        self.tensor[...] = (state.nim.red, state.nim.blue, state.nim.player)

    def string_from(self, state: RedBlueNimState, player: int) -> str:
        return piles_string(state)


def piles_string(state: RedBlueNimState) -> str:
    return f"red {state.nim.red}, blue {state.nim.blue}, player {state.nim.player} to move"


pyspiel.register_game(GAME_TYPE, RedBlueNimGame)
openspiel_strings.replay_on_deserialisation(GAME_TYPE.short_name)
