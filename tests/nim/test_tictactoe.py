"""Tic-tac-toe: the example board, perfect play against every human, and the CLI."""

from __future__ import annotations

import builtins
import subprocess
import sys

import pytest
from nim_helpers import plain_minimax, run_cli

from nim_games.console import EXIT_CODES
from nim_games.minimax import search
from nim_games.tictactoe import TicTacToe, find_best_move, main, make_position

GAME = TicTacToe()
EMPTY_BOARD = ["...", "...", "..."]


def test_example_board_best_move():
    assert find_best_move(["XOX", "OOX", "..."]) == (2, 2)


@pytest.mark.parametrize(
    "rows, mover",
    [
        (["XOX", "OOX"], "X"),
        (["XOX", "OOX", ".."], "X"),
        (["XOZ", "...", "..."], "X"),
        (EMPTY_BOARD, "Z"),
    ],
)
def test_malformed_boards_are_refused(rows, mover):
    with pytest.raises(ValueError):
        make_position(rows, mover)


def test_the_quicker_win_is_preferred():
    # X wins at once with (0, 2); (2, 0) also wins, but a move later.
    position = make_position(["XX.", "OO.", "..."], "X")
    result = search(GAME, position)
    assert result.move == (0, 2)
    assert result.value == 10 + 4  # 10 + empty squares left after the winning move


@pytest.mark.parametrize(
    "rows, mover",
    [
        (EMPTY_BOARD, "X"),
        (["X..", "...", "..."], "O"),
        (["XO.", ".X.", "..."], "O"),
        (["XOX", "OOX", "..."], "X"),
        (["X.O", "...", "..."], "X"),
    ],
)
@pytest.mark.parametrize("use_tt", [False, True])
def test_alpha_beta_equals_plain_minimax(rows, mover, use_tt):
    position = make_position(rows, mover)
    result = search(GAME, position, tt={} if use_tt else None)
    assert (result.value, result.move) == plain_minimax(GAME, position)


def test_perfect_play_from_the_empty_board_is_a_draw():
    assert search(GAME, make_position(EMPTY_BOARD), tt={}).value == 0


@pytest.mark.parametrize("computer", ["X", "O"])
def test_the_computer_never_loses_to_any_sequence_of_moves(computer):
    tt = {}
    finished = {"draw": 0, "computer": 0}

    def explore(position):
        if GAME.is_terminal(position):
            winner = GAME.winner(position)
            assert winner in (None, computer)
            finished["draw" if winner is None else "computer"] += 1
        elif position.mover == computer:
            explore(GAME.apply(position, search(GAME, position, tt=tt).move))
        else:
            for square in GAME.legal_moves(position):
                explore(GAME.apply(position, square))

    explore(make_position(EMPTY_BOARD))
    assert finished["draw"] > 0 and finished["computer"] > 0


# ---------------------------------------------------------------------------------- CLI


def run(monkeypatch, capsys, argv, stdin=""):
    return run_cli(main, monkeypatch, capsys, argv, stdin)


def test_a_careless_human_loses(monkeypatch, capsys):
    # Human X: (0, 0), then (2, 2) instead of blocking the computer's line.
    code, out, _ = run(monkeypatch, capsys, [], "0 0\n2 2\n0 2\n2 0\n1 0\n")
    assert code == 0
    assert "Computer (O) plays 1 1." in out
    assert out.rstrip().endswith("Computer wins.")


def test_the_computer_moves_first_when_asked(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["--first", "computer"], "1 1\n0 1\n2 0\n1 2\n")
    assert code == 0
    assert "You play O; X moves first." in out
    assert "Computer (X) plays 0 0." in out
    assert out.rstrip().endswith(("Draw.", "Computer wins."))


def test_bad_squares_are_refused_with_the_reason(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, [], "1 1\n1 1\n3 0\nx y\n1\n")
    assert code == 0
    refusals = [line.split("Not accepted: ")[1] for line in out.splitlines() if "Not accepted:" in line]
    assert refusals == [
        "that square is taken.",
        "rows and columns are numbered 0 to 2.",
        "type two numbers, row then column, e.g. '1 1'.",
        "type two numbers, row then column, e.g. '1 1'.",
    ]
    assert out.rstrip().endswith("End of input: game abandoned.")


def test_ctrl_c_ends_cleanly(monkeypatch, capsys):
    def interrupted(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupted)
    code, _, err = run(monkeypatch, capsys, [])
    assert code == 130
    assert err == "\ntictactoe: interrupted\n"


def test_choices_are_not_case_sensitive(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["--first", "Computer"], "")
    assert code == 0 and "You play O; X moves first." in out


def test_bad_argument_exits_2(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["--first", "robot"])
    assert code == 2
    assert "invalid choice: 'robot' (choose from you, computer, random)" in err and out == ""


@pytest.mark.parametrize("word, mark", [("you", "X"), ("human", "X"), ("computer", "O")])
def test_first_in_the_project_words_and_the_old_one(monkeypatch, capsys, word, mark):
    code, out, _ = run(monkeypatch, capsys, ["--first", word])
    assert code == 0 and f"You play {mark}; X moves first." in out


@pytest.mark.parametrize("drawn, mark", [("you", "X"), ("computer", "O")])
def test_random_first_player_is_drawn_and_said(monkeypatch, capsys, drawn, mark):
    monkeypatch.setattr("nim_games.tictactoe.random.choice", lambda options: drawn)
    code, out, _ = run(monkeypatch, capsys, ["--first", "random"])
    assert code == 0 and f"You play {mark} (drawn at random); X moves first." in out


def test_help_ends_with_the_exit_codes(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["--help"])
    assert code == 0 and "each 0..2" in out
    assert out.splitlines()[-1] == EXIT_CODES


def test_help_says_how_the_game_is_won(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["--help"])
    text = " ".join(out.split())
    assert code == 0 and "three in a row, a column or a diagonal wins" in text and "is a draw" in text


def test_as_a_program_at_end_of_input():
    done = subprocess.run(
        [sys.executable, "-m", "nim_games.tictactoe"],
        input="1 1\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert "End of input: game abandoned." in done.stdout
    assert done.stderr == ""
