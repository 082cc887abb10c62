"""The sequential tests: Wald's bounds; the LLRs against fastchess's published values and
against slow direct searches of the likelihoods; and the error rates, by simulating
thousands of seeded matches with a known true difference (vectorized: one LLR array per
block of pairs for all matches still running)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pytest

from agent.arena.stats.margin import margin_llr
from agent.arena.stats.pairs import Pair
from agent.arena.stats.pentanomial import EMPTY_COUNT, PAIR_POINTS, elo_score, logistic_llr
from agent.arena.stats.sprt import MIN_PAIRS, EloSprt, MarginSprt, SprtResult, llr_bounds

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


def best_normal_log_likelihood(margins, mean: float) -> float:
    """max over sigma of the normal log-likelihood of the margins at this mean, by a
    golden-section search on log sigma."""

    def log_likelihood(log_sigma):
        sigma = math.exp(log_sigma)
        return sum(-math.log(sigma * math.sqrt(2 * math.pi)) - (x - mean) ** 2 / (2 * sigma**2) for x in margins)

    low, high = -10.0, 15.0
    ratio = (math.sqrt(5) - 1) / 2
    while high - low > 1e-12:
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        if log_likelihood(left) < log_likelihood(right):
            low = left
        else:
            high = right
    return log_likelihood((low + high) / 2)


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


def rate_as_designed(rate: float, target: float, runs: int) -> bool:
    """At most the target plus three standard errors, and not below a quarter of it:
    Wald's bounds are close to exact for these small-stepped tests, while an LLR off by
    a factor of two moves the rate to about a tenth or three times the target."""
    return target / 4 <= rate <= target + 3 * math.sqrt(target * (1 - target) / runs)


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
def test_margin_llr_agrees_with_a_direct_search_of_the_likelihoods(margins, margin0, margin1):
    slow = best_normal_log_likelihood(margins, margin1) - best_normal_log_likelihood(margins, margin0)
    fast = margin_llr(len(margins), sum(margins), sum(m * m for m in margins), margin0, margin1)
    assert float(fast) == pytest.approx(slow, rel=1e-6)


def test_margin_llr_of_margins_without_spread_is_infinite_and_of_no_pairs_zero():
    assert float(margin_llr(4, 40, 400, 0, 10)) == math.inf
    assert float(margin_llr(4, 0, 0, 0, 10)) == -math.inf
    assert float(margin_llr(0, 0, 0, 0, 10)) == 0.0


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
    pairs = [Pair(n, 2.0, 30 + n % 3, False) for n in range(MIN_PAIRS)]
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
    rejected = MarginSprt(margin0=0, margin1=10).result([Pair(n, 1.0, 0, False) for n in range(10)])
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
    margins = [3, 25, -4, 18, 9, 30, -12, 14, 22, 6]
    needed = test.pairs_to_decide([Pair(n, 1.0, m, False) for n, m in enumerate(margins)])
    repeated = [Pair(n, 1.0, margins[n % 10], False) for n in range(10 * math.ceil(needed / 10) + 10)]
    crossings = [k for k in range(10, len(repeated) + 1, 10) if test.result(repeated[:k]).verdict is not None]
    assert crossings[0] - 10 < needed <= crossings[0] and test.result(repeated[: crossings[0]]).verdict == "H1"
    midway = [Pair(n, 1.0, m, False) for n, m in enumerate([5 - 20, 5 + 20] * 5)]  # mean 5: no evidence either way
    assert test.pairs_to_decide(midway) == math.inf
