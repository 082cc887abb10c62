"""`fruit-rage play` and `replay` at a real terminal: a pseudo-terminal of 24 rows and 80
columns, the program reading and writing it as it would a person's."""

from __future__ import annotations

import re

import pytest
from arena_helpers import fruit_rage
from pty_helpers import COLUMNS, ROWS, Terminal
from screen_helpers import colours_are_the_fruit_s, plain, read_board

from agent.arena.terminal.play_screen import ALTERNATE_SCREEN, HOME_AND_CLEAR, NORMAL_SCREEN
from agent.baselines import greedy_move
from agent.board import Board
from agent.rules import move_name, play

pytestmark = pytest.mark.slow


@pytest.fixture
def terminal():
    opened = []

    def start(*args, **options):
        opened.append(Terminal(*args, **options))
        return opened[-1]

    yield start
    for session in opened:
        if session.process.poll() is None:
            session.close()


# The prompt's end: reading only to "Your move" can stop before the clock that follows it.
YOUR_MOVE = " left): "


def last_screen(shown: str) -> str:
    """What is on the terminal after the last redraw: everything since it cleared."""
    return shown[shown.rindex(HOME_AND_CLEAR) + len(HOME_AND_CLEAR) :]


def test_play_ends_when_your_clock_runs_out_with_one_message_and_the_score(terminal):
    session = terminal("play", "--size", 3, "--types", 2, "--seed", 1, "--agent", "greedy", "--time", 1)
    shown, code = session.finish()  # nothing is typed: the clock alone must end the game
    shown = plain(shown)
    assert code == 0, shown
    assert "Your move (1.0 s left): " in shown
    assert shown.count("ran out of time") == 1 and "wins" not in shown
    message = "You lose: you ran out of time, no move within the 1.0 s left. Final score: you 0, agent 0."
    assert message in " ".join(shown.split())  # wrapped to the terminal's width


def test_play_at_a_terminal_shows_the_agent_thinking_then_its_group_highlighted(terminal):
    session = terminal("play", "--size", 3, "--types", 2, "--seed", 1, "--agent", "greedy", "--first", "computer")
    shown = session.read_until(YOUR_MOVE)
    assert "is thinking" in plain(shown)  # the spinner's line
    styles = [set(codes.split(";")) for codes in re.findall(r"\x1b\[([0-9;]*)m", shown)]
    assert any({"4", "7"} <= style for style in styles)  # the group it took, swapped and underlined
    assert "Agent (greedy) played" in plain(shown)
    session.type("q\n")
    shown, code = session.finish()
    assert code == 0 and plain(shown).rstrip().endswith("Game abandoned.")


@pytest.mark.parametrize("no_color", [False, True])
def test_a_26x26_board_is_whole_on_a_24x80_screen_every_cell_readable_and_redrawn_in_place(terminal, no_color):
    grid = Board.random(3, 26, 9).rows
    session = terminal("play", "--size", 26, "--types", 9, "--seed", 3, "--agent", "greedy", no_color=no_color)
    screens = []
    for typed in (move_name(greedy_move(grid)), "q"):
        screens.append(last_screen(session.read_until(YOUR_MOVE)))
        session.type(typed + "\n")
    shown, code = session.finish()
    assert code == 0 and plain(shown).rstrip().endswith("Game abandoned.")
    mine = play(grid, greedy_move(grid))[0]
    after_both = play(mine, greedy_move(mine))[0]
    for screen, expected in zip(screens, (grid, after_both)):
        lines = screen.split("\n")
        assert len(lines) <= ROWS and all(len(plain(line)) <= COLUMNS for line in lines), plain(screen)
        assert read_board(screen, 26) == expected  # every row, every cell's digit
        assert ("\x1b[" not in plain(screen)) and (("48;5;" in screen) != no_color)
        assert colours_are_the_fruit_s(screen)
        # one clock, one format: the score line's clock is the prompt's
        clock = re.search(r"Clock: you ([0-9.]+ s), agent", plain(screen)).group(1)
        assert plain(screen).rstrip().endswith(f"Your move ({clock} left):")
    # drawn in place on the alternate screen, which is left at the end
    assert shown.index(ALTERNATE_SCREEN) < shown.index(HOME_AND_CLEAR) and shown.rindex(NORMAL_SCREEN) > shown.rindex(
        HOME_AND_CLEAR
    )
    assert "Agent (greedy) played" in plain(screens[1])


def test_replay_at_a_terminal_steps_back(terminal, tmp_path):
    out = tmp_path / "results.jsonl"
    assert (
        fruit_rage(
            "match",
            "greedy",
            "random",
            "--games",
            1,
            "--size",
            4,
            "--types",
            3,
            "--time",
            10,
            "--seed",
            4,
            "--out",
            out,
        ).returncode
        == 0
    )
    session = terminal("replay", out)
    for typed in ("\n", "b\n"):
        session.read_until("q quits: ")
        session.type(typed)
    session.read_until("q quits: ")
    session.type("q\n")
    shown, code = session.finish()
    moves = [line.split(":")[0] for line in plain(shown).split("\n") if line.startswith("Move ")]
    assert code == 0 and moves == ["Move 1", "Move 2", "Move 1"]


def test_play_wraps_a_refused_move_s_message_to_the_screen_s_width(terminal):
    session = terminal("play", "--size", 3, "--types", 2, "--seed", 1, "--agent", "greedy")
    session.read_until(YOUR_MOVE)
    session.type("hello there\n")
    screen = plain(last_screen(session.read_until(YOUR_MOVE)))
    session.type("q\n")
    _, code = session.finish()
    lines = screen.split("\n")
    assert code == 0 and len(lines) <= ROWS and all(len(line) <= COLUMNS for line in lines), screen
    told = " ".join(line.strip() for line in lines)
    expected = "not a cell name: 'HELLO THERE' (expected a column letter and a row number, like G8); try again."
    assert expected in told, screen


def test_replay_at_a_terminal_opens_with_its_legend_in_one_line(terminal, tmp_path):
    out = tmp_path / "results.jsonl"
    made = fruit_rage("match", "greedy", "random", "--games", 1, "--size", 4, "--types", 3, "--seed", 4, "--out", out)
    assert made.returncode == 0, made.stderr
    shown, code = terminal("replay", out, "--delay", 0).finish()
    lines = plain(shown).split("\n")
    legend = "Digits are fruit, * a hole; the next move's group is reversed and underlined."
    assert code == 0 and lines.count(legend) == 1 and all(len(line) <= COLUMNS for line in lines), plain(shown)
