"""`fruit-rage play`: a person against an agent in the terminal. The agent moves as in a
match (a fresh process per move, its CPU clock enforced); the person's clock is the wall
time spent thinking. Same rules and judging as the referee."""
from __future__ import annotations

import math
import random
import sys
import time

from agent.arena.display import render_board, typed_input, use_colour
from agent.arena.process import SetupFailed, stop_signals_interrupt
from agent.arena.records import plural
from agent.arena.referee import CommandPlayer, Turn, play_game
from agent.board import Board
from agent.rules import legal_cell, move_name, play

HUMAN, AGENT = "A", "B"
QUIT_WORDS = ("q", "quit", "exit")


class Quit(Exception):
    """The person ended the game (q, end of input)."""


def run(args) -> int:
    try:
        agent = CommandPlayer(args.agent)
    except ValueError as error:
        print(f"fruit-rage play: {error}", file=sys.stderr)
        return 2
    try:
        with stop_signals_interrupt():   # a closed terminal must not leave the agent's move running
            play_human_game(args, typed_input(sys.stdin), sys.stdout, agent)
    except KeyboardInterrupt:
        print("\ninterrupted: game abandoned")
        return 130
    except SetupFailed as error:
        print(f"\nfruit-rage play: {error}; game abandoned", file=sys.stderr)
        return 1
    return 0


def play_human_game(args, stdin, stdout, agent=None) -> None:
    agent = agent or CommandPlayer(args.agent)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    rng = random.Random(seed)
    first = rng.choice((HUMAN, AGENT)) if args.first == "random" else {"you": HUMAN, "agent": AGENT}[args.first]
    board = Board.random(seed, args.size, args.types)
    grid = board.rows
    colour = use_colour(stdout)
    names = {HUMAN: "you", AGENT: f"agent ({args.agent})"}
    stdout.write(f"Fruit Rage, {args.size}x{args.size}, {plural(args.types, 'type')}, {args.time:g} s each, "
                 f"seed {seed}. {'You move' if first == HUMAN else 'The agent moves'} first. "
                 f"Type a cell such as B3 to take its group; q quits.\n")
    if first == AGENT:  # the person's turns show the board; the agent's first move needs it too
        stdout.write("\n" + render_board(grid, colour=colour) + "\n")

    def show(player: str, move: Turn, result) -> None:
        if move.fault is not None:
            stdout.write(f"{names[player].capitalize()} {'lose' if player == HUMAN else 'loses'}: {move.reason}\n")
            return
        took = f"{move.seconds:.1f} s" if player == HUMAN else f"{move.seconds:.2f} s CPU"
        stdout.write(f"{names[player].capitalize()} played {move.name}: {math.isqrt(move.points)} fruit, "
                     f"{plural(move.points, 'point')} in {took}.  "
                     f"Score: you {result.scores[HUMAN]}, agent {result.scores[AGENT]}.  "
                     f"Clock: you {result.clocks[HUMAN]:.1f} s, agent {result.clocks[AGENT]:.1f} s\n")

    try:
        result = play_game(HumanPlayer(stdin, stdout, colour), agent, board, (args.time, args.time),
                           first, on_move=show)
    except Quit:
        stdout.write("\nGame abandoned.\n")
        return
    if result.winner is None:
        stdout.write(f"Draw: {result.reason}.\n")
    else:
        stdout.write(f"{'You win' if result.winner == HUMAN else 'The agent wins'}: {result.reason}.\n")


class HumanPlayer:
    """Shows the board and reads cells from `stdin` until one is a legal move."""

    def __init__(self, stdin, stdout, colour: bool):
        self.stdin, self.stdout, self.colour = stdin, stdout, colour

    def take_turn(self, board: Board, time_left: float) -> Turn:
        grid = board.rows
        started = time.monotonic()
        self.stdout.write("\n" + render_board(grid, colour=self.colour) + "\n")
        while True:
            left = time_left - (time.monotonic() - started)
            self.stdout.write(f"Your move ({left:.0f} s left): ")
            self.stdout.flush()
            line = self.stdin.readline()
            if line == "" or line.strip().lower() in QUIT_WORDS:
                raise Quit
            if not line.strip():
                continue
            try:
                cell = legal_cell(grid, line)
            except ValueError as error:
                self.stdout.write(f"  {error}; try again.\n")
                continue
            next_grid, points = play(grid, cell)
            return Turn(time.monotonic() - started, move_name(cell), next_grid, points)
