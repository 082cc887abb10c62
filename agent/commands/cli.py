"""`fruit-rage` command line. Each subcommand's work lives in its own module, imported only
when that subcommand runs, so the per-move path loads nothing it does not use."""

from __future__ import annotations

import sys

from agent.cli_support import EXIT_CODES, interrupted, number, reader_left
from agent.move.timing import LONGEST_CLOCK
from agent.rules import MAX_SIZE, MAX_TYPES

DESCRIPTION = """\
Fruit Rage agent. With no subcommand it plays one move: it reads ./input.txt and writes
./output.txt (the move and the board after it), as in the competition."""


def _add_move(sub) -> None:
    p = sub.add_parser(
        "move",
        help="play one move: input.txt -> output.txt (the default)",
        description="Read a position, search it within the time it allows, write the chosen move and the next board.",
    )
    add_move_arguments(p)


OPPONENT_MODELS = ("best", "greedy")


MOVE_OPTIONS = ("input", "output", "calibration", "verbose", "opponent", "depth", "evaluation")
BARE_PREFIX = "bare_"  # the move options given with no subcommand, kept apart from `move`'s


def add_move_arguments(p, prefix: str = "") -> None:
    from agent.move.deepening import EVALUATION_KINDS

    p.add_argument(
        "--input",
        dest=prefix + "input",
        metavar="INPUT",
        default="input.txt",
        help="position file (default: ./input.txt)",
    )
    p.add_argument(
        "--output",
        dest=prefix + "output",
        metavar="OUTPUT",
        default="output.txt",
        help="answer file (default: ./output.txt)",
    )
    p.add_argument(
        "--calibration",
        dest=prefix + "calibration",
        metavar="CALIBRATION",
        default=None,
        help="calibration file (default: calibration.txt next to the input)",
    )
    p.add_argument(
        "--verbose",
        dest=prefix + "verbose",
        action="store_true",
        help="print each search iteration to stderr: depth, value, nodes, CPU, PV",
    )
    p.add_argument(
        "--opponent",
        dest=prefix + "opponent",
        choices=OPPONENT_MODELS,
        default="best",
        help="what the search assumes the opponent replies: 'best' (the default: its "
        "best move) or 'greedy' (always a largest group, as the greedy baseline "
        "does). 'greedy' beats such a player by far more, and loses badly to "
        "any other: use it only when you know whom you play",
    )
    p.add_argument(
        "--depth",
        dest=prefix + "depth",
        metavar="DEPTH",
        type=number(int, 1, 676),
        default=None,
        help="search exactly this deep, 1..676, whatever the clock says (for "
        "reproducible comparisons; the time limit is then yours to keep)",
    )
    p.add_argument(
        "--evaluation",
        dest=prefix + "evaluation",
        metavar="NAME",
        choices=tuple(EVALUATION_KINDS),
        default=None,
        help="judge the positions at the search's horizon with the evaluation NAME instead "
        "of the agent's own (largest-exchange from 12x12 up, greedy-pair below), for "
        f"matches that measure it; NAME is one of {', '.join(EVALUATION_KINDS)}",
    )
    p.set_defaults(handler="agent.move.command")


def _add_perft(sub) -> None:
    p = sub.add_parser(
        "perft",
        help="count the move sequences of a position to a depth",
        description="For the position in FILE (input.txt format), print at each depth d "
        "of 1..DEPTH the number of move sequences of exactly d moves (the leaves of the "
        "move tree, as chess programs count perft: a game that ends in fewer moves adds "
        "none, so a board one move empties counts 0 at depth 2), and the speed.",
    )
    p.add_argument("file", metavar="FILE", help="a position in input.txt format")
    p.add_argument("depth", metavar="DEPTH", type=_positive_int, help="deepest depth to count, >= 1")
    p.add_argument(
        "--reference", action="store_true", help="count with the pure-Python reference rules instead of the core (slow)"
    )
    p.set_defaults(handler="agent.commands.perft")


