"""`fruit-rage match A B`: referee games between two agents, show progress, write one JSON
line per game, and print a table of results per agent."""

from __future__ import annotations

import os
import random
import sys
import time

from agent.arena.agent_commands import files_named
from agent.arena.matches.games import MatchSettings
from agent.arena.matches.match import run_match
from agent.arena.matches.preflight import Refused, available_cpus, prepare, warn_of_jobs
from agent.arena.matches.resume import ResumeError, check_same_match, read_finished, seed_of
from agent.arena.processes.burners import Burners
from agent.arena.processes.move_runner import SetupFailed
from agent.arena.processes.stop_signals import stop_signals_interrupt
from agent.arena.records.reading import describe_clocks
from agent.arena.records.results_file import RecordsFile
from agent.arena.stats.paired import paired_stats
from agent.arena.stats.pairs import PairCollector
from agent.arena.stats.sprt import EloSprt, MarginSprt, SprtResult
from agent.arena.stats.summary import colour_lines, forfeit_lines, report_table
from agent.arena.terminal.tables import clock_time, crop, fit_lines, join_fitting, terminal_width
from agent.cli_support import INTERRUPTED, interrupted, number, plural, printable
from agent.commands.options import AGENT_KINDS, add_error_rates, add_game_options, clock_seconds, positive_int

# Every game's seed (the match's times 100000, plus the board) goes into its record, and a
# number of thousands of digits is more than JSON readers (Python's too) take back.
SEED_LIMIT = 10**18


DEFAULT_GAMES, DEFAULT_SEQUENTIAL_GAMES = 10, 2000


DESCRIPTION = "Referee games between agents A and B. " + AGENT_KINDS


def add_arguments(p) -> None:
    p.add_argument(
        "agent_a",
        metavar="A",
        help="the first agent: ours, greedy, random, minimax3, py:module:factory or a shell command",
    )
    p.add_argument("agent_b", metavar="B", help="the second agent, named the same ways")
    p.add_argument(
        "--games",
        type=positive_int,
        default=None,
        help=f"number of games, >= 1 (default: {DEFAULT_GAMES}; with --sprt or --sprt-margin, "
        f"at most {DEFAULT_SEQUENTIAL_GAMES})",
    )
    add_game_options(p)
    p.add_argument(
        "--time-b",
        type=clock_seconds,
        default=None,
        metavar="TIME",
        help="B's clock, for a time-odds match, above 0 and up to 1e6 (default: --time); "
        "e.g. ours against ours with twice the time shows what doubling the clock is worth",
    )
    out = p.add_mutually_exclusive_group()
    out.add_argument("--out", default=None, help="write one JSON line per game to this file (replacing what it held)")
    out.add_argument(
        "--resume",
        default=None,
        metavar="F.jsonl",
        help="go on with the match whose games F.jsonl holds, appending the rest to it "
        "(give the same arguments; the seed is taken from the file); a last line "
        "cut short is dropped and its game played again",
    )
    sprt = p.add_mutually_exclusive_group()
    sprt.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("ELO0", "ELO1"),
        default=None,
        help="stop as soon as a pentanomial GSPRT (logistic Elo, as fastchess and "
        "fishtest) accepts H0: Elo <= ELO0 or H1: Elo >= ELO1 (needs --paired)",
    )
    sprt.add_argument(
        "--sprt-margin",
        nargs=2,
        type=float,
        metavar=("M0", "M1"),
        default=None,
        help="stop as soon as a GSPRT on the mean pair margin accepts H0: margin <= M0 "
        "or H1: margin >= M1 points (needs --paired); sharper than --sprt here, "
        "since most pairs split one game each",
    )
    add_error_rates(p)
    p.add_argument(
        "--burners",
        type=number(int, 0, 256),
        default=0,
        metavar="N",
        help="load the machine on purpose for the whole match: N CPU burners, 0..256, each in a session of its "
        "own (as a user's other programs); with more --jobs than cores, the load harness: see the clocks hold on "
        "a busy machine; the load seen (runnable processes) is reported (default: 0)",
    )


