"""Regenerate the io_samples folders: `python io_samples/generate.py` from the repo root.

The worked examples of the rules document are copied as given. The other boards are random
(fixed seeds), some played down with random moves so that they are partly empty; their
output.txt is what the agent answered when the samples were made: one correct output,
not the only one (any cell of the chosen group names the same move)."""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agent import rules  # noqa: E402
from agent.gamefile import format_input, format_output, parse_input  # noqa: E402
from agent.move.player import choose_move  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

WORKED = {
    "01-worked-2x2": ("2\n3\n123.6\n01\n21\n", "B1\n0*\n2*\n"),
    "02-worked-3x3-single": ("3\n1\n257.2\n***\n***\n*0*\n", "B3\n***\n***\n***\n"),
    "03-worked-3x3-two-types": ("3\n2\n24.345\n***\n*10\n000\n", "C2\n***\n***\n*1*\n"),
    "04-worked-3x3-declared-p10": ("3\n10\n7.24\n444\n444\n444\n", "A1\n***\n***\n***\n"),
    "05-worked-10x10": (
        "10\n4\n1.276\n3102322310\n0121232013\n3021111113\n0221031132\n0230011012\n"
        "0323321010\n2003022012\n2202200021\n0130000020\n2200022231\n",
        "G8\n31******10\n010*****13\n3022322*13\n0221232*32\n0221111*12\n0331031310\n"
        "2020011012\n2203321121\n0103022120\n2232222231\n",
    ),
}

# name: (n, p, random moves played before the position, remaining time, seed)
RANDOM = {
    "06-size1": (1, 1, 0, 300.0, 1),
    "07-size2-p2": (2, 2, 0, 300.0, 2),
    "08-size5-p3-partly-empty": (5, 3, 4, 150.0, 3),
    "09-size10-p4": (10, 4, 0, 300.0, 4),
    "10-size15-p5-partly-empty": (15, 5, 30, 80.5, 5),
    "11-size20-p7": (20, 7, 0, 300.0, 6),
    "12-size26-p9": (26, 9, 0, 300.0, 7),
    "13-size26-p9-midgame": (26, 9, 200, 120.0, 8),
    "14-size26-p1": (26, 1, 0, 300.0, 9),
    "15-size12-p6-endgame": (12, 6, 60, 2.5, 10),
    "16-size26-p8-low-time": (26, 8, 40, 0.4, 11),
}


def random_position(n, types, moves, seed):
    rng = random.Random(seed)
    grid = tuple("".join(rng.choice(rules.DIGITS[:types]) for _ in range(n)) for _ in range(n))
    for _ in range(moves):
        group = rng.choice(rules.groups(grid))
        next_grid = rules.remove_and_fall(grid, group)
        if rules.is_empty(next_grid):
            break
        grid = next_grid
    return grid


def write(name, input_text, output_text):
    folder = os.path.join(HERE, name)
    os.makedirs(folder, exist_ok=True)
    for file_name, text in (("input.txt", input_text), ("output.txt", output_text)):
        with open(os.path.join(folder, file_name), "w", newline="\n") as handle:
            handle.write(text)


def main():
    for name, (input_text, output_text) in WORKED.items():
        write(name, input_text, output_text)
    for name, (n, types, moves, time_left, seed) in RANDOM.items():
        grid = random_position(n, types, moves, seed)
        input_text = format_input(grid, types, time_left)
        choice = choose_move(parse_input(input_text))
        write(name, input_text, format_output(choice.name, choice.next_grid))
        print(name, choice.name)


if __name__ == "__main__":
    main()
