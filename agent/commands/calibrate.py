"""`fruit-rage calibrate [--output F] [--seconds S]`: measure this machine's search speed
and a move process's start-up (agent.move.calibration) and write calibration.txt."""

from __future__ import annotations

import os
import sys

from agent.cli_support import number
from agent.gamefile import write_atomically
from agent.move import launch
from agent.move.calibration import measure_nodes_per_second, measure_startup

DESCRIPTION = (
    "Measure the search speed of this machine and write it to calibration.txt (run once per machine, before games)."
)


def add_arguments(p) -> None:
    p.add_argument("--output", default="calibration.txt", help="where to write (default: ./calibration.txt)")
    p.add_argument(
        "--seconds", type=number(float, 0.1, 600), default=3.0, help="how long to measure, 0.1..600 (default: 3)"
    )


def run(args) -> int:
    problem = _unwritable(args.output)
    if problem:  # before measuring, not after
        print(f"fruit-rage calibrate: cannot write {args.output}: {problem}", file=sys.stderr)
        return 1
    print(f"measuring search speed for {args.seconds:g} s ...", file=sys.stderr)
    speed = measure_nodes_per_second(args.seconds)
    print("measuring start-up of a move process ...", file=sys.stderr)
    launch.compile_bytecode()
    startup = measure_startup()
    text = f"nodes_per_second = {speed:.0f}\nstartup_seconds = {startup:.4f}\n"
    try:
        write_atomically(args.output, text)
    except OSError as error:
        print(f"fruit-rage calibrate: cannot write {args.output}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {args.output}: {speed:,.0f} nodes/s, start-up {startup * 1000:.1f} ms CPU")
    return 0


def _unwritable(path: str):
    """Why `path` surely cannot be written, or None."""
    if not path:
        return "no file name given"
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "it is a folder"
    if path.endswith(os.sep):  # abspath drops the slash: the folder checks below would pass
        return "a name ending in / is a folder's"
    if not os.path.isdir(folder):
        return f"there is no folder {folder}"
    if not os.access(folder, os.W_OK):
        return f"the folder {folder} is not writable"
    return None
