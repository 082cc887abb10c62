"""Players of a user's own, for the tests of in-process play: each misbehaves in one way.
Loaded by name, as `py:library_players:NAME`, with tests/ on the import path."""

import os
import signal
import time

from agent import Move


class CpuBurner:
    """Burns `seconds` of CPU, then takes the first group."""

    name = "burner"

    def __init__(self, seconds: float = 0.3):
        self.seconds = seconds

    def choose(self, board, clock_left):
        start = time.process_time()
        while time.process_time() - start < self.seconds:
            pass
        return board.legal_moves()[0]


class Raiser:
    name = "raiser"

    def choose(self, board, clock_left):
        raise RuntimeError("a bug in the player")


class Spinner:
    """Never answers, and swallows every Exception on the way."""

    name = "spinner"

    def choose(self, board, clock_left):
        while True:
            try:
                sum(range(1000))
            except Exception:
                pass


class Sleeper:
    name = "sleeper"

    def choose(self, board, clock_left):
        time.sleep(3600)


class EmptyCell:
    """Answers a hole when there is one, else the first group."""

    name = "empty-cell"

    def choose(self, board, clock_left):
        holes = [Move(r, c) for r, row in enumerate(board.rows) for c, ch in enumerate(row) if ch == "*"]
        return holes[0] if holes else board.legal_moves()[0]


class NotAMove:
    name = "not-a-move"

    def choose(self, board, clock_left):
        return "A1"


def broken_factory():
    raise ValueError("no player today")


class ThreadTimeBurner:
    """Works `seconds` of its own thread's CPU a move, then takes the first group; named
    after the process it plays in. Charged process CPU, it shows whether anything else
    ran in that process meanwhile."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.name = f"burner-{os.getpid()}"

    def choose(self, board, clock_left):
        start = time.thread_time()
        while time.thread_time() - start < self.seconds:
            pass
        return board.legal_moves()[0]


class DeafOnce:
    """Of the processes it plays in, the first to move (the one that makes `token`) takes
    the first group at every turn; every other one sets the stop signals (SIGTERM,
    SIGHUP) ignored and never answers."""

    name = "deaf-once"

    def __init__(self, token: str):
        self.token = token

    def choose(self, board, clock_left):
        if not hasattr(DeafOnce, "fast"):
            try:
                os.close(os.open(self.token, os.O_CREAT | os.O_EXCL))
                DeafOnce.fast = True
            except FileExistsError:
                DeafOnce.fast = False
        if not DeafOnce.fast:
            for number in (signal.SIGTERM, signal.SIGHUP):
                signal.signal(number, signal.SIG_IGN)
            time.sleep(3600)
        return board.legal_moves()[0]


def misbehaving_game(player) -> tuple:
    """(winner, fault, reason, the side of the last turn) of `player` as A, with 0.3 s and
    a grace of 0.3 s, against greedy moving first: run in a fresh process, where no thread
    of another test uses the CPU that a player in process is charged with."""
    from agent import Board, GreedyPlayer, play_game

    record = play_game(player, GreedyPlayer(), Board.random(7, 4, 3), (0.3, 10.0), first="B", grace=0.3)
    return record.winner, record.fault, record.reason, record.turns[-1][0]
