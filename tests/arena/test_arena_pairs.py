"""Paired games: records into pairs (in any order, a missing twin left out, records that
cannot pair refused), and the paired statistics: pentanomial score, Elo, nElo and LOS
against fastchess's published figures, the interval when the pairs do not vary, the pair
margins, and the report, which says each figure once."""

from __future__ import annotations

import math
import re
import statistics

import pytest
from arena_helpers import fruit_rage, random_game_record

from agent.arena.records.reading import read_records
from agent.arena.stats.margin import MarginStats
from agent.arena.stats.paired import paired_stats
from agent.arena.stats.pairs import Pair, PairCollector, pairs_from_records
from agent.arena.stats.pentanomial import PentanomialStats, pentanomial_counts
from agent.arena.stats.summary import elo_difference, pair_interval, score_and_elo, wilson_interval

SMALL_GAMES = ("--size", "6", "--types", "3", "--time", "10", "--seed", "3")


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
# dd, wd, ww) as Ptnml(0-2) counts, and Elo, its error, nElo, its error, LOS. The Elo and
# its error are those of the score and its interval.
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
    low, high = stats.interval
    for value, expected in (
        (elo_difference(stats.score), elo),
        ((elo_difference(high) - elo_difference(low)) / 2, error),
        (stats.nelo, nelo),
        (stats.nelo_error, nelo_error),
    ):
        assert value == pytest.approx(expected, rel=0.01)
    if los is not None:
        assert stats.lines()[1].endswith(f", LOS: {los}")


def test_pentanomial_score_and_los_are_the_mean_pair_score_and_its_normal_tail():
    counts = (2, 5, 9, 7, 4)
    stats = PentanomialStats.from_counts(counts)
    scores = [s / 4 for s, count in enumerate(counts) for _ in range(count)]
    spread = statistics.pstdev(scores) / math.sqrt(len(scores))
    assert stats.score == pytest.approx(statistics.fmean(scores))
    assert stats.score_error == pytest.approx(1.959964 * spread, rel=1e-6)
    assert stats.interval == pytest.approx((stats.score - stats.score_error, stats.score + stats.score_error))
    assert stats.los == pytest.approx(statistics.NormalDist().cdf((stats.score - 0.5) / spread))


@pytest.mark.parametrize("counts", [(0, 0, 12, 0, 0), (0, 0, 0, 0, 12), (5, 0, 0, 0, 0), (0, 0, 0, 1, 0)])
def test_pairs_that_all_scored_alike_give_no_spread_figures(counts):
    """Their only spread would be the empty counts' stand-ins: no interval, nElo or LOS
    of the model; the score's interval is then Wilson's over the pairs."""
    stats = PentanomialStats.from_counts(counts)
    assert not stats.varies and stats.interval is None
    assert stats.lines() == [
        f"Ptnml(0-2): {list(counts)}",
        "Every pair scored the same: no spread to give nElo or LOS from",
    ]
    pairs = sum(counts)
    assert pair_interval(stats) == wilson_interval(stats.score * pairs, pairs)
    with pytest.raises(ValueError, match="at least one pair"):
        PentanomialStats.from_counts((0, 0, 0, 0, 0))


def test_a_whitewash_s_interval_is_wider_than_the_games_or_the_stand_ins_would_make_it():
    """Five pairs lost: Wilson's over the 5 pairs, [0, 43%], where Wilson's over the 10
    games said [0, 28%] and the model's stand-ins [0, 1.7%]."""
    stats = PentanomialStats.from_counts((5, 0, 0, 0, 0))
    low, high = pair_interval(stats)
    assert low == 0 and high == pytest.approx(0.4345, abs=1e-4)
    assert high > wilson_interval(0, 10)[1] > stats.score + stats.score_error


