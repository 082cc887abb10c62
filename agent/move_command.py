"""`fruit-rage move`: input.txt -> output.txt, the competition protocol."""
from __future__ import annotations

import os
import sys

from agent.gamefile import InputError, format_output, read_input, write_atomically


def run(args) -> int:
    try:
        game = read_input(args.input)
    except InputError as error:
        print(f"fruit-rage: {args.input}: {error}", file=sys.stderr)
        return 2
    from agent.player import choose_move  # after parsing: a bad file costs no core load

    calibration = args.calibration or os.path.join(os.path.dirname(os.path.abspath(args.input)),
                                                   "calibration.txt")
    choice = choose_move(game, calibration_path=calibration, verbose=args.verbose)
    try:
        write_atomically(args.output, format_output(choice.name, choice.next_grid))
    except OSError as error:
        print(f"fruit-rage: cannot write {args.output}: {error.strerror}", file=sys.stderr)
        return 1
    return 0
