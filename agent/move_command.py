"""The entry of the lean launch line (agent.move.launch.MOVE_CODE, the same line since
0.1): a move, with its own options read without argparse, and the full command line
(agent.commands.cli) only for anything else, such as --help or another subcommand. It
sits beside __main__.py, above everything it calls, so that a move loads no package
more than it needs."""

import sys

from agent.cli_support import interrupted
from agent.move.protocol import move_options, play_competition_files, play_files
from agent.oscalls import _exit


def main() -> int:
    """The competition call: input.txt -> output.txt with the fewest imports. A move's own
    options (`move --opponent greedy`, ...) are read without argparse; anything else goes
    to the full command line."""
    if len(sys.argv) > 1:
        options = move_options(sys.argv[1:])
        if options is None:
            from agent.commands.cli import main as cli_main  # argparse and every subcommand: loaded only here

            return cli_main()
        program = "fruit-rage move" if sys.argv[1] == "move" else "fruit-rage"
        try:
            return play_files(**options, program=program)
        except KeyboardInterrupt:
            return interrupted(program)
    return play_competition_files()


def play_and_exit() -> None:
    """`launch.MOVE_CODE`: main(), then leave at once. The interpreter's teardown would cost
    the move ~1.5 ms of its clock, and nothing needs it: the answer is written and closed."""
    code = main()
    _flush(sys.stdout)
    _flush(sys.stderr)
    _exit(code)


def _flush(stream) -> None:
    """Flush what was printed. A stream the referee closed (None when it was closed from the
    start) must not turn a move already written into a traceback and exit code 1."""
    if stream is None:
        return
    try:
        stream.flush()
    except (OSError, ValueError):  # a pipe no one reads any more; a closed file
        pass
