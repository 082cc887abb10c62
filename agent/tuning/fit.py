"""Texel-style tuning of a horizon evaluation: positions sampled from recorded games,
each labelled with what was still to come for its mover, and a ridge fit of the weights
of agent.tuning.features' vector to those labels.

A label is the score still to come for the mover minus the opponent's (the final margin
from that position, as the games were played), or the value a deeper search gives the
position. The fit's quality is its R^2 on games it did not see, beside that of the
greedy-pair value alone (the evaluation the search uses now).

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> features = rng.normal(size=(200, 2))
>>> weights, intercept = fit_ridge(features, features @ [3.0, -2.0] + 5.0, ridge=0.0)
>>> np.round(weights, 6).tolist(), round(intercept, 6)
([3.0, -2.0], 5.0)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Optional

import numpy as np

from agent.board import Board, Move
from agent.cli_support import open_regular_file
from agent.tuning.features import FEATURE_NAMES, MERGE_FEATURES

WEIGHTS_FORMAT = 1
MAX_WEIGHTS_BYTES = 64 * 1024  # a weights file takes under 2 KB
BASELINE_FEATURE = "greedy_pair"


@dataclass(frozen=True)
class LabelledPosition:
    """A position of a recorded game, before its `ply`-th move (from 0), and its label
    from the side to move."""

    rows: tuple
    label: float
    game: int  # which of the games read it comes from
    ply: int


def game_positions(record: dict) -> list:
    """[(rows, the side to move, the points of the move played there)] for every move of
    a game record, replayed with the core from its "board"."""
    board = Board(record["board"], record["types"])
    positions = []
    for move in record["moves"]:
        after, points = board.play(Move.from_name(move["move"]))
        positions.append((board.rows, move["player"], points))
        board = after
    return positions


def margins_to_come(positions: list) -> list:
    """For each position of game_positions: the points its mover scores from there to the
    end minus the opponent's."""
    labels = []
    ahead = {"A": 0, "B": 0}
    for _, side, points in reversed(positions):
        ahead[side] += points
        labels.append(ahead[side] - ahead["B" if side == "A" else "A"])
    return labels[::-1]


def usable(record: dict) -> bool:
    """A game played to its end: one a fault ended has no final margin to learn from."""
    return not record.get("fault")


def sample_positions(records: list, per_game: int, seed: int, label_depth: Optional[int] = None) -> list:
    """Up to `per_game` positions of each usable game, drawn at random (from `seed`),
    labelled with the margin to come, or with the value of a search to `label_depth`."""
    rng = random.Random(seed)
    sampled = []
    for game, record in enumerate(r for r in records if usable(r)):
        positions = game_positions(record)
        labels = margins_to_come(positions)
        for ply in sorted(rng.sample(range(len(positions)), min(per_game, len(positions)))):
            rows = positions[ply][0]
            label = labels[ply] if label_depth is None else search_label(rows, label_depth)
            sampled.append(LabelledPosition(rows, float(label), game, ply))
    return sampled


def search_label(rows: tuple, depth: int) -> int:
    """The agent's search value of the position at `depth` plies, from the mover's side."""
    from agent.engine import Limit, search

    return search(Board(rows), Limit(depth=depth)).value


def feature_matrix(positions: list) -> np.ndarray:
    """One row of agent.tuning.features' vector per position (computed with the core)."""
    from agent.tuning.fast_features import feature_vector

    return np.array([feature_vector(p.rows) for p in positions], dtype=float).reshape(
        len(positions), len(FEATURE_NAMES)
    )


def fit_ridge(features: np.ndarray, labels: np.ndarray, ridge: float) -> tuple:
    """(weights, intercept) minimising the squared error plus `ridge` times the squared
    weights of the standardised features, returned in the features' own units. A feature
    that never varies gets weight 0."""
    features, labels = np.asarray(features, dtype=float), np.asarray(labels, dtype=float)
    mean, scale = features.mean(axis=0), features.std(axis=0)
    varies = scale > 0
    standard = (features[:, varies] - mean[varies]) / scale[varies]
    centred = labels - labels.mean()
    gram = standard.T @ standard + ridge * np.eye(standard.shape[1])
    weights = np.zeros(features.shape[1])
    weights[varies] = np.linalg.solve(gram, standard.T @ centred) / scale[varies]
    return weights, float(labels.mean() - mean @ weights)


def r_squared(labels: np.ndarray, predictions: np.ndarray) -> float:
    """1 - residual sum of squares / total sum of squares about the labels' mean."""
    labels, predictions = np.asarray(labels, dtype=float), np.asarray(predictions, dtype=float)
    total = float(((labels - labels.mean()) ** 2).sum())
    return 1.0 - float(((labels - predictions) ** 2).sum()) / total if total else 0.0


def held_out_games(games: int, share: float, seed: int) -> set:
    """The games (numbered from 0) kept out of the fit: a `share` of them, at least one,
    drawn from `seed`; ValueError when there are too few games to keep any apart."""
    if games < 2:
        raise ValueError(f"need at least 2 games played to the end to hold some out, not {games}")
    count = min(games - 1, max(1, round(share * games)))
    return set(random.Random(seed).sample(range(games), count))


