"""The sequential tests: Wald's bounds; the LLRs against fastchess's published values and
against slow direct sums of the likelihoods; the margin LLR rising with the mean; and the
error rates and lengths, by simulating thousands of seeded matches with a known true
difference (vectorized: one LLR array per block of pairs for all matches still running)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from statistics import NormalDist, stdev

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.arena.stats.margin import margin_llr
from agent.arena.stats.pairs import Pair
from agent.arena.stats.pentanomial import EMPTY_COUNT, PAIR_POINTS, elo_score, logistic_llr
from agent.arena.stats.sprt import MARGIN_MIN_PAIRS, EloSprt, MarginSprt, SprtResult, llr_bounds

SCORES = [points / 2 for points in PAIR_POINTS]


# ---- slow twins: the likelihoods maximized by plain search ----


def best_pentanomial_log_likelihood(counts, score: float) -> float:
    """max of sum_i n_i log p_i over the distributions p of the five pair scores whose
    mean is `score`: climb by moving mass between three cells at a time, in proportions
    that keep the mean, halving the step when no move gains."""
    weights = [count or EMPTY_COUNT for count in counts]
    end = 4 if score > 0.5 else 0  # start: uniform, mixed with the end cell nearer `score`
    mix = (score - 0.5) / (SCORES[end] - 0.5)
    p = [(1 - mix) / 5 + (mix if i == end else 0.0) for i in range(5)]
    directions = []
    for i, j, k in itertools.combinations(range(5), 3):
        move = [0.0] * 5
        move[j] = -1.0
        move[i] = (SCORES[k] - SCORES[j]) / (SCORES[k] - SCORES[i])
        move[k] = (SCORES[j] - SCORES[i]) / (SCORES[k] - SCORES[i])
        directions += [move, [-x for x in move]]

    def log_likelihood(q):
        return sum(w * math.log(x) for w, x in zip(weights, q)) if min(q) > 0 else -math.inf

    best, step = log_likelihood(p), 0.1
    while step > 1e-14:
        improved = False
        for move in directions:
            q = [x + step * dx for x, dx in zip(p, move)]
            value = log_likelihood(q)
            if value > best + 1e-12:  # not a gain within rounding: the climb must end
                p, best, improved = q, value, True
        if not improved:
            step /= 2
    return best


def normal_log_likelihood(margins, mean: float, sigma: float) -> float:
    """The normal log-likelihood of the margins at this mean and spread, density by density."""
    return sum(math.log(NormalDist(mean, sigma).pdf(x)) for x in margins)


# ---- simulation ----


def first_verdicts(test, llr_of, runs: int, max_pairs: int, block: int = 25):
    """Each simulated match's verdict (+1 H1, -1 H0, 0 none by max_pairs) and the pairs
    it took. llr_of(rows, start, stop) is the LLR after pairs start+1..stop of those
    matches, an array (rows, stop - start); matches stop at their first verdict."""
    verdicts, lengths = np.zeros(runs, int), np.full(runs, max_pairs)
    running, (lower, upper) = np.arange(runs), test.bounds
    for start in range(0, max_pairs, block):
        stop = min(start + block, max_pairs)
        llr = llr_of(running, start, stop)
        pairs = np.arange(start + 1, stop + 1)
        counted = pairs >= test.min_pairs
        h1, h0 = (llr >= upper) & counted, (llr <= lower) & counted
        ended = np.nonzero((h1 | h0).any(axis=1))[0]
        first = (h1 | h0)[ended].argmax(axis=1)
        verdicts[running[ended]] = np.where(h1[ended, first], 1, -1)
        lengths[running[ended]] = pairs[first]
        running = np.delete(running, ended)
        if running.size == 0:
            break
    return verdicts, lengths


# A pentanomial shape with most pairs split, tilted (p_i ~ shape_i exp(lambda a_i)) to
# the expected score of a chosen Elo.
SHAPE = np.array([0.04, 0.16, 0.60, 0.16, 0.04])


def pentanomial_at_elo(elo: float) -> np.ndarray:
    target, low, high = float(elo_score(elo)), -50.0, 50.0
    for _ in range(200):
        tilt = (low + high) / 2
        p = SHAPE * np.exp(tilt * np.array(SCORES))
        p /= p.sum()
        low, high = (tilt, high) if p @ SCORES < target else (low, tilt)
    return p


def simulate_elo(test, elo: float, runs: int, seed: int, max_pairs: int = 600):
    """(verdicts, lengths, outcomes): `runs` matches of pairs drawn at this Elo;
    outcomes[r, i] is the i-th pair's points doubled (0..4)."""
    outcomes = np.random.default_rng(seed).choice(5, size=(runs, max_pairs), p=pentanomial_at_elo(elo))
    counts = np.cumsum(np.eye(5, dtype=np.int32)[outcomes], axis=1)
    verdicts, lengths = first_verdicts(test, lambda rows, a, b: test.llr(counts[rows, a:b]), runs, max_pairs)
    return verdicts, lengths, outcomes