def run(args) -> int:
    sequential = args.sprt or args.sprt_margin
    if args.games is None:
        args.games = DEFAULT_SEQUENTIAL_GAMES if sequential else DEFAULT_GAMES
    if sequential and not args.paired:
        print("fruit-rage match: a sequential test (--sprt, --sprt-margin) reads pairs: add --paired", file=sys.stderr)
        return 2
    try:
        test = (
            EloSprt(args.sprt[0], args.sprt[1], alpha=args.alpha, beta=args.beta)
            if args.sprt
            else MarginSprt(args.sprt_margin[0], args.sprt_margin[1], alpha=args.alpha, beta=args.beta)
            if args.sprt_margin
            else None
        )
    except ValueError as error:
        print(f"fruit-rage match: {error}", file=sys.stderr)
        return 2
    if args.paired and args.games % 2:
        print(
            f"fruit-rage match: --paired plays every board twice, so --games must be even (got {args.games})",
            file=sys.stderr,
        )
        return 2
    if args.seed is not None and not -SEED_LIMIT < args.seed < SEED_LIMIT:
        print(f"fruit-rage match: --seed must have at most 18 digits (got {len(str(abs(args.seed)))})", file=sys.stderr)
        return 2
    try:
        specs, positions, names = prepare(args, (args.agent_a, args.agent_b))
    except Refused as refusal:
        print(f"fruit-rage match: {refusal}", file=sys.stderr)
        return refusal.code
    warn_of_jobs(args, "match")
    out_path = args.resume or args.out
    out_option = f"--resume {args.resume}" if args.resume else f"--out {args.out}"
    problem = out_path is not None and _out_problem(out_path, (args.agent_a, args.agent_b))
    if problem:
        print(f"fruit-rage match: {problem}", file=sys.stderr)
        return 2
    out = None
    if out_path is not None:
        try:
            out = RecordsFile(out_path, resume=bool(args.resume))  # locked: this match's alone
        except RecordsFile.Refused as refusal:
            print(f"fruit-rage match: {out_option} {refusal}", file=sys.stderr)
            return 2
        except OSError as error:
            print(f"fruit-rage match: cannot write {out_option}: {error.strerror}", file=sys.stderr)
            return 1
    done, seed = [], args.seed
    try:
        if args.resume:
            assert out is not None  # --resume names the --out file
            with out.reader() as handle:
                done, cut_at = read_finished(handle, args.resume)
            seed = seed if seed is not None else seed_of(done)
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        settings = MatchSettings(
            args.games, args.size, args.types, args.time, seed, args.paired, args.time_b, positions
        )
        if args.resume:
            check_same_match(args.resume, done, settings, names, args.clock)
            if cut_at is not None and out is not None:
                out.cut_back(cut_at)  # every line checked first: nothing else is ever dropped
    except ResumeError as error:  # only with --resume, so with --out
        if out is not None:
            out.close()
        print(f"fruit-rage match: --resume {error}", file=sys.stderr)
        return 2
    done = [record for _, record in done]
    games = ("at most " if test is not None else "") + plural(args.games, "game")
    if args.paired:
        games += f" ({plural(args.games // 2, 'board')}, each played twice)"
    boards = (
        f"{plural(len(positions), 'position')} from {args.positions}"
        if positions
        else f"{args.size}x{args.size} boards of {args.types} types"
    )
    setup = (f"{games} on {boards}", describe_clocks(args.time, args.time_b), f"seed {seed}")
    print(
        fit_lines(f"{printable(args.agent_a)} (A) vs {printable(args.agent_b)} (B):", terminal_width(sys.stdout)),
        *join_fitting(setup, terminal_width(sys.stdout)),
        sep="\n",
        flush=True,
    )
    if done:
        print(f"resuming {args.resume}: {plural(len(done), 'game')} already played", flush=True)
    records = sorted(done, key=lambda record: record["game"])
    progress = Progress(settings.games, sys.stderr, sequential=test is not None)
    pairs = PairCollector() if args.paired else None
    decision: list[SprtResult | None] = [None]  # the sequential test's latest result
    for record in records:
        progress.won[record["winner"]] += 1
        if pairs is not None:
            pairs.add(record)
    if test is not None and pairs is not None and pairs.pairs:
        decision[0] = test.result(pairs.pairs)
    remaining = [game for game in range(1, settings.games + 1) if game not in {r["game"] for r in records}]
    if decision[0] is not None and decision[0].verdict is not None:
        remaining = []  # the resumed match had already decided

    def finished(game) -> bool:
        record = game.to_dict()
        records.append(record)
        if out is not None:
            out.write(record)
        if pairs is not None and pairs.add(record) is not None and test is not None:
            result = decision[0] = test.result(pairs.pairs)
            progress.note = f"LLR {result.llr:+.2f} ({result.lower:.2f}, {result.upper:.2f})"
        progress.update(record)
        return decision[0] is None or decision[0].verdict is None

    stopped_by_ctrl_c, failure = False, None
    load = Burners(args.burners)
    try:
        with stop_signals_interrupt(), load:  # SIGTERM, SIGHUP: as Ctrl-C, the finished games reported
            run_match(
                specs[0],
                specs[1],
                settings,
                jobs=args.jobs,
                on_record=finished,
                grace=args.grace,
                games=remaining,
                cluster=args.cluster,
                clock=args.clock,
            )
    except KeyboardInterrupt:
        stopped_by_ctrl_c = True
    except RecordsFile.WriteFailed as error:
        failure = f"fruit-rage match: cannot write {out_option}: {error}; match stopped"
    except SetupFailed as error:
        failure = f"fruit-rage match: {error}; match stopped"
    except Exception as error:
        if not _is_cluster_error(error):
            raise
        failure = f"fruit-rage match: {error}; match stopped"
    finally:
        progress.close()
        if out is not None:
            out.close()
    if failure:
        print(failure, file=sys.stderr)
    if stopped_by_ctrl_c:
        interrupted("fruit-rage match")
    if stopped_by_ctrl_c or failure:
        print(f"{'interrupted' if stopped_by_ctrl_c else 'stopped'}: {len(records)} of {settings.games} games finished")
    elif decision[0] is not None and decision[0].verdict is not None and len(records) < settings.games:
        print(f"the test decided after {plural(len(records), 'game')} of at most {settings.games}")
    if records:
        records.sort(key=lambda record: record["game"])
        width = terminal_width(sys.stdout)
        print(report_table(records, width))
        print("\n".join(colour_lines(records) + forfeit_lines(records, width)))
        if pairs is not None:
            print("\n".join(paired_stats(pairs.pairs).lines()))
    runnable = load.runnable()
    if runnable is not None:
        per_core = runnable / available_cpus()
        print(
            f"load: {plural(args.burners, 'CPU burner')}; {runnable:.1f} runnable processes "
            f"on average, {per_core:.1f} a core"
        )
    if decision[0] is not None:
        after = f"after {plural(decision[0].pairs, 'pair')}: {decision[0].describe(ended=True)}"
        line = f"SPRT ({decision[0].statistic}) {after}"
        print(line if len(line) <= terminal_width(sys.stdout) else f"SPRT {after}")  # the test is the one asked for
    return INTERRUPTED if stopped_by_ctrl_c else 1 if failure else 0


