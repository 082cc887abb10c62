"""The game manager's rules: the growing limit, one-move resets, time, and how games end."""

import pytest

from nim_games.expanding.rules import Game, GameConfig, Move


def new_game(stones=20, resets=1, init_max=3, time_budget=10.0):
    return Game(GameConfig(stones, resets, init_max, time_budget), ("alice", "bob"))


def test_limit_grows_past_the_largest_take_and_never_shrinks():
    game = new_game()
    assert game.current_max == 3
    game.play(Move(3), 0.1)
    assert game.current_max == 4 and game.turn == 1
    game.play(Move(1), 0.1)
    assert game.current_max == 4  # the largest take so far is still 3
    game.play(Move(4), 0.1)
    assert game.current_max == 5


def test_reset_limits_only_the_next_move_to_m():
    game = new_game()
    game.play(Move(3), 0)
    game.play(Move(4, reset=True), 0)
    assert game.current_max == 3 and game.players[1].resets_left == 0
    game.play(Move(2), 0)
    assert game.current_max == 5  # back to 1 + the largest take (4)


def test_taking_more_than_remain_takes_them_all_and_wins():
    game = new_game(stones=5)
    game.play(Move(3), 0)
    game.play(Move(3), 0)
    assert game.stones_left == 0 and game.last_removed == 2
    assert game.finished and game.winner == 1 and game.reason == "bob took the last stone"


@pytest.mark.parametrize(
    "move, reason",
    [
        (Move(0), "alice took 0 stones; a move takes at least 1"),
        (Move(-1), "alice took -1 stones; a move takes at least 1"),
        (Move(4), "alice took 4 stones, more than the limit of 3"),
    ],
)
def test_illegal_takes_lose(move, reason):
    game = new_game()
    game.play(move, 0)
    assert (game.winner, game.reason, game.stones_left) == (1, reason, 20)


def test_reset_with_none_left_loses():
    game = new_game(resets=0)
    game.play(Move(1, reset=True), 0)
    assert (game.winner, game.reason) == (1, "alice used a reset with none left")


def test_time_is_cumulative_and_exceeding_it_loses():
    game = new_game(time_budget=1.0)
    game.play(Move(1), 0.6)
    game.play(Move(1), 0.1)
    game.play(Move(1), 0.5)
    assert (game.winner, game.reason) == (1, "alice ran out of time (1 s budget)")
    assert game.state()["player_0"]["time_taken"] == 1.1


def test_state_message_has_every_field():
    game = new_game(stones=4, resets=2)
    game.play(Move(2, reset=True), 0.25)
    assert game.state() == {
        "finished": False,
        "current_max": 3,
        "stones_left": 2,
        "stones_removed": 2,
        "reset_used": True,
        "player_0": {"name": "alice", "resets_left": 1, "time_taken": 0.25},
        "player_1": {"name": "bob", "resets_left": 2, "time_taken": 0.0},
    }
    game.forfeit(1, "disconnected")
    state = game.state()
    assert state["finished"] and state["winner"] == "alice" and state["reason"] == "bob disconnected"


@pytest.mark.parametrize("args", [(0, 1), (5, -1), (5, 1, 0), (5, 1, 3, 0.0)])
def test_config_rejects_bad_values(args):
    with pytest.raises(ValueError):
        GameConfig(*args)