def normal_margins(rng, mean, shape):
    return np.rint(rng.normal(mean, 40, shape))


def splits_and_blowouts(rng, mean, shape):
    """Most pairs close (spread 15), a quarter lopsided either way (spread 70)."""
    spread = np.where(rng.random(shape) < 0.25, 70.0, 15.0)
    return np.rint(rng.normal(mean, spread))


def simulate_margin(test, draw, mean: float, runs: int, seed: int, max_pairs: int = 800):
    """(verdicts, lengths, margins): `runs` matches of pair margins drawn with this mean."""
    margins = draw(np.random.default_rng(seed), mean, (runs, max_pairs))
    totals, squares = np.cumsum(margins, axis=1), np.cumsum(margins**2, axis=1)
    pairs = np.arange(1, max_pairs + 1)
    verdicts, lengths = first_verdicts(
        test, lambda rows, a, b: test.llr(pairs[a:b], totals[rows, a:b], squares[rows, a:b]), runs, max_pairs
    )
    return verdicts, lengths, margins


def binomial_upper_bound(target: float, runs: int, tail: float = 0.001) -> float:
    """The rate that `runs` trials each failing with chance `target` exceed with chance at
    most `tail`: the least k / runs with P(X > k) <= tail for X ~ Binomial(runs, target)."""

    def log_mass(k: int) -> float:
        return (
            math.lgamma(runs + 1)
            - math.lgamma(k + 1)
            - math.lgamma(runs - k + 1)
            + k * math.log(target)
            + (runs - k) * math.log1p(-target)
        )

    above = 1.0 - sum(math.exp(log_mass(k)) for k in range(int(target * runs) + 1))
    k = int(target * runs)
    while above > tail:
        k += 1
        above -= math.exp(log_mass(k))
    return k / runs


def rate_as_designed(rate: float, target: float, runs: int) -> bool:
    """At most what a true rate of `target` exceeds once in a thousand simulations (an
    exact binomial bound), and not below a quarter of it: Wald's bounds are close to
    exact for these small-stepped tests, while an LLR off by a factor of two moves the
    rate to about a tenth or three times the target."""
    return target / 4 <= rate <= binomial_upper_bound(target, runs)


@dataclass(frozen=True)
class ScaledMarginSprt(MarginSprt):
    """A broken test: its LLR multiplied by `factor`."""

    factor: float = 1.0

    def llr(self, pairs, total, total_of_squares):
        return self.factor * super().llr(pairs, total, total_of_squares)


# ---- the tests ----


def test_bounds_are_walds():
    lower, upper = llr_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944, abs=1e-3)
    assert upper == pytest.approx(math.log(0.95 / 0.05))
    assert llr_bounds(0.05, 0.2) == pytest.approx((math.log(0.2 / 0.95), math.log(0.8 / 0.05)))