@dataclass(frozen=True)
class FittedEvaluation:
    """intercept + weights . agent.tuning.features.feature_vector: the mover's expected margin
    over the rest of the game."""

    weights: tuple
    intercept: float

    def __call__(self, position) -> float:
        from agent.tuning.fast_features import feature_vector

        values = feature_vector(position, merges=self.uses_merges)
        return self.intercept + sum(w * f for w, f in zip(self.weights, values))

    @property
    def uses_merges(self) -> bool:
        """False when every feature of agent.tuning.features.MERGE_FEATURES has weight 0: they
        need not be computed."""
        return any(self.weights[FEATURE_NAMES.index(name)] for name in MERGE_FEATURES)

    @classmethod
    def load(cls, path: str) -> FittedEvaluation:
        """The evaluation a weights file of `fruit-rage tune-eval` holds; ValueError
        naming the file and what is wrong."""
        try:
            with open_regular_file(path) as handle:
                text = handle.read(MAX_WEIGHTS_BYTES + 1)
        except OSError as error:
            raise ValueError(f"{path}: {(error.strerror or str(error)).lower()}") from None
        if len(text) > MAX_WEIGHTS_BYTES:
            raise ValueError(f"{path}: larger than {MAX_WEIGHTS_BYTES // 1024} KB: not a weights file")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise ValueError(f"{path}: not a JSON weights file") from None
        if not isinstance(data, dict) or tuple(data.get("features", ())) != FEATURE_NAMES:
            raise ValueError(
                f"{path}: its features are not this version's {len(FEATURE_NAMES)} (features.FEATURE_NAMES)"
            )
        weights, intercept = data.get("weights"), data.get("intercept")
        numbers = (*weights, intercept) if isinstance(weights, list) else ()
        if len(numbers) != len(FEATURE_NAMES) + 1 or not all(isinstance(x, (int, float)) for x in numbers):
            raise ValueError(f"{path}: needs {len(FEATURE_NAMES)} weights and an intercept, all numbers")
        return cls(tuple(float(w) for w in numbers[:-1]), float(numbers[-1]))


@dataclass(frozen=True)
class TuningResult:
    """A fit and its figures: R^2 on the training positions and on the held-out games,
    and on those games the R^2 of the greedy-pair value as the search uses it and with a
    scale and offset fitted to the same training positions."""

    evaluation: FittedEvaluation
    seed: int
    ridge: float
    dropped: tuple  # features held at weight 0
    label: str
    games: tuple  # (trained on, held out)
    positions: tuple  # (trained on, held out)
    r2_train: float
    r2_heldout: float
    r2_greedy_pair: float
    r2_greedy_pair_fitted: float

    def to_json(self) -> dict:
        return {
            "format": WEIGHTS_FORMAT,
            "features": list(FEATURE_NAMES),
            "weights": list(self.evaluation.weights),
            "intercept": self.evaluation.intercept,
            "seed": self.seed,
            "ridge": self.ridge,
            "dropped": list(self.dropped),
            "label": self.label,
            "games": {"train": self.games[0], "heldout": self.games[1]},
            "positions": {"train": self.positions[0], "heldout": self.positions[1]},
            "r2": {
                "train": self.r2_train,
                "heldout": self.r2_heldout,
                "greedy_pair_heldout": self.r2_greedy_pair,
                "greedy_pair_fitted_heldout": self.r2_greedy_pair_fitted,
            },
        }


def tune(
    records: list,
    *,
    seed: int = 1,
    per_game: int = 20,
    heldout: float = 0.25,
    ridge: float = 1.0,
    label_depth: Optional[int] = None,
    dropped: tuple = (),
) -> TuningResult:
    """Fit the evaluation's weights on the positions of `records` (game records as
    `match --out` writes them), holding a share of the games out to measure it; the
    `dropped` features keep weight 0 (to measure what they add)."""
    unknown = sorted(set(dropped) - set(FEATURE_NAMES))
    if unknown:
        raise ValueError(f"no feature {', '.join(unknown)} (there are {', '.join(FEATURE_NAMES)})")
    kept = [i for i, name in enumerate(FEATURE_NAMES) if name not in dropped]
    positions = sample_positions(records, per_game, seed, label_depth)
    games = len({p.game for p in positions})
    kept_out = held_out_games(games, heldout, seed)
    features, labels = feature_matrix(positions), np.array([p.label for p in positions])
    test = np.array([p.game in kept_out for p in positions])
    weights = np.zeros(len(FEATURE_NAMES))
    weights[kept], intercept = fit_ridge(features[~test][:, kept], labels[~test], ridge)
    baseline = features[:, FEATURE_NAMES.index(BASELINE_FEATURE)]
    scale, offset = fit_ridge(baseline[~test, None], labels[~test], 0.0)
    return TuningResult(
        FittedEvaluation(tuple(float(w) for w in weights), intercept),
        seed,
        ridge,
        tuple(dropped),
        "margin to come" if label_depth is None else f"search value at depth {label_depth}",
        (games - len(kept_out), len(kept_out)),
        (int((~test).sum()), int(test.sum())),
        r_squared(labels[~test], features[~test] @ weights + intercept),
        r_squared(labels[test], features[test] @ weights + intercept),
        r_squared(labels[test], baseline[test]),
        r_squared(labels[test], baseline[test] * scale[0] + offset),
    )
