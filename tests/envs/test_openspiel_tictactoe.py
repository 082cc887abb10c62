"""OpenSpiel's own tic_tac_toe, solved by its own alpha-beta, agrees with the project's
tic-tac-toe minimax on every reachable position."""

import pyspiel
from open_spiel.python.algorithms.get_all_states import get_all_states
from open_spiel.python.algorithms.minimax import alpha_beta_search

from nim_games.minimax import search
from nim_games.tictactoe import TicTacToe, make_position


def test_openspiel_tic_tac_toe_values_are_the_project_s_on_every_reachable_position():
    game = pyspiel.load_game("tic_tac_toe")
    # keyed by the board (str(state)), so each position once however it was reached
    positions = get_all_states(
        game, depth_limit=-1, include_terminals=False, include_chance_states=False, to_string=str
    )
    assert len(positions) == 4520  # the positions with a move to make
    table: dict = {}
    wrong = []
    for text, state in positions.items():
        openspiel_value, _ = alpha_beta_search(game, state=state)
        mover = "XO"[state.current_player()]  # OpenSpiel's x moves first, as the project's X
        value = search(TicTacToe(), make_position(text.upper().split("\n"), mover), tt=table).value
        if (value > 0) - (value < 0) != openspiel_value:
            wrong.append((text, mover, value, openspiel_value))
    assert wrong == []
