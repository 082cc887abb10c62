"""The pair margin: A's fruit score minus B's, summed over both games of a pair. Most
pairs split one game each, so their game points say little; the margin still says by
how much A outscored B on the board.

Here: the mean margin with a 95% interval, the pairs won, even and lost on it, and the
log-likelihood ratio of the sequential test on the mean (agent.arena.stats.sprt), under a
normal model whose variance is estimated from the margins themselves."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z_95 = NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class MarginStats:
    pairs: int
    mean: float  # A's points minus B's, over a pair
    error: float  # half-width of the 95% interval (normal); infinite below 2 pairs, 0 when they are alike
    won: int  # pairs where A scored more over both games
    even: int
    lost: int

    @classmethod
    def from_margins(cls, margins: Sequence[int]) -> MarginStats:
        """The statistics of the pair margins; ValueError when there is none."""
        values = np.asarray(margins, dtype=float)
        if values.size == 0:
            raise ValueError("margin statistics need at least one pair")
        error = Z_95 * float(values.std(ddof=1)) / math.sqrt(values.size) if values.size > 1 else math.inf
        return cls(
            pairs=int(values.size),
            mean=float(values.mean()),
            error=error,
            won=int((values > 0).sum()),
            even=int((values == 0).sum()),
            lost=int((values < 0).sum()),
        )

    def told(self, per: str = "") -> str:
        """The mean with its 95% interval, `+4.3 +/- 5.6 points{per} (95%)`, or, when the
        margins have no spread to give one from, why there is none."""
        mean = f"{self.mean:+.1f} points{per}"
        if self.pairs < 2:
            return f"{mean} (one pair: no interval)"
        if self.error == 0:  # exactly: the margins are whole numbers, all alike
            return f"{mean} (all alike: no interval)"
        return f"{self.mean:+.1f} +/- {self.error:.1f} points{per} (95%)"

    def lines(self) -> list:
        return [
            f"Pair margin (A minus B, both games): {self.told()}",
            f"Pairs won on total score: A {self.won}, B {self.lost}, even {self.even}",
        ]


def margin_llr(pairs, total, total_of_squares, margin0: float, margin1: float) -> np.ndarray:
    """The log-likelihood ratio of "mean margin = margin1" against "= margin0", from the
    number of pairs, the sum of their margins and the sum of their squares (scalars, or
    arrays of one shape: many matches at once).

    Margins are modelled as normal with one variance for both hypotheses, v, estimated
    around the sample mean m (as fishtest's normalised SPRT does; here with n - 1, which
    errs less over the first few dozen pairs): LLR = n (margin1 - margin0) (2 m - margin0
    - margin1) / (2 v). For a fixed spread it rises with the mean, so a big gain is
    accepted sooner than a small one; a variance fitted under each hypothesis instead
    explains a mean far beyond both by a wide spread under both. Margins without spread
    make the hypothesis nearer their mean infinitely more likely: +-inf. Below 2 pairs
    there is no spread to estimate: 0."""
    pairs = np.asarray(pairs, dtype=float)
    total = np.asarray(total, dtype=float)
    total_of_squares = np.asarray(total_of_squares, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / pairs
        # never below 0 by cancellation
        variance = np.maximum(total_of_squares - pairs * mean * mean, 0.0) / (pairs - 1)
        lean = pairs * (margin1 - margin0) * (2 * mean - margin0 - margin1) / 2
        llr = np.where(variance > 0, lean / variance, np.sign(lean) * np.inf)
    return np.where(pairs > 1, np.nan_to_num(llr, nan=0.0, posinf=np.inf, neginf=-np.inf), 0.0)
