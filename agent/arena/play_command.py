"""`fruit-rage play`: a person against an agent in the terminal. The agent moves as in a
match (a fresh process per move, its CPU clock enforced); the person's clock is the wall
time spent thinking, and the turn ends the moment it runs out. Same rules and judging as
the referee; `--out` keeps the game as `match --out` would, for replay and audit."""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import sys
import time

from agent.arena.agents import files_named
from agent.arena.display import LineReader, fitted_board, use_colour
from agent.arena.process import SetupFailed, stop_signals_interrupt
from agent.arena.referee import FAULT_TIME, CommandPlayer, GameRecord, Turn, play_game
from agent.board import Board
from agent.cli_support import interrupted, plural
from agent.rules import group_at, legal_cell, move_name, parse_move_name, play

HUMAN, AGENT = "A", "B"
FIRST_MOVERS = {"you": HUMAN, "computer": AGENT}
QUIT_WORDS = ("q", "quit", "exit")
# Lines under the board on the person's turn: the score and clocks, the prompt, and
# above the board the agent's last move.
LINES_AROUND_BOARD = 3


class Quit(Exception):
    """The person ended the game (q, end of input)."""


def run(args) -> int:
    try:
        agent = CommandPlayer(args.agent)
    except ValueError as error:
        print(f"fruit-rage play: {error}", file=sys.stderr)
        return 2
    record_file = None
    if args.out is not None:
        if any(os.path.exists(args.out) and os.path.samefile(path, args.out) for path in files_named(args.agent)):
            print(
                f"fruit-rage play: --out {args.out} is a file that the agent uses: it would be overwritten",
                file=sys.stderr,
            )
            return 2
        try:
            record_file = GameFile(args.out)
        except OSError as error:
            print(f"fruit-rage play: cannot write --out {args.out}: {error.strerror}", file=sys.stderr)
            return 1
    try:
        return _play(args, agent, record_file)
    finally:
        if record_file is not None:
            record_file.close()


def _play(args, agent, record_file) -> int:
    try:
        with stop_signals_interrupt():  # a closed terminal must not leave the agent's move running
            record = play_human_game(args, sys.stdin, sys.stdout, agent)
    except KeyboardInterrupt:
        print("\nGame abandoned.")
        return interrupted("fruit-rage")
    except SetupFailed as error:
        print(f"\nfruit-rage play: {error}; game abandoned", file=sys.stderr)
        return 1
    if record is not None and record_file is not None:
        try:
            record_file.keep(record)
        except OSError as error:
            print(f"fruit-rage play: cannot write --out {args.out}: {error.strerror}", file=sys.stderr)
            return 1
        print(f"Game recorded in {args.out}: fruit-rage replay {args.out}")
    return 0


class GameFile:
    """--out, tried before the game so that an unwritable path is refused before it. The
    record replaces the file's contents once the game is over; an abandoned game leaves
    the file as it was (and removes it if it was made for the game)."""

    def __init__(self, path: str):
        self.path = path
        self.created = not os.path.exists(path)
        open(path, "a", encoding="utf-8").close()
        self.kept = False

    def keep(self, record: GameRecord) -> None:
        with open(self.path, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(record.to_json()) + "\n")
        self.kept = True

    def close(self) -> None:
        if self.created and not self.kept:
            try:
                os.unlink(self.path)
            except OSError:
                pass  # already gone, or never a file of ours to remove


def play_human_game(args, stdin, stdout, agent=None) -> GameRecord | None:
    """Play one game at the terminal; the record, or None when the person quit."""
    agent = agent or CommandPlayer(args.agent)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    rng = random.Random(seed)
    first = rng.choice((HUMAN, AGENT)) if args.first == "random" else FIRST_MOVERS[args.first]
    board = Board.random(seed, args.size, args.types)
    screen = Screen(stdout)
    game = Game(screen, f"agent ({args.agent})", args.time)
    screen.write(
        f"Fruit Rage, {args.size}x{args.size}, {plural(args.types, 'type')}, {args.time:g} s each, "
        f"seed {seed}: {'you move' if first == HUMAN else 'the agent moves'} first.\n"
        f"Type a cell such as B3 to take its group; q quits.\n"
    )
    try:
        record = play_game(
            HumanPlayer(LineReader(stdin), game),
            ThinkingAgent(agent, game),
            board,
            (args.time, args.time),
            first,
            on_move=game.show_move,
        )
    except Quit:
        screen.write("\nGame abandoned.\n")
        return None
    record.game, record.seed = 1, seed
    screen.write("\n" + final_message(record) + "\n")
    return record


