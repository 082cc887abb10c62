"""`fruit-rage gate CANDIDATE BASE` (or `tune`, its old name, kept for scripts): gate a
candidate against a base with the margin SPRT (agent.arena.matches.gate.gate) and write the
verdict. A pass or fail, not a fit: `tune-eval` fits weights."""

from __future__ import annotations

import ast
import json
import random
import sys
import textwrap

from agent.arena.matches.games import MatchSettings
from agent.arena.matches.gate import gate
from agent.arena.matches.preflight import Refused, prepare, warn_of_jobs
from agent.arena.processes.move_runner import SetupFailed
from agent.arena.processes.referee_clock import RefereeClock
from agent.arena.processes.stop_signals import stop_signals_interrupt
from agent.arena.terminal.tables import fit_lines, join_fitting, terminal_width
from agent.cli_support import interrupted, plural, printable
from agent.commands.options import AGENT_KINDS, add_error_rates, add_game_options, positive_int

DESCRIPTION = (
    "Play CANDIDATE (with --param values given to its factory) against BASE on paired boards "
    "until the sequential test on the mean pair margin decides: H1 (keep the candidate) or H0 "
    "(reject it). " + AGENT_KINDS
)


def add_arguments(p) -> None:
    p.add_argument("candidate", metavar="CANDIDATE", help="the player to test, e.g. py:my.module:factory")
    p.add_argument("base", metavar="BASE", help="the player to test it against, e.g. ours")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a keyword argument for the candidate's factory (repeatable); values are "
        "Python literals where they parse as one, else text",
    )
    p.add_argument(
        "--sprt-margin",
        nargs=2,
        type=float,
        metavar=("M0", "M1"),
        default=(0.0, 10.0),
        help="H0: mean pair margin <= M0, H1: >= M1 points (default: 0 10)",
    )
    add_error_rates(p)
    p.add_argument(
        "--games", type=positive_int, default=2000, help="games at most, an even number >= 2 (default: 2000)"
    )
    p.add_argument("--verdict", default=None, metavar="F.json", help="write the verdict and its figures here")
    add_game_options(p, pairing=False)


def parse_param(text: str) -> tuple:
    """`depth=3` -> ("depth", 3): a Python literal where it is one, else the text."""
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise ValueError(f"--param {text!r}: expected NAME=VALUE, like depth=3")
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name, value


def run(args) -> int:
    """The gate in its steps: the arguments checked and the players prepared, the setup
    shown, the pairs played until the test decides, then the verdict shown and written.
    `fruit-rage tune`, its old name, runs it too, and names itself in what it says."""
    program = f"fruit-rage {args.command}"
    prepared = _prepared(program, args)
    if isinstance(prepared, int):
        return prepared
    params, (candidate, base), settings = prepared
    width = terminal_width(sys.stdout)
    _print_setup(args, settings, width)
    at_terminal = sys.stderr is not None and sys.stderr.isatty()
    try:
        with stop_signals_interrupt():
            verdict = gate(
                candidate,
                base,
                settings,
                margin0=args.sprt_margin[0],
                margin1=args.sprt_margin[1],
                alpha=args.alpha,
                beta=args.beta,
                jobs=args.jobs,
                cluster=args.cluster,
                on_pair=_pair_progress(at_terminal),
                clock=RefereeClock(args.clock, args.grace),
            )
    except KeyboardInterrupt:
        return interrupted(program, mid_line=True)
    except SetupFailed as error:
        print(f"\n{program}: {error}; stopped", file=sys.stderr)
        return 1
    if at_terminal:
        print(file=sys.stderr)
    _print_verdict(verdict, width)
    return _write_verdict(program, args, params, settings.seed, verdict) if args.verdict else 0


def _prepared(program: str, args):
    """(the candidate's factory parameters, (candidate, base) players, the settings), or the
    exit code after saying why they cannot be."""
    if args.games % 2:
        print(f"{program}: the boards are paired, so --games must be even (got {args.games})", file=sys.stderr)
        return 2
    try:
        params = tuple(parse_param(text) for text in args.param)
        players, positions, _ = prepare(args, (args.candidate, args.base), params)
    except ValueError as error:
        print(f"{program}: {error}", file=sys.stderr)
        return 2
    except Refused as refusal:
        print(f"{program}: {refusal}", file=sys.stderr)
        return refusal.code
    warn_of_jobs(args, args.command)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    settings = MatchSettings(args.games, args.size, args.types, args.time, seed, paired=True, positions=positions)
    return params, players, settings


def _print_setup(args, settings: MatchSettings, width: int) -> None:
    """The candidate and its parameters against the base, the hypotheses, the pairs at
    most and the seed."""
    margin0, margin1 = args.sprt_margin
    print(
        fit_lines(
            f"{args.command} {printable(args.candidate)}{' ' + printable(' '.join(args.param)) if args.param else ''} "
            f"against {printable(args.base)}:",
            width,
        ),
        *join_fitting(
            (
                f"H0 margin <= {margin0:g}",
                f"H1 >= {margin1:g}",
                f"at most {plural(args.games // 2, 'pair')}",
                f"seed {settings.seed}",
            ),
            width,
        ),
        sep="\n",
        flush=True,
    )


def _pair_progress(at_terminal: bool):
    """on_pair for the gate: the test after each pair, in place at a terminal, a line every
    ten pairs and at the verdict in a log."""

    def progress(result) -> None:
        if sys.stderr is None:
            return
        if at_terminal:
            print(f"\r[{result.pairs} pairs] {result.describe()}", end="", file=sys.stderr, flush=True)
        elif result.pairs % 10 == 0 or result.verdict is not None:  # a log: a line now and then
            print(f"[{result.pairs} pairs] {result.describe()}", file=sys.stderr, flush=True)

    return progress


def _print_verdict(verdict, width: int) -> None:
    print("\n".join([verdict.stats.score_line(), *verdict.stats.lines()]))
    if verdict.sprt is not None:
        after = f"after {plural(verdict.sprt.pairs, 'pair')}: {verdict.sprt.describe(ended=True)}"
        line = f"SPRT (pair margin) {after}"
        print(line if len(line) <= width else f"SPRT {after}")  # the test is the one the gate runs
    print(textwrap.fill(f"verdict: {verdict.conclusion()}", width, break_on_hyphens=False))


def _write_verdict(program: str, args, params: tuple, seed: int, verdict) -> int:
    """--verdict F.json: the players, the seed and the verdict's figures; the exit code."""
    record = {
        "candidate": args.candidate,
        "params": dict(params),
        "base": args.base,
        "seed": seed,
        **verdict.to_json(),
    }
    try:
        with open(args.verdict, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=2)
            handle.write("\n")
    except OSError as error:
        print(f"{program}: cannot write --verdict {args.verdict}: {error.strerror}", file=sys.stderr)
        return 1
    return 0
