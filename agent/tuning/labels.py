"""Labels from deeper searches (TreeStrap-style): which evaluation at the horizon best
predicts what a search a few plies deeper than the agent's says a position is worth.

Positions come from self-play at a fixed shallow depth (the depth the agent reaches at a
short clock, in-process and reproducible); each is labelled with the value of the
agent's own search some plies deeper, which is the exact final margin wherever that
search reaches the end of the game. Candidate feature sets are fitted to the labels by
least squares (ridge, from agent.tuning.fit) and judged by their R^2 on games they did not
see, the median over several random splits, beside the pair exchange as the core uses it.

    python3 -m agent.tuning.labels --size 12 --types 4 --games 30 --play-depth 4 --label-depth 7

>>> import numpy as np
>>> features = np.array([[0.0], [1.0], [2.0], [3.0]])
>>> [round(x, 6) for x in fit_predict(features, 2 * features[:, 0] + 1, features, 0.0)]
[1.0, 3.0, 5.0, 7.0]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from dataclasses import asdict, dataclass
from typing import Callable, Optional

import numpy as np

from agent import rules
from agent.evaluations import HOT_WEIGHTS, LINE_WEIGHTS
from agent.tuning.fit import fit_ridge, held_out_games, r_squared

PAIR_EXCHANGE_WEIGHTS = (465, 325, 4222)  # the core's BLEND_* (ext/evaluation.pxd)
# The candidates' feature sets, whose fits give the core's weights (ext/evaluation.pxd)
HOT_EXCHANGE = "greedy pair + greedy exchange + hot sum of 4"
GREEDY_LINE = "greedy pair + greedy line of 4"


@dataclass(frozen=True)
class LabelledPosition:
    """A position of a self-play game (before its `ply`-th move, from 0) and the value of
    a search of it to `depth` plies from its mover's view (`exact`: the final margin)."""

    rows: tuple
    game: int
    ply: int
    label: int
    depth: int
    exact: bool


def self_play(board_seed: int, size: int, types: int, play_depth: int) -> list:
    """The positions of one game of the agent against itself, each searched to
    `play_depth` plies, on the board `board_seed` draws: a list of rows, one a move."""
    from agent.board import Board
    from agent.engine import Limit, search

    board = Board(rules.random_board(board_seed, size, types), types)
    positions = []
    while not board.is_over:
        positions.append(board.rows)
        board, _ = board.play(search(board, Limit(depth=play_depth)).move)
    return positions


def search_label(rows: tuple, depth: int) -> tuple:
    """(value, exact) of the agent's search of `rows` to `depth` plies, from the mover's
    view: the final margin from there with best play when exact."""
    from agent.board import Board
    from agent.engine import Limit, search

    result = search(Board(rows), Limit(depth=depth))
    return result.value, result.exact


def labelled_positions(
    size: int,
    types: int,
    *,
    games: int,
    per_game: int,
    play_depth: int,
    label_depth: int,
    seed: int,
    progress: Optional[Callable[[int, int], None]] = None,
) -> list:
    """Up to `per_game` positions of each of `games` self-play games (boards and positions
    drawn from `seed`), each labelled by a search to `label_depth`."""
    rng = random.Random(seed)
    labelled = []
    for game in range(games):
        positions = self_play(rng.randrange(2**31), size, types, play_depth)
        for ply in sorted(rng.sample(range(len(positions)), min(per_game, len(positions)))):
            value, exact = search_label(positions[ply], label_depth)
            labelled.append(LabelledPosition(tuple(positions[ply]), game, ply, value, label_depth, exact))
        if progress:
            progress(game + 1, games)
    return labelled


# Candidate feature sets: name -> (grid -> feature tuple). "As used" sets are not fitted:
# their one feature is the prediction itself.
def _twenty(grid) -> tuple:
    from agent.tuning.fast_features import feature_vector

    return feature_vector(grid)


FEATURE_SETS = {
    "pair exchange as used": lambda g: (rules.pair_exchange_blend(g, PAIR_EXCHANGE_WEIGHTS),),
    "pair exchange rescaled": lambda g: (rules.pair_exchange_blend(g, PAIR_EXCHANGE_WEIGHTS),),
    "greedy pair": lambda g: (rules.greedy_pair_value(g),),
    "greedy pair + greedy exchange": lambda g: (rules.greedy_pair_value(g), rules.greedy_exchange_value(g)),
    "greedy pair + hot sum of 4": lambda g: (rules.greedy_pair_value(g), rules.hot_exchange_value(g, 4)),
    "greedy pair + hot sum of 8": lambda g: (rules.greedy_pair_value(g), rules.hot_exchange_value(g, 8)),
    HOT_EXCHANGE: lambda g: (
        rules.greedy_pair_value(g),
        rules.greedy_exchange_value(g),
        rules.hot_exchange_value(g, 4),
    ),
    "hot exchange as used": lambda g: (rules.hot_exchange_blend(g, HOT_WEIGHTS, 4),),
    GREEDY_LINE: lambda g: (rules.greedy_pair_value(g), rules.greedy_line_value(g, 4)),
    "greedy line as used": lambda g: (rules.greedy_line_blend(g, LINE_WEIGHTS, 4),),
    "20 features": _twenty,
}
AS_USED = ("pair exchange as used", "hot exchange as used", "greedy line as used")