def _add_calibrate(sub) -> None:
    p = sub.add_parser(
        "calibrate",
        help="measure this machine's search speed once",
        description="Measure the search speed of this machine and write it to "
        "calibration.txt (run once per machine, before games).",
    )
    p.add_argument("--output", default="calibration.txt", help="where to write (default: ./calibration.txt)")
    p.add_argument(
        "--seconds", type=number(float, 0.1, 600), default=3.0, help="how long to measure, 0.1..600 (default: 3)"
    )
    p.set_defaults(handler="agent.move.calibration")


def _add_command(sub) -> None:
    p = sub.add_parser(
        "command",
        help="print the fastest shell command that plays one move",
        description="Print a shell command that plays one move (input.txt -> "
        "output.txt in the current folder) with the least start-up "
        "CPU: python -S with this installation on PYTHONPATH. Give "
        "it to a referee that charges start-up to the clock.",
    )
    p.set_defaults(handler="agent.move.launch")


AGENT_KINDS = (
    "An agent is a built-in name (ours, greedy, random, minimax3), a Python player "
    "py:package.module:factory (the factory, called with no arguments, returns an object "
    "with name and choose(board, clock_left); the module is looked for in the current folder "
    "first, then in the installed packages, as python3 -m does), or a shell command that reads input.txt "
    "and writes output.txt in its current folder."
)


