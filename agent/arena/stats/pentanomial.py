"""The pentanomial model of a paired match (fishtest, fastchess): each pair scores 0, 1/2,
1, 3/2 or 2 game points for A, and the match is summed up by the five counts.

From the counts: A's score per game with a 95% interval (the match table shows it, with
its logistic Elo), the normalized Elo, the likelihood of superiority (LOS), and the
generalized log-likelihood ratio that the sequential test (agent.arena.stats.sprt)
compares with its bounds. The figures of the spread (the interval, nElo, LOS) are the
pairs' only when they vary: pairs that all scored alike leave the empty counts'
stand-ins as the whole spread, and none of them is given.

Sources: fishtest server/fishtest/stats/stat_util.py (get_elo) and LLRcalc.py
(LLR_logistic, MLE_expected); fastchess elo_pentanomial.cpp and sprt.cpp; the theory is
M. Van den Bergh, "Comments on Normalized Elo" and "support_MLE_multinomial" (cantate.be).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from statistics import NormalDist
from typing import Optional

import numpy as np

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
# A pair's score per game, the scale that Elo is defined on.
PAIR_SCORES = np.array(PAIR_POINTS) / 2
# An empty count is replaced by this much of a pair (as fishtest and fastchess do), so
# that a small match has no zero variance and no cell the likelihood ratio cannot move.
# fishtest regularizes its score too; here the score stays the points actually scored.
EMPTY_COUNT = 1e-3
NELO_PER_T = 800 / math.log(10)  # normalized Elo per unit of t = (score - 1/2) / sigma
Z_95 = NormalDist().inv_cdf(0.975)
# Halvings of the secular equation's bracket (width >= 4): enough for double precision.
BISECTIONS = 64


def pentanomial_counts(pairs: Iterable) -> tuple:
    """The number of pairs scoring 0, 1/2, 1, 3/2 and 2 game points for A (`Pair`s)."""
    counts = [0] * len(PAIR_POINTS)
    for pair in pairs:
        counts[round(pair.points * 2)] += 1
    return tuple(counts)


def elo_score(elo):
    """The expected score per game at a logistic Elo difference (scalar or array)."""
    return 1 / (1 + 10 ** (-np.asarray(elo, dtype=float) / 400))


@dataclass(frozen=True)
class PentanomialStats:
    counts: tuple  # pairs scoring 0, 1/2, 1, 3/2, 2 game points for A
    score: float  # A's score per game
    score_error: float  # half-width of its 95% interval
    nelo: float  # normalized Elo: the score's distance from 1/2 in standard deviations
    nelo_error: float
    los: float  # likelihood of superiority: P(A is stronger), 0..1

    @classmethod
    def from_counts(cls, counts) -> PentanomialStats:
        """The statistics of the five counts; ValueError when there is no pair."""
        if len(counts) != len(PAIR_POINTS) or sum(counts) == 0:
            raise ValueError("pentanomial statistics need the five counts of at least one pair")
        pairs = sum(counts)
        scores = [points / 2 for points in PAIR_POINTS]
        score = sum(c * s for c, s in zip(counts, scores)) / pairs
        # the empty counts' stand-ins enter the spread only: the score is the points scored
        regular = [count or EMPTY_COUNT for count in counts]
        variance = sum(c * (s - score) ** 2 for c, s in zip(regular, scores)) / sum(regular)
        spread = math.sqrt(variance / pairs)  # of the mean score
        low, high = score - Z_95 * spread, score + Z_95 * spread

        def nelo(x: float) -> float:
            # sigma per game: a pair averages two games, so its variance is half a game's
            return (x - 0.5) / math.sqrt(2 * variance) * NELO_PER_T

        return cls(
            counts=tuple(counts),
            score=score,
            score_error=Z_95 * spread,
            nelo=nelo(score),
            nelo_error=(nelo(high) - nelo(low)) / 2,
            los=NormalDist().cdf((score - 0.5) / spread),
        )

    @property
    def varies(self) -> bool:
        """Whether the pairs scored differently: only then do they have a spread of their
        own, and the interval, nElo and LOS mean something (one pair never varies)."""
        return sum(1 for count in self.counts if count) > 1

    @property
    def interval(self) -> Optional[tuple]:
        """A's score per game, its 95% interval within [0, 1]; None when the pairs do not vary."""
        if not self.varies:
            return None
        return max(0.0, self.score - self.score_error), min(1.0, self.score + self.score_error)

    def lines(self) -> list:
        """The counts, and fastchess's nElo and LOS when the pairs vary; A's score and
        Elo are the match table's (agent.arena.stats.summary), said there."""
        counts = f"Ptnml(0-2): [{', '.join(map(str, self.counts))}]"
        if not self.varies:
            return [counts, "Every pair scored the same: no spread to give nElo or LOS from"]
        nelo = f"nElo: {two_decimals(self.nelo)} +/- {two_decimals(self.nelo_error)}"
        return [counts, f"{nelo}, LOS: {two_decimals(self.los * 100)} %"]


