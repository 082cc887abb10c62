"""Tuning the horizon evaluation: positions and labels from game records, the ridge fit,
and `tune-eval`'s weights file."""

from __future__ import annotations

import argparse
import doctest
import json
import random

import numpy as np
import pytest
from arena_helpers import fruit_rage
from fruit_helpers import random_grid

from agent import Board, GreedyPlayer, Limit, RandomPlayer, play_game, search
from agent.commands.tune_eval import add_arguments, run
from agent.rules import (
    greedy_pair_value,
    groups,
    legal_cell,
    negamax_value,
    play,
    random_board,
)
from agent.tuning import fit as tuning
from agent.tuning.features import (
    FEATURE_NAMES,
    MERGE_FEATURES,
    feature_vector,
    greedy_exchange_value,
)
from agent.tuning.two_ply import (
    TwoPlyPlayer,
    candidates,
    fitted_player,
    greedy_exchange,
    greedy_exchange_player,
    greedy_pair,
    greedy_pair_player,
)


def small_records(count: int = 8, size: int = 5) -> list:
    """Whole games, greedy against a seeded random player, on boards of 3 types."""
    return [
        dict(
            play_game(
                GreedyPlayer(), RandomPlayer(seed=k), Board.random(k, size, 3), clocks=(10, 10), first="AB"[k % 2]
            ).to_json(),
            game=k + 1,
            seed=k,
        )
        for k in range(count)
    ]


def write_records(path, records) -> str:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return str(path)


def test_the_positions_of_a_record_are_those_the_rules_replay():
    record = small_records(1)[0]
    grid, expected = tuple(record["board"]), []
    for move in record["moves"]:
        after, points = play(grid, legal_cell(grid, move["move"]))
        expected.append((grid, move["player"], points))
        grid = after
    assert tuning.game_positions(record) == expected


def test_the_label_is_the_margin_still_to_come_for_the_mover():
    positions = tuning.game_positions(small_records(1)[0])
    labels = tuning.margins_to_come(positions)
    for ply, (_, side, _) in enumerate(positions):
        rest = positions[ply:]
        assert labels[ply] == sum(p for _, s, p in rest if s == side) - sum(p for _, s, p in rest if s != side)
    record = small_records(1)[0]
    first = record["first"]
    assert labels[0] == record["scores"][first] - record["scores"]["B" if first == "A" else "A"]


def test_sampling_is_reproducible_and_skips_games_a_fault_ended():
    records = small_records(4)
    faulted = dict(records[0], fault="time")
    one = tuning.sample_positions([faulted, *records[1:]], per_game=3, seed=5)
    assert one == tuning.sample_positions([faulted, *records[1:]], per_game=3, seed=5)
    assert {p.game for p in one} == {0, 1, 2} and len(one) == 9
    assert one != tuning.sample_positions([faulted, *records[1:]], per_game=3, seed=6)
    replayed = tuning.game_positions(records[1])
    assert all(p.rows == replayed[p.ply][0] for p in one if p.game == 0)


def test_a_search_label_is_the_search_s_value():
    positions = tuning.sample_positions(small_records(2, size=4), per_game=2, seed=1, label_depth=3)
    assert all(p.label == search(Board(p.rows), Limit(depth=3)).value for p in positions)


def test_the_fit_recovers_known_weights():
    rng = np.random.default_rng(30)
    features = rng.normal(size=(2000, 5)) * [1, 10, 100, 0.1, 3] + [0, 5, -50, 1, 0]
    truth = np.array([2.0, -0.5, 0.03, 40.0, 1.5])
    labels = features @ truth + 7.0 + rng.normal(scale=0.1, size=2000)
    weights, intercept = tuning.fit_ridge(features, labels, ridge=0.0)
    assert weights == pytest.approx(truth, rel=0.01) and intercept == pytest.approx(7.0, abs=0.1)
    assert tuning.r_squared(labels, features @ weights + intercept) > 0.999


def test_the_ridge_shrinks_and_a_constant_feature_gets_no_weight():
    rng = np.random.default_rng(31)
    features = np.column_stack([rng.normal(size=300), np.full(300, 4.0)])
    labels = 3 * features[:, 0] + rng.normal(size=300)
    loose, _ = tuning.fit_ridge(features, labels, ridge=0.0)
    tight, intercept = tuning.fit_ridge(features, labels, ridge=300.0)
    assert abs(tight[0]) < abs(loose[0]) and loose[1] == tight[1] == 0.0
    assert intercept == pytest.approx(labels.mean() - tight[0] * features[:, 0].mean())


