"""`fruit-rage analyse GAMES.jsonl [--game N] [--nodes K] [--json] [--jobs N | --cluster
tcp://HOST:PORT]`: every move of recorded games against the best move the agent finds
(agent/arena/review/analysis.py), a labelled line per move and a summary per side, or with
--json one JSON object per game; the games in file order whatever --jobs is."""

from __future__ import annotations

import json
import sys

from agent.arena.records.reading import shown_agents
from agent.arena.review.analysis import DEFAULT_NODES, EXACT_MARK, THRESHOLDS_TEXT, analyse_game
from agent.arena.terminal.tables import fit_lines, terminal_width
from agent.cli_support import number, plural, printable
from agent.commands.options import RECORDED_BY, RESULTS_HELP, add_parallel_options
from agent.commands.reviews import records_to_review, run_reviews

DESCRIPTION = (
    "For games recorded by " + RECORDED_BY + ": for every move, "
    "the best move the agent finds in its position and that position's value, the value of "
    "the move played and the points it gave away against the best, with a label; then per "
    "side the points given away and an accuracy figure. Every position is searched with the "
    "same node budget, so the figures are the same on any machine; the positions near the "
    f"end are solved exactly (marked {EXACT_MARK}). In the labels, " + THRESHOLDS_TEXT + "."
)
HEADER = " move  side  played  points  best  best value  played value  lost  label"


def add_arguments(parser) -> None:
    parser.add_argument("results", metavar="GAMES.jsonl", help=RESULTS_HELP)
    parser.add_argument("--game", type=number(int, 1), default=None, help="only this game, >= 1 (default: all)")
    parser.add_argument(
        "--nodes",
        type=number(int, 1000, 10**9),
        default=DEFAULT_NODES,
        help=f"nodes a position's search may visit, 1000..1e9 (default: {DEFAULT_NODES}); "
        "more is slower and sees further",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per game instead of the table")
    add_parallel_options(parser, "analyse")


def run(args) -> int:
    records = records_to_review("analyse", args)
    if records is None:
        return 2
    width = terminal_width(sys.stdout)

    def show(record: dict, analysis) -> None:
        text = json.dumps(analysis.to_dict()) if args.json else fit_lines(report(analysis, record), width)
        print(text, flush=True)

    run = run_reviews("analyse", analyse_game, records, (args.nodes,), show, args, done="analysed", work="analysis")
    return run.exit_code


def report(analysis, record: dict) -> str:
    agents = shown_agents(analysis.agents)
    scores = analysis.scores
    lines = [
        f"game {analysis.game}: A {agents['A']}, B {agents['B']}; {analysis.size}x{analysis.size}, "
        f"{plural(analysis.types, 'type')}; final A {scores['A']} - B {scores['B']}"
        + (f" ({printable(record['reason'])})" if record.get("fault") else ""),
        f"each position searched with {analysis.nodes} nodes; {EXACT_MARK} exact (solved to the end)",
        HEADER,
    ]
    lines += [move_line(move) for move in analysis.moves]
    for side in "AB":
        lines.append(side_line(side, agents[side], analysis.sides[side], analysis.hints.get(side, 0)))
    return "\n".join(lines)


def move_line(move) -> str:
    mark = EXACT_MARK if move.exact else " "
    return (
        f"{move.number:5d}  {move.side:<4}  {move.move:<6}  {move.points:6d}  {move.best_move:<4}  "
        f"{move.best_value:+9d}{mark}  {move.played_value:+11d}{mark}  {move.points_lost:4d}  {move.label}"
    )


def side_line(side: str, agent: str, summary, hints: int) -> str:
    accuracy = "no accuracy" if summary.accuracy is None else f"accuracy {summary.accuracy:.1f}%"
    counted = [plural(count, name, _PLURALS.get(name, "")) for name, count in summary.labels.items() if count]
    took = f", {plural(hints, 'hint')} taken" if hints else ""
    return (
        f"{side} {agent}: {plural(summary.moves, 'move')}, {plural(summary.points_lost, 'point')} given away, "
        f"{accuracy} ({', '.join(counted) or 'no moves'}){took}"
    )


_PLURALS = {"best": "best", "good": "good", "inaccuracy": "inaccuracies"}
