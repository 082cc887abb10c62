"""The regret oracle (agent.envs.regret) against OpenSpiel's own alpha-beta search, and a
whole policy's score against the sum of its moves' regrets."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.minimax import alpha_beta_search

import agent.envs.openspiel  # noqa: F401  (registers python_fruit_rage)
from agent import Board, GreedyPlayer, RandomPlayer, SearchPlayer
from agent.envs import encoding
from agent.envs.regret import PerfectPlayer, exact_value, move_regret, perfect_move, regrets, score_policy


def small_positions():
    """200 positions, 50 of each kind: full 3x3 boards of 2 and of 3 types, 4x4 boards of
    2 types 0 to 2 random moves into their games, and of 3 types 3 to 5 moves in (a full
    one takes OpenSpiel's alpha-beta seconds)."""
    kinds = [(3, 2, 0), (3, 3, 0), (4, 2, 0), (4, 3, 3)]
    positions = []
    for seed in range(200):
        size, types, moves = kinds[seed % 4]
        board = Board.random(seed, size, types)
        choices = np.random.default_rng(seed)
        for _ in range(moves + (seed // 4) % 3 if size == 4 else 0):
            legal = board.legal_moves()
            if len(legal) > 1:
                board, _ = board.play(legal[choices.integers(len(legal))])
        positions.append(board)
    return positions


def openspiel_regrets(board: Board) -> dict:
    """Each legal move's regret as OpenSpiel's alpha-beta finds it: the best move's value
    less the move's, each the mover's final margin with best play after the move."""
    game = pyspiel.load_game(f"python_fruit_rage(size={board.size},types={board.types},seed=0)")
    values = {}
    for action in encoding.legal_actions(board):
        child = game.new_state_at(board)
        child.apply_action(action)
        if child.is_terminal():
            values[action] = child.returns()[0]
        else:
            values[action], _ = alpha_beta_search(game, state=child, maximizing_player_id=0)
    best = max(values.values())
    return {encoding.move_of(action, board.size): best - value for action, value in values.items()}


def test_every_move_s_regret_is_the_one_openspiel_s_alpha_beta_gives_on_200_positions():
    positions = small_positions()
    agreeing = [board for board in positions if regrets(board) == openspiel_regrets(board)]
    assert len(positions) == 200 and len(agreeing) == 200


@pytest.mark.parametrize("seed", range(20))
def test_the_exact_value_is_the_best_move_s_and_a_move_s_regret_is_the_table_s(seed):
    board = Board.random(seed, 5, 3)
    table = regrets(board)
    assert min(table.values()) == 0
    assert exact_value(board) == max(board.play(move)[1] - exact_value(board.play(move)[0]) for move in table)
    move = board.legal_moves()[seed % len(table)]
    assert move_regret(board, move) == table[move]
    assert table[perfect_move(board)] == 0


def test_an_empty_board_is_worth_nothing_and_has_no_perfect_move():
    assert exact_value(Board(["**", "**"])) == 0
    with pytest.raises(ValueError, match="no move"):
        perfect_move(Board(["**", "**"]))


def test_a_position_not_solved_in_time_is_a_timeout():
    with pytest.raises(TimeoutError, match="no exact value within 0.001 s"):
        exact_value(Board.random(0, 26, 9), cpu=0.001)


@pytest.mark.parametrize("player", [GreedyPlayer(), RandomPlayer()], ids=["greedy", "random"])
def test_a_policy_s_score_is_its_moves_regrets_read_from_every_move_s_table(player):
    boards = [Board.random(seed, 5, 3) for seed in range(4)]
    score = score_policy(player, boards)
    moves = regret_sum = perfect = 0
    for board in boards:
        while not board.is_over:
            move = player.choose(board, 10.0)
            regret = regrets(board)[board.normalize(move)]
            moves, regret_sum, perfect = moves + 1, regret_sum + regret, perfect + (regret == 0)
            board, _ = board.play(move)
    assert (score.moves, score.total_regret, score.perfect_moves) == (moves, regret_sum, perfect)
    assert score.total_regret > 0 and score.solved_moves == 0


def test_the_perfect_player_and_the_agent_where_it_solves_give_up_nothing():
    boards = [Board.random(seed, 5, 3) for seed in range(3)]
    perfect = score_policy(PerfectPlayer(), boards)
    assert (perfect.total_regret, perfect.perfect_share) == (0, 1.0)
    agent = score_policy(SearchPlayer(nodes=300), boards)
    assert agent.solved_moves > 0 and agent.solved_regret == 0
