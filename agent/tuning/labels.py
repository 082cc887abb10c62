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
import os
import random
import statistics
import sys
from dataclasses import asdict, dataclass
from typing import Callable, Optional

import numpy as np

from agent import rules
from agent.cli_support import interrupted, number, open_regular_file, printable
from agent.evaluations import LARGEST_WEIGHTS, PAIR_EXCHANGE_WEIGHTS
from agent.tuning.fit import fit_ridge, held_out_games, r_squared

# The feature sets of issue 44's candidates (docs/research/2026-12-strength-log.md, "Past
# the search ceiling"):
# the largest exchange's fit gives the core's LARGEST_* weights (ext/evaluation.pxd)
HOT_EXCHANGE = "greedy pair + greedy exchange + hot sum of 4"
GREEDY_LINE = "greedy pair + greedy line of 4"
LARGEST_EXCHANGE = "greedy pair + greedy exchange + largest square"
LARGE_GROUPS = "greedy pair + greedy exchange + largest square + large groups"
BEST_EXCHANGE = "greedy pair + greedy exchange + largest square + best exchange"
LARGE_SIZE = 5  # the least group LARGE_GROUPS counts


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


FEATURE_SETS: dict[str, Callable[[tuple], tuple]] = {
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
    GREEDY_LINE: lambda g: (rules.greedy_pair_value(g), rules.greedy_line_value(g, 4)),
    LARGEST_EXCHANGE: rules.largest_exchange_terms,
    "largest exchange as used": lambda g: (rules.largest_exchange_blend(g, LARGEST_WEIGHTS),),
    LARGE_GROUPS: lambda g: (
        *FEATURE_SETS[LARGEST_EXCHANGE](g),
        sum(len(group) >= LARGE_SIZE for group in rules.groups(g)),
    ),
    BEST_EXCHANGE: lambda g: (*FEATURE_SETS[LARGEST_EXCHANGE](g), rules.best_exchange_value(g)),
    "20 features": _twenty,
}
AS_USED = (
    "pair exchange as used",
    "largest exchange as used",
)


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
    ids = sorted(set(games.tolist()))  # a hand-made file may number its games with gaps
    scores = []
    for split in range(splits):
        test = np.isin(games, [ids[i] for i in held_out_games(len(ids), 0.25, seed + split)])
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


# A position of 26 rows takes under 1 KB saved: 16 MB is over 16,000 of them. Read no more.
MAX_LABELS_BYTES = 16 * 1024 * 1024
FIELDS = ("rows", "game", "ply", "label", "depth", "exact")


def save(positions: list, path: str) -> None:
    """Write `positions` to `path` as JSON; FileExistsError when `path` exists: a file
    someone already has is never written over."""
    with open(path, "x", encoding="utf-8") as handle:
        json.dump([asdict(p) for p in positions], handle)


