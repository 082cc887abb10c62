"""Where a match's margin was made: agent A's margin (A's points minus B's) once each
equal part of the fruit is gone, averaged over games with a bootstrap interval and split
by who moved first, and the CPU A spent in each part (a person's thinking time, in a game
played by one).

The margin is read after whole rounds only (when both have moved equally often): read
after any move it would swing by the last move's points with who made it.

The rows answer two questions the final scores cannot: how much of a result is the first
mover's head start (the first moves take the largest groups of a fresh board), and in
which stretch of the game an agent gains or loses on its opponent, and what time it
spent there."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.arena.records.reading import is_wall_clock, shown_agents
from agent.arena.review.replayed import game_positions
from agent.cli_support import plural


@dataclass
class Phases:
    parts: int
    agents: dict  # {"A": name, "B": name}
    margins: dict = field(default_factory=lambda: {"A": [], "B": []})  # by first mover: per game, per part
    cpu: list = field(init=False)  # A's CPU seconds per part, summed over games
    skipped: int = 0  # games ended by a fault (time, invalid move)
    a_time: str = "CPU"  # what A's seconds are: "CPU", or "thinking" for a person

    def __post_init__(self):
        self.cpu = [0.0] * self.parts

    @property
    def games(self) -> int:
        return len(self.margins["A"]) + len(self.margins["B"])


def game_phases(record: dict, parts: int) -> tuple:
    """(A's margin once each part of the fruit is gone, A's CPU seconds in each part) for a
    game played to its end. The margin of a part is read at the first whole round's end
    (or the game's) with that much fruit gone. A move belongs to the part its fruit-gone
    count falls in before it is played."""
    positions = game_positions(record)
    total = positions[0].board.fruit
    margins: list[int] = []
    cpu = [0.0] * parts
    score = {"A": 0, "B": 0}
    for played, ((side, board, _, points), move) in enumerate(zip(positions, record["moves"] + [None])):
        gone = total - board.fruit
        round_over = played % 2 == 0 or move is None
        while round_over and len(margins) < parts and gone * parts >= (len(margins) + 1) * total:
            margins.append(score["A"] - score["B"])
        if move is None:
            break
        if side == "A":
            cpu[min(parts - 1, gone * parts // total)] += move["cpu"]
        score[side] += points
    return margins, cpu


def match_phases(records: list, parts: int = 10) -> Phases:
    """The phases of every game in `records` (checked records, as records.read_records
    gives them); a ValueError when they are not all between the same two agents."""
    if not records:
        raise ValueError("no games")
    agents = records[0]["agents"]
    phases = Phases(parts, dict(agents), a_time="thinking" if is_wall_clock(records[0], "A") else "CPU")
    for record in records:
        if record["agents"] != agents:
            raise ValueError(f"game {record['game']} is between other agents than game {records[0]['game']}")
        if record.get("fault"):
            phases.skipped += 1
            continue
        margins, cpu = game_phases(record, parts)
        phases.margins[record["first"]].append(margins)
        phases.cpu = [a + b for a, b in zip(phases.cpu, cpu)]
    return phases


BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20240601  # fixed: the same file always prints the same intervals


def bootstrap_intervals(games, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED, level: float = 0.95):
    """(low, high) arrays: for each column of `games` (a game a row), the percentile
    bootstrap interval of its mean over games, from `resamples` resamplings of whole
    games. Games are drawn by multinomial counts, a block of resamples at a time, so
    that memory stays at a block times the games."""
    import numpy as np

    values = np.asarray(games, dtype=float)
    count = len(values)
    rng = np.random.default_rng(seed)
    means, block = [], max(1, 1_000_000 // max(1, count))
    for start in range(0, resamples, block):
        weights = rng.multinomial(count, np.full(count, 1 / count), size=min(block, resamples - start))
        means.append(weights @ values / count)
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(np.concatenate(means), [tail, 100 - tail], axis=0)
    return low, high


def phases_table(phases: Phases, width: int = 80) -> str:
    """The phases as text in `width` columns: a row for each part of the fruit, A's mean
    margin with its 95% interval for the games it moved first and second, and its seconds."""
    from agent.arena.terminal.tables import new_table, render

    parts, agents = phases.parts, shown_agents(phases.agents)
    columns, cells = ["fruit gone"], [[f"{round(100 * (k + 1) / parts)}%" for k in range(parts)]]
    for first, label in (("A", "first"), ("B", "second")):
        games = phases.margins[first]
        if games:
            columns.append(f"A {label}, {plural(len(games), 'game')}")
            cells.append(_means_with_intervals(games))
    if phases.games:
        columns.append(f"{agents['A']} {phases.a_time} s a game")
        cells.append([f"{seconds / phases.games:.2f}" for seconds in phases.cpu])
    table = new_table(*columns, right_aligned=columns)
    for row in zip(*cells):
        table.add_row(*row)
    lines = [
        render(
            f"A ({agents['A']}) minus B ({agents['B']}) in points after whole rounds, once "
            f"each part of the fruit is gone: the mean over games, "
            f"[95% interval] by bootstrap over games.",
            width,
        ),
        render(table, width),
    ]
    if phases.skipped:
        lines.append(f"(left out: {plural(phases.skipped, 'game')} ended by a fault)")
    return "\n".join(lines)


def _means_with_intervals(games: list) -> list:
    """`+4.0 [+1.2, +6.8]` per part: a game's margins are a row; one game has no interval."""
    means = [sum(game[k] for game in games) / len(games) for k in range(len(games[0]))]
    if len(games) < 2:
        return [_signed(mean) for mean in means]
    low, high = bootstrap_intervals(games)
    return [f"{_signed(mean)} [{_signed(a)}, {_signed(b)}]" for mean, a, b in zip(means, low, high)]


def _signed(value: float) -> str:
    """`+4.0`, `-1.5`; a value that rounds to zero is `+0.0`, never `-0.0`."""
    text = f"{value:+.1f}"
    return "+0.0" if text == "-0.0" else text
