"""agent.tuning.labels: the fit against numpy's least squares, the labels against the
rules' minimax, R^2 of what predicts perfectly, and runs repeated from their seed."""

import numpy as np

from agent import rules
from agent.tuning import labels
from agent.tuning.fit import fit_ridge


def test_ridge_without_penalty_is_least_squares():
    rng = np.random.default_rng(44)
    features = rng.normal(size=(60, 3)) * [1.0, 10.0, 0.1]
    targets = rng.normal(size=60) * 5 + features @ [2.0, -0.5, 7.0]
    weights, intercept = fit_ridge(features, targets, 0.0)
    solution = np.linalg.lstsq(np.column_stack([features, np.ones(60)]), targets, rcond=None)[0]
    assert np.allclose([*weights, intercept], solution)


def test_labels_on_tiny_boards_are_the_rules_minimax():
    """Below 12x12 the agent's horizon is the greedy pair; an exact label is the final
    margin with best play."""
    for seed in range(6):
        grid = rules.random_board(seed, 4, 3)
        for depth in (1, 2, 3, 4):
            value, exact = labels.search_label(grid, depth)
            if exact:
                assert value == rules.negamax_value(grid, rules.fruit_count(grid))
            else:
                assert value == rules.negamax_value(grid, depth, rules.greedy_pair_value)


def positions_with_labels(values, games):
    return [labels.LabelledPosition(("0",), game, 0, int(value), 1, False) for value, game in zip(values, games)]


def test_a_perfect_feature_has_r2_one():
    feature = np.arange(40, dtype=float)[:, None] % 7
    positions = positions_with_labels(3 * feature[:, 0] - 2, range(40))
    assert labels.heldout_r2(positions, feature, fitted=True, splits=5, seed=1, ridge=0.0) == 1.0
    exact = 3 * feature - 2
    assert labels.heldout_r2(positions, exact, fitted=False, splits=5, seed=1, ridge=0.0) == 1.0


def test_a_feature_of_noise_has_no_predictive_r2():
    rng = np.random.default_rng(3)
    positions = positions_with_labels(rng.integers(0, 100, 200), range(200))
    assert labels.heldout_r2(positions, rng.normal(size=(200, 1)), fitted=True, splits=10, seed=1, ridge=0.0) < 0.05


def test_labelled_positions_are_the_same_from_the_same_seed():
    def run(seed):
        return labels.labelled_positions(6, 3, games=2, per_game=3, play_depth=1, label_depth=3, seed=seed)

    first = run(7)
    assert first == run(7) and first != run(8)
    assert len(first) == 6 and {p.game for p in first} == {0, 1}
    for p in first:
        assert (p.label, p.exact) == labels.search_label(p.rows, 3)


def test_the_table_from_a_saved_file(tmp_path, capsys):
    path = tmp_path / "labels.json"
    positions = labels.labelled_positions(6, 3, games=4, per_game=4, play_depth=1, label_depth=3, seed=2)
    labels.save(positions, str(path))
    assert labels.load(str(path)) == positions
    labels.main(["--load", str(path), "--splits", "3"])
    out = capsys.readouterr().out
    assert "16 positions of 4 games" in out
    assert all(name in out for name in labels.FEATURE_SETS)


def test_forward_selection_takes_the_column_that_explains_the_labels_first():
    rng = np.random.default_rng(5)
    signal, weak, noise = rng.normal(size=(3, 120))
    positions = positions_with_labels(np.round(10 * signal + 3 * weak), np.arange(120) // 3)
    steps = labels.forward_selection(
        positions, {"noise": noise, "weak": weak, "signal": signal}, 2, splits=5, seed=1, ridge=0.0
    )
    assert [name for name, _ in steps] == ["signal", "weak"]
    assert 0.8 < steps[0][1] < steps[1][1] <= 1.0


def test_the_command_refuses_what_is_not_a_saved_file_and_keeps_what_exists(tmp_path, capsys):
    import json
    import os

    saved = tmp_path / "saved.json"
    # 32 positions: with fewer, some seeds give columns too alike for the forward selection
    labels.save(labels.labelled_positions(6, 3, games=8, per_game=4, play_depth=1, label_depth=2, seed=2), str(saved))
    good = json.loads(saved.read_text())
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = {
        "folder": (tmp_path, "a folder"),
        "fifo": (fifo, "a FIFO"),
        "missing": (tmp_path / "none.json", "no such file"),
        "not json": ("{", "not JSON"),
        "empty list": ([], "not a list of labelled positions"),
        "unknown field": ([{**good[0], "extra": 1}], "position 1: needs exactly the fields"),
        "floating fruit": ([good[0], {**good[1], "rows": ["0*", "*0"]}], "position 2: rows: fruit floats"),
        "ragged rows": ([{**good[0], "rows": ["01", "0"]}], "position 1: rows: row 2"),
        "label not a number": ([{**good[0], "label": "7"}], "position 1: label: not a whole number"),
        "huge ply": ([{**good[0], "ply": 10**30}], "position 1: ply: not a whole number"),
        "exact not a bool": ([{**good[0], "exact": 1}], "position 1: exact: not true or false"),
        "one game": ([{**p, "game": 0} for p in good], "at least 2 games"),
    }
    large = tmp_path / "large.json"
    large.write_bytes(b"[")
    os.truncate(large, labels.MAX_LABELS_BYTES + 1)  # sparse: no disk spent
    cases["too large"] = (large, "larger than 16 MB")
    for case, (content, message) in cases.items():
        if isinstance(content, (str, list)):
            path = tmp_path / f"{case}.json"
            path.write_text(content if isinstance(content, str) else json.dumps(content))
        else:
            path = content
        assert labels.main(["--load", str(path)]) == 2, case
        err = capsys.readouterr().err
        assert err.startswith("python3 -m agent.tuning.labels: ") and message in err, (case, err)
        assert "Traceback" not in err
    before = saved.read_bytes()
    assert labels.main(["--load", str(saved), "--save", str(saved), "--splits", "2"]) == 2
    assert "the file exists" in capsys.readouterr().err and saved.read_bytes() == before
    # what the file holds loads back as it was saved
    assert labels.main(["--load", str(saved), "--splits", "2", "--forward", "2"]) == 0
    out = capsys.readouterr().out
    assert "32 positions of 8 games" in out and "forward selection" in out
    # four positions cannot fit the blends' weights: refused in words
    few = tmp_path / "few.json"
    labels.save(labels.labelled_positions(5, 3, games=2, per_game=2, play_depth=1, label_depth=2, seed=3), str(few))
    assert labels.main(["--load", str(few), "--splits", "2"]) == 2
    assert "too few or too alike" in capsys.readouterr().err