# fastchess's tests (app/tests/sprt_test.cpp, "logistic pentanomial 1" and "2"): their
# Stats(ll, ld, wl, dd, wd, ww) as Ptnml(0-2) counts, elo0, elo1 and the LLR.
@pytest.mark.parametrize(
    "counts, elo0, elo1, llr",
    [
        ((223, 9863, 21279, 10037, 246), 0.5, 2.5, -3.07),
        ((871, 26175, 55983, 26678, 821), 0.0, 2.0, -4.98),
    ],
)
def test_logistic_llr_agrees_with_fastchess(counts, elo0, elo1, llr):
    assert float(logistic_llr(counts, elo0, elo1)) == pytest.approx(llr, abs=0.01)


@pytest.mark.parametrize(
    "counts, elo0, elo1",
    [
        ((3, 10, 40, 12, 5), 0, 40),
        ((0, 0, 12, 0, 0), 0, 5),  # all splits: only the stand-ins of empty cells move
        ((0, 1, 9, 6, 4), -20, 150),
        ((7, 2, 0, 0, 1), 10, 60),
    ],
)
def test_logistic_llr_agrees_with_a_direct_search_of_the_likelihoods(counts, elo0, elo1):
    slow = best_pentanomial_log_likelihood(counts, float(elo_score(elo1))) - best_pentanomial_log_likelihood(
        counts, float(elo_score(elo0))
    )
    assert float(logistic_llr(counts, elo0, elo1)) == pytest.approx(slow, rel=1e-6, abs=1e-9)


def test_logistic_llr_takes_many_matches_at_once():
    counts = np.array([[[3, 10, 40, 12, 5], [0, 0, 12, 0, 0]], [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]])
    many = logistic_llr(counts, 0, 20)
    assert many.shape == (2, 2)
    for index in np.ndindex(2, 2):
        assert many[index] == pytest.approx(float(logistic_llr(counts[index], 0, 20)), rel=1e-12)


@pytest.mark.parametrize(
    "margins, margin0, margin1",
    [
        ([12, -30, 4, 55, 0, 18, -7], 0, 10),
        ([3, 3, 4], -5, 2.5),
        ([-100, 250, 40, 41], 10, 20),
    ],
)
def test_margin_llr_is_the_normal_llr_at_the_spread_around_the_mean(margins, margin0, margin1):
    sigma = stdev(margins)
    slow = normal_log_likelihood(margins, margin1, sigma) - normal_log_likelihood(margins, margin0, sigma)
    fast = margin_llr(len(margins), sum(margins), sum(m * m for m in margins), margin0, margin1)
    assert float(fast) == pytest.approx(slow, rel=1e-6)


def test_margin_llr_of_margins_without_spread_is_infinite_and_of_under_two_pairs_zero():
    assert float(margin_llr(4, 40, 400, 0, 10)) == math.inf
    assert float(margin_llr(4, 0, 0, 0, 10)) == -math.inf
    assert float(margin_llr(4, 20, 100, 0, 10)) == 0.0  # all at the midpoint: no evidence either way
    assert float(margin_llr(1, 30, 900, 0, 10)) == 0.0
    assert float(margin_llr(0, 0, 0, 0, 10)) == 0.0


@given(
    st.integers(2, 400),
    st.floats(1, 200),
    st.floats(-500, 500),
    st.floats(0.5, 1000),
    st.tuples(st.floats(-50, 50), st.floats(1, 50)),
)
def test_margin_llr_rises_with_the_mean_at_a_fixed_spread(pairs, spread, mean, gain, hypotheses):
    margin0, width = hypotheses

    def llr(at):
        # the sums of `pairs` margins with this mean and sample standard deviation `spread`
        return float(margin_llr(pairs, pairs * at, (pairs - 1) * spread**2 + pairs * at**2, margin0, margin0 + width))

    assert llr(mean + gain) > llr(mean)


