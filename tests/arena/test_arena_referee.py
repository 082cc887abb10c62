"""The referee's rules, with scripted agents run as real processes."""

from __future__ import annotations

import io
import random
import re

import pytest
from arena_helpers import scripted_agent

from agent.arena.command_player import CommandPlayer
from agent.arena.matches.games import MatchSettings, first_mover, play_match_game
from agent.arena.player_specs import PlayerSpec
from agent.arena.processes.move_runner import _last_line
from agent.arena.processes.referee_clock import RefereeClock
from agent.arena.referee import FAULT_INVALID, FAULT_TIME, Turn, decide, play_game
from agent.arena.turns import FAULT_STALLED, check_output
from agent.board import Board
from agent.rules import parse_move_name, play, random_board

TINY = dict(games=1, size=4, types=3, time=5.0, seed=7)


def game(agent_a: str, agent_b: str, grace: float = 10.0, game_number: int = 1, **settings) -> dict:
    options = {**TINY, **settings}
    clock = RefereeClock(grace=grace)
    factories = (PlayerSpec(agent_a, clock=clock), PlayerSpec(agent_b, clock=clock))
    return play_match_game(MatchSettings(**options), game_number, factories, clock).to_json()


def test_greedy_against_random_plays_to_the_end():
    record = game("greedy", "random")
    assert record["winner"] in ("A", "B") and record["fault"] is None
    assert record["reason"].startswith("score")
    assert sum(move["points"] for move in record["moves"]) == sum(record["scores"].values())
    assert all(move["cpu"] > 0 for move in record["moves"])
    grid = tuple(record["board"])
    for move in record["moves"]:  # every recorded move replays legally to an empty box
        grid, points = play(grid, parse_move_name(move["move"]))
        assert points == move["points"]
    assert all(ch == "*" for row in grid for ch in row)


def test_cpu_over_the_remaining_time_loses_on_time(tmp_path):
    record = game(scripted_agent(tmp_path, "burn", 0.5), "greedy", time=0.3)
    assert record["winner"] == "B" and record["fault"] == FAULT_TIME
    assert "ran out of time" in record["reason"]
    last = record["moves"][-1]
    assert last["player"] == "A" and last["cpu"] >= 0.3 and record["clocks"]["A"] <= 0


def test_a_clock_too_small_for_input_txt_is_a_time_loss_without_a_run():
    # "T=0" in input.txt would be refused as an invalid file: the move is lost on time
    player = CommandPlayer("sh -c 'exit 3'")
    move = player.take_turn(Board(random_board(1, 3, 2), 2), 4e-7)
    assert move.fault == FAULT_TIME and move.seconds == 0.0
    assert move.reason == "ran out of time: 4.0e-07 s left, below input.txt's microsecond"
    assert player.take_turn(Board(random_board(1, 3, 2), 2), 6e-7).seconds > 0  # "0.000001": it runs


def test_a_sleeping_agent_is_stopped_by_the_watchdog_after_its_clock_and_grace(tmp_path):
    record = game("greedy", scripted_agent(tmp_path, "hang"), grace=0.5, time=0.3)
    assert record["winner"] == "A" and record["fault"] == FAULT_STALLED
    assert re.match(r"stopped: used 0\.\d s of CPU in \d+\.\d s of wall time", record["reason"])
    assert record["reason"].endswith("(asleep, blocked or stopped)")
    assert record["moves"][-1]["cpu"] < 0.3  # charged its CPU, within its clock: no time loss


@pytest.mark.parametrize(
    "script, reason",
    [
        ("crash", "no output.txt (exit code 1: RuntimeError: scripted crash)"),
        ("garbage", "garbled output.txt: expected a move and 4 rows, got 1 line"),
        ("wrong_board", "wrong board after"),
        ("empty_cell", "is an empty cell"),
        ("fifo_answer", "output.txt is not a regular file (exit code 0)"),  # not a wait for a writer
        ("device_answer", "output.txt is not a regular file (exit code 0)"),
    ],
)
def test_a_bad_answer_loses(tmp_path, script, reason):
    # a game where B moves first, so the scripted A always sees holes in the board
    b_first = 1 if first_mover(TINY["seed"], 1) == "B" else 2
    record = game(scripted_agent(tmp_path, script), "greedy", game_number=b_first)
    assert record["first"] == "B"
    assert record["winner"] == "B" and record["fault"] == FAULT_INVALID
    assert reason in record["reason"]
    assert record["moves"][-1]["reason"] == record["reason"]


def test_only_the_end_of_a_chatty_move_s_stderr_is_read():
    class RecordedReads(io.BytesIO):
        read_sizes = []

        def read(self, *args):
            data = super().read(*args)
            self.read_sizes.append(len(data))
            return data

    stderr = RecordedReads(b"debug line\n" * 500_000 + b"Traceback ...\nValueError: the last words\n\n")
    assert _last_line(stderr) == "ValueError: the last words"
    assert max(stderr.read_sizes) <= 4000  # not the 5.5 MB before it