def final_message(record: GameRecord) -> str:
    """One line: who won, why when it was not on points, and the score."""
    scores = record.scores
    score = f"Final score: you {scores[HUMAN]}, agent {scores[AGENT]}."
    if record.winner is None:
        return f"Draw: {record.reason}. {score}"
    headline = "You win" if record.winner == HUMAN else "You lose"
    if record.fault is None and scores[HUMAN] != scores[AGENT]:
        return f"{headline}. {score}"
    if record.fault is not None and record.winner == HUMAN:
        return f"{headline}: the agent's move lost, {record.reason}. {score}"
    return f"{headline}: {record.reason}. {score}"


class Screen:
    """Where the game is shown: colour or not, and how many lines the terminal has (None
    when the output is not a terminal: then nothing needs to fit)."""

    def __init__(self, stdout):
        self.stdout = stdout
        self.colour = use_colour(stdout)
        self.terminal = bool(getattr(stdout, "isatty", lambda: False)())

    @property
    def lines(self):
        return shutil.get_terminal_size().lines if self.terminal else None

    def board(self, grid, highlight=frozenset()) -> str:
        lines = self.lines
        return fitted_board(grid, highlight, self.colour, None if lines is None else lines - LINES_AROUND_BOARD)

    def write(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()


class Game:
    """The game as the person sees it: the score and clocks so far, and a line for every
    move."""

    def __init__(self, screen: Screen, agent_name: str, seconds: float):
        self.screen, self.agent_name = screen, agent_name
        self.scores = {HUMAN: 0, AGENT: 0}
        self.clocks = {HUMAN: seconds, AGENT: seconds}

    def status(self) -> str:
        return (
            f"Score: you {self.scores[HUMAN]}, agent {self.scores[AGENT]}.  "
            f"Clock: you {self.clocks[HUMAN]:.1f} s, agent {self.clocks[AGENT]:.1f} s"
        )

    def show_move(self, player: str, move: Turn, record) -> None:
        self.scores, self.clocks = dict(record.scores), dict(record.clocks)
        if move.fault is not None:
            return  # the final message says it
        who = "You" if player == HUMAN else self.agent_name.capitalize()
        took = f"{move.seconds:.1f} s" if player == HUMAN else f"{move.seconds:.2f} s CPU"
        self.screen.write(
            f"{who} played {move.name}: {math.isqrt(move.points)} fruit, {plural(move.points, 'point')} in {took}.\n"
        )


class HumanPlayer:
    """Shows the board and reads cells until one is a legal move, or the clock runs out."""

    name = "you"
    version = None

    def __init__(self, reader: LineReader, game: Game):
        self.reader, self.game = reader, game

    def take_turn(self, board: Board, time_left: float) -> Turn:
        grid = board.rows
        screen = self.game.screen
        started = time.monotonic()
        screen.write("\n" + screen.board(grid) + "\n" + self.game.status() + "\n")
        while True:
            left = time_left - (time.monotonic() - started)
            line = None
            if left > 0:
                screen.write(f"Your move ({math.ceil(left)} s left): ")
                line = self.reader.readline(timeout=left)
            if line is None:
                screen.write("\n")  # end the prompt's line
                return Turn(
                    time.monotonic() - started,
                    fault=FAULT_TIME,
                    reason=f"you ran out of time, no move within the {time_left:.1f} s left",
                )
            if line == "" or line.strip().lower() in QUIT_WORDS:
                raise Quit
            if not line.strip():
                continue
            try:
                cell = legal_cell(grid, line)
            except ValueError as error:
                screen.write(f"  {error}; try again.\n")
                continue
            next_grid, points = play(grid, cell)
            return Turn(time.monotonic() - started, move_name(cell), next_grid, points)


class ThinkingAgent:
    """The agent's turn as the person sees it: the board it moves on, a spinner while it
    thinks (a line when not at a terminal), then that board with its group highlighted."""

    def __init__(self, agent, game: Game):
        self.agent, self.game = agent, game
        self.name, self.version = agent.name, getattr(agent, "version", None)

    def take_turn(self, board: Board, time_left: float) -> Turn:
        screen = self.game.screen
        thinking = f"{self.game.agent_name.capitalize()} is thinking..."
        if not screen.terminal:
            screen.write(thinking + "\n")
            turn = self.agent.take_turn(board, time_left)
            screen.write(screen.board(board.rows, _taken(board.rows, turn)) + "\n")
            return turn
        from rich.console import Console, Group
        from rich.live import Live
        from rich.spinner import Spinner
        from rich.text import Text

        def shown(highlight=frozenset()):
            return Text.from_ansi(screen.board(board.rows, highlight))

        screen.write("\n")
        with Live(
            Group(shown(), Spinner("dots", thinking)),
            console=Console(file=screen.stdout),
            refresh_per_second=8,
            transient=False,
        ) as live:
            turn = self.agent.take_turn(board, time_left)
            live.update(shown(_taken(board.rows, turn)), refresh=True)
        return turn


def _taken(grid, turn: Turn) -> frozenset:
    """The cells of the group a turn took; none when it lost."""
    if turn.fault is not None:
        return frozenset()
    return frozenset(group_at(grid, parse_move_name(turn.name)))
