"""`fruit-rage play`: a person against an agent in the terminal. The agent is any a match
takes and moves as in one (a built-in or a command: a fresh process per move; a Python
player: in a worker process of its own; its CPU clock enforced by the referee's rule); the person's clock is the wall
time spent thinking, and the turn ends the moment it runs out. Same rules and judging as
the referee; `--out` keeps the game as `match --out` would, for replay and audit. What
the person sees is drawn by agent.arena.terminal.play_screen."""

from __future__ import annotations

import json
import math
import os
import random
import stat
import sys
import time

from agent.arena.agent_commands import files_named
from agent.arena.player_specs import PlayerSpec
from agent.arena.process_player import ProcessPlayer
from agent.arena.processes.move_runner import SetupFailed
from agent.arena.processes.referee_clock import WALL_CLOCK
from agent.arena.processes.stop_signals import stop_signals_interrupt
from agent.arena.records.results_file import RecordsFile, lock_records
from agent.arena.referee import AGENT_CLOCK, PERSON_CLOCK, GameRecord, play_game, take_turn
from agent.arena.review.audit import solve_exactly
from agent.arena.terminal.boards import LineReader, render_board
from agent.arena.terminal.play_screen import Screen, clock_shown
from agent.arena.turns import FAULT_TIME, Turn
from agent.board import Board
from agent.cli_support import interrupted, plural, printable
from agent.commands.options import board_size, clock_seconds, fruit_types
from agent.rules import MAX_SIZE, MAX_TYPES, fruit_count, group_at, legal_cell, move_name, parse_move_name, play

HUMAN, AGENT = "A", "B"
FIRST_MOVERS = {"you": HUMAN, "computer": AGENT}
QUIT_WORDS = ("q", "quit", "exit")
# At the end the starting board is solved exactly with at most this much CPU, to say when
# the loser could not have won; beyond this much fruit that rarely succeeds, and is not tried.
BEST_PLAY_SECONDS = 2.0
SOLVABLE_FRUIT = 64


DESCRIPTION = (
    "You against the agent: type a cell such as G8 to move. Your clock is the wall time you "
    "think; the agent's, the CPU time of its moves."
)


def add_arguments(p) -> None:
    p.add_argument(
        "--first",
        type=_first_mover,
        choices=(*FIRST_MOVERS, "random"),
        default="you",
        help="who moves first: you, computer (also: agent) or random (default: you)",
    )
    p.add_argument("--size", type=board_size, default=8, help=f"board side n, 1..{MAX_SIZE} (default: 8)")
    p.add_argument("--types", type=fruit_types, default=3, help=f"fruit types p, 1..{MAX_TYPES} (default: 3)")
    p.add_argument(
        "--time",
        type=clock_seconds,
        default=PERSON_CLOCK,
        help=f"your clock: seconds of thinking, above 0 and up to 1e6 (default: {PERSON_CLOCK:g})",
    )
    p.add_argument(
        "--agent-time",
        type=clock_seconds,
        default=AGENT_CLOCK,
        metavar="TIME",
        help=f"the agent's clock: CPU seconds, above 0 and up to 1e6 (default: {AGENT_CLOCK:g}, as on the page)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for the board (default: random)")
    p.add_argument(
        "--agent",
        default="ours",
        help="your opponent, any agent a match takes: a built-in (ours, greedy, random, minimax3), a Python "
        "player py:package.module:factory (played in this process) or a shell command (default: ours)",
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="F.jsonl",
        help="keep the finished game in this file (replacing what it held), for replay, audit and phases",
    )


def _first_mover(text: str) -> str:
    """`--first`: `agent` is another word for `computer`."""
    return "computer" if text == "agent" else text


class Quit(Exception):
    """The person ended the game (q, end of input)."""


def make_agent(text: str, clock: float):
    """The opponent `--agent` names, as a match makes it (agent.arena.player_specs), with
    `clock` seconds a game; a Python player is made and plays in a worker process of its
    own, watched as a match watches one (agent.arena.process_player). ValueError saying
    why none can be made."""
    spec = PlayerSpec(text)
    if text.startswith("py:"):
        return ProcessPlayer(spec, clock)
    return spec()


def close_agent(agent) -> None:
    """Its worker ended, when it has one."""
    if isinstance(agent, ProcessPlayer):
        agent.close()


