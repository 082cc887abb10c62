"""Where a match's margin was made: agent A's margin (A's points minus B's) once each
equal part of the fruit is gone, averaged over games and split by who moved first, and
the CPU A spent in each part.

The rows answer two questions the final scores cannot: how much of a result is the first
mover's head start (the first moves take the largest groups of a fresh board), and in
which stretch of the game an agent gains or loses on its opponent, and what time it
spent there."""
from __future__ import annotations

from dataclasses import dataclass, field

from agent.arena.audit import game_positions
from agent.arena.records import plural
from agent.rules import fruit_count


@dataclass
class Phases:
    parts: int
    agents: dict                                    # {"A": name, "B": name}
    margins: dict = field(default_factory=lambda: {"A": [], "B": []})  # by first mover: per game, per part
    cpu: list = field(init=False)                   # A's CPU seconds per part, summed over games
    skipped: int = 0                                # games ended by a fault (time, invalid move)

    def __post_init__(self):
        self.cpu = [0.0] * self.parts

    @property
    def games(self) -> int:
        return len(self.margins["A"]) + len(self.margins["B"])


def game_phases(record: dict, parts: int) -> tuple:
    """(A's margin once each part of the fruit is gone, A's CPU seconds in each part) for a
    game played to its end. A move belongs to the part its fruit-gone count falls in
    before it is played."""
    positions = game_positions(record)
    total = fruit_count(positions[0][1])
    margins, cpu = [], [0.0] * parts
    score = {"A": 0, "B": 0}
    for (side, grid, _, points), move in zip(positions, record["moves"] + [None]):
        gone = total - fruit_count(grid)
        while len(margins) < parts and gone * parts >= (len(margins) + 1) * total:
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
    phases = Phases(parts, dict(agents))
    for record in records:
        if record["agents"] != agents:
            raise ValueError(f"game {record['game']} is between other agents than game "
                             f"{records[0]['game']}")
        if record.get("fault"):
            phases.skipped += 1
            continue
        margins, cpu = game_phases(record, parts)
        phases.margins[record["first"]].append(margins)
        phases.cpu = [a + b for a, b in zip(phases.cpu, cpu)]
    return phases


def phases_table(phases: Phases) -> str:
    parts, agents = phases.parts, phases.agents
    rows = []
    for first, label in (("A", "moved first"), ("B", "moved second")):
        games = phases.margins[first]
        if games:
            means = [sum(game[k] for game in games) / len(games) for k in range(parts)]
            rows.append((f"{agents['A']} {label} ({len(games)})",
                         "".join(f"{mean:>+8.1f}" for mean in means)))
    if phases.games:
        rows.append((f"{agents['A']} CPU s a game",
                     "".join(f"{seconds / phases.games:>8.2f}" for seconds in phases.cpu)))
    width = max(len(label) for label, _ in rows + [("fruit gone", "")]) + 2
    lines = [f"Margin of A {agents['A']} over B {agents['B']} (A's points minus B's), mean over "
             f"games, once each part of the fruit is gone:",
             f"{'fruit gone':<{width}}" + "".join(f"{round(100 * (k + 1) / parts):>7}%"
                                                 for k in range(parts))]
    lines += [f"{label:<{width}}{row}" for label, row in rows]
    if phases.skipped:
        lines.append(f"(left out: {plural(phases.skipped, 'game')} ended by a fault)")
    return "\n".join(lines)