def load(path: str) -> list:
    """The positions a file of `save` holds; ValueError naming the file, and the position
    and field at fault, for anything else (a folder, a FIFO, a file too large, not JSON,
    a position that is no board)."""
    try:
        with open_regular_file(path) as handle:
            data = handle.read(MAX_LABELS_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{path}: {(error.strerror or str(error)).lower()}") from None
    if len(data) > MAX_LABELS_BYTES:
        raise ValueError(
            f"{path}: larger than {MAX_LABELS_BYTES // (1024 * 1024)} MB: not a file of labelled positions"
        )
    try:
        saved = json.loads(data)
    except (ValueError, RecursionError):
        raise ValueError(f"{path}: not JSON: not a file of labelled positions") from None
    if not isinstance(saved, list) or not saved:
        raise ValueError(f"{path}: not a list of labelled positions")
    return [_position(entry, f"{path}: position {number}") for number, entry in enumerate(saved, 1)]


def _position(entry, where: str) -> LabelledPosition:
    from agent.board import Board

    if not isinstance(entry, dict) or sorted(entry) != sorted(FIELDS):
        raise ValueError(f"{where}: needs exactly the fields {', '.join(FIELDS)}")
    rows = entry["rows"]
    if not isinstance(rows, list):
        raise ValueError(f"{where}: rows: not a list of rows")
    try:
        Board(rows)
    except ValueError as error:
        raise ValueError(f"{where}: rows: {printable(error)}") from None
    for name in ("game", "ply", "label", "depth"):
        value = entry[name]
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 10**6:
            raise ValueError(f"{where}: {name}: not a whole number of at most a million: {printable(value)[:40]}")
    if entry["game"] < 0 or entry["ply"] < 0 or entry["depth"] < 1:
        raise ValueError(f"{where}: game and ply are >= 0, depth >= 1")
    if not isinstance(entry["exact"], bool):
        raise ValueError(f"{where}: exact: not true or false")
    return LabelledPosition(**{**entry, "rows": tuple(rows)})


def forward_selection(positions: list, columns: dict, steps: int, *, splits: int, seed: int, ridge: float) -> list:
    """Greedy forward selection over `columns` ({name: a value per position}): at each step
    the one column whose addition gives the best median held-out R^2; [(name, R^2 of the
    columns chosen so far)], `steps` long at most."""
    names = list(columns)
    matrix = np.column_stack([np.asarray(columns[name], dtype=float) for name in names])
    chosen: list[int] = []
    steps_taken = []
    for _ in range(min(steps, len(names))):
        scores = {
            index: heldout_r2(
                positions, matrix[:, chosen + [index]], fitted=True, splits=splits, seed=seed, ridge=ridge
            )
            for index in range(len(names))
            if index not in chosen
        }
        best = max(scores, key=lambda index: (scores[index], -index))
        chosen.append(best)
        steps_taken.append((names[best], scores[best]))
    return steps_taken


def selection_columns(positions: list) -> dict:
    """The columns forward_selection chooses from: the 20 features of agent.tuning.features,
    the pair exchange as the agent uses it, and the hot sum of the 4 largest groups."""
    from agent.tuning.features import FEATURE_NAMES

    twenty = feature_rows(positions, _twenty)
    columns = {name: twenty[:, index] for index, name in enumerate(FEATURE_NAMES)}
    columns["pair_exchange"] = feature_rows(positions, FEATURE_SETS["pair exchange as used"])[:, 0]
    columns["hot_sum_4"] = feature_rows(positions, lambda g: (rules.hot_exchange_value(g, 4),))[:, 0]
    return columns


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m agent.tuning.labels",
        description=__doc__.split("\n\n")[0],
        epilog="exit codes: 0 done, 2 bad arguments or a file that is not a saved file of positions, 130 interrupted",
    )
    parser.add_argument("--size", type=number(int, 1, rules.MAX_SIZE), default=12, help="board side (default: 12)")
    parser.add_argument("--types", type=number(int, 1, rules.MAX_TYPES), default=4, help="fruit types (default: 4)")
    parser.add_argument("--games", type=number(int, 2), default=30, help="self-play games, >= 2 (default: 30)")
    parser.add_argument(
        "--per-game", type=number(int, 1), default=20, help="positions labelled per game, at most (default: 20)"
    )
    parser.add_argument(
        "--play-depth", type=number(int, 1, 12), default=4, help="self-play's search depth, 1..12 (default: 4)"
    )
    parser.add_argument(
        "--label-depth", type=number(int, 1, 12), default=7, help="the labelling search's depth, 1..12 (default: 7)"
    )
    parser.add_argument("--seed", type=number(int, 0), default=1, help="seed of the boards and the splits (default: 1)")
    parser.add_argument("--splits", type=number(int, 1, 1000), default=10, help="random splits by game (default: 10)")
    parser.add_argument("--ridge", type=number(float, 0), default=1.0, help="ridge penalty, >= 0 (default: 1)")
    parser.add_argument(
        "--forward",
        type=number(int, 1, 22),
        metavar="K",
        help="also choose K of the 20 features, the pair exchange and the hot sum one at a time, "
        "each the best addition by held-out R^2",
    )
    parser.add_argument("--save", metavar="FILE", help="write the labelled positions to FILE (JSON), a new file")
    parser.add_argument("--load", metavar="FILE", help="fit the positions FILE holds instead of playing")
    args = parser.parse_args(argv)
    program = parser.prog
    try:
        return _run(args)
    except KeyboardInterrupt:
        return interrupted(program, mid_line=True)
    except np.linalg.LinAlgError:
        print(f"{program}: the positions are too few or too alike for a least-squares fit", file=sys.stderr)
        return 2
    except (ValueError, FileExistsError) as error:
        print(f"{program}: {printable(error)}", file=sys.stderr)
        return 2


def _run(args) -> int:
    if args.save and os.path.lexists(args.save):
        raise FileExistsError(f"--save {args.save}: the file exists; give a new name")
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
            try:
                save(positions, args.save)
            except OSError as error:
                raise ValueError(f"--save {args.save}: {(error.strerror or str(error)).lower()}") from None
    exact = sum(p.exact for p in positions)
    games = len({p.game for p in positions})
    if games < 2:
        raise ValueError(f"positions of {games} game: the fit needs at least 2 games, to hold some out")
    print(f"{len(positions)} positions of {games} games, {exact} labels exact;", end=" ")
    print(f"median held-out R^2 of {args.splits} splits")
    width = max(map(len, FEATURE_SETS))
    for name, r2 in r2_table(positions, splits=args.splits, seed=args.seed, ridge=args.ridge).items():
        print(f"  {name:<{width}} {r2:6.3f}")
    for name in (HOT_EXCHANGE, GREEDY_LINE, LARGEST_EXCHANGE, LARGE_GROUPS, BEST_EXCHANGE):
        print(f"  weights in thousandths, fitted to all, of {name}: {blend_weights(positions, FEATURE_SETS[name])}")
    if args.forward:
        print("forward selection, each step's addition and the held-out R^2 of the columns so far:")
        steps = forward_selection(
            positions, selection_columns(positions), args.forward, splits=args.splits, seed=args.seed, ridge=args.ridge
        )
        for step, (name, r2) in enumerate(steps, 1):
            print(f"  {step:>2} {name:<44} {r2:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