def run(args) -> int:
    try:
        with stop_signals_interrupt():  # as during the game: a stop ends the making's worker
            agent = make_agent(args.agent, args.agent_time)
    except ValueError as error:
        print(f"fruit-rage play: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return interrupted("fruit-rage play")
    try:
        return _play_against(args, agent)
    finally:
        close_agent(agent)


def _play_against(args, agent) -> int:
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
        except RecordsFile.Refused as refusal:
            print(f"fruit-rage play: --out {args.out} {refusal}", file=sys.stderr)
            return 2
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
        return interrupted("fruit-rage play")
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
    """--out, opened and locked before the game (as match and tournament lock theirs), so
    that an unwritable path or a file in use is refused before it. The record replaces the
    file's contents once the game is over; an abandoned game leaves the file as it was (and
    removes it if it was made for the game)."""

    def __init__(self, path: str):
        self.path = path
        self.created = not os.path.exists(path)
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOCTTY, 0o666)
        self.regular = stat.S_ISREG(os.fstat(self.fd).st_mode)  # not a pipe or /dev/null
        try:
            if self.regular:
                lock_records(self.fd)
        except BaseException:
            os.close(self.fd)
            raise
        self.kept = False

    def keep(self, record: GameRecord) -> None:
        if self.regular:
            os.ftruncate(self.fd, 0)
        os.write(self.fd, (json.dumps(record.to_dict()) + "\n").encode())
        self.kept = True

    def close(self) -> None:
        if self.created and not self.kept:
            try:
                os.unlink(self.path)
            except OSError:
                pass  # already gone, or never a file of ours to remove
        os.close(self.fd)


def play_human_game(args, stdin, stdout, agent=None) -> GameRecord | None:
    """Play one game at the terminal; the record, or None when the person quit. The agent
    `args` names is made when none is given, and ended after the game."""
    if agent is None:
        made = make_agent(args.agent, args.agent_time)
        try:
            return play_human_game(args, stdin, stdout, made)
        finally:
            close_agent(made)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    rng = random.Random(seed)
    first = rng.choice((HUMAN, AGENT)) if args.first == "random" else FIRST_MOVERS[args.first]
    board = Board.random(seed, args.size, args.types)
    screen = Screen(stdout)
    header = [
        f"Fruit Rage, {args.size}x{args.size}, {plural(args.types, 'type')}, seed {seed}: "
        f"{'you move' if first == HUMAN else 'the agent moves'} first.",
        f"Clocks: you {args.time:g} s, the agent {args.agent_time:g} s of CPU.",
        "Type a cell such as B3 to take its group; q quits.",
    ]
    game = Game(screen, f"Agent ({printable(args.agent)})", (args.time, args.agent_time), header)
    if not screen.terminal:
        screen.say("\n".join(header))
    screen.open()
    try:
        record = play_game(
            HumanPlayer(LineReader(stdin), game),
            ThinkingAgent(agent, game),
            board,
            (args.time, args.agent_time),
            first,
            on_move=game.show_move,
        )
    except Quit:
        screen.close()
        screen.write("\nGame abandoned.\n")
        return None
    finally:
        screen.close()
    record.game, record.seed = 1, seed
    if screen.terminal:  # the game's screen is gone: what it came to stays on the terminal's
        screen.say("\n".join(header + game.moves[-2:]))
    screen.say("\n" + final_message(record))
    note = best_play_note(record)
    if note:
        screen.say(note)
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
    reason = printable(record.reason)  # the agent's stderr may be in it
    if record.fault is not None and record.winner == HUMAN:
        return f"{headline}: the agent's move lost, {reason}. {score}"
    return f"{headline}: {reason}. {score}"


def best_play_note(record: GameRecord) -> str:
    """A line saying that the loser could not have won, when the starting board, solved
    exactly, is lost for its side whatever it plays: a loss that is no mistake. "" when
    the board was not solved in time or the loser could have won or tied."""
    if record.winner is None or record.fault is not None or fruit_count(record.board) > SOLVABLE_FRUIT:
        return ""
    solved = solve_exactly(Board(record.board), BEST_PLAY_SECONDS)
    if solved is None or solved.value == 0:
        return ""
    value = solved.value  # the first mover's margin with best play
    winning = "first" if value > 0 else "second"
    loser = AGENT if record.winner == HUMAN else HUMAN
    loser_moved = "first" if record.first == loser else "second"
    if loser_moved == winning:
        return ""
    who = "the agent" if loser == AGENT else "you"
    return (
        f"With best play from the start, the {winning} mover wins this board by {abs(value)}: "
        f"{who}, moving {loser_moved}, could not have won it."
    )


