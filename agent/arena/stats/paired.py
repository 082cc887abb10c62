"""What a paired match says, from A's side: the pentanomial counts with score, Elo,
normalized Elo and LOS (fastchess's style), and the pair margins, as one result whose
lines() a command prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from agent.arena.stats.margin import MarginStats
from agent.arena.stats.pentanomial import PentanomialStats, pentanomial_counts


@dataclass(frozen=True)
class PairedStats:
    pairs: int  # complete pairs
    points: float  # A's game points over them (win 1, draw 1/2)
    faulted: int  # pairs with a game lost on a fault
    pentanomial: Optional[PentanomialStats]  # None without a pair
    margin: Optional[MarginStats]

    def lines(self) -> list:
        """The report, one line each (at most 80 columns)."""
        if self.pentanomial is None:
            return ["Pairs: none complete"]
        score = self.pentanomial
        lines = [
            (
                f"Pairs: {self.pairs}, Points: {self.points:g} of {2 * self.pairs} "
                f"({score.score * 100:.2f} % +/- {score.score_error * 100:.2f})"
            ),
            *score.lines(),
            *(self.margin.lines() if self.margin is not None else []),
        ]
        if self.faulted:
            lines.append(f"Pairs with a game lost on a fault: {self.faulted} (their margins as scored until then)")
        return lines


def paired_stats(pairs: Sequence) -> PairedStats:
    """The statistics of complete pairs (agent.arena.stats.pairs.Pair)."""
    return PairedStats(
        pairs=len(pairs),
        points=sum(pair.points for pair in pairs),
        faulted=sum(pair.faulted for pair in pairs),
        pentanomial=PentanomialStats.from_counts(pentanomial_counts(pairs)) if pairs else None,
        margin=MarginStats.from_margins([pair.margin for pair in pairs]) if pairs else None,
    )