def test_elo_sprt_errs_at_the_rates_asked_for():
    test, runs = EloSprt(elo0=0, elo1=60), 1000
    verdicts, _, _ = simulate_elo(test, 0, runs, seed=1)
    assert rate_as_designed(np.mean(verdicts == 1), test.alpha, runs), np.mean(verdicts == 1)
    verdicts, _, _ = simulate_elo(test, 60, runs, seed=2)
    assert rate_as_designed(np.mean(verdicts == -1), test.beta, runs), np.mean(verdicts == -1)
    verdicts, _, _ = simulate_elo(test, 180, runs, seed=3)
    assert np.mean(verdicts == 1) >= 0.99


@pytest.mark.parametrize("draw", [normal_margins, splits_and_blowouts])
def test_margin_sprt_errs_at_the_rates_asked_for(draw):
    test, runs = MarginSprt(margin0=0, margin1=10), 3000
    verdicts, _, _ = simulate_margin(test, draw, 0, runs, seed=4)
    assert rate_as_designed(np.mean(verdicts == 1), test.alpha, runs), np.mean(verdicts == 1)
    verdicts, _, _ = simulate_margin(test, draw, 10, runs, seed=5)
    assert rate_as_designed(np.mean(verdicts == -1), test.beta, runs), np.mean(verdicts == -1)
    verdicts, _, _ = simulate_margin(test, draw, 40, runs, seed=6)
    assert np.mean(verdicts == 1) >= 0.99


def test_a_bigger_gain_takes_fewer_pairs():
    """Mean pairs to a verdict at the margin, at 4x and at 10x it: never more as the
    gain grows, and at 10x fewer than at the margin."""
    test, runs = MarginSprt(margin0=0, margin1=10), 2000
    lengths = [simulate_margin(test, normal_margins, mean, runs, seed=9)[1].mean() for mean in (10, 40, 100)]
    assert lengths[0] >= lengths[1] >= lengths[2] and lengths[2] < lengths[0], lengths


def test_the_rate_check_fails_a_wrong_bound_and_a_misscaled_llr():
    runs = 1000
    loose = EloSprt(elo0=0, elo1=60, alpha=0.25)  # bounds drawn for the wrong alpha
    verdicts, _, _ = simulate_elo(loose, 0, runs, seed=1)
    assert not rate_as_designed(np.mean(verdicts == 1), 0.05, runs)
    for factor in (0.5, 2.0):
        verdicts, _, _ = simulate_margin(ScaledMarginSprt(0, 10, factor=factor), normal_margins, 0, 3000, seed=4)
        assert not rate_as_designed(np.mean(verdicts == 1), 0.05, 3000), factor


def test_simulated_matches_stop_where_results_pair_by_pair_do():
    """The vectorized simulation against the tests' own result(), fed one pair at a time."""

    def stop_of(test, pairs):
        for n in range(1, len(pairs) + 1):
            result = test.result(pairs[:n])
            if result.verdict is not None:
                return (1 if result.verdict == "H1" else -1), n
        return 0, len(pairs)

    elo_test = EloSprt(elo0=0, elo1=60)
    for elo, seed in ((-60, 7), (120, 8)):  # each LLR computed alone costs milliseconds
        verdicts, lengths, outcomes = simulate_elo(elo_test, elo, 1, seed, max_pairs=150)
        for run in range(1):
            pairs = [Pair(i, outcome / 2, 0, False) for i, outcome in enumerate(outcomes[run])]
            assert stop_of(elo_test, pairs) == (verdicts[run], lengths[run])
    margin_test = MarginSprt(margin0=0, margin1=10)
    verdicts, lengths, margins = simulate_margin(margin_test, normal_margins, 5, 12, seed=8, max_pairs=300)
    for run in range(12):
        pairs = [Pair(i, 1.0, int(margin), False) for i, margin in enumerate(margins[run])]
        assert stop_of(margin_test, pairs) == (verdicts[run], lengths[run])


