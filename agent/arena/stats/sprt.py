"""Sequential tests on paired games: play pairs until the evidence decides between two
hypotheses about A (the candidate) against B (the baseline), with error rates alpha
(accepting H1 when H0 holds) and beta (accepting H0 when H1 holds).

Both are SPRTs as in fishtest and fastchess: after each complete pair, the
log-likelihood ratio of H1 against H0 is compared with Wald's bounds
log(beta / (1 - alpha)) and log((1 - beta) / alpha); reaching the upper one accepts H1,
the lower one H0. No overshoot correction (fishtest has one): the error rates come out
at alpha and beta when each pair moves the LLR a little, and below them when pairs move
it in big steps.

- EloSprt: H0 Elo <= elo0 against H1 Elo >= elo1 in logistic Elo (fastchess's default,
  fishtest's "logistic" model: the Elo that the expected score per game implies) on the
  pentanomial counts, each hypothesis taking its most likely distribution. Logistic
  rather than normalized Elo, so that the bounds mean the same as the Elo line of the
  report whatever the draw and split rate.
- MarginSprt: H0 mean pair margin <= margin0 against H1 >= margin1, in points, normal
  model with one variance for both hypotheses estimated around the margins' mean (as
  fishtest's normalised SPRT does; agent.arena.stats.margin.margin_llr), so that the
  further the mean lies beyond margin1, the sooner H1 is accepted. In Fruit Rage most
  pairs split one game each, which the pentanomial counts see as no information; the
  margin still measures by how much. Its limits, measured by simulation with [0, 10]:
  margins of spread 40 accept H1 at margin0 5.6% of the time (alpha 5%), the shared
  spread being estimated from the pairs; and margins skewed to the right (rare big
  wins, skewness 1) accept H0 at margin1 9% of the time instead of 5% (and H1 at
  margin0 3%), as any test of a mean that may stop early does.

Feed it the pairs as games finish, and stop at the first verdict:

    test, collector = MarginSprt(margin0=0, margin1=10), PairCollector()
    def on_record(record):
        if collector.add(record) is not None:      # a pair is complete
            result = test.result(collector.pairs)
            print(result.describe())
            if result.verdict is not None:
                ...  # start no more games

The bounds hold for a test that stops at its first crossing: pairs still in flight when
it stops do not reopen it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Optional

import numpy as np

from agent.arena.stats.margin import margin_llr
from agent.arena.stats.pentanomial import logistic_llr, pentanomial_counts, two_decimals

# No verdict before this many pairs. The nuisance parameters (the shape of the
# pentanomial, the spread of the margins) are estimated from the pairs themselves: from
# a handful, they are often far too narrow (three equal margins have no spread at all),
# and an LLR built on them can leap past a bound by luck. A test of a small difference
# needs dozens of pairs anyway.
MIN_PAIRS = 10
# The margin test divides by its spread estimate, so one too narrow early on carries it
# past a bound: simulated (normal margins, spread 40, [0, 10]), allowed to stop from the
# tenth pair it accepts H1 at margin0 6.8% of the time (alpha 5%), from the twentieth 5.6%.
MARGIN_MIN_PAIRS = 20


def llr_bounds(alpha: float, beta: float) -> tuple:
    """Wald's (lower, upper) bounds on the LLR: below the lower accept H0, above the
    upper accept H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class SprtResult:
    statistic: str  # what the hypotheses are about: "Elo" or "pair margin"
    h0: float  # the value H0 claims at most
    h1: float  # the value H1 claims at least
    pairs: int
    llr: float
    lower: float
    upper: float
    verdict: Optional[str]  # "H0", "H1", or None while the test runs

    def describe(self, ended: bool = False) -> str:
        """`LLR: 1.23 (-2.94, 2.94) [0.00, 10.00]  H1 accepted` (fastchess's line); without
        a verdict `running`, or `no verdict` once the games have `ended`."""
        state = f"{self.verdict} accepted" if self.verdict else "no verdict" if ended else "running"
        return (
            f"LLR: {two_decimals(self.llr)} ({self.lower:.2f}, {self.upper:.2f}) "
            f"[{two_decimals(self.h0)}, {two_decimals(self.h1)}]  {state}"
        )


