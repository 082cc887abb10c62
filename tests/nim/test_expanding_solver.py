"""The perfect player: solver vs a plain search, the reference values, and play against random."""

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nim_games.expanding.players import MOVE_OVERHEAD, Tracker, computer_chooser, think_time
from nim_games.expanding.rules import Game, GameConfig, Move
from nim_games.expanding.solver import Position, Solver, start_position


def plain_search_wins(stones, largest, pending, resets, m):
    """Whether the mover wins, by plain recursion (no memo) written straight from the rules.

    `largest` is the largest take so far, `pending` whether the last move used a reset,
    `resets` the (mover's, opponent's) resets left.
    """
    cap = m if pending else max(m, largest + 1)
    for take in range(1, cap + 1):
        if take >= stones:
            return True
        for reset in (False, True)[: 1 + (resets[0] > 0)]:
            if not plain_search_wins(stones - take, max(largest, take), reset, (resets[1], resets[0] - reset), m):
                return True
    return False


@pytest.mark.parametrize("m", [2, 3, 4])
@pytest.mark.parametrize("r", [0, 1])
def test_solver_agrees_with_plain_search_on_every_start(m, r):
    solver = Solver(m)
    for n in range(1, 21):
        assert solver.wins(start_position(n, r, m)) == plain_search_wins(n, 0, False, (r, r), m), n


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 14), st.integers(0, 6), st.booleans(), st.integers(0, 2), st.integers(0, 2), st.integers(2, 3))
def test_solver_agrees_with_plain_search_mid_game(stones, largest, pending, mine, theirs, m):
    limit = max(m, largest + 1)
    position = Position(stones, limit, pending, mine, theirs)
    assert Solver(m).wins(position) == plain_search_wins(stones, largest, pending, (mine, theirs), m)


def test_reference_losing_starts_of_the_original_assignment():
    solver = Solver(3)
    no_resets = [n for n in range(1, 49) if not solver.wins(start_position(n, 0, 3))]
    assert no_resets == [4, 7, 10, 13, 17, 21, 25, 28, 31, 35, 38, 41, 44, 48]
    one_reset = [n for n in range(1, 33) if not solver.wins(start_position(n, 1, 3))]
    assert one_reset == [4, 8, 11, 14, 17, 21, 25, 29, 32]


def test_deep_games_do_not_hit_the_recursion_limit():
    """1100 stones solved at once (a recursive search would pass Python's limit of 1000
    frames) agrees with the same start solved bottom-up, one stone count at a time."""
    at_once = Solver(3).wins(start_position(1100, 0, 3))
    bottom_up = Solver(3)
    for stones in range(1, 1101):
        value = bottom_up.wins(start_position(stones, 0, 3))
    assert at_once == value


def play_out(config, computer_order, rng):
    """Computer (via the client-side Tracker, as exp-nim --auto) against a random legal player.

    Returns the winner's name and whether the computer ever had a winning position on move.
    """
    game = Game(config, ("computer", "random") if computer_order == 0 else ("random", "computer"))
    tracker = Tracker(computer_order, config.stones, config.resets, config.init_max)
    choose = computer_chooser(config.init_max)
    solver = Solver(config.init_max)
    had_winning_position = False
    while not game.finished:
        if game.turn == computer_order:
            had_winning_position |= solver.wins(tracker.position())
            move = choose(tracker)
        else:
            can_reset = game.players[game.turn].resets_left > 0
            move = Move(rng.randint(1, game.current_max), can_reset and rng.random() < 0.3)
        assert game.illegal_reason(move) is None, (move, game.state())
        game.play(move, 0.0)
        tracker.update(game.state())
    return game.players[game.winner].name, had_winning_position


@pytest.mark.parametrize("resets", [0, 1, 2])
def test_computer_wins_every_winning_start_against_random(resets):
    rng = random.Random(resets)
    solver = Solver(3)
    for stones in range(1, 31):
        config = GameConfig(stones, resets, 3, 10.0)
        if solver.wins(start_position(stones, resets, 3)):
            for _ in range(5):
                assert play_out(config, 0, rng)[0] == "computer", (stones, resets)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 60), st.integers(0, 2), st.integers(2, 4), st.integers(0, 1), st.randoms(use_true_random=False))
