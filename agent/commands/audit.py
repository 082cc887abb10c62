"""`fruit-rage audit RESULTS [--game K] [--seconds S] [--jobs N | --cluster tcp://HOST:PORT]`:
the endgame audit (agent/arena/review/audit.py) of games recorded by `match --out`, one
report per game in game order as it is done, then a summary."""

from __future__ import annotations

import sys

from agent.arena.records.reading import shown_agents
from agent.arena.review.audit import audit_game
from agent.arena.terminal.tables import fit_lines, terminal_width
from agent.cli_support import number, plural, printable
from agent.commands.options import RECORDED_BY, add_parallel_options, add_results_argument, positive_int
from agent.commands.reviews import records_to_review, run_reviews

DESCRIPTION = (
    "For games recorded by " + RECORDED_BY + ": solve the positions exactly from the end back, as far "
    "as each solve fits in --seconds of CPU, and report the points each move there gave away "
    "against best play, and how the game ends with best play from the first solved position."
)


def add_arguments(p) -> None:
    add_results_argument(p)
    p.add_argument("--game", type=positive_int, default=None, help="only this game, >= 1 (default: all)")
    p.add_argument(
        "--seconds",
        type=number(float, 0.01, 600),
        default=5.0,
        help="CPU seconds allowed for solving one position, 0.01..600 (default: 5)",
    )
    add_parallel_options(p, "audit")


def run(args) -> int:
    records = records_to_review("audit", args)
    if records is None:
        return 2
    print(f"Solving each position exactly with up to {args.seconds:g} s of CPU, from the end back.", flush=True)
    records.sort(key=lambda record: record["game"])
    audits = []

    def show(record: dict, audit) -> None:
        audits.append((record, audit))
        print(fit_lines(game_report(record, audit), terminal_width(sys.stdout)), flush=True)

    run = run_reviews("audit", audit_game, records, (args.seconds,), show, args, done="audited", work="audit")
    if run.stopped is None and len(audits) > 1:
        print(fit_lines(summary(audits), terminal_width(sys.stdout)))
    return run.exit_code


def game_report(record: dict, audit) -> str:
    agents, scores = shown_agents(record["agents"]), record["scores"]
    lines = [
        f"game {record['game']}: A {agents['A']}, B {agents['B']}; "
        f"final A {scores['A']} - B {scores['B']}"
        + (f" ({printable(record['reason'])})" if record.get("fault") else "")
    ]
    if audit.moves == 0:
        lines.append("  no moves to audit: the first move lost the game")
        return "\n".join(lines)
    if audit.solved_from is None or audit.solved_from == audit.moves:
        lines.append("  no move's position could be solved within the time")
        return "\n".join(lines)
    then = audit.score_then
    lines.append(
        f"  solved exactly from move {audit.solved_from + 1} of {audit.moves} "
        f"({audit.fruit_left} fruit left), score then A {then['A']} - B {then['B']}"
    )
    played = "" if record.get("fault") else f" (as played: A {scores['A'] - scores['B']:+d})"
    lines.append(f"  best play from there ends A {audit.best_play_margin:+d}{played}")
    for side in "AB":
        lines.append(
            f"  {side} {agents[side]}: {plural(audit.moves_audited[side], 'move')}, "
            f"{plural(audit.given_away[side], 'point')} given away"
        )
    for slip in audit.slips:
        lines.append(
            f"    move {slip.number}, {slip.side} {slip.move}: {plural(slip.points, 'point')}, "
            f"{slip.given_away} short of the best ({slip.best})"
        )
    return "\n".join(lines)


def summary(audits) -> str:
    """Per agent: moves audited, points given away, in how many games; then the games
    whose result the solved end changed (best play from its start had another winner)."""
    totals: dict[str, tuple[int, int, set[int]]] = {}
    changed = []
    for record, audit in audits:
        if audit.solved_from is None:
            continue
        for side in "AB":
            # a set: an agent playing itself gives points away in a game once, not per side
            moves, points, games = totals.get(record["agents"][side], (0, 0, set()))
            given = audit.given_away[side]
            totals[record["agents"][side]] = (
                moves + audit.moves_audited[side],
                points + given,
                games | ({record["game"]} if given else set()),
            )
        played = record["scores"]["A"] - record["scores"]["B"]
        if not record.get("fault") and _sign(played) != _sign(audit.best_play_margin):
            changed.append(str(record["game"]))
    lines = [f"Over {len(audits)} games, in the solved ends:"]
    for agent, (moves, points, games) in totals.items():
        lines.append(
            f"  {printable(agent)}: {plural(moves, 'move')}, {plural(points, 'point')} given away, "
            f"in {plural(len(games), 'game')}"
        )
    which = f"game {changed[0]}" if len(changed) == 1 else f"games {', '.join(changed)}"
    lines.append("  games whose result the solved end changed: " + (f"{len(changed)} ({which})" if changed else "none"))
    return "\n".join(lines)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)
