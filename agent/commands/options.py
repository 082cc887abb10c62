"""The options and value types several subcommands share: how games are played (match,
tournament, tune), where they run (--jobs, --cluster), the results file of recorded games,
and what an agent may be."""

from __future__ import annotations

from agent.arena.processes.referee_clock import CLOCK_KINDS, CPU_CLOCK, DEFAULT_GRACE
from agent.cli_support import number
from agent.move.timing import LONGEST_CLOCK
from agent.rules import MAX_SIZE, MAX_TYPES

AGENT_KINDS = (
    "An agent is a built-in name (ours, greedy, random, minimax3), a Python player "
    "py:package.module:factory (the factory, called with no arguments, returns an object "
    "with name and choose(board, clock_left); the module is looked for in the current folder "
    "first, then in the installed packages, as python3 -m does), or a shell command that reads input.txt "
    "and writes output.txt in its current folder."
)

RECORDED_BY = "`match --out` or `play --out`, or saved from the browser page"
RESULTS_HELP = "a results .jsonl file: written by match --out or play --out, or saved from the browser page"

positive_int = number(int, 1)
board_size = number(int, 1, MAX_SIZE)
fruit_types = number(int, 1, MAX_TYPES)
# more than any game needs, within what timers take
clock_seconds = number(float, 0, LONGEST_CLOCK, above_low=True)


def add_game_options(p, pairing: bool = True) -> None:
    """The options that say how games are played, shared by match, tournament and tune;
    without `pairing`, no --paired (tune's games are always paired)."""
    p.add_argument("--size", type=board_size, default=10, help=f"board side n, 1..{MAX_SIZE} (default: 10)")
    p.add_argument("--types", type=fruit_types, default=4, help=f"fruit types p, 1..{MAX_TYPES} (default: 4)")
    p.add_argument(
        "--time",
        type=clock_seconds,
        default=300.0,
        help="CPU seconds per player per game, above 0 and up to 1e6 (default: 300)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for the boards, at most 18 digits (default: random)")
    add_parallel_options(p, "play")
    if pairing:
        p.add_argument(
            "--paired",
            action="store_true",
            help="play every board twice, each agent moving first once, and report "
            "pairs won on total score (--games must be even)",
        )
    p.add_argument(
        "--clock",
        choices=CLOCK_KINDS,
        default=CPU_CLOCK,
        help="what a move is charged and stopped by: cpu, the CPU time of every process it starts, "
        "start-up included (the competition's clock), or wall, the wall time it takes, as a person's "
        "clock in a tournament (default: cpu)",
    )
    p.add_argument(
        "--grace",
        type=clock_seconds,
        default=DEFAULT_GRACE,
        help="the watchdog stops a move that neither runs nor waits to run (asleep, blocked or stopped) "
        "for this many seconds more than its clock, a fault of its own, apart from a time loss; above 0 "
        "and up to 1e6 (default: 10)",
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


def add_error_rates(p) -> None:
    """--alpha and --beta: the error rates of a sequential test (match, tune)."""
    for name, help_text in (
        ("--alpha", "the sequential test's chance of accepting H1 when H0 holds"),
        ("--beta", "its chance of accepting H0 when H1 holds"),
    ):
        p.add_argument(
            name,
            type=number(float, 0, 0.5, above_low=True),
            default=0.05,
            help=f"{help_text}, in (0, 0.5] (default: 0.05)",
        )


def add_parallel_options(p, verb: str) -> None:
    """--jobs and --cluster, as match, tournament, analyse and audit take them: how many
    games run at once, and where; `verb` says what is done to a game (play, analyse)."""
    p.add_argument("--jobs", type=positive_int, default=1, help="games in parallel, >= 1 (default: 1)")
    p.add_argument(
        "--cluster",
        default=None,
        metavar="tcp://HOST:PORT",
        help=f"{verb} the games on the workers of this Dask cluster (python3 -m pip install "
        "'.[cluster]'; see docs/cluster.md) instead of --jobs local processes",
    )


def add_results_argument(p) -> None:
    """The recorded games replay, audit and phases read."""
    p.add_argument("results", metavar="RESULTS", help=RESULTS_HELP)
