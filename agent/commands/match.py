"""`fruit-rage match A B`: referee games between two agents, show progress, write one JSON
line per game, and print a table of results per agent."""

from __future__ import annotations

import os
import random
import sys

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
from agent.arena.terminal.progress import GamesProgress
from agent.arena.terminal.tables import fit_lines, join_fitting, terminal_width
from agent.cli_support import INTERRUPTED, interrupted, number, plural, printable
from agent.commands.options import AGENT_KINDS, add_error_rates, add_game_options, clock_seconds, positive_int
from agent.commands.refusals import odd_paired_games

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


class _Refused(Exception):
    """A step that found the match cannot be played: what to say (after `fruit-rage match: `)
    and the exit code."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def run(args) -> int:
    """The match in its steps: the arguments checked, the agents and the results file
    prepared, the games played (or resumed), then the report."""
    out = None
    try:
        test = _sequential_test(args)
        specs, positions, names = _prepared(args)
        out, out_option = _results_file(args)
        done, settings = _match_settings(args, out, positions, names)
    except _Refused as refusal:
        print(f"fruit-rage match: {refusal}", file=sys.stderr)
        return refusal.code
    _print_setup(args, settings, test, done)
    games = _MatchGames(done, settings.games, out, test, args.paired)
    load = Burners(args.burners)
    stopped_by_ctrl_c, failure = _play(args, specs, settings, games, load, out_option)
    if failure:
        print(failure, file=sys.stderr)
    if stopped_by_ctrl_c:
        interrupted("fruit-rage match")
    _report(args, settings, games, load, stopped=stopped_by_ctrl_c or bool(failure), ctrl_c=stopped_by_ctrl_c)
    return INTERRUPTED if stopped_by_ctrl_c else 1 if failure else 0


def _sequential_test(args) -> EloSprt | MarginSprt | None:
    """The sequential test asked for (--sprt, --sprt-margin), or None; --games defaulted by
    it, and every setting checked that needs no file or agent."""
    sequential = args.sprt or args.sprt_margin
    if args.games is None:
        args.games = DEFAULT_SEQUENTIAL_GAMES if sequential else DEFAULT_GAMES
    if sequential and not args.paired:
        raise _Refused("a sequential test (--sprt, --sprt-margin) reads pairs: add --paired")
    try:
        test = (
            EloSprt(args.sprt[0], args.sprt[1], alpha=args.alpha, beta=args.beta)
            if args.sprt
            else MarginSprt(args.sprt_margin[0], args.sprt_margin[1], alpha=args.alpha, beta=args.beta)
            if args.sprt_margin
            else None
        )
    except ValueError as error:
        raise _Refused(str(error)) from None
    odd = odd_paired_games(args)
    if odd:
        raise _Refused(odd)
    if args.seed is not None and not -SEED_LIMIT < args.seed < SEED_LIMIT:
        raise _Refused(f"--seed must have at most 18 digits (got {len(str(abs(args.seed)))})")
    return test


def _prepared(args) -> tuple:
    """(the players' specs, the given openings, the agents' names), checked before any game."""
    try:
        prepared = prepare(args, (args.agent_a, args.agent_b))
    except Refused as refusal:
        raise _Refused(str(refusal), refusal.code) from None
    warn_of_jobs(args, "match")
    return prepared


def _results_file(args) -> tuple:
    """(the results file, locked for this match, or None without --out and --resume; the
    option that names it, for messages)."""
    out_path = args.resume or args.out
    out_option = f"--resume {args.resume}" if args.resume else f"--out {args.out}"
    problem = out_path is not None and _out_problem(out_path, (args.agent_a, args.agent_b))
    if problem:
        raise _Refused(problem)
    if out_path is None:
        return None, out_option
    try:
        return RecordsFile(out_path, resume=bool(args.resume)), out_option  # locked: this match's alone
    except RecordsFile.Refused as refusal:
        raise _Refused(f"{out_option} {refusal}") from None
    except OSError as error:
        raise _Refused(f"cannot write {out_option}: {error.strerror}", 1) from None


def _match_settings(args, out, positions, names) -> tuple:
    """(the records of the games already played, the match's settings): with --resume, the
    finished games read back and checked to be of this match, the seed taken from them,
    and a last line cut short dropped; the file closed if they are not."""
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
        raise _Refused(f"--resume {error}") from None
    return [record for _, record in done], settings


def _print_setup(args, settings: MatchSettings, test, done: list) -> None:
    """The agents, the games and boards, the clocks and the seed; what a resume found."""
    games = ("at most " if test is not None else "") + plural(args.games, "game")
    if args.paired:
        games += f" ({plural(args.games // 2, 'board')}, each played twice)"
    positions = settings.positions
    boards = (
        f"{plural(len(positions), 'position')} from {args.positions}"
        if positions
        else f"{args.size}x{args.size} boards of {args.types} types"
    )
    setup = (f"{games} on {boards}", describe_clocks(args.time, args.time_b), f"seed {settings.seed}")
    print(
        fit_lines(f"{printable(args.agent_a)} (A) vs {printable(args.agent_b)} (B):", terminal_width(sys.stdout)),
        *join_fitting(setup, terminal_width(sys.stdout)),
        sep="\n",
        flush=True,
    )
    if done:
        print(f"resuming {args.resume}: {plural(len(done), 'game')} already played", flush=True)


class _MatchGames:
    """The match's games as they finish: their records kept and written, their pairs
    completed, the sequential test's latest result and the progress shown."""

    def __init__(self, done: list, total: int, out, test, paired: bool):
        self.records = sorted(done, key=lambda record: record["game"])
        self.total, self.out, self.test = total, out, test
        self.progress = GamesProgress(total, sys.stderr, sequential=test is not None)
        self.pairs = PairCollector() if paired else None
        self.decision: SprtResult | None = None  # the sequential test's latest result
        for record in self.records:
            self.progress.won[record["winner"]] += 1
            if self.pairs is not None:
                self.pairs.add(record)
        if test is not None and self.pairs is not None and self.pairs.pairs:
            self.decision = test.result(self.pairs.pairs)

    @property
    def decided(self) -> bool:
        return self.decision is not None and self.decision.verdict is not None

    def remaining(self) -> list:
        """The games still to play: none once a resumed match had already decided."""
        if self.decided:
            return []
        played = {record["game"] for record in self.records}
        return [game for game in range(1, self.total + 1) if game not in played]

    def finished(self, game) -> bool:
        """Take a finished game; False once the test has decided (start no more)."""
        record = game.to_dict()
        self.records.append(record)
        if self.out is not None:
            self.out.write(record)
        if self.pairs is not None and self.pairs.add(record) is not None and self.test is not None:
            result = self.decision = self.test.result(self.pairs.pairs)
            self.progress.note = f"LLR {result.llr:+.2f} ({result.lower:.2f}, {result.upper:.2f})"
        self.progress.update(record)
        return not self.decided


def _play(args, specs, settings: MatchSettings, games: _MatchGames, load: Burners, out_option: str) -> tuple:
    """Play the games left, under the burners' load; (stopped by Ctrl-C, the failure that
    stopped the match or None). The progress and the results file are closed after."""
    stopped_by_ctrl_c, failure = False, None
    try:
        with stop_signals_interrupt(), load:  # SIGTERM, SIGHUP: as Ctrl-C, the finished games reported
            run_match(
                specs[0],
                specs[1],
                settings,
                jobs=args.jobs,
                on_record=games.finished,
                grace=args.grace,
                games=games.remaining(),
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
        games.progress.close()
        if games.out is not None:
            games.out.close()
    return stopped_by_ctrl_c, failure


def _report(args, settings: MatchSettings, games: _MatchGames, load: Burners, stopped: bool, ctrl_c: bool) -> None:
    """How far the match went, the tables of its games, the load and the test's verdict."""
    records = games.records
    if stopped:
        print(f"{'interrupted' if ctrl_c else 'stopped'}: {len(records)} of {settings.games} games finished")
    elif games.decided and len(records) < settings.games:
        print(f"the test decided after {plural(len(records), 'game')} of at most {settings.games}")
    if records:
        records.sort(key=lambda record: record["game"])
        width = terminal_width(sys.stdout)
        print(report_table(records, width))
        print("\n".join(colour_lines(records) + forfeit_lines(records, width)))
        if games.pairs is not None:
            print("\n".join(paired_stats(games.pairs.pairs).lines()))
    runnable = load.runnable()
    if runnable is not None:
        per_core = runnable / available_cpus()
        print(
            f"load: {plural(args.burners, 'CPU burner')}; {runnable:.1f} runnable processes "
            f"on average, {per_core:.1f} a core"
        )
    decision = games.decision
    if decision is not None:
        after = f"after {plural(decision.pairs, 'pair')}: {decision.describe(ended=True)}"
        line = f"SPRT ({decision.statistic}) {after}"
        print(line if len(line) <= terminal_width(sys.stdout) else f"SPRT {after}")  # the test is the one asked for


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
