"""Players both ways: the agent as an OpenSpiel bot, an OpenSpiel bot as the project's
player."""

import pyspiel
import pytest
from open_spiel.python.algorithms.minimax import alpha_beta_search

from agent import Board, GreedyPlayer, Limit, Move, play_game, search
from agent.envs import encoding
from agent.envs.openspiel_players import AgentBot, AlphaBetaBot, OpenSpielPlayer, PerfectBot, mcts_bot
from agent.envs.regret import regrets
from agent.players import player_from_python


@pytest.mark.parametrize("seed", range(5))
def test_the_agent_bot_with_an_exact_budget_plays_both_sides_to_the_alpha_beta_value(seed):
    game = pyspiel.load_game(f"python_fruit_rage(size=4,types=2,seed={seed})")
    exact = AgentBot(Limit(depth=16))
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [exact, exact], seed)
    value, _ = alpha_beta_search(game)
    assert returns == [value, -value]


@pytest.mark.parametrize("seed", range(4))
def test_the_perfect_bot_plays_only_moves_of_no_regret_to_the_alpha_beta_value(seed):
    game = pyspiel.load_game(f"python_fruit_rage(size=4,types=2,seed={seed})")
    value, _ = alpha_beta_search(game)
    state = game.new_initial_state()
    bot = PerfectBot()
    while not state.is_terminal():
        action = bot.step(state)
        assert regrets(state.board)[encoding.move_of(action, 4)] == 0
        state.apply_action(action)
    assert state.returns() == [value, -value]


def test_the_agent_bot_plays_a_game_against_openspiel_s_mcts():
    game = pyspiel.load_game("python_fruit_rage(size=6,types=3,seed=2)")
    bots = [mcts_bot(game, simulations=50, seed=3), AgentBot(Limit(nodes=500))]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert returns[0] == -returns[1] and returns[0] != 0


class FirstActionBot(pyspiel.Bot):
    """The lowest legal action: the first of Board.legal_moves()."""

    def __init__(self):
        pyspiel.Bot.__init__(self)

    def step(self, state):
        return state.legal_actions()[0]

    def restart_at(self, state):
        pass


def test_an_openspiel_bot_plays_for_the_project_s_referee_move_for_move():
    player = OpenSpielPlayer(lambda game, seed: FirstActionBot(), "first-action")
    board = Board.random(4, 6, 3)
    record = play_game(player, GreedyPlayer(), board)
    assert not record.fault and record.winner is not None
    position = board
    for side, turn in record.turns:
        move = Move.from_name(turn.name)
        if side == "A":
            assert encoding.action_of(position.normalize(move), 6) == encoding.legal_actions(position)[0]
        position, _ = position.play(move)
        assert position.rows == turn.grid


def test_the_mcts_player_is_a_py_factory_for_match():
    player = player_from_python("py:agent.envs.openspiel_players:mcts_player", simulations=20)
    assert player.name == "mcts(simulations=20)"
    record = play_game(player, GreedyPlayer(), Board.random(2, 5, 3))
    assert not record.fault and len(record.turns) >= 2


@pytest.mark.parametrize("seed", range(6))
def test_openspiel_s_alpha_beta_bot_to_a_depth_plays_the_agent_s_move_of_that_depth(seed):
    """With no horizon evaluation both searches value a position by the margin taken so
    far: the same depth gives the same value, so the bot's move is one of the agent's
    best (the value of the bot's move, searched by the agent one ply less, is the agent's
    value)."""
    board = Board.random(seed, 5, 3)
    game = pyspiel.load_game(f"python_fruit_rage(size=5,types=3,seed={seed})")
    for depth in (1, 2, 3):
        action = AlphaBetaBot(game, depth).step(game.new_state_at(board))
        best = search(board, Limit(depth=depth), evaluation="none").value
        after, points = board.play(encoding.move_of(action, 5))
        rest = 0 if after.is_over or depth == 1 else search(after, Limit(depth=depth - 1), evaluation="none").value
        assert points - rest == best, (seed, depth)


def test_the_alpha_beta_player_is_a_py_factory_for_match_and_refuses_a_bad_depth():
    player = player_from_python("py:agent.envs.openspiel_players:alpha_beta_player", depth=2)
    assert player.name == "openspiel-alpha-beta(depth=2)"
    record = play_game(player, GreedyPlayer(), Board.random(2, 5, 3))
    assert not record.fault and record.winner is not None
    for depth in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="depth"):
            player_from_python("py:agent.envs.openspiel_players:alpha_beta_player", depth=depth)


def test_a_state_at_a_board_of_another_size_is_refused():
    game = pyspiel.load_game("python_fruit_rage(size=4,types=3,seed=0)")
    with pytest.raises(ValueError, match="4x4"):
        game.new_state_at(Board.random(0, 5, 3))
