"""`fruit-rage bench [--set NAME] [--positions FILE] [--time-limit S] [--json]`: the search
benchmark of agent.bench, a line per set, the total node count and why a set has no
ratio; every line within 80 columns, its diagnostics too."""

from __future__ import annotations

import json
import sys
import textwrap

from rich.cells import cell_len, chop_cells

from agent.cli_support import LineProgress, interrupted, number, plural, printable

PROGRAM = "fruit-rage bench"
WIDTH = 80
DESCRIPTION = (
    "Search positions whose values are known, as chess engines' bench does: the project's own "
    "(agent/bench/positions.json: full 6x6 boards, 8x8 and 26x26 endgames and the agent's own "
    "26x26 endgames solved to the end, full 26x26 and 10x10 boards to depth 4, 5 and 7) or "
    "those of --positions. Every position "
    "is searched with agent.search, evaluation none, no late-move reductions: mode exact to the end (the "
    "value must be exact), mode depth to its depth. Prints per set the positions, the nodes, "
    "the process CPU seconds, nodes per second, the reference searcher's CPU for the set "
    "(measured on another machine, whose processor the table names) and ours over it in two "
    "significant figures (2.0x: twice as slow, 0.50x: twice as fast; a like-for-like figure "
    "only on the reference's processor); then the total node count, which changes only when "
    "the search does, and why a set has no ratio (no reference time, or a search cut short). "
    "Every value is checked against the file's: a wrong one (or a position not searched within "
    "--time-limit) is named on stderr and the exit code is 1. The whole bench, 100 positions, "
    "takes seconds of CPU; progress goes to stderr on a terminal."
)
NAME_WIDTH = 22  # a longer set name has a line of its own, the figures under it
HEADER = f"{'set':<{NAME_WIDTH}} {'pos.':>4} {'nodes':>11} {'CPU s':>8} {'nodes/s':>10} {'ref s':>7} {'ratio':>7}"


def add_arguments(parser) -> None:
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=None,
        metavar="NAME",
        help="search only this set (repeatable; default: every set of the file)",
    )
    parser.add_argument(
        "--positions",
        default=None,
        metavar="FILE",
        help="a positions file of the same format as agent/bench/positions.json (default: that file)",
    )
    parser.add_argument(
        "--time-limit",
        type=number(float, 0, 86400, above_low=True),
        default=None,
        metavar="SECONDS",
        help="CPU seconds a position's search may take, above 0 and up to 86400 (default: none); "
        "a timed search sizes its table to the time, so its node counts differ from an untimed run",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def run(args) -> int:
    from agent.bench import read_sets, run_set
    from agent.bench.processor import this_processor

    try:
        sets = read_sets(args.positions)
    except ValueError as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)  # one line: it names the file whole, for grep
        return 2
    try:
        sets = _chosen(sets, args.sets)
    except ValueError as error:
        _complain(str(error))  # wrapped: it lists every set
        return 2
    progress = LineProgress(sys.stderr)
    results = []
    if not args.json:
        print("\n".join(legend(sets[0].reference_processor, this_processor()) + [HEADER]), flush=True)
    try:
        for bench_set in sets:
            results.append(run_set(bench_set, args.time_limit, progress.reporter(f"bench {bench_set.name}")))
            progress.clear()
            if not args.json:
                print(set_line(results[-1]), flush=True)
    except KeyboardInterrupt:
        return interrupted(PROGRAM, mid_line=progress.shown)
    except MemoryError as error:  # no room for a search's table or move lists
        progress.clear()
        _complain(f"out of memory ({error})")
        return 1
    if args.json:
        print(json.dumps(to_dict(results, this_processor())), flush=True)
    else:
        print("\n".join([total_line(results), *no_ratio_lines(results)]), flush=True)
    failures = [failure for result in results for failure in result.failures]
    for failure in failures:
        _complain(str(failure))
    return 1 if failures else 0