def feature_rows(positions: list, features: Callable) -> np.ndarray:
    return np.array([features(p.rows) for p in positions], dtype=float).reshape(len(positions), -1)


def fit_predict(train: np.ndarray, labels: np.ndarray, test: np.ndarray, ridge: float) -> np.ndarray:
    """The predictions on `test` of the ridge fit (with an intercept) to `train`."""
    weights, intercept = fit_ridge(train, labels, ridge)
    return test @ weights + intercept


def heldout_r2(positions: list, features: np.ndarray, *, fitted: bool, splits: int, seed: int, ridge: float) -> float:
    """The median over `splits` random splits by game (a quarter held out, split i drawn
    from seed + i) of the R^2 on the held-out games; `fitted` False: the feature itself
    is the prediction."""
    labels = np.array([p.label for p in positions], dtype=float)
    games = np.array([p.game for p in positions])
    scores = []
    for split in range(splits):
        test = np.isin(games, sorted(held_out_games(int(games.max()) + 1, 0.25, seed + split)))
        if fitted:
            predictions = fit_predict(features[~test], labels[~test], features[test], ridge)
        else:
            predictions = features[test, 0]
        scores.append(r_squared(labels[test], predictions))
    return statistics.median(scores)


def blend_weights(positions: list, features: Callable) -> tuple:
    """The least-squares fit of the labels to `features` over all `positions`, in the
    core's thousandths: the weights, then the constant, of (a * x + b * y + ... + c) / 1000."""
    labels = np.array([p.label for p in positions], dtype=float)
    weights, intercept = fit_ridge(feature_rows(positions, features), labels, 0.0)
    return tuple(round(1000 * w) for w in (*weights, intercept))


def r2_table(positions: list, *, splits: int = 10, seed: int = 1, ridge: float = 1.0, sets=None) -> dict:
    """{feature set name: median held-out R^2} for `sets` (default FEATURE_SETS)."""
    sets = FEATURE_SETS if sets is None else sets
    return {
        name: heldout_r2(
            positions,
            feature_rows(positions, features),
            fitted=name not in AS_USED,
            splits=splits,
            seed=seed,
            ridge=ridge,
        )
        for name, features in sets.items()
    }


def save(positions: list, path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump([asdict(p) for p in positions], handle)


def load(path: str) -> list:
    with open(path, encoding="utf-8") as handle:
        return [LabelledPosition(**{**p, "rows": tuple(p["rows"])}) for p in json.load(handle)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python3 -m agent.tuning.labels", description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=12)
    parser.add_argument("--types", type=int, default=4)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--per-game", type=int, default=20)
    parser.add_argument("--play-depth", type=int, default=4, help="self-play's search depth")
    parser.add_argument("--label-depth", type=int, default=7, help="the labelling search's depth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--splits", type=int, default=10)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--save", metavar="FILE", help="write the labelled positions to FILE (JSON)")
    parser.add_argument("--load", metavar="FILE", help="fit the positions FILE holds instead of playing")
    args = parser.parse_args(argv)
    if args.load:
        positions = load(args.load)
    else:
        positions = labelled_positions(
            args.size,
            args.types,
            games=args.games,
            per_game=args.per_game,
            play_depth=args.play_depth,
            label_depth=args.label_depth,
            seed=args.seed,
            progress=lambda done, total: print(f"game {done}/{total}", flush=True),
        )
        if args.save:
            save(positions, args.save)
    exact = sum(p.exact for p in positions)
    games = len({p.game for p in positions})
    print(f"{len(positions)} positions of {games} games, {exact} labels exact;", end=" ")
    print(f"median held-out R^2 of {args.splits} splits")
    for name, r2 in r2_table(positions, splits=args.splits, seed=args.seed, ridge=args.ridge).items():
        print(f"  {name:<46} {r2:6.3f}")
    for name in (HOT_EXCHANGE, GREEDY_LINE):
        print(f"  weights in thousandths, fitted to all, of {name}: {blend_weights(positions, FEATURE_SETS[name])}")


if __name__ == "__main__":
    main()
