"""Gating a change: a candidate player against a base under the margin SPRT, on paired
boards, locally or on a cluster; the verdict says whether to keep it.

>>> from agent import GreedyPlayer, MatchSettings, RandomPlayer
>>> settings = MatchSettings(games=400, size=4, types=3, time=5, seed=1, paired=True)
>>> verdict = gate(GreedyPlayer, RandomPlayer, settings, margin0=0, margin1=10)
>>> verdict.accepted, verdict.sprt.verdict
(True, 'H1')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional

from agent.arena.matches.games import MatchSettings
from agent.arena.matches.match import MatchResult, run_match
from agent.arena.processes.referee_clock import COMPETITION_CLOCK, RefereeClock
from agent.arena.stats.paired import PairedStats, paired_stats
from agent.arena.stats.pairs import PairCollector
from agent.arena.stats.sprt import MarginSprt, SprtResult
from agent.cli_support import plural


@dataclass(frozen=True)
class GateResult:
    """The margin SPRT's last result (`verdict` None: the games ran out undecided), the
    paired statistics, the match, and when undecided the pairs the test would have taken
    at the margins' mean and spread (MarginSprt.pairs_to_decide)."""

    sprt: Optional[SprtResult]
    stats: PairedStats
    match: MatchResult
    pairs_to_decide: Optional[float] = None

    @property
    def accepted(self) -> bool:
        """True when H1 was accepted: the candidate gains at least margin1 a pair."""
        return self.sprt is not None and self.sprt.verdict == "H1"

    def to_json(self) -> dict:
        return {
            "verdict": None if self.sprt is None else self.sprt.verdict,
            "accepted": self.accepted,
            "llr": None if self.sprt is None else self.sprt.llr,
            "bounds": None if self.sprt is None else [self.sprt.lower, self.sprt.upper],
            "hypotheses": None if self.sprt is None else [self.sprt.h0, self.sprt.h1],
            "pairs": self.stats.pairs,
            "mean_pair_margin": None if self.stats.margin is None else self.stats.margin.mean,
            "games": len(self.match.records),
        }

    def conclusion(self) -> str:
        """What the gate found, in words: the verdict and the margin with its interval, and
        without a verdict why, with the pairs it would take."""
        if self.sprt is None:
            return "none: not one pair of games was completed"
        margin = self.stats.margin
        assert margin is not None  # a pair was completed
        gained = f"the candidate gained {margin.told(' a pair')}"
        if self.sprt.verdict == "H1":
            return f"keep the candidate (H1): {gained}"
        if self.sprt.verdict == "H0":
            return f"reject the candidate (H0): {gained}"
        assert self.pairs_to_decide is not None  # given when undecided
        if math.isinf(self.pairs_to_decide):
            needed = "at this mean, midway between them, no number of pairs would"
        else:
            pairs = self.pairs_to_decide
            needed = f"at this mean and spread it would take about {pairs:,} pairs (--games {2 * pairs:,})"
        return (
            f"none: {gained}, but {plural(self.sprt.pairs, 'pair')} {'was' if self.sprt.pairs == 1 else 'were'} "
            "too few for the test to tell "
            f"H0 (<= {self.sprt.h0:g}) from H1 (>= {self.sprt.h1:g}) at the error rates asked; {needed}"
        )


def gate(
    candidate: Callable,
    base: Callable,
    settings: MatchSettings,
    *,
    margin0: float = 0.0,
    margin1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    jobs: int = 1,
    cluster: Optional[str] = None,
    on_pair: Optional[Callable] = None,
    clock: RefereeClock = COMPETITION_CLOCK,
) -> GateResult:
    """Play candidate (A) against base (B) on the paired boards of `settings` until the
    margin SPRT (H0: pair margin <= margin0 against H1: >= margin1) decides or the games
    run out, under the referee's `clock` rule. on_pair(SprtResult) is called after every
    complete pair."""
    if not settings.paired:
        raise ValueError("a gate plays paired boards: MatchSettings(paired=True)")
    test = MarginSprt(margin0, margin1, alpha=alpha, beta=beta)
    pairs = PairCollector()
    last: list[Optional[SprtResult]] = [None]

    def finished(record) -> bool:
        if pairs.add(record.to_dict()) is None:
            return True
        result = last[0] = test.result(pairs.pairs)
        if on_pair is not None:
            on_pair(result)
        return result.verdict is None

    match = run_match(
        candidate,
        base,
        settings,
        jobs=jobs,
        cluster=cluster,
        on_record=finished,
        grace=clock.grace,
        clock=clock.kind,
    )
    undecided = last[0] is not None and last[0].verdict is None
    return GateResult(
        last[0], paired_stats(pairs.pairs), match, test.pairs_to_decide(pairs.pairs) if undecided else None
    )
