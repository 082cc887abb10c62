"""`fruit-rage phases`: margins by stretch of the game, against a direct replay."""

from __future__ import annotations

import json
import math
import random
import re
import statistics

import pytest
from arena_helpers import assert_refused, bad_move_file, fruit_rage, random_game_record

from agent.arena.review.phases import bootstrap_intervals, game_phases, match_phases, phases_table
from agent.rules import parse_move_name, play


def replayed_phases(record: dict, parts: int):
    """The same figures by another route: replay every move, note the fruit gone and the
    margin before each, then for part k take the first position after a whole round (an
    even number of moves, or the end) with k/parts of the fruit gone, and put each of A's
    moves in the part of its position."""
    grid = tuple(record["board"])
    total = sum(ch != "*" for row in grid for ch in row)
    gone, margin = [0], [0]
    for move in record["moves"]:
        grid, points = play(grid, parse_move_name(move["move"]))
        gone.append(total - sum(ch != "*" for row in grid for ch in row))
        margin.append(margin[-1] + (points if move["player"] == "A" else -points))
    last = len(gone) - 1
    margins = [
        margin[next(i for i, g in enumerate(gone) if (i % 2 == 0 or i == last) and g * parts >= k * total)]
        for k in range(1, parts + 1)
    ]
    cpu = [0.0] * parts
    for i, move in enumerate(record["moves"]):
        if move["player"] == "A":
            cpu[min(parts - 1, gone[i] * parts // total)] += move["cpu"]
    return margins, cpu


def test_each_game_s_phases_equal_a_direct_replay():
    for seed in range(12):
        record = random_game_record(seed, 4 + seed % 3, 3)
        for i, move in enumerate(record["moves"]):
            move["cpu"] = 0.25 * (i + 1)  # exact in binary: sums compare equal
        for parts in (1, 2, 3, 7, 10):
            margins, cpu = game_phases(record, parts)
            assert (margins, cpu) == replayed_phases(record, parts)
            assert margins[-1] == record["scores"]["A"] - record["scores"]["B"]


def test_a_game_s_margin_is_read_after_whole_rounds_only():
    # A takes the 1s (4 points), B the 2s (4), A the 3 (1): half the fruit is gone after A's
    # first move, but the round ends with B's: 0 there, not A's +4; the end is the end.
    record = {
        "game": 1,
        "agents": {"A": "alpha", "B": "beta"},
        "first": "A",
        "board": ["*3*", "*22", "112"],
        "scores": {"A": 5, "B": 9},
        "fault": None,
        "moves": [
            {"player": "A", "move": "A3", "cpu": 0.5, "points": 4},
            {"player": "B", "move": "C2", "cpu": 0.25, "points": 9},
            {"player": "A", "move": "B3", "cpu": 0.25, "points": 1},
        ],
    }
    phases = match_phases([record], parts=3)
    assert phases.margins == {"A": [[-5, -5, -4]], "B": []} and phases.cpu == [0.5, 0.0, 0.25]
    printed = phases_table(phases).splitlines()
    assert printed[printed.index("fruit gone   A first, 1 game   alpha CPU s a game") :] == [
        "fruit gone   A first, 1 game   alpha CPU s a game",
        "-------------------------------------------------",
        "       33%              -5.0                 0.50",
        "       67%              -5.0                 0.00",
        "      100%              -4.0                 0.25",
    ]


def python_bootstrap(values: list, resamples: int, seed: int) -> tuple:
    """The 95% percentile bootstrap of a mean, the obvious way: resample with
    random.choices, sort the means, read the 2.5th and 97.5th percentiles."""
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(resamples))
    return statistics.quantiles(means, n=40, method="inclusive")[0], statistics.quantiles(
        means, n=40, method="inclusive"
    )[-1]


def test_the_bootstrap_interval_agrees_with_a_plain_one_and_with_normal_theory():
    rng = random.Random(3)
    games = [[rng.gauss(5, 20), rng.gauss(-3, 4)] for _ in range(400)]
    low, high = bootstrap_intervals(games, resamples=4000)
    for part in range(2):
        values = [game[part] for game in games]
        plain_low, plain_high = python_bootstrap(values, 4000, seed=part)
        half_width = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        assert (plain_low, plain_high) == pytest.approx((low[part], high[part]), abs=0.1 * half_width)
        mean = statistics.fmean(values)
        assert (low[part], high[part]) == pytest.approx((mean - half_width, mean + half_width), abs=0.1 * half_width)


def test_the_bootstrap_is_the_same_every_time_and_exact_for_constant_games():
    games = [[1.0, 2.0], [3.0, 2.0], [8.0, 2.0]]
    first, again = bootstrap_intervals(games), bootstrap_intervals(games)
    assert first[0].tolist() == again[0].tolist() and first[1].tolist() == again[1].tolist()
    assert first[0][1] == first[1][1] == 2.0
    assert 1.0 <= first[0][0] < first[1][0] <= 8.0


def test_the_table_fits_80_columns_and_gives_intervals():
    records = [random_game_record(seed, 6, 3) for seed in range(40)]
    for record in records:
        record["agents"] = {"A": "a rather long agent command line, /usr/bin/python3 agent.py", "B": "beta"}
    table = phases_table(match_phases(records, parts=20), width=80)
    assert all(len(line) <= 80 for line in table.splitlines())
    assert len(re.findall(r"[+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\]", table)) == 40  # 20 parts x 2


def test_games_are_split_by_first_mover_and_faulted_games_left_out():
    records = [random_game_record(seed, 5, 3) for seed in range(10)]
    records.append(random_game_record(99, 5, 3, fault_at=2))
    phases = match_phases(records, parts=4)
    assert phases.skipped == 1 and phases.games == 10
    for first in "AB":
        expected = [replayed_phases(r, 4)[0] for r in records[:10] if r["first"] == first]
        assert phases.margins[first] == expected
    assert phases.margins["A"] and phases.margins["B"]  # the seeds give both
    assert phases.cpu == pytest.approx([sum(col) for col in zip(*(replayed_phases(r, 4)[1] for r in records[:10]))])
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
    lines = done.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("fruit gone"))
    assert [line.split()[0] for line in lines[header + 2 :]] == ["20%", "40%", "60%", "80%", "100%"]
    assert "alpha CPU s a game" in lines[header] and "[95% interval] by bootstrap" in done.stdout
    faulted = tmp_path / "faulted.jsonl"
    faulted.write_text(json.dumps(random_game_record(1, 4, 3, fault_at=0)) + "\n")
    no_board = tmp_path / "no_board.jsonl"
    no_board.write_text('{"game": 1, "agents": {"A": "a", "B": "b"}, "first": "A"}\n')
    no_first = tmp_path / "no_first.jsonl"
    no_first.write_text('{"game": 2, "agents": {"A": "a", "B": "b"}, "first": "C"}\n')
    no_agents = tmp_path / "no_agents.jsonl"
    no_agents.write_text('{"game": 1, "agents": 5}\n')
    bad_move = bad_move_file(tmp_path)
    assert_refused(
        "phases",
        (
            ((tmp_path / "missing.jsonl",), "missing.jsonl: no such file"),
            ((no_board,), "game 1: the record has no 'board'"),
            ((bad_move,), "game 3: move 2: not a cell name: 'XYZ'"),
            ((no_agents,), "game 1: the record names no agents A and B"),
            ((no_first,), "game 2: the record names no first mover A or B"),
            ((faulted,), "every game ended by a fault"),
            ((results, "--parts", 21), "argument --parts: must be 1..20"),
        ),
    )
