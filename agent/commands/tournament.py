"""`fruit-rage tournament A B C ...`: a match between every two agents (a round robin), or
the first against each of the others (--gauntlet), and a cross table of the results."""

from __future__ import annotations

import itertools
import random
import sys

from agent.arena.matches.games import MatchSettings
from agent.arena.matches.match import run_match
from agent.arena.matches.preflight import Refused, prepare, warn_of_jobs
from agent.arena.processes.move_runner import SetupFailed
from agent.arena.processes.stop_signals import stop_signals_interrupt
from agent.arena.records.results_file import RecordsFile
from agent.arena.terminal.tables import fit_lines, terminal_width
from agent.cli_support import INTERRUPTED, interrupted, plural, printable
from agent.commands.options import AGENT_KINDS, add_game_options, positive_int
from agent.commands.refusals import odd_paired_games

DESCRIPTION = (
    "Play a match between every two of the agents (a round robin), or between the first and each "
    "of the others (--gauntlet), and print a cross table of mean margins. " + AGENT_KINDS
)


def add_arguments(p) -> None:
    p.add_argument("agents", metavar="AGENT", nargs="+", help="two or more agents")
    p.add_argument("--gauntlet", action="store_true", help="only the first agent against each of the others")
    p.add_argument("--games", type=positive_int, default=10, help="games of each pairing, >= 1 (default: 10)")
    add_game_options(p)
    p.add_argument("--out", default=None, help="write one JSON line per game of every pairing to this file")


def pairings(count: int, gauntlet: bool) -> list:
    """The (row, column) agent indexes that play each other."""
    return [(0, other) for other in range(1, count)] if gauntlet else list(itertools.combinations(range(count), 2))


def cross_table(labels: list, results: dict) -> str:
    """Rows and columns are the agents; a cell is the row agent's mean margin a game and
    its W-L-D against the column agent; the last column, its mean margin over all games."""
    names = [f"{i + 1}. {printable(label)}"[:24] for i, label in enumerate(labels)]
    header = ["agent"] + [f"vs {i + 1}" for i in range(len(labels))] + ["all"]
    rows = []
    for row, name in enumerate(names):
        cells, total, games = [name], 0, 0
        for column in range(len(labels)):
            outcome = results.get((row, column))
            if outcome is None:
                cells.append("-" if row == column else "")
                continue
            margin, wins, losses, draws, played = outcome
            cells.append(f"{margin / played:+.1f} {wins}-{losses}-{draws}")
            total, games = total + margin, games + played
        cells.append(f"{total / games:+.1f}" if games else "")
        rows.append(cells)
    table = [header] + rows
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
        for line in table
    ]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def tally(records, side: str) -> tuple:
    """(margin summed, wins, losses, draws, games) of `side` over the records."""
    other = "B" if side == "A" else "A"
    margin = sum(record.scores[side] - record.scores[other] for record in records)
    wins = sum(record.winner == side for record in records)
    draws = sum(record.winner is None for record in records)
    return margin, wins, len(records) - wins - draws, draws, len(records)


def run(args) -> int:
    if len(args.agents) < 2:
        print("fruit-rage tournament: give at least two agents", file=sys.stderr)
        return 2
    odd = odd_paired_games(args)
    if odd:
        print(f"fruit-rage tournament: {odd}", file=sys.stderr)
        return 2
    try:
        specs, positions, _ = prepare(args, args.agents)
    except Refused as refusal:
        print(f"fruit-rage tournament: {refusal}", file=sys.stderr)
        return refusal.code
    warn_of_jobs(args, "tournament")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    # every pairing plays the same boards: the cross table compares like with like
    settings = MatchSettings(args.games, args.size, args.types, args.time, seed, args.paired, None, positions)
    try:
        out = RecordsFile(args.out) if args.out else None
    except RecordsFile.Refused as refusal:
        print(f"fruit-rage tournament: --out {args.out} {refusal}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"fruit-rage tournament: cannot write --out {args.out}: {error.strerror}", file=sys.stderr)
        return 1
    matches = pairings(len(specs), args.gauntlet)
    print(
        f"{'gauntlet' if args.gauntlet else 'round robin'} of {plural(len(specs), 'agent')}: "
        f"{plural(len(matches), 'match', 'matches')} of {plural(args.games, 'game')}, seed {seed}",
        flush=True,
    )
    results, stopped_by_ctrl_c = {}, False
    try:
        with stop_signals_interrupt():
            for number, (row, column) in enumerate(matches, 1):

                def written(record):
                    if out is not None:
                        out.write(record.to_dict())

                match = run_match(
                    specs[row],
                    specs[column],
                    settings,
                    jobs=args.jobs,
                    grace=args.grace,
                    cluster=args.cluster,
                    clock=args.clock,
                    on_record=written,
                )
                results[row, column] = tally(match.records, "A")
                results[column, row] = tally(match.records, "B")
                margin = results[row, column][0] / len(match.records)
                print(
                    fit_lines(
                        f"[{number}/{len(matches)}] {printable(args.agents[row])} vs "
                        f"{printable(args.agents[column])}: {margin:+.1f} a game",
                        terminal_width(sys.stderr),
                    ),
                    file=sys.stderr,
                    flush=True,
                )
    except KeyboardInterrupt:
        stopped_by_ctrl_c = True
    except (SetupFailed, RecordsFile.WriteFailed, OSError) as error:
        print(f"fruit-rage tournament: {error}; stopped", file=sys.stderr)
        return 1
    finally:
        if out is not None:
            out.close()
    if stopped_by_ctrl_c:
        interrupted("fruit-rage tournament")
    if results:
        print(cross_table(args.agents, results))
    return INTERRUPTED if stopped_by_ctrl_c else 0
