"""Players both ways between the project and OpenSpiel: an OpenSpiel bot as a player of
the project (`OpenSpielPlayer`; `mcts_player` and `alpha_beta_player` make OpenSpiel's
MCTS and its alpha-beta search one, for
``fruit-rage match py:agent.envs.openspiel_players:mcts_player``), and the project's agent
as an OpenSpiel bot (`AgentBot`, with a node, depth or CPU budget), or the perfect player
(`PerfectBot`: a best move by the exact search, agent.envs.regret).

>>> import pyspiel
>>> from agent import Limit
>>> from agent.envs.openspiel_players import AgentBot, mcts_bot
>>> game = pyspiel.load_game("python_fruit_rage(size=5,types=3,seed=3)")
>>> bots = [AgentBot(Limit(nodes=1000)), mcts_bot(game, simulations=100, seed=1)]
>>> returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
>>> returns[0] == -returns[1]
True
"""

from __future__ import annotations

import zlib
from typing import Any, Callable

import numpy as np

from agent.board import Board, Move
from agent.engine import Limit, search
from agent.envs import encoding, missing_library, regret
from agent.envs.openspiel import FruitRageGame

try:
    import pyspiel
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.algorithms.minimax import alpha_beta_search
except ImportError as error:
    raise missing_library("OpenSpiel", error) from error


class AgentBot(pyspiel.Bot):
    """The agent's search, under `limit`, as an OpenSpiel bot of python_fruit_rage."""

    def __init__(self, limit: Limit) -> None:
        pyspiel.Bot.__init__(self)
        self.limit = limit

    def step(self, state: Any) -> int:
        return encoding.action_of(search(state.board, self.limit).move, state.size)

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: each move is a search of its own."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """The search reads the position from the state: an action seen changes nothing."""


class PerfectBot(pyspiel.Bot):
    """A perfect player of python_fruit_rage: a best move every time, by the search to the
    end of the game (agent.envs.regret.perfect_move; small boards only)."""

    def __init__(self, cpu: float = regret.DEFAULT_CPU) -> None:
        pyspiel.Bot.__init__(self)
        self.cpu = cpu

    def step(self, state: Any) -> int:
        return encoding.action_of(regret.perfect_move(state.board, self.cpu), state.size)

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: each move is a search of its own."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """The search reads the position from the state: an action seen changes nothing."""


def mcts_bot(game: FruitRageGame, simulations: int = 1000, seed: int = 0, rollouts: int = 1) -> Any:
    """OpenSpiel's MCTS with random rollouts: `simulations` a move, `rollouts` a leaf."""
    evaluator = mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seed))
    return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed))


class AlphaBetaBot(pyspiel.Bot):
    """OpenSpiel's alpha-beta search (open_spiel.python.algorithms.minimax) to `depth`
    plies, a cut-off position valued by the points taken so far: the mover's margin."""

    def __init__(self, game: FruitRageGame, depth: int) -> None:
        pyspiel.Bot.__init__(self)
        self.game = game
        self.depth = depth

    def step(self, state: Any) -> int:
        mover = state.current_player()

        def margin_so_far(leaf: Any) -> float:
            return float(leaf.scores[mover] - leaf.scores[1 - mover])

        _, action = alpha_beta_search(
            self.game, state.clone(), margin_so_far, maximum_depth=self.depth, maximizing_player_id=mover
        )
        return int(action)

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: each move is a search of its own."""


class OpenSpielPlayer:
    """A player (agent.Player) that asks an OpenSpiel bot for each move: the bot is made
    by `make_bot(game, seed)` for a deterministic python_fruit_rage game of the board's
    size and types, seeded by the position (so that matches replay exactly), and steps a state at the
    board. Its clock is ignored: the bot's own budget says how long it thinks."""

    def __init__(self, make_bot: Callable[[FruitRageGame, int], Any], name: str) -> None:
        self.make_bot = make_bot
        self.name = name
        self._games: dict[tuple[int, int], FruitRageGame] = {}

    def choose(self, board: Board, clock_left: float) -> Move:
        key = (board.size, board.types)
        if key not in self._games:
            # a fixed seed makes it deterministic, as alpha-beta needs; the state is made at the board
            parameters = {"size": board.size, "types": board.types, "seed": 0}
            self._games[key] = pyspiel.load_game("python_fruit_rage", parameters)
        game = self._games[key]
        seed = zlib.crc32("\n".join(board.rows).encode("ascii"))
        action = self.make_bot(game, seed).step(game.new_state_at(board))
        return encoding.move_of(action, board.size)


def mcts_player(simulations: int = 1000, rollouts: int = 1) -> OpenSpielPlayer:
    """OpenSpiel's MCTS as a player: `simulations` a move, `rollouts` random games a leaf."""
    return OpenSpielPlayer(
        lambda game, seed: mcts_bot(game, simulations, seed, rollouts), f"mcts(simulations={simulations})"
    )


def alpha_beta_player(depth: int = 2) -> OpenSpielPlayer:
    """OpenSpiel's alpha-beta search to `depth` plies as a player (the points so far at
    its horizon): ``py:agent.envs.openspiel_players:alpha_beta_player``."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be a whole number of plies from 1, not {depth!r}")
    return OpenSpielPlayer(lambda game, seed: AlphaBetaBot(game, depth), f"openspiel-alpha-beta(depth={depth})")
