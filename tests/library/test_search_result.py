"""One result type for a search: the move's deepening (agent.move.deepening.think) and
`agent.search` return the same class, SearchResult with one IterationInfo a depth, and it
behaves as the frozen dataclass it replaced did."""

import copy
import pickle

import pytest

import agent
from agent import Board, IterationInfo, Limit, Move, SearchResult, search
from agent.engine import IterationInfo as EngineIterationInfo
from agent.engine import SearchResult as EngineSearchResult
from agent.move import deepening, timing

GRID = ["0120", "1102", "2010", "0211"]


def test_the_public_names_are_the_move_s_classes():
    assert SearchResult is EngineSearchResult is agent.move.SearchResult
    assert IterationInfo is EngineIterationInfo is agent.move.IterationInfo


def test_think_and_search_return_the_same_class_and_the_same_search():
    board = Board(GRID)
    core = board.core()
    manager = timing.TimeManager.until(0.0, float("inf"), core.group_count(), 1e6, 0, board.size)
    found = deepening.think(core, manager, tt_bits=20, max_depth=3, principal_variation=True)
    public = search(board, Limit(depth=3))
    assert type(found) is type(public) is SearchResult
    assert {type(iteration) for iteration in found.iterations + public.iterations} == {IterationInfo}
    assert isinstance(found.move, tuple) and isinstance(public.move, Move)
    converted = found.with_moves(Move.from_cell)

    def without_cpu(result):
        return [(i.depth, i.value, i.move, i.exact, i.nodes, i.completed) for i in result.iterations]

    assert (converted.move, converted.value, converted.depth, converted.exact, converted.nodes, converted.pv) == (
        public.move,
        public.value,
        public.depth,
        public.exact,
        public.nodes,
        public.pv,
    )
    assert without_cpu(converted) == without_cpu(public)


def test_the_move_s_result_holds_the_move_alone_as_its_line_unless_asked():
    core = Board(GRID).core()
    manager = timing.TimeManager.until(0.0, float("inf"), core.group_count(), 1e6, 0, 4)
    found = deepening.think(core, manager, tt_bits=16, max_depth=3)
    assert found.pv == (found.move,)


def test_a_result_is_compared_hashed_shown_pickled_and_read_only_as_a_frozen_dataclass():
    result = search(Board(GRID), Limit(depth=4))
    twin = copy.deepcopy(result)
    assert twin == result and hash(twin) == hash(result) and twin is not result
    assert pickle.loads(pickle.dumps(result)) == result
    assert repr(result).startswith(f"SearchResult(move={result.move!r}, value={result.value!r}, depth=")
    assert repr(result.iterations[0]).startswith("IterationInfo(depth=1, ")
    other = SearchResult(result.move, result.value + 1, *[getattr(result, name) for name in SearchResult.__slots__[2:]])
    assert other != result and result != tuple(getattr(result, name) for name in SearchResult.__slots__)
    for record in (result, result.iterations[0]):
        with pytest.raises(AttributeError):
            record.value = 0
        with pytest.raises(AttributeError):
            del record.value
    assert result.value == twin.value


def test_a_result_s_class_is_subscripted_as_a_generic_one():
    assert SearchResult[Move] is SearchResult and IterationInfo[tuple] is IterationInfo
