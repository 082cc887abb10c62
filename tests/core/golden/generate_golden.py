"""THE SCRIPT THAT WROTE tests/core/golden/golden.json. Run once, from the repo root, on the
core as it stood before the split and the speed work (issue 28):
    python3 tests/core/golden/generate_golden.py
Re-running it overwrites the expectations with whatever the current core answers, which
defeats the golden test: do that only for a deliberate change of search behaviour, and
say so in the commit.

It records, on 12 fixed boards, the value and move of a fresh searcher at every depth
(the agent's options for the board size, and plain full width), the perft counts to
depth 3, and the move the agent's searcher picks at a fixed depth on every io_samples
input, as the output.txt text it would write."""

import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from fruit_helpers import random_grid  # noqa: E402

from agent import rules  # noqa: E402
from agent._core import Bitboard, Searcher  # noqa: E402
from agent.gamefile import format_output, parse_input  # noqa: E402
from agent.move.deepening import search_options  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PERFT_DEPTH = 3
SEARCH_DEPTH = 5
# Full width to depth 5 on a full 26x26 p9 board costs ~5 s of CPU alone: depth 4 there.
FULL_WIDTH_DEPTH_26 = 4
IO_SAMPLE_DEPTH = 4

# (n, fruit types, share of holes per column, share of the fruit played away by random moves)
BOARDS = [
    (5, 3, 0.0, 0.0),
    (6, 2, 0.3, 0.0),
    (8, 4, 0.0, 0.4),
    (10, 4, 0.0, 0.0),
    (12, 6, 0.0, 0.5),
    (14, 3, 0.2, 0.0),
    (15, 5, 0.0, 0.0),
    (18, 7, 0.0, 0.5),
    (20, 7, 0.0, 0.0),
    (22, 10, 0.2, 0.0),
    (26, 9, 0.0, 0.0),
    (26, 9, 0.0, 0.5),
]


def played_down(grid, rng, share):
    """`grid` after random moves until `share` of its fruit is gone (never emptied)."""
    target = rules.fruit_count(grid) * (1 - share)
    while rules.fruit_count(grid) > target:
        after = rules.remove_and_fall(grid, rng.choice(rules.groups(grid)))
        if rules.is_empty(after):
            break
        grid = after
    return grid


def board_record(index, n, types, holes, played):
    rng = random.Random(1000 + index)
    grid = played_down(random_grid(rng, n, types, holes), rng, played)
    board = Bitboard(grid)
    default = search_options(n)
    full_width = {**default, "reduction": 0}
    deepest_full_width = FULL_WIDTH_DEPTH_26 if board.fruit > 600 else SEARCH_DEPTH
    searches = []
    for name, options, deepest in (("default", default, SEARCH_DEPTH), ("full_width", full_width, deepest_full_width)):
        for depth in range(1, deepest + 1):
            result = Searcher(Bitboard(grid), **options).search(depth)
            searches.append(
                {"searcher": name, "options": options, "depth": depth, "value": result.value, "move": list(result.move)}
            )
    return {"rows": list(grid), "perft": [board.perft(d) for d in range(PERFT_DEPTH + 1)], "searches": searches}


def io_sample_record(folder):
    with open(os.path.join(ROOT, "io_samples", folder, "input.txt")) as handle:
        game = parse_input(handle.read())
    board = Bitboard(game.grid)
    options = search_options(game.n)
    result = Searcher(board, **options).search(IO_SAMPLE_DEPTH)
    output = format_output(rules.move_name(result.move), board.play(result.move)[0].rows())
    return {"folder": folder, "rows": list(game.grid), "options": options, "depth": IO_SAMPLE_DEPTH, "output": output}


def main():
    folders = sorted(
        f
        for f in os.listdir(os.path.join(ROOT, "io_samples"))
        if os.path.isfile(os.path.join(ROOT, "io_samples", f, "input.txt"))
    )
    data = {
        "boards": [board_record(i, *spec) for i, spec in enumerate(BOARDS)],
        "io_samples": [io_sample_record(folder) for folder in folders],
    }
    with open(os.path.join(HERE, "golden.json"), "w") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")


if __name__ == "__main__":
    main()