def _is_cluster_error(error: Exception) -> bool:
    """A cluster that failed mid-match (a lost scheduler): stop with its message."""
    from agent.arena.matches.cluster import ClusterError

    return isinstance(error, ClusterError)


def _out_problem(out: str, agents) -> str:
    """Why --out must not be written, or "": it is a file an agent's command names (its
    program or script), which `--out` would empty before the first game."""
    for side, agent in zip("AB", agents):
        for path in files_named(agent):
            if os.path.exists(out) and os.path.samefile(path, out):
                return f"--out {out} is a file that agent {side} ({agent}) uses: it would be overwritten"
    return ""


class Progress:
    """`[12/20] A 7 - B 4 - draws 1  5:12 elapsed, 26 s a game, ETA 3:28`, then a running
    test's note: redrawn in place at a terminal (by rich: the clock ticks between games),
    one line per game otherwise, with the game's result, for logs. Every line fits the
    terminal (80 columns, or COLUMNS, when it is not one). Without `sides` (a review of
    recorded games: analyse, audit) the tallies are the games done, `[12/20]`."""

    def __init__(self, total: int, stream, sequential: bool = False, clock=time.monotonic, sides: bool = True):
        self.total = total
        self.stream = stream  # None (stderr closed): no progress, the match goes on
        self.in_place = stream is not None and stream.isatty()
        self.won = {"A": 0, "B": 0, None: 0}  # games won by each side; None: drawn
        self.note = ""  # shown after the tallies (a running test)
        self.sequential = sequential  # the test may stop it early: the ETA is at most
        self.sides = sides
        self.clock, self.started = clock, clock()
        self.played = 0  # games finished in this run (not resumed ones)
        self.live = None
        if self.in_place:
            from rich.console import Console
            from rich.live import Live
            from rich.text import Text

            console = Console(file=stream)
            self.live = Live(
                get_renderable=lambda: Text(self.line(console.width - 1), no_wrap=True),
                console=console,
                refresh_per_second=1,
                # what a review prints meanwhile goes above the line when stdout is this
                # terminal too, and straight to stdout when that is a file
                redirect_stdout=sys.stdout is not None and sys.stdout.isatty(),
            )
            self.live.start()

    def line(self, width: int, result: str = "") -> str:
        """The progress so far, with a game's `result` if given, in at most `width`
        columns: what does not fit is left out, the rate first, then the elapsed time,
        then the ETA; then the result is cut short."""
        done = sum(self.won.values())
        tallies = f"[{done}/{self.total}]"
        if self.sides:
            tallies += f" A {self.won['A']} - B {self.won['B']} - draws {self.won[None]}"
        elapsed = self.clock() - self.started
        times = [f"{clock_time(elapsed)} elapsed"]
        if self.played:
            per_game = elapsed / self.played
            times += [
                f"{_seconds(per_game)} s a game",
                f"ETA {'<= ' if self.sequential else ''}{clock_time(per_game * (self.total - done))}",
            ]
        note = f"  {self.note}" if self.note else ""
        result = f"  {result}" if result else ""
        for drop in ((), (1,), (0, 1), (0, 1, 2)):
            kept = [part for i, part in enumerate(times) if i not in drop]
            line = tallies + result + (f"  {', '.join(kept)}" if kept else "") + note
            if len(line) <= width:
                return line
        room = width - len(tallies) - len(note)
        return crop(tallies + (crop(result, room) if room > 10 else "") + note, width)

    def update(self, record: dict) -> None:
        self.won[record["winner"]] += 1
        self.played += 1
        if self.stream is None:
            return
        if self.live is not None:
            self.live.refresh()
            return
        winner = record["winner"] or "draw"
        self.stream.write(
            self.line(terminal_width(), f"game {record['game']}: {winner}, {printable(record['reason'])}") + "\n"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()


def _seconds(value: float) -> str:
    """`26`, `2.6`, `0.26`: two significant digits, whole seconds from 10 s on."""
    return f"{value:.0f}" if value >= 10 else f"{value:.2g}"
