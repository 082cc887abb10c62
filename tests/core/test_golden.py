"""The core against answers recorded before it was split and sped up
(tests/core/golden/golden.json, written once by tests/core/golden/generate_golden.py): the same
perft counts, and the same value and move at every fixed depth, on 12 boards of sizes 5
to 26 and on every io_samples input. A change here is a change of search behaviour."""

import json
import os

import pytest
from paths import SAMPLES, TESTS

from agent import rules
from agent._core import Bitboard, Searcher
from agent.gamefile import format_output, parse_input

with open(os.path.join(TESTS, "core", "golden", "golden.json")) as _handle:
    GOLDEN = json.load(_handle)


def board_id(record):
    board = Bitboard(record["rows"])
    return f"{board.n}x{board.n}-{board.fruit}fruit"


@pytest.mark.parametrize("record", GOLDEN["boards"], ids=board_id)
def test_perft_counts_are_the_recorded_ones(record):
    board = Bitboard(record["rows"])
    assert [board.perft(d) for d in range(len(record["perft"]))] == record["perft"]


@pytest.mark.parametrize("record", GOLDEN["boards"], ids=board_id)
def test_values_and_moves_at_every_depth_are_the_recorded_ones(record):
    found = []
    for search in record["searches"]:
        result = Searcher(Bitboard(record["rows"]), **search["options"]).search(search["depth"])
        found.append({**search, "value": result.value, "move": list(result.move)})
    assert found == record["searches"]


@pytest.mark.parametrize("record", GOLDEN["io_samples"], ids=lambda record: record["folder"])
def test_io_sample_answers_are_the_recorded_ones(record):
    with open(os.path.join(SAMPLES, record["folder"], "input.txt")) as handle:
        game = parse_input(handle.read())
    assert list(game.grid) == record["rows"], "the io_samples input changed since the recording"
    board = Bitboard(game.grid)
    result = Searcher(board, **record["options"]).search(record["depth"])
    output = format_output(rules.move_name(result.move), board.play(result.move)[0].rows())
    assert output == record["output"]
