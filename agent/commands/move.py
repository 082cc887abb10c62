"""`fruit-rage move [--input F] [--output F] [--calibration F] [--verbose] [--opponent
best|greedy] [--depth D]`, and the bare `fruit-rage` with the same options: one move,
input.txt -> output.txt. The competition call reads these options without argparse
(agent.move.protocol.move_options); this is the full command line's side of them."""

from __future__ import annotations

from agent.cli_support import number
from agent.move.protocol import MAX_DEPTH, OPPONENT_MODELS, play_files

DESCRIPTION = "Read a position, search it within the time it allows, write the chosen move and the next board."


def add_arguments(p, prefix: str = "") -> None:
    """The move's options; `prefix` starts their names in the parsed arguments (the bare
    call's are kept apart from `move`'s)."""
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
        type=number(int, 1, MAX_DEPTH),
        default=None,
        help=f"search exactly this deep, 1..{MAX_DEPTH}, whatever the clock says (for "
        "reproducible comparisons; the time limit is then yours to keep)",
    )


def run(args) -> int:
    return play_files(
        args.input,
        args.output,
        args.calibration,
        args.verbose,
        greedy_opponent=args.opponent == "greedy",
        depth=args.depth,
        program="fruit-rage move" if args.command == "move" else "fruit-rage",
    )
