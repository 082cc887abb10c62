"""Sibling labels: how well an evaluation ranks the moves of one position, the choice the
search makes with it, rather than how well it predicts values across positions.

From saved labelled positions (agent.tuning.labels --save), every `every`-th is a
parent; some of its children (the moves taking its largest groups, the rest drawn at
random) are each labelled by the agent's search some plies deeper. A child's worth to the
parent's mover is the points its move takes minus that label. An evaluation is judged by
the R^2 of the worth it predicts (points minus its value of the child) after each
parent's mean is taken out, the median over random splits by parent; a feature set is
fitted the same way (least squares within parents) and its constant, which no ranking
sees, then fitted to the positions' own labels: the largest exchange's three terms, or
with --terms best-exchange those and the best exchange (slow: its plain computation
replays every group of each child).

    python3 -m agent.tuning.siblings --load labels26.json --every 4 --depth 5 --seed 50

>>> import numpy as np
>>> within_parents(np.array([1.0, 3.0, 10.0, 14.0]), np.array([0, 0, 1, 1])).tolist()
[-1.0, 1.0, -2.0, 2.0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from dataclasses import dataclass

import numpy as np

from agent import rules
from agent.cli_support import interrupted, number, printable
from agent.tuning import labels
from agent.tuning.fit import r_squared

# The terms of the largest exchange, which the fit weighs anew.
TERMS = ("greedy pair", "greedy exchange", "largest square")
# The children of a parent labelled: the moves taking its LARGEST_CHILDREN largest groups
# and up to RANDOM_CHILDREN others at random.
LARGEST_CHILDREN = 4
RANDOM_CHILDREN = 12
# The evaluations whose ranking is reported as the core computes them.
AS_USED = ("pair-exchange", "largest-exchange")


@dataclass(frozen=True)
class Child:
    parent: int  # which parent it is a child of
    taken: frozenset  # the parent's group its move took
    points: int  # what the move took
    label: int  # the search's value of it, from its mover's view
    terms: tuple  # the terms of it the fit weighs (TERM_SETS)


# TERMS of a position, as agent.tuning.labels computes them for the largest exchange's fit
child_terms = labels.FEATURE_SETS[labels.LARGEST_EXCHANGE]
# The term sets a fit may weigh: {name: (the terms' names, position -> terms)}.
TERM_SETS = {
    "largest-exchange": (TERMS, child_terms),
    "best-exchange": ((*TERMS, "best exchange"), labels.FEATURE_SETS[labels.BEST_EXCHANGE]),
}


def sibling_labels(positions: list, *, every: int, depth: int, seed: int, terms=child_terms, progress=None) -> list:
    """The labelled children of every `every`-th of `positions` with at least
    LARGEST_CHILDREN + 1 groups, the random ones drawn from `seed`, with their `terms`."""
    rng = random.Random(seed)
    parents = positions[::every]
    children = []
    for index, position in enumerate(parents):
        grid = position.rows
        ordered = sorted(rules.groups(grid), key=lambda g: (-len(g), rules.group_key(grid, g)))
        if len(ordered) <= LARGEST_CHILDREN:
            continue
        rest = ordered[LARGEST_CHILDREN:]
        for group in ordered[:LARGEST_CHILDREN] + rng.sample(rest, min(RANDOM_CHILDREN, len(rest))):
            child = rules.remove_and_fall(grid, group)
            if rules.is_empty(child):
                continue
            label, _ = labels.search_label(child, depth)
            children.append(Child(index, group, len(group) ** 2, label, terms(child)))
        if progress:
            progress(index + 1, len(parents))
    return children


def within_parents(values: np.ndarray, parents: np.ndarray) -> np.ndarray:
    """`values` less the mean of their parent's."""
    out = np.asarray(values, dtype=float).copy()
    for parent in np.unique(parents):
        mask = parents == parent
        out[mask] -= out[mask].mean()
    return out


def centred_worth(children: list, columns: np.ndarray) -> tuple:
    """(each child's parent, its worth, `columns`), worth and columns within parents."""
    parents = np.array([c.parent for c in children])
    worth = within_parents(np.array([c.points - c.label for c in children]), parents)
    return parents, worth, np.column_stack([within_parents(column, parents) for column in columns.T])


def fit_columns(children: list) -> np.ndarray:
    """The columns a fit weighs: each child's points, then its terms."""
    return np.array([(c.points, *c.terms) for c in children], dtype=float)