def test_no_verdict_before_the_minimum_number_of_pairs():
    test = MarginSprt(margin0=0, margin1=10)
    pairs = [Pair(n, 2.0, 30 + n % 3, False) for n in range(MARGIN_MIN_PAIRS)]
    early = test.result(pairs[:-1])
    assert early.llr > early.upper and early.verdict is None
    assert test.result(pairs).verdict == "H1"
    sweeps = [Pair(n, 2.0, 0, False) for n in range(200)]
    assert EloSprt(elo0=0, elo1=40, min_pairs=300).result(sweeps).verdict is None
    assert EloSprt(elo0=0, elo1=40).result(sweeps).verdict == "H1"


def test_results_describe_themselves_in_one_line():
    accepted = SprtResult("pair margin", 0.0, 10.0, 40, 3.0123, -2.944439, 2.944439, "H1")
    assert accepted.describe() == "LLR: 3.01 (-2.94, 2.94) [0.00, 10.00]  H1 accepted"
    running = EloSprt(elo0=-1.5, elo1=2.5).result([])
    assert (running.pairs, running.verdict, running.statistic) == (0, None, "Elo")
    assert running.describe() == "LLR: 0.00 (-2.94, 2.94) [-1.50, 2.50]  running"
    assert running.describe(ended=True) == "LLR: 0.00 (-2.94, 2.94) [-1.50, 2.50]  no verdict"
    assert accepted.describe(ended=True) == accepted.describe()
    rejected = MarginSprt(margin0=0, margin1=10).result([Pair(n, 1.0, 0, False) for n in range(MARGIN_MIN_PAIRS)])
    assert rejected.describe() == "LLR: -inf (-2.94, 2.94) [0.00, 10.00]  H0 accepted"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: EloSprt(elo0=5, elo1=0), "SPRT: elo0 (5) must be a number below elo1 (0)"),
        (lambda: MarginSprt(margin0=10, margin1=10), "SPRT: margin0 (10) must be a number below margin1 (10)"),
        (lambda: EloSprt(elo1=math.inf), "SPRT: elo0 (0) must be a number below elo1 (inf)"),
        (lambda: EloSprt(alpha=0), "SPRT: alpha (0) must lie between 0 and 1"),
        (lambda: MarginSprt(beta=1.5), "SPRT: beta (1.5) must lie between 0 and 1"),
        (lambda: EloSprt(alpha=0.6, beta=0.5), "SPRT: alpha + beta (1.1) must be below 1"),
        (lambda: MarginSprt(min_pairs=0), "SPRT: min_pairs (0) must be a whole number from 1"),
    ],
)
def test_settings_that_make_no_test_are_refused_by_name(make, message):
    with pytest.raises(ValueError) as refused:
        make()
    assert str(refused.value) == message


def test_pairs_to_decide_is_where_margins_of_the_same_mean_and_spread_cross_a_bound():
    test = MarginSprt(margin0=0, margin1=10)
    margins = [3, 45, -24, 38, 9, 50, -32, 14, 42, -6]
    needed = test.pairs_to_decide([Pair(n, 1.0, m, False) for n, m in enumerate(margins)])
    mean, spread = sum(margins) / len(margins), stdev(margins)

    def llr_after(pairs):
        return float(test.llr(pairs, pairs * mean, (pairs - 1) * spread**2 + pairs * mean**2))

    lower, upper = test.bounds
    assert llr_after(needed - 1) < upper <= llr_after(needed)
    midway = [Pair(n, 1.0, m, False) for n, m in enumerate([5 - 20, 5 + 20] * 5)]  # mean 5: no evidence either way
    assert test.pairs_to_decide(midway) == math.inf
    assert test.pairs_to_decide(midway[:1]) == test.min_pairs  # one pair: no spread to go on