def two_decimals(value: float) -> str:
    """Two decimals, and "0.00" rather than "-0.00" for a value a hair below zero."""
    return f"{round(value, 2) + 0.0:.2f}"


def logistic_llr(counts, elo0: float, elo1: float) -> np.ndarray:
    """The generalized log-likelihood ratio of "logistic Elo = elo1" against "= elo0" for
    pentanomial counts, an array of shape (..., 5): one value per row, so that many
    matches (or one match after each pair) are computed at once.

    Each hypothesis fixes the expected score s; its best-fitting distribution is the
    observed one reweighted, p_i = phat_i / (1 + theta (a_i - s)), with theta the root
    of sum_i phat_i (a_i - s) / (1 + theta (a_i - s)) = 0. The ratio of the two
    likelihoods then needs only the thetas: LLR / N = sum_i phat_i log(p1_i / p0_i)."""
    counts = np.asarray(counts, dtype=float)
    regular = np.where(counts == 0, EMPTY_COUNT, counts)
    total = regular.sum(axis=-1)
    # one contiguous row per cell: the bisection below then works on whole columns
    observed = (regular / total[..., None]).reshape(-1, len(PAIR_POINTS)).T.copy()
    gain = _log_reweighting(observed, elo_score(elo0)) - _log_reweighting(observed, elo_score(elo1))
    return np.where(counts.sum(axis=-1) > 0, total * gain.reshape(total.shape), 0.0)


def _log_reweighting(observed: np.ndarray, score: float) -> np.ndarray:
    """sum_i phat_i log(1 + theta (a_i - s)) for each column of `observed` (cells by
    matches): how much less likely the observed counts are under the best distribution
    of expected score s than under their own."""
    shifted = PAIR_SCORES - score
    theta = _secular_root(observed, shifted)
    return (observed * np.log1p(theta * shifted[:, None])).sum(axis=0)


def _secular_root(observed: np.ndarray, shifted: np.ndarray) -> np.ndarray:
    """For each column, the theta in (-1/max(shifted), -1/min(shifted)) where the secular
    function sum_i phat_i shifted_i / (1 + theta shifted_i), decreasing in theta, is
    zero: by bisection, in place (this is the cost of a simulated sequential test)."""
    matches = observed.shape[1]
    low = np.full(matches, -1 / shifted.max())
    high = np.full(matches, -1 / shifted.min())
    weighted = observed * shifted[:, None]
    middle, secular, term = np.empty(matches), np.empty(matches), np.empty(matches)
    for _ in range(BISECTIONS):
        np.add(low, high, out=middle)
        middle *= 0.5
        secular.fill(0.0)
        for shift, weights in zip(shifted, weighted):
            np.multiply(middle, shift, out=term)
            term += 1.0
            np.divide(weights, term, out=term)
            secular += term
        above = secular > 0
        np.copyto(low, middle, where=above)
        np.copyto(high, middle, where=~above)
    return (low + high) / 2