def _add_match(sub) -> None:
    p = sub.add_parser(
        "match",
        help="play games between two agents and report statistics",
        description="Referee games between agents A and B. " + AGENT_KINDS,
    )
    p.add_argument(
        "agent_a",
        metavar="A",
        help="the first agent: ours, greedy, random, minimax3, py:module:factory or a shell command",
    )
    p.add_argument("agent_b", metavar="B", help="the second agent, named the same ways")
    p.add_argument(
        "--games",
        type=_positive_int,
        default=None,
        help="number of games, >= 1 (default: 10; with --sprt or --sprt-margin, at most 2000)",
    )
    _add_game_options(p)
    p.add_argument(
        "--time-b",
        type=_clock_seconds,
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
    p.add_argument(
        "--alpha",
        type=number(float, 0, 0.5, above_low=True),
        default=0.05,
        help="the sequential test's chance of accepting H1 when H0 holds, in (0, 0.5] (default: 0.05)",
    )
    p.add_argument(
        "--beta",
        type=number(float, 0, 0.5, above_low=True),
        default=0.05,
        help="its chance of accepting H0 when H1 holds, in (0, 0.5] (default: 0.05)",
    )
    p.set_defaults(handler="agent.commands.match")


def _add_game_options(p) -> None:
    """The options that say how games are played, shared by match and tournament."""
    p.add_argument("--size", type=_board_size, default=10, help=f"board side n, 1..{MAX_SIZE} (default: 10)")
    p.add_argument("--types", type=_fruit_types, default=4, help=f"fruit types p, 1..{MAX_TYPES} (default: 4)")
    p.add_argument(
        "--time",
        type=_clock_seconds,
        default=300.0,
        help="CPU seconds per player per game, above 0 and up to 1e6 (default: 300)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for the boards, at most 18 digits (default: random)")
    add_parallel_options(p, "play")
    p.add_argument(
        "--paired",
        action="store_true",
        help="play every board twice, each agent moving first once, and report "
        "pairs won on total score (--games must be even)",
    )
    p.add_argument(
        "--grace",
        type=_clock_seconds,
        default=10.0,
        help="kill a move still running this many seconds after its time ran out, above 0 and up to 1e6 (default: 10)",
    )
    p.add_argument(
        "--positions",
        default=None,
        metavar="FILE",
        help="start the games from these boards, in turn, instead of random ones: a file "
        "of positions in input.txt format, one after another, or a folder of "
        "input.txt files (such as io_samples); --size and --types are then unused",
    )
    p.add_argument(
        "--in-process",
        action="store_true",
        help="play the built-in agents (ours, greedy, random, minimax3) inside a worker "
        "process, charged the CPU their moves use, instead of a fresh process per "
        "move: no start-up is charged, and games run faster",
    )
    p.add_argument(
        "--isolate",
        action="store_true",
        help="run each side's programs as an unprivileged user of its own (root only), "
        "so that neither can reach the other's folder or processes; the programs "
        "must then be readable by any user",
    )


def add_parallel_options(p, verb: str) -> None:
    """--jobs and --cluster, as match, tournament, analyse and audit take them: how many
    games run at once, and where; `verb` says what is done to a game (play, analyse)."""
    p.add_argument("--jobs", type=_positive_int, default=1, help="games in parallel, >= 1 (default: 1)")
    p.add_argument(
        "--cluster",
        default=None,
        metavar="tcp://HOST:PORT",
        help=f"{verb} the games on the workers of this Dask cluster (python3 -m pip install "
        "'.[cluster]'; see docs/cluster.md) instead of --jobs local processes",
    )


def _add_tournament(sub) -> None:
    p = sub.add_parser(
        "tournament",
        help="a round robin or gauntlet of several agents, with a cross table",
        description="Play a match between every two of the agents (a round robin), or "
        "between the first and each of the others (--gauntlet), and print a "
        "cross table of mean margins. " + AGENT_KINDS,
    )
    p.add_argument("agents", metavar="AGENT", nargs="+", help="two or more agents")
    p.add_argument("--gauntlet", action="store_true", help="only the first agent against each of the others")
    p.add_argument("--games", type=_positive_int, default=10, help="games of each pairing, >= 1 (default: 10)")
    _add_game_options(p)
    p.add_argument("--out", default=None, help="write one JSON line per game of every pairing to this file")
    p.set_defaults(handler="agent.commands.tournament")


def _add_tune(sub) -> None:
    p = sub.add_parser(
        "tune",
        help="gate a candidate against a base with the pair-margin SPRT",
        description="Play CANDIDATE (with --param values given to its factory) against "
        "BASE on paired boards until the sequential test on the mean pair "
        "margin decides: H1 (keep the candidate) or H0 (reject it). " + AGENT_KINDS,
    )
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
    p.add_argument(
        "--alpha",
        type=number(float, 0, 0.5, above_low=True),
        default=0.05,
        help="the chance of accepting H1 when H0 holds, in (0, 0.5] (default: 0.05)",
    )
    p.add_argument(
        "--beta",
        type=number(float, 0, 0.5, above_low=True),
        default=0.05,
        help="the chance of accepting H0 when H1 holds, in (0, 0.5] (default: 0.05)",
    )
    p.add_argument(
        "--games", type=_positive_int, default=2000, help="games at most, an even number >= 2 (default: 2000)"
    )
    p.add_argument("--verdict", default=None, metavar="F.json", help="write the verdict and its figures here")
    _add_game_options(p)
    p.set_defaults(handler="agent.commands.tune")


def _add_results_argument(p) -> None:
    p.add_argument("results", metavar="RESULTS", help="a results .jsonl file written by match --out")


def _add_replay(sub) -> None:
    p = sub.add_parser(
        "replay",
        help="step through a recorded game",
        description="Show a game recorded by `match --out`, move by move.",
    )
    _add_results_argument(p)
    p.add_argument("--game", type=_positive_int, default=1, help="which game, counting from 1, >= 1 (default: 1)")
    p.add_argument(
        "--delay", type=_delay_seconds, default=None, help="seconds between moves, 0..3600; default: wait for Enter"
    )
    p.set_defaults(handler="agent.commands.replay")


def _add_audit(sub) -> None:
    p = sub.add_parser(
        "audit",
        help="find the points each agent gave away in the endgames of recorded games",
        description="For games recorded by `match --out`: solve the positions "
        "exactly from the end back, as far as each solve fits in "
        "--seconds of CPU, and report the points each move there gave "
        "away against best play, and how the game ends with best play "
        "from the first solved position.",
    )
    _add_results_argument(p)
    p.add_argument("--game", type=_positive_int, default=None, help="only this game, >= 1 (default: all)")
    p.add_argument(
        "--seconds",
        type=number(float, 0.01, 600),
        default=5.0,
        help="CPU seconds allowed for solving one position, 0.01..600 (default: 5)",
    )
    add_parallel_options(p, "audit")
    p.set_defaults(handler="agent.commands.audit")


def _add_phases(sub) -> None:
    p = sub.add_parser(
        "phases",
        help="show in which stretch of recorded games the margin was made",
        description="For games recorded by `match --out`: agent A's mean margin "
        "once each part of the fruit is gone, for the games A moved "
        "first and those it moved second, and A's CPU in each part. "
        "It shows how much of a result is the first mover's head "
        "start and where an agent gains on its opponent.",
    )
    _add_results_argument(p)
    p.add_argument(
        "--parts",
        type=number(int, 1, 20),
        default=10,
        help="how many equal parts of the fruit to split the games into, 1..20 (default: 10)",
    )
    p.set_defaults(handler="agent.commands.phases")


def _add_play(sub) -> None:
    p = sub.add_parser(
        "play",
        help="play against the agent in the terminal",
        description="You against the agent: type a cell such as G8 to move. Your "
        "clock is the wall time you think; the agent's, the CPU time "
        "of its moves.",
    )
    p.add_argument(
        "--first",
        type=_first_mover,
        choices=FIRST_MOVERS,
        default="you",
        help="who moves first: you, computer (also: agent) or random (default: you)",
    )
    p.add_argument("--size", type=_board_size, default=8, help=f"board side n, 1..{MAX_SIZE} (default: 8)")
    p.add_argument("--types", type=_fruit_types, default=3, help=f"fruit types p, 1..{MAX_TYPES} (default: 3)")
    p.add_argument(
        "--time", type=_clock_seconds, default=60.0, help="seconds per player, above 0 and up to 1e6 (default: 60)"
    )
    p.add_argument("--seed", type=int, default=None, help="seed for the board (default: random)")
    p.add_argument(
        "--agent", default="ours", help="your opponent: ours, greedy, random, minimax3 or a command (default: ours)"
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="F.jsonl",
        help="keep the finished game in this file (replacing what it held), for replay, audit and phases",
    )
    p.set_defaults(handler="agent.commands.play")


FIRST_MOVERS = ("you", "computer", "random")


def _first_mover(text: str) -> str:
    """`--first`: `agent` is another word for `computer`."""
    return "computer" if text == "agent" else text


_positive_int = number(int, 1)
_board_size = number(int, 1, MAX_SIZE)
_fruit_types = number(int, 1, MAX_TYPES)
# more than any game needs, within what timers take
_clock_seconds = number(float, 0, LONGEST_CLOCK, above_low=True)
_delay_seconds = number(float, 0, 3600)  # time.sleep fails on a negative, nan or huge delay


# Subcommands whose options live in modules of their own: a command line that names
# another subcommand (a move with options pays for every import) does not load them.
# name: (the line in the list of subcommands, the module with DESCRIPTION, add_arguments
# and run, what the description adds).
LAZY_SUBCOMMANDS = {
    "tune-eval": ("fit the horizon evaluation's weights to recorded games", "agent.commands.tune_eval", ""),
    "serve": (
        "the browser page: play the agent, replay and analyse matches, see phases",
        "agent.web.serve",
        " Needs the web extra: python3 -m pip install '.[web]'.",
    ),
    "analyse": (
        "every move of recorded games against the agent's best, labelled",
        "agent.commands.analyse",
        "",
    ),
    "bench": ("search positions of known value: nodes, CPU and the values checked", "agent.commands.bench", ""),
}


def _add_lazy(sub, name: str, full: bool) -> None:
    """A subcommand of LAZY_SUBCOMMANDS: listed always, its options loaded when `full`."""
    summary, module_name, note = LAZY_SUBCOMMANDS[name]
    p = sub.add_parser(name, help=summary)
    p.set_defaults(handler=module_name)
    if full:
        import importlib

        module = importlib.import_module(module_name)
        p.description = module.DESCRIPTION + note
        module.add_arguments(p)


def build_parser(argv=None):
    """The whole command line; given `argv`, the subcommands it does not name are only
    listed, their options not loaded."""
    import argparse  # not at the top: the competition call never parses arguments
    import textwrap

    from agent._version import __version__

    class Formatter(argparse.HelpFormatter):
        """Help wrapped between words only, so that a name such as greedy-pair stays whole."""

        def _split_lines(self, text, width):
            return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

        def _fill_text(self, text, width, indent):
            return textwrap.fill(
                " ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
            )

    class Parser(argparse.ArgumentParser):
        """Errors as every other message of the command: `fruit-rage SUBCOMMAND: message`,
        after the usage, exit code 2."""

        def __init__(self, *args, **kwargs):
            kwargs.setdefault("formatter_class", Formatter)
            super().__init__(*args, **kwargs)

        def error(self, message):
            self.print_usage(sys.stderr)
            self.exit(2, f"{self.prog}: {message}\n")

        def parse_args(self, args=None, namespace=None):
            """Words left over after a subcommand are refused in its name, with its usage
            (argparse would refuse them in the name of the whole command)."""
            parsed, extra = self.parse_known_args(args, namespace)
            if extra:
                owner = sub.choices[parsed.command] if getattr(parsed, "command", None) else self
                owner.error(f"unrecognized arguments: {' '.join(extra)}")
            return parsed

    parser = Parser(prog="fruit-rage", description=DESCRIPTION, epilog=EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"fruit-rage {__version__}")
    add_move_arguments(parser, BARE_PREFIX)
    sub = parser.add_subparsers(title="subcommands", metavar="COMMAND", dest="command")
    for add in (
        _add_move,
        _add_perft,
        _add_calibrate,
        _add_command,
        _add_match,
        _add_tournament,
        _add_tune,
        _add_replay,
        _add_audit,
        _add_phases,
        _add_play,
    ):
        add(sub)
    for name in LAZY_SUBCOMMANDS:
        _add_lazy(sub, name, full=argv is None or name in argv)
    for subcommand in sub.choices.values():
        subcommand.epilog = subcommand.epilog or EXIT_CODES
    return parser


def _take_bare_move_options(parser, args) -> None:
    """The move options given before any subcommand belong to the bare call (`fruit-rage
    --verbose`); before a subcommand they would be overridden or ignored, so say so."""
    bare = {name: getattr(args, BARE_PREFIX + name) for name in MOVE_OPTIONS}
    if args.command is None:
        vars(args).update(bare)
        return
    given = [f"--{name}" for name, value in bare.items() if value != parser.get_default(BARE_PREFIX + name)]
    if given:
        parser.error(
            f"{', '.join(given)}: options of a move go after `move` "
            f"(fruit-rage move {given[0]} ...), not before `{args.command}`"
        )


def main(argv=None) -> int:
    words = sys.argv[1:] if argv is None else argv
    subcommand = words[0] if words and not words[0].startswith("-") else None
    program = "fruit-rage" + (f" {subcommand}" if subcommand else "")
    try:
        return _run_command(words)
    except KeyboardInterrupt:  # Ctrl-C before the command's own handling: in its imports or the parser
        return interrupted(program)
    except ModuleNotFoundError as error:
        if error.name != "agent._core":
            raise
        print(core_missing(program), file=sys.stderr)
        return 1


def _run_command(argv) -> int:
    if not argv:
        # The competition call: skip argparse, whose imports cost the move's clock.
        from agent.move.command import play_competition_files

        return play_competition_files()
    import importlib

    if sys.stdout is None:  # started with it closed (`>&-`): what it shows goes nowhere
        import os

        sys.stdout = open(os.devnull, "w")
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    _take_bare_move_options(parser, args)
    program = "fruit-rage" if args.command is None else f"fruit-rage {args.command}"
    try:
        return importlib.import_module(args.handler).run(args)
    except KeyboardInterrupt:
        return interrupted(program)
    except BrokenPipeError:
        return reader_left()
    except OSError as error:  # one no handler names as its own file's: stdout on a full disk
        print(f"{program}: {error.strerror or error}", file=sys.stderr)
        return reader_left()


def core_missing(program: str = "fruit-rage") -> str:
    """What to do when the compiled core is not beside the package's modules: most often
    `python3 -m agent` in the source folder after a plain install, where the source tree
    hides the installed package."""
    import os

    from agent.move.launch import PACKAGE_FOLDER as package

    source_tree = os.path.exists(os.path.join(os.path.dirname(package), "setup.py"))
    message = f"{program}: the compiled core (agent._core) is not in {package}.\n"
    if source_tree:
        return (
            message + "That is a source tree: run in its folder, Python takes it for the installed\n"
            "package. Run `fruit-rage` instead of python3 -m agent (or run from another\n"
            "folder), or build the core in place: python3 -m pip install -e ."
        )
    return message + "Reinstall it: python3 -m pip install --force-reinstall . in the source folder"


if __name__ == "__main__":
    sys.exit(main())
