"""The engine on random game graphs with transpositions, against the plain minimax oracle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nim_helpers import CountingGame, plain_minimax

from nim_games.minimax import SearchResult, search


class GraphGame:
    """A game on a directed acyclic graph: a state is (node, player to move); nodes with
    no successors end the game with a value for player 0. Different paths reach the same
    state, which exercises the transposition table."""

    def __init__(self, successors, leaf_values, guesses):
        self.successors = successors
        self.leaf_values = leaf_values
        self.guesses = guesses

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return iter(self.successors[state[0]])

    def apply(self, state, move):
        return (move, 1 - state[1])

    def is_terminal(self, state):
        return not self.successors[state[0]]

    def utility(self, state):
        node, player = state
        return self.leaf_values[node] if player == 0 else -self.leaf_values[node]

    def evaluate(self, state):
        node, player = state
        return self.guesses[node] if player == 0 else -self.guesses[node]


@st.composite
def graph_games(draw):
    size = draw(st.integers(2, 14))
    successors = []
    for node in range(size):
        later = list(range(node + 1, size))
        chosen = draw(st.lists(st.sampled_from(later), max_size=4, unique=True)) if later else []
        successors.append(chosen)
    if not successors[0]:
        successors[0] = [size - 1]
    values = draw(st.lists(st.integers(-5, 5), min_size=size, max_size=size))
    guesses = draw(st.lists(st.integers(-5, 5), min_size=size, max_size=size))
    return GraphGame(successors, values, guesses)


@settings(max_examples=300, deadline=None)
@given(game=graph_games(), first=st.sampled_from([0, 1]), use_tt=st.booleans())
def test_full_depth_equals_plain_minimax(game, first, use_tt):
    root = (0, first)
    result = search(game, root, tt={} if use_tt else None)
    assert (result.value, result.move) == plain_minimax(game, root)


@settings(max_examples=300, deadline=None)
@given(game=graph_games(), depth=st.integers(1, 4), use_tt=st.booleans())
def test_depth_limited_search_never_looks_deeper(game, depth, use_tt):
    counting = CountingGame(game)
    root = counting.root((0, 0))
    result = search(counting, root, depth, counting.evaluator(game.evaluate), {} if use_tt else None)
    assert max(counting.visits) <= depth
    assert set(counting.evaluated_plies) <= {depth}
    assert result.nodes == len(counting.visits)
    assert result.move in game.successors[0]
    assert (result.value, result.move) == plain_minimax(game, (0, 0), depth, game.evaluate)


@settings(max_examples=200, deadline=None)
@given(game=graph_games(), depth=st.integers(1, 3))
def test_shallow_table_entries_do_not_spoil_a_deeper_search(game, depth):
    tt = {}
    search(game, (0, 0), depth, game.evaluate, tt)
    assert search(game, (0, 0), tt=tt).value == plain_minimax(game, (0, 0))[0]


@settings(max_examples=100, deadline=None)
@given(game=graph_games())
def test_a_repeated_search_is_answered_from_the_table(game):
    tt = {}
    first = search(game, (0, 0), tt=tt)
    again = search(game, (0, 0), tt=tt)
    assert (again.value, again.move) == (first.value, first.move)
    # Every root child is exact now (or terminal), so nothing below them is visited.
    assert again.nodes == 1 + len(game.successors[0])


def test_terminal_root_has_no_move():
    game = GraphGame([[]], [4], [0])
    assert search(game, (0, 1)) == SearchResult(-4, None, 1)


@pytest.mark.parametrize("depth, evaluate", [(0, lambda s: 0), (3, None)])
def test_a_depth_limit_needs_a_positive_depth_and_an_evaluation(depth, evaluate):
    game = GraphGame([[1], []], [1, 1], [0, 0])
    with pytest.raises(ValueError):
        search(game, (0, 0), depth, evaluate)
