"""`fruit-rage replay RESULTS --game K`: step through a game recorded by `match --out`,
showing before each move the board with the chosen group highlighted, then the scores
and clocks after it. At the prompt: Enter the next move, `b` the one before, a number
that move, `q` quits."""

from __future__ import annotations

import shutil
import sys
import time
from dataclasses import dataclass

from agent.arena.records.reading import describe_clocks, find_game, shown_agents, starting_clocks, time_measured
from agent.arena.terminal.boards import EMPTY_SHOWN, HIGHLIGHT_PLAIN, LineReader, fitted_board, use_colour
from agent.arena.terminal.tables import crop, fit_lines, terminal_width
from agent.cli_support import number, plural, printable
from agent.commands.options import RECORDED_BY, add_results_argument, positive_int
from agent.rules import group_at, parse_move_name, remove_and_fall

PROMPT = "[Enter] next, b back, a number goes to that move, q quits: "
QUIT_WORDS = ("q", "quit", "exit")
BACK_WORDS = ("b", "back")
WORD_SHOWN = 20  # characters of a word that names no move echoed back
# Lines beside the board in a step: the move and the scores after it, the prompt.
LINES_AROUND_BOARD = 4
LEGEND = f"Digits are fruit, {EMPTY_SHOWN} a hole; the next move's group is "
LEGEND_PLAIN = LEGEND + f"marked {HIGHLIGHT_PLAIN}.\n"
LEGEND_COLOUR = LEGEND + "reversed and underlined.\n"


DESCRIPTION = "Show a game recorded by " + RECORDED_BY + ", move by move."
delay_seconds = number(float, 0, 3600)  # time.sleep fails on a negative, nan or huge delay


def add_arguments(p) -> None:
    add_results_argument(p)
    p.add_argument("--game", type=positive_int, default=1, help="which game, counting from 1, >= 1 (default: 1)")
    p.add_argument(
        "--delay", type=delay_seconds, default=None, help="seconds between moves, 0..3600; default: wait for Enter"
    )


def run(args) -> int:
    try:
        record = find_game(args.results, args.game, "fruit-rage replay")  # checked: every move replays
    except ValueError as error:
        print(f"fruit-rage replay: {error}", file=sys.stderr)
        return 2
    replay(record, args.delay, sys.stdin, sys.stdout)
    return 0


@dataclass(frozen=True)
class Step:
    """One move of the game: the board before it, the group it takes (none when it lost
    the game), and what is said about it."""

    grid: tuple
    group: frozenset
    text: str


def game_steps(record: dict) -> list:
    """Every move's Step, in order."""
    agents = shown_agents(record["agents"])
    grid = tuple(record["board"])
    scores = {"A": 0, "B": 0}
    clocks = starting_clocks(record)
    steps = []
    for move_number, move in enumerate(record["moves"], 1):
        side = move["player"]
        clocks[side] -= move["cpu"]
        if move.get("fault"):
            steps.append(
                Step(
                    grid, frozenset(), f"Move {move_number}: {side} ({agents[side]}) loses: {printable(move['reason'])}"
                )
            )
            break
        group = frozenset(group_at(grid, parse_move_name(move["move"])))
        scores[side] += move["points"]
        steps.append(
            Step(
                grid,
                group,
                f"Move {move_number}: {side} ({agents[side]}) plays {move['move']}: {len(group)} fruit, "
                f"{plural(move['points'], 'point')}, {move['cpu']:.3f} s {time_measured(record, side)}\n"
                f"  score A {scores['A']} - B {scores['B']}   "
                f"clocks A {clocks['A']:.2f} s, B {clocks['B']:.2f} s",
            )
        )
        grid = remove_and_fall(grid, group)
    return steps


def replay(record: dict, delay, stdin, stdout) -> None:
    """Print the game step by step: every `delay` seconds, or when delay is None at the
    viewer's word (end of input or `q` ends the replay)."""
    colour = use_colour(stdout)
    terminal = bool(getattr(stdout, "isatty", lambda: False)())
    agents = shown_agents(record["agents"])
    width = terminal_width(stdout)
    stdout.write(
        fit_lines(
            f"Game {record['game']} (seed {record['seed']}): A = {agents['A']}, B = {agents['B']}\n"
            f"{record['size']}x{record['size']}, {plural(record['types'], 'type')}, "
            f"{describe_clocks(record['time'], record.get('time_b'))}; "
            f"{record['first']} moves first",
            width,
        )
        + "\n"
    )
    stdout.write(LEGEND_COLOUR if colour else LEGEND_PLAIN)
    steps = game_steps(record)
    reader = LineReader(stdin)
    shown = 0
    while shown < len(steps):
        step = steps[shown]
        size = shutil.get_terminal_size() if terminal else None
        lines, columns = (size.lines - LINES_AROUND_BOARD, size.columns) if size else (None, None)
        board = fitted_board(step.grid, step.group, colour, lines, columns)
        stdout.write(f"\n{board}\n{fit_lines(step.text, width)}\n")
        shown = shown + 1 if delay is not None else _ask(reader, stdout, shown, len(steps))
        if shown is None:
            return
        if delay:
            stdout.flush()
            time.sleep(delay)
    winner = record["winner"]
    outcome = f"{winner} ({agents[winner]}) wins" if winner else "draw"
    stdout.write("\n" + fit_lines(f"Result: {outcome}: {printable(record['reason'])}", width) + "\n")


def _ask(reader: LineReader, stdout, shown: int, count: int):
    """The index of the step to show after step `shown` of `count`, as the viewer says
    (`count` itself: the result); None when the viewer ends the replay."""
    while True:
        stdout.write(PROMPT)
        stdout.flush()
        line = reader.readline()
        word = line.strip().lower()
        if line == "" or word in QUIT_WORDS:
            if line == "":
                stdout.write("\n")  # end the prompt's line: the shell's prompt comes next
            return None
        if word == "":
            return shown + 1
        if word in BACK_WORDS:
            if shown > 0:
                return shown - 1
            stdout.write("  this is the first move\n")
        elif _move_number(word, count):
            return _move_number(word, count) - 1
        else:
            stdout.write(f"  {crop(word, WORD_SHOWN)!r} is not a move of this game: 1..{count}, b, q or Enter\n")


def _move_number(word: str, count: int):
    """The move (1..count) that `word` names, or 0. Digits are counted before int()
    reads them: thousands of them are more than it takes, and name no move anyway."""
    if word.isascii() and word.isdigit() and len(word) <= len(str(count)) and 1 <= int(word) <= count:
        return int(word)
    return 0
