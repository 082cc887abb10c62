"""`fruit-rage move`: input.txt -> output.txt, the competition protocol."""
from __future__ import annotations

import os
import sys

from agent.gamefile import InputError, format_output, read_input, write_atomically


def run(args) -> int:
    return play_files(args.input, args.output, args.calibration, args.verbose)


def play_files(input_path: str, output_path: str, calibration_path=None, verbose=False) -> int:
    try:
        game = read_input(input_path)
    except InputError as error:
        print(f"fruit-rage: {input_path}: {error}", file=sys.stderr)
        return 2
    from agent.player import choose_move  # after parsing: a bad file costs no core load

    if calibration_path is None:
        calibration_path = os.path.join(os.path.dirname(os.path.abspath(input_path)), "calibration.txt")
    choice = choose_move(game, calibration_path=calibration_path, verbose=verbose)
    try:
        write_atomically(output_path, format_output(choice.name, choice.next_grid))
    except OSError as error:
        print(f"fruit-rage: cannot write {output_path}: {error.strerror}", file=sys.stderr)
        return 1
    return 0
