"""Monte Carlo playouts at the root: the core's playouts against the same policy over
the rules, and the player's choices."""

from __future__ import annotations

import doctest
import random
import time

import pytest

from agent import Board, Move, root_playouts
from agent.eval_search import candidates
from agent.players import SearchPlayer
from agent.root_playouts import RootPlayoutPlayer, playout
from agent.rules import groups, is_empty, play, random_board


def rules_playout(grid, rng: random.Random, epsilon: float) -> int:
    """The playout policy written over agent.rules: groups in reading order of their
    first cell, which is the order of their top-left cells."""
    margin, sign = 0, 1
    while not is_empty(grid):
        found = groups(grid)
        group = rng.choice(found) if rng.random() < epsilon else max(found, key=len)
        grid, points = play(grid, min(group))
        margin += sign * points
        sign = -sign
    return margin


@pytest.mark.parametrize("epsilon", [0.0, 0.3, 1.0])
def test_a_core_playout_is_the_rules_playout_with_the_same_draws(epsilon):
    for seed in range(15):
        grid = random_board(seed, 7, 3)
        assert playout(Board(grid).core(), random.Random(seed), epsilon) == rules_playout(
            grid, random.Random(seed), epsilon
        )


def agent_plays_first_group(monkeypatch):
    """The agent's search replaced by a known answer: the first group in reading order."""
    monkeypatch.setattr(SearchPlayer, "choose", lambda self, board, clock_left: board.legal_moves()[0])


def test_past_the_opening_the_agent_s_move_is_played(monkeypatch):
    agent_plays_first_group(monkeypatch)
    board = Board.random(5, 8, 3)
    board = board.play(board.legal_moves()[-1])[0]
    assert RootPlayoutPlayer(opening=0.0).choose(board, 10.0) == board.legal_moves()[0]


def test_in_the_opening_the_best_mean_playout_wins(monkeypatch):
    agent_plays_first_group(monkeypatch)
    board = Board.random(6, 8, 3)
    agent_move = board.legal_moves()[0]
    others = [board.normalize(Move(*cell)) for cell, _, _ in candidates(board.core(), 3)]
    options = [agent_move, *[move for move in others if move != agent_move][:2]]

    def score(move):  # greedy playouts (epsilon 0) draw nothing: one is every playout
        after, points = board.play(move)
        return points - playout(after.core(), random.Random(0), 0.0)

    assert RootPlayoutPlayer(top=3, playouts=4, epsilon=0.0).choose(board, 10.0) == max(options, key=score)
    assert RootPlayoutPlayer(top=1).choose(board, 10.0) == agent_move


def test_a_playout_past_its_deadline_is_none():
    core = Board.random(3, 10, 4).core()
    assert playout(core, random.Random(0), 0.5, deadline=time.process_time() - 1.0) is None
    assert playout(core, random.Random(0), 0.5, deadline=time.process_time() + 60.0) == playout(
        core, random.Random(0), 0.5
    )


def test_the_playouts_keep_to_their_share_of_the_clock(monkeypatch):
    """On a full 26x26 board (some 50 ms a playout) a thousand playouts a candidate would
    take minutes; the search is told the clock less the playouts' share, and the move
    takes little more than the share."""
    clocks = []

    def first_group(self, board, clock_left):
        clocks.append(clock_left)
        return board.legal_moves()[0]

    monkeypatch.setattr(SearchPlayer, "choose", first_group)
    board = Board.random(11, 26, 9)
    player = RootPlayoutPlayer(top=4, playouts=1000, cpu_share=0.02)
    start = time.process_time()
    move = player.choose(board, 10.0)
    spent = time.process_time() - start
    assert clocks == [pytest.approx(9.8)]
    assert 0.2 <= spent < 0.2 + 0.1  # the share, and at most a move of a playout and the candidates past it
    assert move in board.legal_moves()


def test_without_time_for_a_playout_the_agent_s_move_is_played(monkeypatch):
    agent_plays_first_group(monkeypatch)
    board = Board.random(6, 8, 3)
    assert RootPlayoutPlayer(top=3, cpu_share=0.0).choose(board, 10.0) == board.legal_moves()[0]


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="top and playouts"):
        RootPlayoutPlayer(top=0)
    with pytest.raises(ValueError, match="shares"):
        RootPlayoutPlayer(epsilon=1.5)
    with pytest.raises(ValueError, match="shares"):
        RootPlayoutPlayer(cpu_share=1.0)


def test_the_docstring_example():
    failed, attempted = doctest.testmod(root_playouts)
    assert attempted > 0 and failed == 0
