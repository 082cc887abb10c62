"""Paired games: records into pairs (in any order, a missing twin left out, records that
cannot pair refused), and the paired statistics: pentanomial score, Elo, nElo and LOS
against fastchess's published figures, the pair margins, and the report lines."""

from __future__ import annotations

import math
import statistics

import pytest
from arena_helpers import random_game_record

from agent.arena.stats.margin import MarginStats
from agent.arena.stats.paired import paired_stats
from agent.arena.stats.pairs import Pair, PairCollector, pairs_from_records
from agent.arena.stats.pentanomial import PentanomialStats, pentanomial_counts


def game(number, pair, first, winner, score_a, score_b, fault=None) -> dict:
    """The fields of a `match --out` record that pairing reads."""
    return {
        "game": number,
        "pair": pair,
        "first": first,
        "winner": winner,
        "scores": {"A": score_a, "B": score_b},
        "fault": fault,
    }


def test_records_become_pairs_seen_from_a():
    records = [
        game(1, 1, "A", "A", 30, 10),
        game(2, 1, "B", "B", 5, 25),  # 1-1, margin 0
        game(3, 2, "A", "A", 40, 2),
        game(4, 2, "B", "A", 20, 18),  # 2-0, margin +40
        game(5, 3, "A", None, 9, 9),
        game(6, 3, "B", "B", 0, 16),  # draw + loss
        game(7, 4, "B", None, 4, 4),
        game(8, 4, "A", "A", 12, 3, "time"),
    ]
    assert pairs_from_records(records) == [
        Pair(1, 1.0, 0, False),
        Pair(2, 2.0, 40, False),
        Pair(3, 0.5, -16, False),
        Pair(4, 1.5, 9, True),
    ]


def test_pairs_of_real_records_add_up_their_scores_and_winners():
    one, two = random_game_record(11, 5, 3), random_game_record(12, 5, 3)
    one.update(pair=1, first="A")
    two.update(pair=1, first="B")
    (pair,) = pairs_from_records([two, one])
    scores = [(r["scores"]["A"], r["scores"]["B"]) for r in (one, two)]
    assert pair.margin == sum(a - b for a, b in scores)
    assert pair.points == sum({"A": 1, "B": 0, None: 0.5}[r["winner"]] for r in (one, two))


def test_a_collector_completes_pairs_as_their_second_game_arrives_in_any_order():
    collector = PairCollector()
    assert collector.add(game(3, 2, "A", "A", 9, 1)) is None
    assert collector.add(game(1, 1, "A", "B", 1, 9)) is None
    completed = collector.add(game(4, 2, "B", "B", 0, 4))
    assert completed == Pair(2, 1.0, 4, False) and collector.pairs == [completed]
    assert collector.add(game(2, 1, "B", "A", 7, 2)) == Pair(1, 1.0, -3, False)
    assert [pair.board for pair in collector.pairs] == [2, 1]


def test_a_pair_with_a_game_missing_is_left_out():
    records = [game(1, 1, "A", "A", 5, 1), game(2, 1, "B", "B", 1, 5), game(3, 2, "A", "A", 8, 0)]
    assert [pair.board for pair in pairs_from_records(records)] == [1]
    assert pairs_from_records([]) == []


@pytest.mark.parametrize(
    "records, message",
    [
        (
            [{"game": 4, "first": "A", "winner": "A", "scores": {"A": 1, "B": 0}, "fault": None}],
            "game 4 is not part of a pair (the match was not played with --paired)",
        ),
        (
            [game(1, 1, "A", "A", 5, 1), game(2, 1, "B", "A", 5, 1), game(9, 1, "A", "A", 5, 1)],
            "pair 1 has more than two games (game 9 is a third)",
        ),
        ([game(1, 3, "B", "A", 5, 1), game(2, 3, "B", "A", 5, 1)], "pair 3: B moves first in both games (1 and 2)"),
    ],
)
def test_records_that_cannot_pair_are_refused_by_name(records, message):
    with pytest.raises(ValueError) as refused:
        pairs_from_records(records)
    assert str(refused.value) == message


def pairs_with_counts(counts) -> list:
    return [
        Pair(n, points, 0, False)
        for n, points in enumerate((p for p, count in zip((0, 0.5, 1, 1.5, 2), counts) for _ in range(count)), 1)
    ]


def test_pentanomial_counts_are_the_pairs_by_points():
    assert pentanomial_counts(pairs_with_counts((3, 0, 5, 1, 2))) == (3, 0, 5, 1, 2)


