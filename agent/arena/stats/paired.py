"""What a paired match says, from A's side: the pentanomial counts with nElo and LOS
(fastchess's style) and the pair margins, as one result whose lines() a command prints
below the match table, which gives A's score and Elo with the pairs' interval
(agent.arena.stats.summary); score_line() says them where there is no table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from agent.arena.stats.margin import MarginStats
from agent.arena.stats.pentanomial import PentanomialStats, pentanomial_counts
from agent.arena.stats.summary import pair_interval, score_and_elo


@dataclass(frozen=True)
class PairedStats:
    pairs: int  # complete pairs
    faulted: int  # pairs with a game lost on a fault
    pentanomial: Optional[PentanomialStats]  # None without a pair
    margin: Optional[MarginStats]

    def score_line(self) -> str:
        """A's score per game and its Elo, with their 95% interval from the pairs."""
        if self.pentanomial is None:
            return "Score: no pair complete"
        score, elo = score_and_elo(self.pentanomial.score, pair_interval(self.pentanomial))
        return f"Score of A (95%, by pairs): {score}, Elo {elo}"

    def lines(self) -> list:
        """The report but for A's score, one line each (at most 80 columns)."""
        if self.pentanomial is None:
            return ["Pairs: none complete"]
        lines = [f"Pairs: {self.pairs}", *self.pentanomial.lines()]
        if self.margin is not None:
            lines += self.margin.lines()
        if self.faulted:
            lines.append(f"Pairs with a game lost on a fault: {self.faulted} (their margins as scored until then)")
        return lines


def paired_stats(pairs: Sequence) -> PairedStats:
    """The statistics of complete pairs (agent.arena.stats.pairs.Pair)."""
    return PairedStats(
        pairs=len(pairs),
        faulted=sum(pair.faulted for pair in pairs),
        pentanomial=PentanomialStats.from_counts(pentanomial_counts(pairs)) if pairs else None,
        margin=MarginStats.from_margins([pair.margin for pair in pairs]) if pairs else None,
    )