class Game:
    """The game as the person sees it: its header, the score and clocks so far, a line for
    every move, and the board the agent last moved on (shown beside the board at the
    person's next turn, its group marked)."""

    def __init__(self, screen: Screen, agent_name: str, clocks: tuple, header: list):
        self.screen, self.agent_name, self.header = screen, agent_name, header
        self.scores = {HUMAN: 0, AGENT: 0}
        self.clocks = dict(zip((HUMAN, AGENT), clocks))
        self.moves: list[str] = []
        self.agent_moved_on: tuple[tuple[str, ...], frozenset] | None = None  # (grid, the group taken)

    def status(self, your_clock=None) -> str:
        """The score and both clocks; `your_clock`: the person's, as it runs."""
        yours = self.clocks[HUMAN] if your_clock is None else your_clock
        return (
            f"Score: you {self.scores[HUMAN]}, agent {self.scores[AGENT]}.  "
            f"Clock: you {clock_shown(yours)}, agent {clock_shown(self.clocks[AGENT])}"
        )

    def frame(self, grid, footer: list) -> str:
        """The whole screen at a terminal: the header, the last two moves, the board, the
        footer's lines."""
        last = (self.moves[-2:] + ["", ""])[:2]
        return self.screen.frame(self.header + last, self.screen.board(grid, self.agent_moved_on), footer)

    def show_move(self, player: str, move: Turn, record) -> None:
        self.scores, self.clocks = dict(record.scores), dict(record.clocks)
        if player == HUMAN:
            self.agent_moved_on = None
        if move.fault is not None:
            return  # the final message says it
        who = "You" if player == HUMAN else self.agent_name
        took = f"{move.seconds:.1f} s" if player == HUMAN else f"{move.seconds:.2f} s CPU"
        line = f"{who} played {move.name}: {math.isqrt(move.points)} fruit, {plural(move.points, 'point')} in {took}."
        self.moves.append(line)
        if not self.screen.terminal:
            self.screen.say(line)


class HumanPlayer:
    """Shows the board and reads cells until one is a legal move, or the clock runs out."""

    name = "you"
    version = None
    clock = WALL_CLOCK  # a person's time is the wall time spent thinking

    def __init__(self, reader: LineReader, game: Game):
        self.reader, self.game = reader, game

    def take_turn(self, board: Board, time_left: float) -> Turn:
        grid = board.rows
        game, screen = self.game, self.game.screen
        started = time.monotonic()
        message = ""
        if not screen.terminal:
            screen.write("\n" + screen.board(grid) + "\n" + game.status(time_left) + "\n")
        while True:
            left = time_left - (time.monotonic() - started)
            line = None
            if left > 0:
                prompt = f"Your move ({clock_shown(left)} left): "
                # at a terminal the whole screen, its clock and the prompt's read at once
                footer = [game.status(left), *screen.wrapped(message), prompt]
                screen.write(game.frame(grid, footer) if screen.terminal else prompt)
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
                message = f"  {error}; try again."
                if not screen.terminal:
                    screen.say(message)
                continue
            next_grid, points = play(grid, cell)
            return Turn(time.monotonic() - started, move_name(cell), next_grid, points)


class ThinkingAgent:
    """The agent's turn as the person sees it: the board it moves on and a spinner while
    it thinks; when not at a terminal, a line, then that board with its group marked."""

    def __init__(self, agent, game: Game):
        self.agent, self.game = agent, game
        self.name, self.version = agent.name, getattr(agent, "version", None)

    def take_turn(self, board: Board, time_left: float) -> Turn:
        game, screen = self.game, self.game.screen
        thinking = f"{game.agent_name} is thinking..."
        if not screen.terminal:
            screen.say(thinking)
            turn = take_turn(self.agent, board, time_left)
            screen.write(render_board(board.rows, _taken(board.rows, turn), screen.colour) + "\n")
            return turn
        from rich.console import Console
        from rich.live import Live
        from rich.spinner import Spinner

        screen.write(game.frame(board.rows, [game.status(), ""]) + "\n")
        with Live(Spinner("dots", thinking), console=Console(file=screen.stdout), refresh_per_second=8, transient=True):
            turn = take_turn(self.agent, board, time_left)
        game.agent_moved_on = (board.rows, _taken(board.rows, turn))
        return turn


def _taken(grid, turn: Turn) -> frozenset:
    """The cells of the group a turn took; none when it lost."""
    if turn.fault is not None:
        return frozenset()
    assert turn.name is not None  # a turn without a fault names its move
    return frozenset(group_at(grid, parse_move_name(turn.name)))
