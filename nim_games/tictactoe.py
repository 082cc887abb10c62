"""Tic-tac-toe, the usual example for minimax, on the game-agnostic engine.

Scoring as in the classic explanation: X maximises (+10 for a win), O minimises (-10), a
draw is 0, and a win found deeper is worth less. Here "deeper" is measured from the empty
board rather than from the searched position, which only shifts every score of one search
by the same constant and keeps scores valid in a transposition table: a win is worth
10 + the number of empty squares left. Internally values are for the player to move.

Squares are (row, column), 0-based. Exit codes: 0 after a game or at end of input, 1 when
the output cannot be written, 2 for bad command-line arguments, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Iterator, NamedTuple, Optional, Sequence

from nim_games.console import EXIT_CODES, play_to_the_end
from nim_games.help_format import LineWrappingHelpFormatter
from nim_games.minimax import search

EMPTY = "."
MARKS = ("X", "O")  # X moves first
WIN_SCORE = 10
LINES = tuple(
    [[(r, c) for c in range(3)] for r in range(3)]
    + [[(r, c) for r in range(3)] for c in range(3)]
    + [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
)


class Position(NamedTuple):
    board: tuple  # 3 rows of 3 marks
    mover: str  # "X" or "O"

    def at(self, square) -> str:
        return self.board[square[0]][square[1]]


class TicTacToe:
    """The game, following the `nim_games.minimax.Game` protocol."""

    def to_move(self, position: Position) -> int:
        return MARKS.index(position.mover)

    def legal_moves(self, position: Position) -> Iterator[tuple]:
        return ((r, c) for r in range(3) for c in range(3) if position.board[r][c] == EMPTY)

    def apply(self, position: Position, square: tuple) -> Position:
        row, col = square
        rows = list(position.board)
        rows[row] = rows[row][:col] + (position.mover,) + rows[row][col + 1 :]
        return Position(tuple(rows), other(position.mover))

    def winner(self, position: Position) -> Optional[str]:
        for line in LINES:
            marks = {position.at(square) for square in line}
            if len(marks) == 1 and EMPTY not in marks:
                return marks.pop()
        return None

    def empty_squares(self, position: Position) -> int:
        return sum(row.count(EMPTY) for row in position.board)

    def is_terminal(self, position: Position) -> bool:
        return self.winner(position) is not None or self.empty_squares(position) == 0

    def utility(self, position: Position) -> int:
        # Only the player who just moved can have completed a line.
        if self.winner(position) is None:
            return 0
        return -(WIN_SCORE + self.empty_squares(position))


def other(mark: str) -> str:
    return MARKS[1 - MARKS.index(mark)]


def make_position(rows: Sequence[Sequence[str]], mover: str = "X") -> Position:
    """A position from rows such as ["XOX", "OOX", "..."]; blank, "_" or "." are empty."""
    board = tuple(tuple(EMPTY if mark in " _." else mark.upper() for mark in row) for row in rows)
    if len(board) != 3 or any(len(row) != 3 for row in board):
        raise ValueError("a board has 3 rows of 3 squares")
    if any(mark not in MARKS + (EMPTY,) for row in board for mark in row):
        raise ValueError("squares hold X, O or nothing")
    if mover.upper() not in MARKS:
        raise ValueError("the player to move is X or O")
    return Position(board, mover.upper())


def find_best_move(rows: Sequence[Sequence[str]], mover: str = "X") -> Optional[tuple]:
    """The square (row, column) where perfect play puts `mover`'s mark; None when the game is over."""
    return search(TicTacToe(), make_position(rows, mover)).move


# ----------------------------------------------------------------------------------------
# Playing


def show(position: Position) -> str:
    lines = ["  0 1 2"]
    lines += [f"{r} " + " ".join(row) for r, row in enumerate(position.board)]
    return "\n".join(lines)


def ask_square(position: Position) -> tuple:
    while True:
        words = input("Your move (row column): ").split()
        try:
            square = tuple(int(word) for word in words)
        except ValueError:
            square = ()
        if len(square) != 2:
            print("  Not accepted: type two numbers, row then column, e.g. '1 1'.")
        elif not all(0 <= i <= 2 for i in square):
            print("  Not accepted: rows and columns are numbered 0 to 2.")
        elif position.at(square) != EMPTY:
            print("  Not accepted: that square is taken.")
        else:
            return square


def play(first: str) -> None:
    """`first`: you, computer or random; whoever moves first plays X."""
    drawn = " (drawn at random)" if first == "random" else ""
    if first == "random":
        first = random.choice(("you", "computer"))
    human_mark = "X" if first == "you" else "O"
    game = TicTacToe()
    tt: dict = {}
    position = make_position(["..."] * 3)
    print(f"Tic-tac-toe. You play {human_mark}{drawn}; X moves first.")
    while not game.is_terminal(position):
        print(show(position))
        if position.mover == human_mark:
            square = ask_square(position)
        else:
            found = search(game, position, tt=tt).move
            assert found is not None  # the position is not terminal
            square = found
            print(f"Computer ({position.mover}) plays {square[0]} {square[1]}.")
        position = game.apply(position, square)
    print(show(position))
    winner = game.winner(position)
    if winner is None:
        print("Draw.")
    else:
        print("You win." if winner == human_mark else "Computer wins.")


FIRST_PLAYERS = ("you", "computer", "random")
FIRST_ALIASES = {"human": "you"}  # the word this program used to take


def parse_first(text: str) -> str:
    word = text.strip().lower()
    word = FIRST_ALIASES.get(word, word)
    if word not in FIRST_PLAYERS:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(FIRST_PLAYERS)})")
    return word


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tictactoe",
        description="Play tic-tac-toe against a perfect minimax player.",
        epilog="X moves first; three in a row, a column or a diagonal wins, and a full board\n"
        "without one is a draw. Type a move as row and column, each 0..2, e.g. '2 2' for\n"
        "the bottom-right corner.\n" + EXIT_CODES,
        formatter_class=LineWrappingHelpFormatter,
    )
    parser.add_argument(
        "--first",
        type=parse_first,
        default="you",
        help="who plays X and moves first: you (default), computer or random",
    )
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    return play_to_the_end("tictactoe", play, args.first)


if __name__ == "__main__":
    sys.exit(main())
