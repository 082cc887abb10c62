"""`fruit-rage match A B`: referee games between two agents, show progress, write one JSON
line per game, and print a table of results per agent."""
from __future__ import annotations

import json
import random
import signal
import sys

from agent.arena.agents import agent_spec
from agent.arena.match import MatchSettings, run_match
from agent.arena.process import MoveRunner
from agent.arena.records import describe_clocks, plural
from agent.arena.stats import colour_lines, pair_line, report_table


def run(args) -> int:
    if args.paired and args.games % 2:
        print(f"fruit-rage match: --paired plays every board twice, so --games must be even "
              f"(got {args.games})", file=sys.stderr)
        return 2
    for label in (args.agent_a, args.agent_b):
        try:
            agent_spec(label)
        except ValueError as error:
            print(f"fruit-rage match: {error}", file=sys.stderr)
            return 2
    out = None
    if args.out:
        try:
            out = open(args.out, "w", encoding="utf-8")
        except OSError as error:
            print(f"fruit-rage match: cannot write --out {args.out}: {error.strerror}", file=sys.stderr)
            return 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    settings = MatchSettings((args.agent_a, args.agent_b), args.games, args.size, args.types,
                             args.time, seed, args.paired, args.time_b)
    games = plural(args.games, "game")
    if args.paired:
        games += f" ({plural(args.games // 2, 'board')}, each played twice)"
    print(f"{args.agent_a} (A) vs {args.agent_b} (B): {games} on {args.size}x{args.size} "
          f"boards of {args.types} types, {describe_clocks(args.time, args.time_b)}, seed {seed}",
          flush=True)
    records = []
    progress = Progress(settings.games, sys.stderr)

    def finished(record: dict) -> None:
        records.append(record)
        if out is not None:
            out.write(json.dumps(record) + "\n")
            out.flush()
        progress.update(record)

    interrupted = False
    stop_on_terminate = signal.signal(signal.SIGTERM, _interrupt)
    try:
        run_match(settings, args.jobs, MoveRunner(grace=args.grace), finished)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, stop_on_terminate)
        progress.close()
        if out is not None:
            out.close()
    if interrupted:
        print(f"interrupted: {len(records)} of {settings.games} games finished")
    if records:
        records.sort(key=lambda record: record["game"])
        print(report_table(records))
        print("\n".join(colour_lines(records)))
        if args.paired:
            print(pair_line(records))
    return 130 if interrupted else 0


def _interrupt(signum, frame):
    """SIGTERM (e.g. `timeout`, a batch system) stops the match as Ctrl-C does: the moves
    running are killed and their folders removed, the finished games reported."""
    raise KeyboardInterrupt


class Progress:
    """`[12/20] A 7 - B 4 - draws 1`, rewritten in place on a terminal, one line per game
    otherwise (with the game's result, for logs)."""

    def __init__(self, total: int, stream):
        self.total = total
        self.stream = stream
        self.in_place = stream.isatty()
        self.won = {"A": 0, "B": 0, None: 0}   # games won by each side; None: drawn

    def update(self, record: dict) -> None:
        self.won[record["winner"]] += 1
        line = (f"[{sum(self.won.values())}/{self.total}] A {self.won['A']} - B {self.won['B']} "
                f"- draws {self.won[None]}")
        if self.in_place:
            self.stream.write("\r" + line)
        else:
            winner = record["winner"] or "draw"
            self.stream.write(f"{line}   (game {record['game']}: {winner}, {record['reason']})\n")
        self.stream.flush()

    def close(self) -> None:
        if self.in_place:
            self.stream.write("\n")
            self.stream.flush()