def test_r_squared():
    labels = np.array([1.0, 2.0, 3.0, 4.0])
    assert tuning.r_squared(labels, labels) == 1.0
    assert tuning.r_squared(labels, np.full(4, 2.5)) == 0.0
    assert tuning.r_squared(labels, -labels) < 0


def test_held_out_games():
    assert tuning.held_out_games(8, 0.25, 1) == tuning.held_out_games(8, 0.25, 1)
    assert len(tuning.held_out_games(8, 0.25, 1)) == 2 and len(tuning.held_out_games(2, 0.9, 1)) == 1
    with pytest.raises(ValueError, match="at least 2 games"):
        tuning.held_out_games(1, 0.25, 1)


def test_tune_measures_the_fit_on_games_it_did_not_see():
    result = tuning.tune(small_records(8), seed=2, per_game=6, heldout=0.25)
    assert result.games == (6, 2) and sum(result.positions) == 48 and result.positions[1] == 12
    assert len(result.evaluation.weights) == len(FEATURE_NAMES)
    assert result.r2_train > 0 and -10 < result.r2_heldout <= 1
    document = result.to_json()
    assert document["features"] == list(FEATURE_NAMES) and document["r2"]["heldout"] == result.r2_heldout


def test_a_fitted_evaluation_is_its_weights_times_the_features(tmp_path):
    result = tuning.tune(small_records(6), seed=3, per_game=5)
    path = tmp_path / "w.json"
    path.write_text(json.dumps(result.to_json()))
    evaluation = tuning.FittedEvaluation.load(str(path))
    assert evaluation == result.evaluation
    rows = ("012", "112", "000")
    expected = evaluation.intercept + sum(w * f for w, f in zip(evaluation.weights, feature_vector(rows)))
    assert evaluation(Board(rows)) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("not json", "not a JSON weights file"),
        (json.dumps({"features": ["fruit"], "weights": [1], "intercept": 0}), "not this version's"),
        (json.dumps({"features": list(FEATURE_NAMES), "weights": [1], "intercept": 0}), "needs"),
    ],
)
def test_a_bad_weights_file_is_named(tmp_path, text, problem):
    path = tmp_path / "w.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=problem):
        tuning.FittedEvaluation.load(str(path))
    with pytest.raises(ValueError, match="no such file"):
        tuning.FittedEvaluation.load(str(tmp_path / "missing.json"))


def tune_eval(*argv) -> int:
    parser = argparse.ArgumentParser(prog="fruit-rage tune-eval")
    add_arguments(parser)
    return run(parser.parse_args([str(arg) for arg in argv]))


def test_tune_eval_writes_the_same_weights_for_a_seed(tmp_path, capsys):
    records = write_records(tmp_path / "games.jsonl", small_records(8))
    for name, seed in (("a.json", 4), ("b.json", 4), ("c.json", 5)):
        assert tune_eval(records, "--seed", seed, "--per-game", 5, "--out", tmp_path / name) == 0
    first, again, other = (json.loads((tmp_path / name).read_text()) for name in ("a.json", "b.json", "c.json"))
    assert first == again and first["weights"] != other["weights"]
    assert first["seed"] == 4 and len(first["weights"]) == len(FEATURE_NAMES)
    assert "R^2 train" in capsys.readouterr().out


def test_tune_eval_names_what_is_wrong(tmp_path, capsys):
    assert tune_eval(tmp_path / "missing.jsonl", "--out", tmp_path / "w.json") == 2
    assert "missing.jsonl: no such file" in capsys.readouterr().err
    one_game = write_records(tmp_path / "one.jsonl", small_records(1))
    assert tune_eval(one_game, "--out", tmp_path / "w.json") == 2
    assert "at least 2 games" in capsys.readouterr().err
    records = write_records(tmp_path / "games.jsonl", small_records(3))
    assert tune_eval(records, "--out", tmp_path / "no-folder" / "w.json") == 1
    assert "cannot write --out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        tune_eval(records, "--heldout", "1.5")
    assert "between 0 and 1" in capsys.readouterr().err


def test_the_docstring_example():
    failed, attempted = doctest.testmod(tuning)
    assert attempted > 0 and failed == 0


def test_the_two_ply_search_is_plain_negamax_when_it_sees_every_move():
    rng = random.Random(40)
    player = TwoPlyPlayer(greedy_pair, width=1000)
    for _ in range(60):
        grid = random_grid(rng, rng.randint(2, 6), rng.randint(1, 4), rng.choice([0.0, 0.3]))
        if len(groups(grid)) > 1:
            value, cell = player.best(Board(grid).core(), 1000)
            assert value == negamax_value(grid, 2, greedy_pair_value), grid
            after, points = play(grid, cell)
            assert points - negamax_value(after, 1, greedy_pair_value) == value


