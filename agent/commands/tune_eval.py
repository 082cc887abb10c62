"""`fruit-rage tune-eval RECORDS...`: fit the horizon evaluation's weights to the
positions of recorded games (agent.tuning.fit.tune) and write them as JSON."""

from __future__ import annotations

import json
import sys

from agent.cli_support import number
from agent.tuning.features import FEATURE_NAMES

DESCRIPTION = """\
Fit the weights of a horizon evaluation (the features of agent.tuning.features) to positions
of games recorded by `match --out`: each sampled position is labelled with the score
still to come for its mover minus the opponent's (or with a deeper search's value), the
weights are a ridge fit, and a share of the games is held out to measure the fit's R^2
beside that of the greedy-pair value the search uses now. The same records and seed give
the same weights."""


def add_arguments(p) -> None:
    """The options of `fruit-rage tune-eval`, on an argparse parser."""
    p.add_argument("records", metavar="RECORDS", nargs="+", help="results .jsonl files written by match --out")
    p.add_argument(
        "--seed",
        type=number(int, 0),
        default=1,
        help="seed of the positions sampled and the games held out, >= 0 (default: 1)",
    )
    p.add_argument(
        "--out",
        default="weights.json",
        metavar="F.json",
        help="where to write the weights and the fit's figures (default: weights.json)",
    )
    p.add_argument(
        "--per-game",
        type=number(int, 1),
        default=20,
        help="positions sampled from each game, at most, >= 1 (default: 20)",
    )
    p.add_argument(
        "--heldout",
        type=number(float, 0, 1, above_low=True, below_high=True),
        default=0.25,
        help="share of the games kept out of the fit to measure it, between 0 and 1 (default: 0.25)",
    )
    p.add_argument(
        "--ridge",
        type=number(float, 0),
        default=1.0,
        help="ridge penalty on the standardised weights, >= 0 (default: 1)",
    )
    p.add_argument(
        "--drop",
        action="append",
        default=[],
        metavar="FEATURE",
        help="keep this feature's weight at 0, to measure what it adds (repeatable); the "
        "features: " + ", ".join(FEATURE_NAMES),
    )
    p.add_argument(
        "--label-depth",
        type=number(int, 1, 12),
        default=None,
        metavar="D",
        help="label the positions with the agent's search value at depth D, 1..12 (slow on "
        "big boards), instead of the margin the game went on to make",
    )


def run(args) -> int:
    from agent.arena.records.reading import read_records
    from agent.arena.terminal.tables import fit_lines, terminal_width
    from agent.tuning.fit import tune

    try:
        records = [record for path in args.records for record in read_records(path, program="fruit-rage tune-eval")]
        result = tune(
            records,
            seed=args.seed,
            per_game=args.per_game,
            heldout=args.heldout,
            ridge=args.ridge,
            label_depth=args.label_depth,
            dropped=tuple(args.drop),
        )
    except ValueError as error:
        print(f"fruit-rage tune-eval: {error}", file=sys.stderr)
        return 2
    width = terminal_width(sys.stdout)
    print(
        fit_lines(
            f"{result.label}: {result.positions[0]} positions of {result.games[0]} games fitted, "
            f"{result.positions[1]} of {result.games[1]} held out (seed {result.seed}, ridge {result.ridge:g}"
            + (f", without {', '.join(result.dropped)}" if result.dropped else "")
            + ")",
            width,
        )
    )
    print(
        fit_lines(
            f"R^2 train {result.r2_train:.3f}, held out {result.r2_heldout:.3f}; greedy pair alone "
            f"on the held-out games {result.r2_greedy_pair:.3f} (scaled to fit: {result.r2_greedy_pair_fitted:.3f})",
            width,
        )
    )
    for name, weight in zip(FEATURE_NAMES, result.evaluation.weights):
        print(f"  {name:<22} {weight:+.4f}")
    print(f"  {'intercept':<22} {result.evaluation.intercept:+.4f}")
    try:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(result.to_json(), handle, indent=2)
            handle.write("\n")
    except OSError as error:
        print(
            f"fruit-rage tune-eval: cannot write --out {args.out}: {(error.strerror or str(error)).lower()}",
            file=sys.stderr,
        )
        return 1
    print(f"weights written to {args.out}")
    return 0