def _complain(message: str) -> None:
    """`fruit-rage bench: MESSAGE` on stderr, wrapped to the width, each line after the
    first indented: the first names the set and the position."""
    text = textwrap.fill(
        f"{PROGRAM}: {message}", WIDTH, subsequent_indent="  ", break_on_hyphens=False, break_long_words=False
    )
    print(text, file=sys.stderr)


def _chosen(sets: list, names) -> list:
    """The sets named by --set, in the order given; all of them without it."""
    if not names:
        return sets
    by_name = {bench_set.name: bench_set for bench_set in sets}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise ValueError(f"no set named {printable(unknown[0])!r}; the sets: {', '.join(by_name)}")
    return [by_name[name] for name in dict.fromkeys(names)]


def legend(reference_processor, processor: str) -> list:
    """The lines above the table: what ref s and the ratio are, and that the ratio is
    between two processors (this one's and the reference's), not like for like."""
    measured = f"on {reference_processor}" if reference_processor else "on a processor the file does not name"
    text = (
        f"pos.: positions; ref s: the reference searcher's CPU seconds, measured {measured}; "
        f"ratio: CPU s here ({processor}) over ref s, 2.0x twice as slow, 0.50x twice as "
        "fast: across two machines, not like for like"
    )
    return textwrap.wrap(printable(text), WIDTH, break_on_hyphens=False)


def set_line(result) -> str:
    """The set's figures on one line, or under its name when that is wider than the
    column, the name folded to WIDTH columns (a full-width character takes two)."""
    rate = "-" if result.nodes_per_s is None else f"{result.nodes_per_s:,.0f}"
    reference = result.bench_set.reference_cpu_s_total
    name = result.bench_set.name
    figures = (
        f"{len(result.positions):>4} {result.nodes:>11,} {result.cpu_s:>8.3f} "
        f"{rate:>10} {'-' if reference is None else f'{reference:.3f}':>7} {_ratio(result.ratio):>7}"
    )
    if cell_len(name) > NAME_WIDTH:
        return "\n".join([*chop_cells(name, WIDTH), f"{'':<{NAME_WIDTH}} {figures}"])
    return f"{name}{' ' * (NAME_WIDTH - cell_len(name))} {figures}"


def total_line(results: list) -> str:
    positions = sum(len(result.positions) for result in results)
    return f"total: {plural(positions, 'position')}, {sum(result.nodes for result in results):,} nodes"


def no_ratio_lines(results: list) -> list:
    """Why each set whose ratio is `-` has none, wrapped to the width."""
    lines = []
    for result in results:
        if result.ratio_note:
            text = f"no ratio for {result.bench_set.name}: {result.ratio_note}"  # a name is printable (positions.py)
            lines += textwrap.wrap(text, WIDTH, subsequent_indent="  ", break_on_hyphens=False)
    return lines


def _ratio(ratio) -> str:
    """Two significant figures, 0.021x (48 times faster) as well as 1.7x; whole from 10x."""
    if ratio is None:
        return "-"
    return f"{ratio:.0f}x" if ratio >= 9.95 else f"{ratio:#.2g}x"  # from 9.95, #.2g writes "10."


def to_dict(results: list, processor: str) -> dict:
    return {
        "sets": [
            {
                "name": result.bench_set.name,
                "mode": result.bench_set.mode,
                "depth": result.bench_set.depth,
                "positions": len(result.positions),
                "nodes": result.nodes,
                "cpu_s": result.cpu_s,
                "nodes_per_s": result.nodes_per_s,
                "reference_cpu_s": result.bench_set.reference_cpu_s_total,
                "ratio": result.ratio,
                "ratio_note": result.ratio_note,
                "results": [
                    {
                        "position": position.number,
                        "value": position.value,
                        "expected": position.expected,
                        "depth": position.depth,
                        "exact": position.exact,
                        "nodes": position.nodes,
                        "cpu_s": position.cpu_s,
                    }
                    for position in result.positions
                ],
                "failures": [str(failure) for failure in result.failures],
            }
            for result in results
        ],
        "nodes": sum(result.nodes for result in results),
        "processor": processor,
        "reference_processor": results[0].bench_set.reference_processor if results else None,
    }