def test_margin_stats_are_the_mean_with_a_normal_interval_and_the_pairs_won():
    margins = [12, -4, 0, 30, 7, 0, -15, 22]
    stats = MarginStats.from_margins(margins)
    assert stats.mean == pytest.approx(statistics.fmean(margins))
    assert stats.error == pytest.approx(1.959964 * statistics.stdev(margins) / math.sqrt(8), rel=1e-6)
    assert (stats.won, stats.even, stats.lost) == (4, 2, 2)
    assert stats.told(" a pair") == f"+6.5 +/- {stats.error:.1f} points a pair (95%)"
    assert MarginStats.from_margins([5]).error == math.inf
    with pytest.raises(ValueError, match="at least one pair"):
        MarginStats.from_margins([])


def test_margins_without_a_spread_are_told_without_an_interval():
    assert MarginStats.from_margins([-552]).told() == "-552.0 points (one pair: no interval)"
    assert MarginStats.from_margins([8, 8, 8]).told() == "+8.0 points (all alike: no interval)"


def test_the_report_lines():
    pairs = [Pair(1, 1.0, 10, False), Pair(2, 2.0, 40, False), Pair(3, 0.5, -16, False), Pair(4, 1.0, 0, True)]
    stats = paired_stats(pairs)
    penta = PentanomialStats.from_counts((0, 1, 2, 0, 1))
    margin = MarginStats.from_margins([10, 40, -16, 0])
    low, high = penta.interval
    assert stats.score_line() == (
        f"Score of A (95%, by pairs): {penta.score:.0%} [{low:.0%}, {high:.0%}], "
        f"Elo {elo_difference(penta.score):+.0f} [{elo_difference(low):+.0f}, {elo_difference(high):+.0f}]"
    )
    assert stats.lines() == [
        "Pairs: 4",
        "Ptnml(0-2): [0, 1, 2, 0, 1]",
        f"nElo: {penta.nelo:.2f} +/- {penta.nelo_error:.2f}, LOS: {penta.los * 100:.2f} %",
        f"Pair margin (A minus B, both games): +8.5 +/- {margin.error:.1f} points (95%)",
        "Pairs won on total score: A 2, B 1, even 1",
        "Pairs with a game lost on a fault: 1 (their margins as scored until then)",
    ]
    assert paired_stats([]).lines() == ["Pairs: none complete"]
    assert paired_stats([]).score_line() == "Score: no pair complete"


def test_report_lines_fit_80_columns_even_for_extreme_matches():
    sweep = [Pair(1, 2.0, 987_654, False)] * 100_000
    losses = [Pair(n, 0.0, -987_654, True) for n in range(1, 3)]
    mixed = [Pair(n, n % 5 / 2, (-1) ** n * 987_654, True) for n in range(1, 100_000)]
    for pairs in (sweep, losses, sweep[:1], mixed):
        stats = paired_stats(pairs)
        assert all(len(line) <= 80 for line in [stats.score_line(), *stats.lines()])


@pytest.mark.parametrize("games", [2, 10])
def test_a_paired_match_says_each_figure_once_with_one_interval(tmp_path, games):
    """The score and Elo are the table's, with the pairs' interval; the lines below it
    give the counts and the margin, and nothing that one pair cannot give (an infinite
    margin interval, nElo, LOS)."""
    out = tmp_path / "games.jsonl"
    done = fruit_rage(
        "match", "random", "greedy", "--paired", "--games", games, *SMALL_GAMES, "--in-process", "--out", out
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    pairs = pairs_from_records(read_records(str(out)))
    stats = PentanomialStats.from_counts(pentanomial_counts(pairs))
    score, elo = score_and_elo(stats.score, pair_interval(stats))
    (score_row,) = [line for line in lines if line.startswith("score [95%]")]
    (elo_row,) = [line for line in lines if line.startswith("Elo [95%]")]
    assert score_row.split()[2:5] == score.split() and elo_row.split()[2:5] == elo.split()
    assert [line for line in lines if re.search(r"(?<!n)Elo", line)] == [elo_row]
    assert not [line for line in lines if re.search(r"% \+/-|Score|Points", line)]  # no score but the table's
    assert "inf" not in done.stdout
    if games == 2:
        assert "nElo:" not in done.stdout and "LOS:" not in done.stdout
        assert "points (one pair: no interval)" in done.stdout