def heldout_within_r2(children: list, columns: np.ndarray, *, fitted: bool, splits: int, seed: int) -> float:
    """The median over `splits` random splits by parent (a quarter held out) of the R^2,
    within parents, of the children's worth: fitted to `columns` (fit_columns) or,
    `fitted` False, `columns[:, 0]` taken as the prediction."""
    parents, worth, centred = centred_worth(children, columns)
    ids = sorted(set(parents.tolist()))
    scores = []
    for split in range(splits):
        rng = random.Random(seed + split)
        test = np.isin(parents, rng.sample(ids, max(1, len(ids) // 4)))
        if fitted:
            weights = np.linalg.lstsq(centred[~test], worth[~test], rcond=None)[0]
            predictions = centred[test] @ weights
        else:
            predictions = centred[test, 0]
        scores.append(r_squared(worth[test], predictions))
    return statistics.median(scores)


def sibling_weights(children: list, positions: list, terms=child_terms) -> tuple:
    """The weights in the core's thousandths of the children's terms (`terms` of a
    position), then a constant: the within-parent fit of the worth to the points and the
    terms, the terms' weights divided by the points' (so that a point taken counts one),
    the constant then the mean of `positions`' labels less their weighted terms."""
    _, worth, centred = centred_worth(children, fit_columns(children))
    fit = np.linalg.lstsq(centred, worth, rcond=None)[0]
    weights = -fit[1:] / fit[0]
    played = [p for p in positions if rules.groups(p.rows)]
    levels = np.array([terms(p.rows) for p in played], dtype=float)
    constant = float(np.mean(np.array([p.label for p in played], dtype=float) - levels @ weights))
    return tuple(round(1000 * w) for w in (*weights, constant))


def as_used_columns(children: list, positions: list, every: int, names) -> dict:
    """{name: [points - the core's evaluation `name` of each child]} for `names`, computed
    from the parent's groups as the search computes it."""
    from agent._core import Bitboard
    from agent.move.deepening import EVALUATION_KINDS

    columns: dict[str, list[list[float]]] = {name: [] for name in names}
    values = {}  # of the parent at hand: {name: {cell: value}}, one cell a group
    for child in children:
        if child.parent not in values:
            board = Bitboard(positions[child.parent * every].rows)
            values = {child.parent: {name: board.evaluations_after_moves(EVALUATION_KINDS[name]) for name in names}}
        for name in names:
            value = next(value for cell, value in values[child.parent][name].items() if cell in child.taken)
            columns[name].append([child.points - value])
    return {name: np.array(column, dtype=float) for name, column in columns.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m agent.tuning.siblings",
        description=__doc__.split("\n\n")[0],
        epilog="exit codes: 0 done, 2 bad arguments or a file that is not a saved file of positions, 130 interrupted",
    )
    parser.add_argument("--load", metavar="FILE", required=True, help="saved labelled positions (labels --save)")
    parser.add_argument("--every", type=number(int, 1), default=8, help="every N-th position is a parent (default: 8)")
    parser.add_argument("--depth", type=number(int, 1, 12), default=4, help="the children's search depth (default: 4)")
    parser.add_argument("--seed", type=number(int, 0), default=1, help="seed of the children and splits (default: 1)")
    parser.add_argument("--splits", type=number(int, 1, 1000), default=20, help="random splits by parent (default: 20)")
    parser.add_argument(
        "--terms",
        choices=sorted(TERM_SETS),
        default="largest-exchange",
        help="the terms fitted (default: largest-exchange)",
    )
    args = parser.parse_args(argv)
    names, terms = TERM_SETS[args.terms]
    try:
        positions = labels.load(args.load)
        children = sibling_labels(
            positions,
            every=args.every,
            depth=args.depth,
            seed=args.seed,
            terms=terms,
            progress=lambda done, total: print(f"\rparent {done}/{total}", end="", file=sys.stderr, flush=True),
        )
        print(file=sys.stderr)
        parents = len({c.parent for c in children})
        if parents < 4:
            raise ValueError(f"{len(children)} children of {parents} parents: the splits need at least 4 parents")
        print(f"{len(children)} children of {parents} parents, labelled at depth {args.depth};")
        print(f"median within-parent R^2 of their worth, {args.splits} splits by parent")
        split = {"splits": args.splits, "seed": args.seed}
        rows = [("the points alone", np.array([[c.points] for c in children], dtype=float), False)]
        used = as_used_columns(children, positions, args.every, AS_USED)
        rows += [(f"{name} as used", used[name], False) for name in AS_USED]
        rows.append((f"points + {', '.join(names)}, fitted", fit_columns(children), True))
        width = max(len(label) for label, _, _ in rows)
        for label, columns, fit in rows:
            print(f"  {label:<{width}} {heldout_within_r2(children, columns, fitted=fit, **split):6.3f}")
        weights = sibling_weights(children, positions, terms)
        print(f"  weights in thousandths ({', '.join(names)}, constant): {weights}")
    except KeyboardInterrupt:
        return interrupted(parser.prog, mid_line=True)
    except np.linalg.LinAlgError:
        print(f"{parser.prog}: the children are too few or too alike for a least-squares fit", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"{parser.prog}: {printable(error)}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
