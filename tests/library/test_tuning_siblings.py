"""agent.tuning.siblings: children and their labels against the rules and the search,
the within-parent R^2 of what ranks perfectly, weights recovered from children made to
follow them, and the command on a saved file."""

import numpy as np
import pytest

from agent import rules
from agent.tuning import labels, siblings


def made_children(weights, parents=12, per_parent=6, seed=3):
    """Children whose labels (their value to their own mover) are exactly weights . terms
    in thousandths plus an offset of their parent's."""
    rng = np.random.default_rng(seed)
    children = []
    for parent in range(parents):
        offset = rng.integers(-20, 20)
        for _ in range(per_parent):
            terms = tuple(int(t) for t in rng.integers(-30, 60, len(weights)))
            points = int(rng.integers(1, 50))
            children.append(siblings.Child(parent, frozenset(), points, np.dot(weights, terms) / 1000 + offset, terms))
    return children


def test_a_ranking_that_is_exact_has_within_parent_r2_one_and_the_points_alone_less():
    children = made_children((200, 400, 300))
    exact = np.array([[c.points - np.dot((0.2, 0.4, 0.3), c.terms)] for c in children])
    assert siblings.heldout_within_r2(children, exact, fitted=False, splits=5, seed=1) == pytest.approx(1.0)
    columns = np.array([(c.points, *c.terms) for c in children], dtype=float)
    assert siblings.heldout_within_r2(children, columns, fitted=True, splits=5, seed=1) == pytest.approx(1.0)
    points = np.array([[c.points] for c in children], dtype=float)
    assert siblings.heldout_within_r2(children, points, fitted=False, splits=5, seed=1) < 0.9


def test_the_weights_are_those_the_children_follow_and_the_constant_the_labels_level():
    children = made_children((200, 400, 300))
    grid = ("000", "112", "334")  # terms (5, 5, 9), as worked out in test_candidate_evaluations
    assert siblings.child_terms(grid) == (5, 5, 9)
    positions = [labels.LabelledPosition(grid, 0, 0, 10, 6, False)]
    # 10 - (0.2 * 5 + 0.4 * 5 + 0.3 * 9) = 4.3
    assert siblings.sibling_weights(children, positions) == (200, 400, 300, 4300)


def test_the_best_exchanges_weights_are_those_the_children_follow():
    children = made_children((200, 400, 300, 100))
    grid = ("101", "220", "101")  # terms (3, -5, 4, 0), as worked out in test_candidate_evaluations
    _, terms = siblings.TERM_SETS["best-exchange"]
    assert terms(grid) == (3, -5, 4, 0)
    positions = [labels.LabelledPosition(grid, 0, 0, 10, 6, False)]
    # 10 - (0.2 * 3 + 0.4 * -5 + 0.3 * 4 + 0.1 * 0) = 10.2
    assert siblings.sibling_weights(children, positions, terms) == (200, 400, 300, 100, 10200)


def test_children_are_the_largest_groups_and_some_others_each_labelled_by_the_search():
    positions = labels.labelled_positions(8, 3, games=2, per_game=2, play_depth=1, label_depth=2, seed=4)
    children = siblings.sibling_labels(positions, every=1, depth=2, seed=9)
    assert children == siblings.sibling_labels(positions, every=1, depth=2, seed=9)
    for index, position in enumerate(positions):
        grid = position.rows
        mine = [c for c in children if c.parent == index]
        found = rules.groups(grid)
        if len(found) <= siblings.LARGEST_CHILDREN:
            assert not mine
            continue
        largest = sorted(found, key=lambda g: (-len(g), rules.group_key(grid, g)))[: siblings.LARGEST_CHILDREN]
        assert set(largest) <= {c.taken for c in mine} or any(
            rules.is_empty(rules.remove_and_fall(grid, g)) for g in largest
        )
        assert len(mine) <= siblings.LARGEST_CHILDREN + siblings.RANDOM_CHILDREN
        for child in mine:
            assert child.taken in found and child.points == len(child.taken) ** 2
            after = rules.remove_and_fall(grid, child.taken)
            assert child.label == labels.search_label(after, 2)[0]
            assert child.terms == siblings.child_terms(after)


def test_the_command_on_a_saved_file(tmp_path, capsys):
    path = tmp_path / "labels.json"
    labels.save(labels.labelled_positions(8, 3, games=3, per_game=4, play_depth=1, label_depth=2, seed=2), str(path))
    arguments = ["--load", str(path), "--every", "1", "--depth", "2", "--splits", "3"]
    assert siblings.main(arguments) == 0
    out = capsys.readouterr().out
    assert "labelled at depth 2" in out and "weights in thousandths" in out
    assert all(f"{name} as used" in out for name in siblings.AS_USED)
    assert siblings.main(arguments + ["--terms", "best-exchange"]) == 0
    assert "(greedy pair, greedy exchange, largest square, best exchange, constant)" in capsys.readouterr().out


def test_the_command_refuses_too_few_parents_and_a_file_that_is_not_positions(tmp_path, capsys):
    path = tmp_path / "labels.json"
    labels.save(labels.labelled_positions(8, 3, games=2, per_game=1, play_depth=1, label_depth=2, seed=2), str(path))
    assert siblings.main(["--load", str(path), "--every", "1", "--depth", "1"]) == 2
    assert "at least 4 parents" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    assert siblings.main(["--load", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and str(bad) in err
