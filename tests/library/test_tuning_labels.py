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
