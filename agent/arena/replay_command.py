"""`fruit-rage replay RESULTS --game K`: step through a game recorded by `match --out`,
showing before each move the board with the chosen group highlighted, then the scores
and clocks after it."""
from __future__ import annotations

import sys
import time

from agent.arena.display import render_board, typed_input, use_colour
from agent.arena.records import describe_clocks, find_game, plural, starting_clocks
from agent.rules import group_at, parse_move_name, remove_and_fall


def run(args) -> int:
    try:
        record = find_game(args.results, args.game)   # checked: every move replays
    except ValueError as error:
        print(f"fruit-rage replay: {error}", file=sys.stderr)
        return 2
    replay(record, args.delay, typed_input(sys.stdin), sys.stdout)
    return 0


def replay(record: dict, delay, stdin, stdout) -> None:
    """Print every step; between steps wait `delay` seconds, or for Enter when delay is
    None (end of input then ends the replay)."""
    colour = use_colour(stdout)
    agents = record["agents"]
    stdout.write(f"Game {record['game']} (seed {record['seed']}): A = {agents['A']}, B = {agents['B']}, "
                 f"{record['size']}x{record['size']}, {plural(record['types'], 'type')}, "
                 f"{describe_clocks(record['time'], record.get('time_b'))}; "
                 f"{record['first']} moves first\n")
    grid = tuple(record["board"])
    scores = {"A": 0, "B": 0}
    clocks = starting_clocks(record)
    for number, move in enumerate(record["moves"], 1):
        side = move["player"]
        clocks[side] -= move["cpu"]
        if move.get("fault"):
            stdout.write(f"\n{render_board(grid, colour=colour)}\n"
                         f"Move {number}: {side} ({agents[side]}) loses: {move['reason']}\n")
            break
        group = group_at(grid, parse_move_name(move["move"]))
        scores[side] += move["points"]
        stdout.write(f"\n{render_board(grid, group, colour)}\n"
                     f"Move {number}: {side} ({agents[side]}) plays {move['move']}: {len(group)} fruit, "
                     f"{plural(move['points'], 'point')}, {move['cpu']:.3f} s CPU\n"
                     f"  score A {scores['A']} - B {scores['B']}   "
                     f"clocks A {clocks['A']:.2f} s, B {clocks['B']:.2f} s\n")
        grid = remove_and_fall(grid, group)
        if not _pause(delay, stdin, stdout):
            return
    winner = record["winner"]
    outcome = f"{winner} ({agents[winner]}) wins" if winner else "draw"
    stdout.write(f"\nResult: {outcome}: {record['reason']}\n")


def _pause(delay, stdin, stdout) -> bool:
    """False when the viewer ended the input."""
    if delay is None:
        stdout.write("[Enter] ")
        stdout.flush()
        if stdin.readline() == "":
            stdout.write("\n")  # end the prompt's line: the shell's prompt comes next
            return False
        return True
    if delay > 0:
        stdout.flush()
        time.sleep(delay)
    return True
