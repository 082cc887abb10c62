"""`fruit-rage` command line: the list of subcommands (SUBCOMMANDS), the parser they share
and the dispatch to them. Each subcommand's module owns its options and its work, and is
imported only when that subcommand is named, so the per-move path loads nothing it does
not use."""

from __future__ import annotations

import sys

from agent.cli_support import EXIT_CODES, interrupted, reader_left
from agent.commands import move

DESCRIPTION = """\
Fruit Rage agent. With no subcommand it plays one move: it reads ./input.txt and writes
./output.txt (the move and the board after it), as in the competition."""


# The subcommands, in the order --help lists them: name -> (the module that owns its options
# and its work, its line in that list). A module has DESCRIPTION, add_arguments(parser) and
# run(args); it is imported only when the command line names its subcommand, so that a
# command loads no other subcommand's imports.
SUBCOMMANDS = {
    "move": ("agent.commands.move", "play one move: input.txt -> output.txt (the default)"),
    "perft": ("agent.commands.perft", "count the move sequences of a position to a depth"),
    "calibrate": ("agent.commands.calibrate", "measure this machine's search speed once"),
    "command": ("agent.commands.launch_line", "print the fastest shell command that plays one move"),
    "match": ("agent.commands.match", "play games between two agents and report statistics"),
    "tournament": ("agent.commands.tournament", "a round robin or gauntlet of several agents, with a cross table"),
    "gate": ("agent.commands.gate", "gate a candidate against a base with the pair-margin SPRT"),
    "tune": ("agent.commands.gate", "the old name of gate, kept for scripts: the same command, the same output"),
    "replay": ("agent.commands.replay", "step through a recorded game"),
    "audit": ("agent.commands.audit", "find the points each agent gave away in the endgames of recorded games"),
    "phases": ("agent.commands.phases", "show in which stretch of recorded games the margin was made"),
    "play": ("agent.commands.play", "play against the agent in the terminal"),
    "tune-eval": ("agent.commands.tune_eval", "fit the horizon evaluation's weights to recorded games"),
    "serve": ("agent.web.serve", "the browser page: play the agent, replay and analyse matches, see phases"),
    "analyse": ("agent.commands.analyse", "every move of recorded games against the agent's best, labelled"),
    "bench": ("agent.commands.bench", "search positions of known value: nodes, CPU and the values checked"),
    "regret": ("agent.commands.regret", "score players against perfect play: each move's regret on small boards"),
}
BARE_PREFIX = "bare_"  # the move options given with no subcommand, kept apart from `move`'s


def build_parser(argv=None):
    """The whole command line; given `argv`, the subcommands it does not name are only
    listed, their modules not loaded."""
    import argparse  # not at the top: the competition call never parses arguments
    import importlib
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
    move.add_arguments(parser, BARE_PREFIX)
    parser.set_defaults(handler=SUBCOMMANDS["move"][0])
    sub = parser.add_subparsers(title="subcommands", metavar="COMMAND", dest="command")
    for name, (module_name, summary) in SUBCOMMANDS.items():
        subcommand = sub.add_parser(name, help=summary)
        subcommand.set_defaults(handler=module_name)
        if argv is None or name in argv:
            module = importlib.import_module(module_name)
            subcommand.description = module.DESCRIPTION
            module.add_arguments(subcommand)
        subcommand.epilog = subcommand.epilog or EXIT_CODES
    return parser


def _take_bare_move_options(parser, args) -> None:
    """The move options given before any subcommand belong to the bare call (`fruit-rage
    --verbose`); before a subcommand they would be overridden or ignored, so say so."""
    bare = {name[len(BARE_PREFIX) :]: value for name, value in vars(args).items() if name.startswith(BARE_PREFIX)}
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
        from agent.move.protocol import play_competition_files

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