# fastchess's tests (app/tests/elo_test.cpp, EloPentanomial 1-3): their Stats(ll, ld, wl,
# dd, wd, ww) as Ptnml(0-2) counts, and Elo, its error, nElo, its error, LOS.
@pytest.mark.parametrize(
    "counts, elo, error, nelo, nelo_error, los",
    [
        ((34, 54, 63, 64, 75), 55.58, 27.65, 57.94, 28.28, "100.00 %"),
        ((332, 433, 498, 333, 334), -8.64, 10.33, -9.17, 10.96, "5.05 %"),
        ((7895, 8757, 5685, 568, 9999), -21.04, 2.95, -19.01, 2.65, None),
    ],
)
def test_pentanomial_elo_agrees_with_fastchess(counts, elo, error, nelo, nelo_error, los):
    stats = PentanomialStats.from_counts(counts)
    for value, expected in (
        (stats.elo, elo),
        (stats.elo_error, error),
        (stats.nelo, nelo),
        (stats.nelo_error, nelo_error),
    ):
        assert value == pytest.approx(expected, rel=0.01)
    if los is not None:
        assert stats.lines()[2] == f"LOS: {los}"


def test_pentanomial_score_and_los_are_the_mean_pair_score_and_its_normal_tail():
    counts = (2, 5, 9, 7, 4)
    stats = PentanomialStats.from_counts(counts)
    scores = [s / 4 for s, count in enumerate(counts) for _ in range(count)]
    spread = statistics.pstdev(scores) / math.sqrt(len(scores))
    assert stats.score == pytest.approx(statistics.fmean(scores))
    assert stats.score_error == pytest.approx(1.959964 * spread, rel=1e-6)
    assert stats.los == pytest.approx(statistics.NormalDist().cdf((stats.score - 0.5) / spread))


def test_pentanomial_extremes_stay_finite():
    splits = PentanomialStats.from_counts((0, 0, 12, 0, 0))
    assert splits.lines()[1:] == [
        (f"Elo: 0.00 +/- {splits.elo_error:.2f}, nElo: 0.00 +/- {splits.nelo_error:.2f}"),
        "LOS: 50.00 %",
    ]
    sweep = PentanomialStats.from_counts((0, 0, 0, 0, 12))
    assert 1000 < sweep.elo <= 1200 and math.isfinite(sweep.elo_error) and sweep.los > 0.9999
    with pytest.raises(ValueError, match="at least one pair"):
        PentanomialStats.from_counts((0, 0, 0, 0, 0))


def test_margin_stats_are_the_mean_with_a_normal_interval_and_the_pairs_won():
    margins = [12, -4, 0, 30, 7, 0, -15, 22]
    stats = MarginStats.from_margins(margins)
    assert stats.mean == pytest.approx(statistics.fmean(margins))
    assert stats.error == pytest.approx(1.959964 * statistics.stdev(margins) / math.sqrt(8), rel=1e-6)
    assert (stats.won, stats.even, stats.lost) == (4, 2, 2)
    assert MarginStats.from_margins([5]).error == math.inf
    with pytest.raises(ValueError, match="at least one pair"):
        MarginStats.from_margins([])


def test_the_report_lines():
    pairs = [Pair(1, 1.0, 10, False), Pair(2, 2.0, 40, False), Pair(3, 0.5, -16, False), Pair(4, 1.0, 0, True)]
    stats = paired_stats(pairs)
    penta = PentanomialStats.from_counts((0, 1, 2, 0, 1))
    margin = MarginStats.from_margins([10, 40, -16, 0])
    assert stats.lines() == [
        f"Pairs: 4, Points: 4.5 of 8 ({penta.score * 100:.2f} % +/- {penta.score_error * 100:.2f})",
        "Ptnml(0-2): [0, 1, 2, 0, 1]",
        (f"Elo: {penta.elo:.2f} +/- {penta.elo_error:.2f}, nElo: {penta.nelo:.2f} +/- {penta.nelo_error:.2f}"),
        f"LOS: {penta.los * 100:.2f} %",
        f"Pair margin (A minus B, both games): +8.5 +/- {margin.error:.1f} points (95%)",
        "Pairs won on total score: A 2, B 1, even 1",
        "Pairs with a game lost on a fault: 1 (their margins as scored until then)",
    ]
    assert paired_stats([]).lines() == ["Pairs: none complete"]


def test_report_lines_fit_80_columns_even_for_extreme_matches():
    sweep = [Pair(1, 2.0, 987_654, False)] * 100_000
    losses = [Pair(n, 0.0, -987_654, True) for n in range(1, 3)]
    for pairs in (sweep, losses, sweep[:1]):
        assert all(len(line) <= 80 for line in paired_stats(pairs).lines())


def test_a_whitewash_shows_the_same_elo_in_the_pair_lines_as_in_the_match_table():
    """A whitewash's Elo is the clamped score's, about -1200: the match table shows it as
    `<-800`, and so do the pair lines, never a figure beyond the table's limit."""
    lost = PentanomialStats.from_counts((5, 0, 0, 0, 0))
    assert lost.elo < -800
    elo_line = lost.lines()[1]
    assert elo_line.startswith("Elo: <-800 [<-800, ") and "1199" not in elo_line
    high = int(elo_line.split("[<-800, ")[1].split("]")[0])
    assert -800 <= high < 0  # the interval's top as the table shows a bound within the limit
    won = PentanomialStats.from_counts((0, 0, 0, 0, 5))
    assert won.lines()[1].startswith("Elo: >+800 [") and won.lines()[1].split("]")[0].endswith(", >+800")
