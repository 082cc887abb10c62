"""The candidates of issue 44 still in the core as players for a match: the agent as it
plays, its horizon judged by the pair exchange or the largest exchange, and the same at a
fixed depth to compare judgement at equal depth (docs/research/2026-12-strength-log.md,
"Past the search ceiling"; the quiescence candidate left the core: see
docs/research/2026-12-06-removed-from-core.md).

    python3 -m agent match py:agent.tuning.candidates:largest_exchange_at_depth_4 \\
        py:agent.tuning.candidates:pair_exchange_at_depth_4 --in-process --paired ...
"""

from agent.players import SearchPlayer

EQUAL_DEPTH = 4


def largest_exchange(depth=None) -> SearchPlayer:
    return SearchPlayer(depth=depth, evaluation="largest-exchange")


def largest_exchange_at_depth_4() -> SearchPlayer:
    return largest_exchange(EQUAL_DEPTH)


def pair_exchange(depth=None) -> SearchPlayer:
    """The agent as it was at the start of issue 44, the `ours` of the candidates' gates."""
    return SearchPlayer(depth=depth, evaluation="pair-exchange")


def pair_exchange_at_depth_4() -> SearchPlayer:
    """The agent's evaluation at the start of issue 44 (from 12x12 up) at the candidates'
    fixed depth."""
    return pair_exchange(EQUAL_DEPTH)


def speeds(variants, *, size: int = 26, types: int = 9, depth: int = 6, boards=(1, 2, 3), plies=(0, 60)) -> dict:
    """{label: (nodes per CPU second, CPU seconds)} of the agent's search to `depth` for
    each variant (label, evaluation, core options), summed over the positions `plies`
    greedy moves into the random boards of seeds `boards` (those the game reaches)."""
    import time

    from agent import rules
    from agent.board import Board
    from agent.engine import Limit, search

    positions = []
    for seed in boards:
        grid = rules.random_board(seed, size, types)
        for ply in range(max(plies) + 1):
            if not rules.groups(grid):  # a small board may end before the last ply asked
                break
            if ply in plies:
                positions.append(grid)
            grid = rules.remove_and_fall(grid, rules.greedy_largest(grid))
    rates = {}
    for label, evaluation, options in variants:
        nodes, start = 0, time.process_time()
        for grid in positions:
            nodes += search(Board(grid), Limit(depth=depth), evaluation=evaluation, core_options=options).nodes
        seconds = time.process_time() - start
        rates[label] = (nodes / seconds, seconds)
    return rates


VARIANTS = (
    ("pair-exchange", "pair-exchange", None),
    ("largest-exchange", "largest-exchange", None),
    ("greedy-pair", "greedy-pair", None),
)


def main(argv=None) -> int:
    import argparse

    from agent import rules
    from agent.cli_support import interrupted, number

    parser = argparse.ArgumentParser(
        prog="python3 -m agent.tuning.candidates",
        description="The speed of the agent's search with each candidate at its horizon: nodes per "
        "CPU second to a fixed depth, summed over the positions at the start of the random boards "
        "of seeds 1-3 and after 60 greedy moves.",
        epilog="exit codes: 0 done, 2 bad arguments, 130 interrupted",
    )
    parser.add_argument("--size", type=number(int, 1, rules.MAX_SIZE), default=26, help="board side (default: 26)")
    parser.add_argument("--types", type=number(int, 1, rules.MAX_TYPES), default=9, help="fruit types (default: 9)")
    parser.add_argument("--depth", type=number(int, 1, 12), default=6, help="search depth, 1..12 (default: 6)")
    parser.add_argument(
        "--only",
        action="append",
        choices=[label for label, _, _ in VARIANTS],
        metavar="NAME",
        help="measure only this one (repeatable): " + ", ".join(label for label, _, _ in VARIANTS),
    )
    args = parser.parse_args(argv)
    variants = [variant for variant in VARIANTS if not args.only or variant[0] in args.only]
    try:
        for label, (rate, seconds) in speeds(variants, size=args.size, types=args.types, depth=args.depth).items():
            print(f"{label:<17} {rate / 1e6:5.2f} M nodes/s  {seconds:6.1f} s to depth {args.depth}")
    except KeyboardInterrupt:
        return interrupted(parser.prog)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
