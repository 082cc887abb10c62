"""Match statistics: score rate with a 95% interval, the Elo difference it implies, a
per-agent summary table of the recorded games, results by colour, and paired boards.

The interval is Wilson's over the games, or in a paired match that of the pairs
(pair_interval): a board played twice gives two games that are not independent."""

from __future__ import annotations

import math
from dataclasses import dataclass

from agent.arena.records.reading import is_wall_clock, starting_clocks
from agent.cli_support import plural, printable

Z_95 = 1.959964
ELO_SHOWN_LIMIT = 800  # beyond this the interval says only "more than"


def wilson_interval(score: float, games: int, z: float = Z_95) -> tuple:
    """95% interval of the true score rate, given `score` points (draw = 1/2) in `games`."""
    if games == 0:
        return 0.0, 1.0
    rate = score / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    spread = z / (1 + z * z / games) * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    # all wins (or all losses) leave that end exactly at 1 (or 0), not a rounding below it
    low = 0.0 if rate == 0 else max(0.0, centre - spread)
    high = 1.0 if rate == 1 else min(1.0, centre + spread)
    return low, high


def elo_difference(rate: float) -> float:
    """The Elo difference that makes `rate` the expected score; +-inf at 1 and 0."""
    if rate >= 1:
        return math.inf
    if rate <= 0:
        return -math.inf
    return -400 * math.log10(1 / rate - 1)


def format_elo(value: float) -> str:
    if value > ELO_SHOWN_LIMIT:
        return f">+{ELO_SHOWN_LIMIT}"
    if value < -ELO_SHOWN_LIMIT:
        return f"<-{ELO_SHOWN_LIMIT}"
    return f"{round(value):+d}"  # an int: no "-0"


def pair_interval(stats) -> tuple:
    """The 95% interval of A's score per game over pairs (a PentanomialStats): the
    pentanomial model's when the pairs vary; pairs that all scored alike show no spread
    to go on, and it is then Wilson's over the pairs, which takes at every score rate the
    largest spread a score between 0 and 1 can have."""
    pairs = sum(stats.counts)
    return stats.interval or wilson_interval(stats.score * pairs, pairs)


def score_and_elo(rate: float, interval: tuple) -> tuple:
    """The score `rate` and its Elo as the reports show them, each with the 95%
    `interval` (low, high) of the rate."""
    low, high = interval
    return (
        f"{rate:.0%} [{low:.0%}, {high:.0%}]",
        f"{format_elo(elo_difference(rate))} [{format_elo(elo_difference(low))}, {format_elo(elo_difference(high))}]",
    )