def test_computer_never_loses_from_a_winning_position(stones, resets, m, order, rng):
    winner, had_winning_position = play_out(GameConfig(stones, resets, m, 10.0), order, rng)
    if had_winning_position:
        assert winner == "computer"


def test_lost_position_prolongs_the_game():
    solver = Solver(3)
    assert not solver.wins(start_position(7, 0, 3))
    assert solver.best_move(start_position(7, 0, 3)) == Move(1, False)  # 6 left, limit 3


@given(st.integers(2, 25), st.integers(3, 12), st.booleans(), st.integers(0, 2), st.integers(0, 2))
def test_lost_position_avoids_an_immediate_loss_when_it_can(stones, limit, pending, mine, theirs):
    solver = Solver(3)
    position = Position(stones, limit, pending, mine, theirs)
    if solver.wins(position):
        return
    move = solver.best_move(position)
    options = dict(solver.moves(position))
    assert move in options

    def loses_at_once(child):
        return solver.move_cap(child) >= child.stones

    if not all(loses_at_once(child) for child in options.values()):
        assert not loses_at_once(options[move])


def test_out_of_time_keeps_what_was_proved():
    """Solves cut off at once, many times over, leave a memo that still agrees with plain search."""
    solver = Solver(3)
    for stones in range(30, 400, 7):
        move = solver.best_move(start_position(stones, 2, 3), deadline=time.monotonic())
        assert move in dict(solver.moves(start_position(stones, 2, 3)))
    for n in range(1, 21):
        for resets in (0, 1):
            expected = plain_search_wins(n, 0, False, (resets, resets), 3)
            assert solver.wins(start_position(n, resets, 3)) == expected, (n, resets)


def test_out_of_time_still_takes_a_win_in_one():
    solver = Solver(3)
    position = Position(5000, 5000, False, 3, 3)  # everything may be taken: a win in one
    assert solver.best_move(position, deadline=time.monotonic() - 1) == Move(5000, False)


class ListingSolver(Solver):
    """Counts the moves the solver lists."""

    listed = 0

    def moves(self, position):
        options = super().moves(position)
        self.listed += len(options)
        return options


def test_a_win_in_one_is_taken_without_listing_every_take():
    """`start-game 100000 1 -m 100000`: all may be taken at once. Listing the 200000 takes
    first cost seconds at a million, far past the move's share of the clock."""
    solver = ListingSolver(100_000)
    position = Position(100_000, 100_000, False, 1, 1)
    assert solver.best_move(position, deadline=time.monotonic()) == Move(100_000, False)
    assert solver.listed == 0


@pytest.mark.parametrize("stones", [1, 2, 3, 10, 101, 1000, 10_000])
@pytest.mark.parametrize("time_left", [0.0, 0.01, 0.5, 5.0, 120.0, 600.0])
def test_thinking_for_every_move_to_come_fits_the_clock(stones, time_left):
    most_moves = (stones + 1) // 2
    per_move = think_time(time_left, stones)
    assert per_move >= 0
    assert most_moves * (per_move + MOVE_OVERHEAD) <= max(time_left, most_moves * MOVE_OVERHEAD)


def test_a_game_too_large_to_solve_is_played_within_the_clock():
    """1000 stones and 3 resets each (the solver needs minutes for the first move): two
    computer players with 3 s each finish the game, neither out of time."""
    config = GameConfig(1000, 3, 3, 3.0)
    game = Game(config, ("a", "b"))
    trackers = [Tracker(order, 1000, 3, 3) for order in (0, 1)]
    choosers = [computer_chooser(3, config.time_budget) for _ in (0, 1)]
    while not game.finished:
        mover = game.turn
        started = time.monotonic()
        move = choosers[mover](trackers[mover])
        game.play(move, time.monotonic() - started)
        for tracker in trackers:
            tracker.update(game.state())
    assert game.reason.endswith("took the last stone")
    assert all(player.time_taken < config.time_budget for player in game.players)