def test_a_command_that_does_not_exist_loses():
    # past the match's check of the program (sh is found): only running it tells
    record = game("greedy", "sh -c 'no-such-fruit-rage-agent --please'")
    assert record["winner"] == "A" and record["fault"] == FAULT_INVALID
    assert "command not found" in record["reason"]


def test_equal_scores_go_to_the_player_with_more_time_left(tmp_path):
    # 01/10: four single fruit whichever way greedy plays, so 2 points each
    grid = ("01", "10")
    players = [CommandPlayer("greedy"), CommandPlayer(scripted_agent(tmp_path, "burn", 0.3))]
    for first in ("A", "B"):
        result = play_game(*players, Board(grid, 2), (10.0, 10.0), first)
        assert result.scores == {"A": 2, "B": 2}
        assert result.winner == "A" and result.fault is None
        assert result.reason.startswith("tied at 2, more time left")


def test_decide():
    assert decide([10, 4], [1.0, 9.0]) == (0, "score 10 to 4")
    assert decide([4, 4], [1.0, 9.0])[0] == 1
    assert decide([4, 4], [2.5, 2.5]) == (None, "tied at 4 with equal time left")


class ScriptedTurns:
    """A player that charges itself: `turn(grid, time_left)` gives each of its Turns."""

    def __init__(self, turn):
        self.turn = turn

    def take_turn(self, board, time_left):
        return self.turn(board.rows, time_left)


def test_time_is_charged_even_for_a_legal_move_and_zero_loses():
    def never_called(grid, time_left):
        raise AssertionError("the game is over")

    exact_clock = ScriptedTurns(lambda grid, time_left: Turn(time_left, "A1", *play(grid, (0, 0))))
    result = play_game(exact_clock, ScriptedTurns(never_called), Board(("00", "11"), 2), (1.0, 1.0), "A")
    assert result.winner == "B" and result.fault == FAULT_TIME and result.scores == {"A": 0, "B": 0}


def test_a_garbled_answer_is_invalid_in_time_and_a_time_loss_past_it():
    def garbled_after(overrun):
        return ScriptedTurns(
            lambda grid, time_left: Turn(time_left + overrun, fault=FAULT_INVALID, reason="garbled output.txt")
        )

    in_time = play_game(garbled_after(-0.5), None, Board(("00", "11"), 2), (1.0, 1.0), "A")
    assert in_time.winner == "B" and in_time.fault == FAULT_INVALID
    assert in_time.reason == "garbled output.txt"
    late = play_game(garbled_after(0.5), None, Board(("00", "11"), 2), (1.0, 1.0), "A")
    assert late.winner == "B" and late.fault == FAULT_TIME
    assert late.reason == "ran out of time: used 1.500 s with 1.000 s left"


def test_each_player_starts_with_its_own_clock():
    def one_second(grid, time_left):
        cell = next((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "*")
        return Turn(1.0, "A1", *play(grid, cell))

    players = [ScriptedTurns(one_second), ScriptedTurns(one_second)]
    board = Board(("00", "11"), 2)
    a_short = play_game(*players, board, (0.5, 5.0), "A")
    assert a_short.winner == "B" and a_short.fault == FAULT_TIME
    b_short = play_game(*players, board, (5.0, 0.5), "A")
    assert b_short.winner == "A" and b_short.fault == FAULT_TIME and b_short.clocks == {"A": 4.0, "B": -0.5}
    both = play_game(*players, board, (5.0, 2.0), "A")
    assert both.fault is None and both.clocks == {"A": 4.0, "B": 1.0}


def test_first_player_alternates_and_game_one_is_drawn_from_the_seed():
    for seed in range(5):
        firsts = [first_mover(seed, k) for k in range(1, 7)]
        assert firsts[0] == "AB"[random.Random(seed).randrange(2)]
        assert all(a != b for a, b in zip(firsts, firsts[1:]))


def test_seeds_reproduce_boards():
    assert random_board(12, 5, 3) == random_board(12, 5, 3)
    assert random_board(12, 5, 3) != random_board(13, 5, 3)
    board = random_board(12, 26, 9)
    assert len(board) == 26 and all(len(row) == 26 and set(row) <= set("012345678") for row in board)
    record = game("greedy", "greedy", game_number=3)
    assert tuple(record["board"]) == random_board(record["seed"], 4, 3)


def test_check_output_accepts_exactly_the_right_answer():
    grid = ("3102", "0121", "3021", "0221")
    after, points = play(grid, (3, 1))
    assert check_output(grid, "C2\n" + "\n".join(after) + "\n") == ("C2", after, points)
    assert check_output(grid, "b4\r\n" + "\r\n".join(after))[1] == after  # any cell of the group
    for text, reason in [
        ("E1\n" + "\n".join(after), "off the 4x4 board"),
        ("C2\n" + "\n".join(grid), "wrong board"),
        ("C\u0662\n" + "\n".join(after), "not a cell name"),  # an Arabic-Indic 2
        ("", "garbled"),
    ]:
        with pytest.raises(ValueError, match=reason):
            check_output(grid, text)
