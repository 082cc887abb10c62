"""`fruit-rage move`: input.txt -> output.txt, the competition protocol; the options of a
move read without argparse, whose imports would cost the move ~30 ms of its clock."""

import sys

from agent.cli_support import interrupted
from agent.gamefile import NO_SUCH_FILE, InputError, format_output, read_input, write_atomically
from agent.oscalls import stat

DEFAULT_INPUT, DEFAULT_OUTPUT, CALIBRATION_NAME = "input.txt", "output.txt", "calibration.txt"
OPPONENT_MODELS = ("best", "greedy")
MAX_DEPTH = 676  # a 26x26 board is over within as many moves


# The options of a move that take a value, by the play_files argument they set.
VALUE_OPTIONS = {
    "--input": "input_path",
    "--output": "output_path",
    "--calibration": "calibration_path",
    "--opponent": "opponent",
    "--depth": "depth",
}


def move_options(words) -> "dict | None":
    """play_files' arguments for `[move] [--input F] [--output F] [--calibration F]
    [--verbose] [--opponent best|greedy] [--depth D]`, or None for anything else (help,
    another subcommand, a value out of range): the full parser then answers it."""
    words = list(words)
    if words and words[0] == "move":
        words.pop(0)
    options: dict = {"input_path": DEFAULT_INPUT, "output_path": DEFAULT_OUTPUT}
    while words:
        word = words.pop(0)
        name, has_value, value = word.partition("=")
        if name == "--verbose" and not has_value:
            options["verbose"] = True
        elif name in VALUE_OPTIONS and (has_value or (words and not words[0].startswith("-"))):
            options[VALUE_OPTIONS[name]] = value if has_value else words.pop(0)
        else:
            return None
    opponent = options.pop("opponent", "best")
    if opponent not in OPPONENT_MODELS:
        return None
    options["greedy_opponent"] = opponent == "greedy"
    if "depth" in options:
        depth = options["depth"]
        if not (depth.isascii() and depth.isdigit() and 1 <= int(depth) <= MAX_DEPTH):
            return None
        options["depth"] = int(depth)
    return options


def play_competition_files() -> int:
    """input.txt -> output.txt in the current folder. Ctrl-C ends it as it ends every other
    command: a line on stderr and exit code 130, not a traceback."""
    try:
        return play_files(DEFAULT_INPUT, DEFAULT_OUTPUT)
    except KeyboardInterrupt:
        return interrupted("fruit-rage")


def play_files(
    input_path: str,
    output_path: str,
    calibration_path=None,
    verbose=False,
    greedy_opponent=False,
    depth=None,
    program: str = "fruit-rage",
) -> int:
    """The agent's move: input_path -> output_path; `program` names the command in its
    messages (`fruit-rage move`, or `fruit-rage` for the bare call)."""

    def agent_choice(game) -> tuple:
        from agent.move.calibration import load
        from agent.move.player import choose_move  # after parsing: a bad file costs no core load

        path = calibration_path if calibration_path is not None else calibration_beside(input_path)
        choice = choose_move(game, load(path), verbose=verbose, greedy_opponent=greedy_opponent, depth=depth)
        return choice.name, choice.next_grid

    return answer_files(input_path, output_path, agent_choice, program)


def answer_files(input_path: str, output_path: str, choose, program: str = "fruit-rage") -> int:
    """The competition protocol for any chooser: read input_path, `choose(game)` -> (move
    name, next grid), write both to output_path atomically. Returns the exit code: 2 for a
    bad input (nothing written), 1 when the answer cannot be written."""
    try:
        game = read_input(input_path)
    except InputError as error:
        # The bare call is what a newcomer types first, often in a folder with no input.txt.
        hint = " (fruit-rage --help for the commands)" if program == "fruit-rage" and str(error) == NO_SUCH_FILE else ""
        print(f"{program}: {input_path}: {error}{hint}", file=sys.stderr)
        return 2
    if same_file(output_path, input_path):  # a symbolic or hard link: the move would eat its input
        print(f"{program}: {output_path} is the input file {input_path}: it would be overwritten", file=sys.stderr)
        return 2
    name, next_grid = choose(game)
    try:
        write_atomically(output_path, format_output(name, next_grid))
    except OSError as error:
        print(f"{program}: cannot write {output_path}: {error.strerror}", file=sys.stderr)
        return 1
    return 0


def same_file(path: str, other: str) -> bool:
    try:
        first, second = stat(path), stat(other)
    except OSError:  # absent: nothing to overwrite
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def calibration_beside(input_path: str) -> str:
    if input_path == DEFAULT_INPUT:  # the competition call: no need for os.path (see oscalls)
        return CALIBRATION_NAME
    import os

    return os.path.join(os.path.dirname(os.path.abspath(input_path)), CALIBRATION_NAME)
