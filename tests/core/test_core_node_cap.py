"""Searcher.search(max_nodes=...): a cap on one search's nodes, the same cut on any
machine, as the analysis of a game solves its positions within a node budget."""

import pytest

from agent import rules
from agent._core import Bitboard, Searcher

CLOCK_POLL_NODES = 256  # the search looks at its clock and its cap this often


def test_a_search_stops_at_its_node_cap_the_same_way_every_time():
    board = Bitboard(rules.random_board(7, 12, 4))
    first, second = (Searcher(board, tt_bits=18).search(999, max_nodes=5000) for _ in range(2))
    assert not first.completed and not first.exact
    assert 5000 <= first.nodes <= 5000 + CLOCK_POLL_NODES
    assert (second.nodes, second.value, second.move) == (first.nodes, first.value, first.move)


def test_a_search_within_its_cap_is_the_search_without_one():
    board = Bitboard(rules.random_board(3, 5, 3))
    free = Searcher(board, tt_bits=18).search(999)
    capped = Searcher(board, tt_bits=18).search(999, max_nodes=free.nodes + CLOCK_POLL_NODES + 1)
    assert free.completed and free.exact
    assert (capped.completed, capped.exact, capped.value, capped.nodes) == (True, True, free.value, free.nodes)


def test_a_negative_cap_is_refused():
    with pytest.raises(ValueError, match="max_nodes"):
        Searcher(Bitboard(("01", "10"))).search(3, max_nodes=-1)
