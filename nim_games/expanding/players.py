"""The two kinds of exp-nim player, human and computer, and the game state they both follow."""

from __future__ import annotations

import os
import select
import time
from typing import Callable, Optional, TextIO

from nim_games.console import plural

from .rules import Move, grown_limit
from .solver import Position, Solver


class Tracker:
    """Follows the game through the server's states from one player's side.

    The grown limit is rebuilt from the takes (stones_left differences), because while a
    reset is pending the state's current_max shows only the temporary limit m.
    """

    def __init__(self, order: int, stones: int, resets: int, init_max: int):
        self.order = order
        self.init_max = init_max
        self.stones = stones
        self.largest_take = 0
        self.reset_pending = False
        self.resets = [resets, resets]
        self.time_used = 0.0  # this player's clock, as the server charges it

    def update(self, state: dict) -> None:
        stones_left = int(state["stones_left"])
        self.largest_take = max(self.largest_take, self.stones - stones_left)
        self.stones = stones_left
        self.reset_pending = bool(state.get("reset_used", False))
        for index in (0, 1):
            self.resets[index] = int(state[f"player_{index}"]["resets_left"])
        self.time_used = float(state[f"player_{self.order}"].get("time_taken", self.time_used))

    @property
    def current_max(self) -> int:
        return self.init_max if self.reset_pending else grown_limit(self.init_max, self.largest_take)

    @property
    def my_resets(self) -> int:
        return self.resets[self.order]

    def position(self) -> Position:
        return Position(
            self.stones,
            grown_limit(self.init_max, self.largest_take),
            self.reset_pending,
            self.resets[self.order],
            self.resets[1 - self.order],
        )


Chooser = Callable[[Tracker], Move]


# A move may think half of its even share of the time left, the share taken over the most
# moves this player can still have to make (one stone each), less what the server charges
# beyond the thinking (the round trip of the messages). A position too large to solve in
# that gets the solver's best guess; later positions are smaller, and the solver keeps what
# it has proved.
THINK_PART = 0.5
MOVE_OVERHEAD = 0.003  # s


def think_time(time_left: float, stones: int) -> float:
    most_own_moves = (stones + 1) // 2
    return THINK_PART * max(time_left / most_own_moves - MOVE_OVERHEAD, 0.0)


def computer_chooser(init_max: int, game_time: Optional[float] = None) -> Chooser:
    """Perfect play, as far as the solver gets in think_time() of the time left of
    `game_time`, the player's clock (no limit without one)."""
    solver = Solver(init_max)

    def choose(tracker: Tracker) -> Move:
        deadline = None
        if game_time is not None:
            deadline = time.monotonic() + think_time(game_time - tracker.time_used, tracker.stones)
        return solver.best_move(tracker.position(), deadline)

    return choose


def parse_move_line(line: str, tracker: Tracker) -> Move:
    """A typed move `STONES RESET` (RESET 0 or 1, may be left out); ValueError says what is wrong."""
    words = line.split()
    if not 1 <= len(words) <= 2:
        raise ValueError("type the number of stones and 0 or 1 for a reset, e.g. `3 0`")
    try:
        stones = int(words[0])
    except ValueError:
        raise ValueError(f"{words[0]!r} is not a whole number of stones") from None
    if len(words) == 2 and words[1] not in ("0", "1"):
        raise ValueError("the reset must be 0 or 1")
    reset = len(words) == 2 and words[1] == "1"
    if not 1 <= stones <= tracker.current_max:
        raise ValueError(f"take between 1 and {tracker.current_max} stones")
    if reset and tracker.my_resets == 0:
        raise ValueError("you have no resets left")
    return Move(stones, reset)


class ServerSpoke(Exception):
    """The server sent a message while this player was typing its move: the game is over
    (its clock ran out, or the server went away)."""


def human_chooser(stdin: TextIO, stdout: TextIO, server=None) -> Chooser:
    """Reads moves until a valid one; raises EOFError at the end of input, and ServerSpoke
    when `server` (with fileno() and pending()) has news before a line is typed."""
    read_line = _line_reader(stdin, server)

    def choose(tracker: Tracker) -> Move:
        while True:
            resets = f"reset 0/1; {plural(tracker.my_resets, 'reset')} left" if tracker.my_resets else "no resets left"
            stdout.write(f"Your move (1-{tracker.current_max} stones, {resets}): ")
            stdout.flush()
            line = read_line()
            if not line:
                raise EOFError
            try:
                return parse_move_line(line, tracker)
            except ValueError as error:
                stdout.write(f"Invalid move: {error}\n")

    return choose


def _line_reader(stdin: TextIO, server) -> Callable[[], str]:
    """stdin.readline, or, where stdin and the server's socket can be watched together, a
    reader of stdin's file descriptor that gives up (ServerSpoke) as soon as the server
    sends something: a player whose clock ran out learns it at once, not after typing."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        fd = None
    if server is None or fd is None or os.name != "posix":
        return stdin.readline
    buffered = bytearray()  # read here, not by stdin: every line must come through this reader

    def read_line() -> str:
        while b"\n" not in buffered:
            if server.pending():
                raise ServerSpoke
            ready, _, _ = select.select([fd, server.fileno()], [], [])
            if fd not in ready:
                raise ServerSpoke
            data = os.read(fd, 4096)
            if not data:
                break  # end of input: what is left, then ""
            buffered.extend(data)
        end = buffered.find(b"\n") + 1 or len(buffered)
        line = bytes(buffered[:end])
        del buffered[:end]
        return line.decode("utf-8", errors="replace")

    return read_line