def test_candidates_are_the_best_moves_by_points_less_the_greedy_pair_they_leave():
    grid = random_board(9, 7, 3)
    chosen = candidates(Board(grid).core(), 5)
    scores = sorted((len(g) ** 2 - greedy_pair_value(play(grid, min(g))[0]) for g in groups(grid)), reverse=True)
    assert [points - greedy_pair(child) for _, child, points in chosen] == scores[:5]
    for cell, child, points in chosen:
        assert (child.rows(), points) == play(grid, cell)


def test_as_the_core_would_the_fitted_value_is_a_whole_number_from_0(tmp_path):
    document = tuning.tune(small_records(6), seed=3, per_game=5).to_json()
    board = Board.random(2, 6, 3).core()
    for intercept, expected in ((-1e6, 0), (1e6 + 0.4, None)):
        path = tmp_path / "w.json"
        path.write_text(json.dumps(dict(document, intercept=intercept)))
        plain, as_core = (
            fitted_player(str(path)).evaluate(board),
            fitted_player(str(path), as_core=True).evaluate(board),
        )
        assert as_core == (round(plain) if expected is None else expected) and isinstance(as_core, int)
        assert (plain < 0) == (expected == 0)


def test_the_greedy_exchange_at_the_leaves_is_the_feature():
    for seed in range(20):
        grid = random_board(seed, 6, 3)
        assert greedy_exchange(Board(grid).core()) == greedy_exchange_value(grid)


def test_the_two_ply_players_play_whole_games(tmp_path):
    path = tmp_path / "w.json"
    path.write_text(json.dumps(tuning.tune(small_records(6), seed=3, per_game=5).to_json()))
    game = play_game(
        fitted_player(str(path), width=3), greedy_pair_player(width=3), Board.random(2, 6, 3), clocks=(30, 30)
    )
    assert game.fault is None and sum(game.scores.values()) > 0
    assert game.agents == ("two-ply(fitted,w=3)", "two-ply(greedy-pair,w=3)")
    game = play_game(
        greedy_exchange_player(width=2), greedy_pair_player(width=2), Board.random(3, 6, 3), clocks=(30, 30)
    )
    assert game.fault is None and game.agents[0] == "two-ply(greedy-exchange,w=2)"
    with pytest.raises(ValueError, match="width"):
        TwoPlyPlayer(greedy_pair, width=0)


def test_a_dropped_feature_keeps_weight_zero(tmp_path, capsys):
    result = tuning.tune(small_records(6), seed=3, per_game=5, dropped=("greedy_pair", "merge_max"))
    weights = dict(zip(FEATURE_NAMES, result.evaluation.weights))
    assert weights["greedy_pair"] == weights["merge_max"] == 0 and weights["alternating"] != 0
    assert result.to_json()["dropped"] == ["greedy_pair", "merge_max"]
    records = write_records(tmp_path / "games.jsonl", small_records(3))
    assert tune_eval(records, "--drop", "greedy_pear", "--out", tmp_path / "w.json") == 2
    assert "no feature greedy_pear" in capsys.readouterr().err


def test_an_evaluation_without_merge_weights_skips_them_and_gives_the_same_value():
    merge = {FEATURE_NAMES.index(name) for name in MERGE_FEATURES}
    weights = tuple(0.0 if i in merge else 0.5 + i for i in range(len(FEATURE_NAMES)))
    lean = tuning.FittedEvaluation(weights, 2.0)
    full = tuning.FittedEvaluation(tuple(1e-300 if i in merge else w for i, w in enumerate(weights)), 2.0)
    assert not lean.uses_merges and full.uses_merges
    board = Board.random(5, 8, 3)
    assert lean(board) == pytest.approx(full(board))


def test_fruit_rage_tune_eval_from_the_command_line(tmp_path):
    records = write_records(tmp_path / "games.jsonl", small_records(6))
    out = tmp_path / "w.json"
    done = fruit_rage("tune-eval", records, "--seed", "2", "--per-game", "4", "--out", out)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["seed"] == 2 and f"weights written to {out}" in done.stdout
    done = fruit_rage("tune-eval", tmp_path / "missing.jsonl", "--out", out)
    assert done.returncode == 2 and "no such file" in done.stderr and "Traceback" not in done.stderr