@dataclass(frozen=True)
class AgentSummary:
    label: str
    games: int
    wins: int
    losses: int
    draws: int
    mean_margin: float  # own score minus the opponent's, per game
    time_losses: int
    invalid_moves: int  # games lost on a missing, garbled or illegal answer
    moves: int
    mean_cpu: float  # per move (wall seconds when `wall`)
    max_cpu: float
    stalls: int = 0  # games lost for a move the watchdog stopped
    wall: bool = False  # its clock charged wall time (`--clock wall`)
    most_of_clock: float = 0.0  # the largest part of the clock it had that one move was charged

    @property
    def score_rate(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def summarise(records, side: str) -> AgentSummary:
    other = "B" if side == "A" else "A"
    cpu = [move["cpu"] for record in records for move in record["moves"] if move["player"] == side]
    lost = [record for record in records if record["winner"] == other]
    return AgentSummary(
        label=_label(records, side),
        games=len(records),
        wins=sum(record["winner"] == side for record in records),
        losses=len(lost),
        draws=sum(record["winner"] is None for record in records),
        mean_margin=(sum(r["scores"][side] - r["scores"][other] for r in records) / len(records) if records else 0.0),
        time_losses=sum(record["fault"] == "time" for record in lost),
        invalid_moves=sum(record["fault"] == "invalid" for record in lost),
        stalls=sum(record["fault"] == "stalled" for record in lost),
        wall=any(is_wall_clock(record, side) for record in records),
        most_of_clock=max((share for record in records for share in clock_shares(record, side)), default=0.0),
        moves=len(cpu),
        mean_cpu=sum(cpu) / len(cpu) if cpu else 0.0,
        max_cpu=max(cpu, default=0.0),
    )


def clock_shares(record: dict, side: str) -> list:
    """What part of the clock it had each of `side`'s moves in `record` was charged (1 or
    more: it ran out)."""
    left = starting_clocks(record)
    shares = []
    for move in record["moves"]:
        mover = move["player"]
        if mover == side:
            shares.append(move["cpu"] / left[mover] if left[mover] > 0 else float("inf"))
        left[mover] -= move["cpu"]
    return shares


def _label(records, side: str) -> str:
    """The agent as typed, with its clock in a time-odds match."""
    if not records:
        return side
    label = printable(records[0]["agents"][side])
    if "time_b" in records[0]:
        label += f" ({starting_clocks(records[0])[side]:g} s)"
    return label


ROW_NAMES = (
    "W-L-D",
    "score [95%]",
    "Elo [95%]",
    "mean margin",
    "lost on time",
    "stalled (watchdog)",
    "invalid answers",
    "max clock share",
    "CPU a move",
)


def report_table(records, width: int = 80) -> str:
    """The per-agent table, laid out in `width` columns: a column for A and one for B, a
    row for each figure; a match on the wall clock (`--clock wall`) says so in its last.
    In a paired match the score and Elo are those of the complete pairs."""
    from agent.arena.terminal.tables import new_table, render

    summaries = [summarise(records, side) for side in ("A", "B")]
    if records and all("pair" in record for record in records):
        scores = _pair_scores(records)
    else:
        scores = [(s.score_rate, wilson_interval(s.wins + s.draws / 2, s.games)) for s in summaries]
    table = new_table("", *(f"{side}: {s.label}" for side, s in zip("AB", summaries)))
    names = ROW_NAMES[:-1] + (("wall time a move",) if any(s.wall for s in summaries) else ROW_NAMES[-1:])
    for name, *cells in zip(names, *(_column(s, score) for s, score in zip(summaries, scores))):
        table.add_row(name, *cells)
    return render(table, width)


def _pair_scores(records) -> list:
    """A's and B's score per game over the complete pairs, each with its interval; a rate
    of None without a complete pair."""
    from agent.arena.stats.pairs import pairs_from_records
    from agent.arena.stats.pentanomial import PentanomialStats, pentanomial_counts

    pairs = pairs_from_records(records)
    if not pairs:
        return [(None, None), (None, None)]
    stats = PentanomialStats.from_counts(pentanomial_counts(pairs))
    low, high = pair_interval(stats)
    return [(stats.score, (low, high)), (1 - stats.score, (1 - high, 1 - low))]


def _column(s: AgentSummary, score: tuple) -> tuple:
    rate, interval = score
    return (
        f"{s.wins}-{s.losses}-{s.draws}",
        *(("no pair complete", "-") if rate is None else score_and_elo(rate, interval)),
        f"{s.mean_margin:+.1f}",
        str(s.time_losses),
        str(s.stalls),
        str(s.invalid_moves),
        f"{s.most_of_clock:.0%}" if s.most_of_clock < 1 else "all",
        f"{s.mean_cpu:.3f} s (max {s.max_cpu:.3f} s)",
    )


FAULT_WORDS = {"time": "on time", "invalid": "on invalid answers", "stalled": "stalled (stopped by the watchdog)"}


def forfeit_lines(records, width: int = 80) -> list:
    """Why games were forfeited, a paragraph per side and kind of fault, wrapped to
    `width`: `B lost 3 games on invalid answers (2, 5, 9): garbled output.txt: ...`, the
    reason the first of them gave, whole (an agent's error cut short may say nothing)."""
    import textwrap

    lost: dict[tuple[str, str], list[dict]] = {}
    for record in sorted(records, key=lambda record: record["game"]):
        if record.get("fault") and record["winner"] is not None:
            loser = "B" if record["winner"] == "A" else "A"
            lost.setdefault((loser, record["fault"]), []).append(record)
    lines = []
    for (side, fault), games in sorted(lost.items()):
        numbers = ", ".join(str(record["game"]) for record in games[:3]) + (", ..." if len(games) > 3 else "")
        kind = FAULT_WORDS.get(fault, f"on {fault}")
        reason = printable(games[0]["reason"] or games[0]["moves"][-1].get("reason", ""))
        paragraph = f"{side} lost {plural(len(games), 'game')} {kind} ({numbers})" + (f": {reason}" if reason else "")
        lines += textwrap.wrap(paragraph, width, subsequent_indent="  ", break_on_hyphens=False)
    return lines


def _record_line(records, side: str) -> str:
    """`W-L-D` of `side` over `records`."""
    wins = sum(r["winner"] == side for r in records)
    draws = sum(r["winner"] is None for r in records)
    return f"{wins}-{len(records) - wins - draws}-{draws}"


def colour_lines(records) -> list:
    """Each agent's W-L-D moving first and moving second: the first mover's edge is large
    in Fruit Rage, so an overall rate hides how an agent does on the harder side."""
    lines = []
    for label, moved_first in (("moving first ", True), ("moving second", False)):
        parts = [
            f"{side} {_record_line([r for r in records if (r['first'] == side) == moved_first], side)}"
            for side in ("A", "B")
        ]
        lines.append(f"{label} (W-L-D): " + ", ".join(parts))
    return lines


def pair_line(records) -> str:
    """Paired boards (each board played twice, each agent moving first once): who scored
    more over both games of a pair, which cancels the board's and the first move's luck.
    Pairs with a game missing (an interrupted match) are left out."""
    pairs: dict[int, list[dict]] = {}
    for record in records:
        pairs.setdefault(record["pair"], []).append(record)
    won = {"A": 0, "B": 0, None: 0}
    for games in pairs.values():
        if len(games) == 2:
            total = sum(r["scores"]["A"] - r["scores"]["B"] for r in games)
            won["A" if total > 0 else "B" if total < 0 else None] += 1
    return f"pairs won on total score over both games: A {won['A']}, B {won['B']}, even {won[None]}"
