"""`fruit-rage phases`: margins by stretch of the game, against a direct replay."""
from __future__ import annotations

import json

import pytest

from agent.arena.phases import game_phases, match_phases, phases_table
from agent.rules import parse_move_name, play
from arena_helpers import assert_refused, bad_move_file, fruit_rage, random_game_record


def replayed_phases(record: dict, parts: int):
    """The same figures by another route: replay every move, note the fruit gone and the
    margin before each, then for part k take the first position with k/parts of the fruit
    gone, and put each of A's moves in the part of its position."""
    grid = tuple(record["board"])
    total = sum(ch != "*" for row in grid for ch in row)
    gone, margin = [0], [0]
    for move in record["moves"]:
        grid, points = play(grid, parse_move_name(move["move"]))
        gone.append(total - sum(ch != "*" for row in grid for ch in row))
        margin.append(margin[-1] + (points if move["player"] == "A" else -points))
    margins = [margin[next(i for i, g in enumerate(gone) if g * parts >= k * total)]
               for k in range(1, parts + 1)]
    cpu = [0.0] * parts
    for i, move in enumerate(record["moves"]):
        if move["player"] == "A":
            cpu[min(parts - 1, gone[i] * parts // total)] += move["cpu"]
    return margins, cpu


def test_each_game_s_phases_equal_a_direct_replay():
    for seed in range(12):
        record = random_game_record(seed, 4 + seed % 3, 3)
        for i, move in enumerate(record["moves"]):
            move["cpu"] = 0.25 * (i + 1)       # exact in binary: sums compare equal
        for parts in (1, 2, 3, 7, 10):
            margins, cpu = game_phases(record, parts)
            assert (margins, cpu) == replayed_phases(record, parts)
            assert margins[-1] == record["scores"]["A"] - record["scores"]["B"]


def test_a_two_move_game_gives_its_exact_table():
    # A takes the two 1s (4 points), B the two 2s (4 points): +4 at half the fruit, 0 at the end.
    record = {"game": 1, "agents": {"A": "alpha", "B": "beta"}, "first": "A",
              "board": ["11", "22"], "scores": {"A": 4, "B": 4}, "fault": None,
              "moves": [{"player": "A", "move": "A1", "cpu": 0.5, "points": 4},
                        {"player": "B", "move": "A2", "cpu": 0.25, "points": 4}]}
    phases = match_phases([record], parts=2)
    assert phases.margins == {"A": [[4, 0]], "B": []} and phases.cpu == [0.5, 0.0]
    assert phases_table(phases).splitlines()[1:] == [
        "fruit gone                  50%    100%",
        "alpha moved first (1)      +4.0    +0.0",
        "alpha CPU s a game         0.50    0.00"]


def test_games_are_split_by_first_mover_and_faulted_games_left_out():
    records = [random_game_record(seed, 5, 3) for seed in range(10)]
    records.append(random_game_record(99, 5, 3, fault_at=2))
    phases = match_phases(records, parts=4)
    assert phases.skipped == 1 and phases.games == 10
    for first in "AB":
        expected = [replayed_phases(r, 4)[0] for r in records[:10] if r["first"] == first]
        assert phases.margins[first] == expected
    assert phases.margins["A"] and phases.margins["B"]    # the seeds give both
    assert phases.cpu == pytest.approx([sum(col) for col in zip(
        *(replayed_phases(r, 4)[1] for r in records[:10]))])
    other = random_game_record(50, 4, 3)
    other["agents"] = {"A": "gamma", "B": "beta"}
    with pytest.raises(ValueError, match="game 50 is between other agents than game 0"):
        match_phases(records[:3] + [other])


def test_the_command_prints_the_table_and_refuses_bad_input(tmp_path):
    results = tmp_path / "results.jsonl"
    records = [random_game_record(seed, 5, 3) for seed in range(6)]
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    done = fruit_rage("phases", results, "--parts", 5)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].split() == ["fruit", "gone", "20%", "40%", "60%", "80%", "100%"]
    assert "alpha CPU s a game" in done.stdout
    faulted = tmp_path / "faulted.jsonl"
    faulted.write_text(json.dumps(random_game_record(1, 4, 3, fault_at=0)) + "\n")
    no_board = tmp_path / "no_board.jsonl"
    no_board.write_text('{"game": 1, "agents": {"A": "a", "B": "b"}, "first": "A"}\n')
    no_first = tmp_path / "no_first.jsonl"
    no_first.write_text('{"game": 2, "agents": {"A": "a", "B": "b"}, "first": "C"}\n')
    no_agents = tmp_path / "no_agents.jsonl"
    no_agents.write_text('{"game": 1, "agents": 5}\n')
    bad_move = bad_move_file(tmp_path)
    assert_refused("phases", (((tmp_path / "missing.jsonl",), "missing.jsonl: no such file"),
                              ((no_board,), "game 1: the record has no 'board'"),
                              ((bad_move,), "game 3: move 2: not a cell name: 'XYZ'"),
                              ((no_agents,), "game 1: the record names no agents A and B"),
                              ((no_first,), "game 2: the record names no first mover A or B"),
                              ((faulted,), "every game ended by a fault"),
                              ((results, "--parts", 21), "argument --parts: must be 1..20")))