class _Sprt:
    """What both tests share: the bounds, the verdict, the checks of the settings and the
    result after some pairs. The two stay two classes, over this base, because what they
    differ in is their public face: each is named by its own hypotheses (EloSprt(elo0,
    elo1), MarginSprt(margin0, margin1), as fastchess and fishtest name theirs), starts
    deciding after its own measured number of pairs (MIN_PAIRS, MARGIN_MIN_PAIRS), and
    takes its own sufficient statistics in `llr` (pentanomial counts; the margins' count,
    sum and sum of squares), which the simulations of the tests call on arrays. Each
    declares alpha, beta and min_pairs after its hypotheses, so that EloSprt(0, 5) reads as
    them."""

    statistic: ClassVar[str]  # what the hypotheses are about, as SprtResult names it
    hypothesis_names: ClassVar[tuple[str, str]]  # the fields of H0's and H1's values
    alpha: float
    beta: float
    min_pairs: int

    def __post_init__(self) -> None:
        self._check()

    @property
    def hypotheses(self) -> tuple[float, float]:
        """(the value H0 claims at most, the value H1 claims at least)."""
        name0, name1 = self.hypothesis_names
        return getattr(self, name0), getattr(self, name1)

    @property
    def bounds(self) -> tuple:
        return llr_bounds(self.alpha, self.beta)

    def verdict(self, llr: float, pairs: int) -> Optional[str]:
        """ "H1" or "H0" once the LLR of `pairs` pairs reaches a bound, else None."""
        lower, upper = self.bounds
        if pairs < self.min_pairs:
            return None
        return "H1" if llr >= upper else "H0" if llr <= lower else None

    def result(self, pairs: Sequence) -> SprtResult:
        """The test after these complete pairs (agent.arena.stats.pairs.Pair)."""
        (h0, h1), (lower, upper) = self.hypotheses, self.bounds
        llr = self.pairs_llr(pairs)
        return SprtResult(self.statistic, h0, h1, len(pairs), llr, lower, upper, self.verdict(llr, len(pairs)))

    def pairs_llr(self, pairs: Sequence) -> float:
        """The LLR of these complete pairs."""
        raise NotImplementedError

    def _check(self) -> None:
        """ValueError naming the setting that makes no test."""
        (name0, name1), (h0, h1) = self.hypothesis_names, self.hypotheses
        if not (math.isfinite(h0) and math.isfinite(h1) and h0 < h1):
            raise ValueError(f"SPRT: {name0} ({h0:g}) must be a number below {name1} ({h1:g})")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 1:
                raise ValueError(f"SPRT: {name} ({rate:g}) must lie between 0 and 1")
        if self.alpha + self.beta >= 1:
            raise ValueError(f"SPRT: alpha + beta ({self.alpha + self.beta:g}) must be below 1")
        if isinstance(self.min_pairs, bool) or not isinstance(self.min_pairs, int) or self.min_pairs < 1:
            raise ValueError(f"SPRT: min_pairs ({self.min_pairs}) must be a whole number from 1")


@dataclass(frozen=True)
class EloSprt(_Sprt):
    """H0: A's logistic Elo over B <= elo0, against H1: >= elo1, on pentanomial counts."""

    statistic: ClassVar[str] = "Elo"
    hypothesis_names: ClassVar[tuple[str, str]] = ("elo0", "elo1")
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    min_pairs: int = MIN_PAIRS

    def llr(self, counts) -> np.ndarray:
        """The LLR of pentanomial counts, shape (..., 5)."""
        return logistic_llr(counts, self.elo0, self.elo1)

    def pairs_llr(self, pairs: Sequence) -> float:
        return float(self.llr(pentanomial_counts(pairs)))


@dataclass(frozen=True)
class MarginSprt(_Sprt):
    """H0: A's mean pair margin over B <= margin0 points, against H1: >= margin1."""

    statistic: ClassVar[str] = "pair margin"
    hypothesis_names: ClassVar[tuple[str, str]] = ("margin0", "margin1")
    margin0: float = 0.0
    margin1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    min_pairs: int = MARGIN_MIN_PAIRS

    def llr(self, pairs, total, total_of_squares) -> np.ndarray:
        """The LLR from the number of pairs and the sum of their margins and of their
        squares (scalars or arrays)."""
        return margin_llr(pairs, total, total_of_squares, self.margin0, self.margin1)

    def pairs_llr(self, pairs: Sequence) -> float:
        margins = [pair.margin for pair in pairs]
        return float(self.llr(len(margins), sum(margins), sum(m * m for m in margins)))

    def pairs_to_decide(self, pairs: Sequence) -> float:
        """How many pairs in all the test would take to decide if the margins went on with
        the mean and spread of these: the LLR then grows by the same step each pair. inf
        where that step is 0, at a mean midway between the hypotheses; min_pairs from a
        single pair, which has no spread to go on."""
        if len(pairs) < 2:
            return self.min_pairs
        step = self.pairs_llr(pairs) / len(pairs)
        lower, upper = self.bounds
        if not math.isfinite(step):
            return self.min_pairs
        if step == 0:
            return math.inf
        return max(self.min_pairs, math.ceil((upper if step > 0 else lower) / step))
