"""The alpha-beta search against plain minimax over the reference rules."""

import functools
import random
import time

import pytest
from fruit_helpers import random_grid

import agent
from agent import rules
from agent._core import (
    EVAL_GREEDY_PAIR,
    EVAL_LARGEST_EXCHANGE,
    EVAL_NONE,
    EVAL_PAIR_EXCHANGE,
    MODEL_GREEDY,
    ORDER_ALL,
    Bitboard,
    Searcher,
)
from agent.baselines import greedy_move
from agent.evaluations import EVALUATIONS
from agent.move import timing
from agent.move.calibration import DEFAULT_NODES_PER_SECOND
from agent.move.deepening import EVALUATION_KINDS, search_options, think
from agent.players import SearchPlayer
from agent.tuning.two_ply import core_player

ORACLES = {evaluation.kind: evaluation.oracle for evaluation in EVALUATIONS}


def managed(grid, start, optimum, maximum, instant):
    """The time manager of a search of `grid` with that budget."""
    return timing.TimeManager(
        timing.Budget(start, optimum, maximum, instant), len(rules.groups(grid)), DEFAULT_NODES_PER_SECOND
    )


@functools.lru_cache(maxsize=None)
def solve(grid):
    """Plain minimax to the end of the game over the reference rules (memoised by grid:
    the value of a position does not depend on how it was reached)."""
    if rules.is_empty(grid):
        return 0
    return max(len(g) ** 2 - solve(rules.remove_and_fall(grid, g)) for g in rules.groups(grid))


def small_positions(count, seed):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        n = rng.randint(1, 5)
        grid = random_grid(rng, n, rng.randint(1, 3), 0.0 if n <= 3 else 0.45)
        if rules.fruit_count(grid) <= 14:
            positions.append(grid)
    return positions


POSITIONS = small_positions(40, seed=11)
FULL_5X5 = [random_grid(random.Random(s), 5, 3) for s in range(3)]


@pytest.mark.parametrize("grid", POSITIONS + FULL_5X5)
def test_full_depth_equals_plain_minimax_for_every_ordering_with_and_without_table(grid):
    expected = solve(grid)
    for tt_bits in (0, 16):
        for ordering in range(ORDER_ALL + 1):
            result = Searcher(Bitboard(grid), tt_bits=tt_bits, ordering=ordering).search(99)
            assert result.completed and result.exact
            assert result.value == expected, (tt_bits, ordering)
            child, points = Bitboard(grid).play(result.move)
            assert points - solve(child.rows()) == expected, "the move does not reach the value"


@pytest.mark.parametrize("grid", POSITIONS + FULL_5X5)
def test_late_move_reductions_keep_full_depth_search_exact(grid):
    """Reduced searches never stand in for a search that would reach the end of the game."""
    expected = solve(grid)
    for reduction, full_moves in ((1, 0), (2, 1), (2, 4), (3, 2)):
        for tt_bits in (0, 16):
            result = Searcher(Bitboard(grid), tt_bits=tt_bits, reduction=reduction, full_moves=full_moves).search(99)
            assert result.exact and result.value == expected, (reduction, full_moves)
            child, points = Bitboard(grid).play(result.move)
            assert points - solve(child.rows()) == expected


@pytest.fixture
def deepening_only(monkeypatch):
    """No search to the end first: the deepening alone must reach the exact values."""
    monkeypatch.setattr(timing, "SOLVE_SHARE", 0.0)


def test_iterative_deepening_with_reductions_solves_small_positions_exactly(deepening_only):
    for grid in POSITIONS[:15] + FULL_5X5:
        now = time.process_time()
        decision = think(
            Bitboard(grid),
            managed(grid, now, now + 5, now + 10, False),
            searcher_options={"reduction": 2, "full_moves": 1},
        )
        assert decision.exact and decision.value == solve(grid)


def test_reductions_cut_the_tree_of_a_wide_position_and_are_on_for_large_boards_only():
    grid = random_grid(random.Random(8), 26, 9)
    nodes = {reduction: Searcher(Bitboard(grid), reduction=reduction).search(4).nodes for reduction in (0, 2)}
    assert nodes[2] * 5 < nodes[0], nodes
    assert search_options(26)["reduction"] > 0 and search_options(20)["reduction"] > 0
    assert "reduction" not in search_options(19) and "reduction" not in search_options(12)
    assert search_options(12, greedy_opponent=True) == {"opponent_model": MODEL_GREEDY}
    with pytest.raises(ValueError):
        Searcher(Bitboard(grid), reduction=-1)
    with pytest.raises(ValueError):
        Searcher(Bitboard(grid), full_moves=-1)
    with pytest.raises(ValueError):  # an unknown kind must not fall through to one of them
        Searcher(Bitboard(grid), eval_kind=max(evaluation.kind for evaluation in EVALUATIONS) + 1)
    with pytest.raises(ValueError):
        Searcher(Bitboard(grid), ordering=8)


def test_a_player_searches_with_the_evaluation_it_is_given_by_name():
    """Every registered evaluation can be named; the agent's own is used when none is (the
    largest exchange from 12x12 up), and a named one is the one at the horizon (depth 2:
    minimax over the rules with its oracle)."""
    assert EVALUATION_KINDS == {evaluation.name: evaluation.kind for evaluation in EVALUATIONS}
    assert search_options(26)["eval_kind"] == search_options(12)["eval_kind"] == EVAL_LARGEST_EXCHANGE
    assert search_options(11) == {} and search_options(5) == {}
    assert "eval_kind" not in search_options(26, greedy_opponent=True)
    assert search_options(26, evaluation="greedy-pair")["eval_kind"] == EVAL_GREEDY_PAIR
    assert search_options(12, evaluation="pair-exchange") == {"eval_kind": EVAL_PAIR_EXCHANGE}
    with pytest.raises(ValueError, match="pair-exchange"):
        search_options(12, evaluation="pair")
    with pytest.raises(ValueError, match="evaluation"):
        SearchPlayer(evaluation="pair")
    grid = random_grid(random.Random(3), 6, 3)
    for evaluation in EVALUATIONS:
        player = SearchPlayer(depth=2, evaluation=evaluation.name)
        player.choose(agent.Board(grid), 10.0)
        assert player.last_result.value == rules.negamax_value(grid, 2, evaluation.oracle), evaluation
        assert player.name == f"ours(depth=2,eval={evaluation.name})"
    player = core_player()
    assert player.evaluation == "pair-exchange" and player.limit is None


@pytest.mark.parametrize("grid", POSITIONS[:20])
def test_depth_limited_search_equals_depth_limited_minimax(grid):
    for depth in (1, 2, 3):
        expected = rules.negamax_value(grid, depth)
        for ordering in (0, ORDER_ALL):
            result = Searcher(Bitboard(grid), tt_bits=0, ordering=ordering, eval_kind=EVAL_NONE).search(depth)
            assert result.value == expected
        plain = Searcher(Bitboard(grid), alpha_beta=False, eval_kind=EVAL_NONE).search(depth)
        assert plain.value == expected


@pytest.mark.parametrize(
    "evaluation",
    [evaluation for evaluation in EVALUATIONS if evaluation.name != "none"],
    ids=lambda evaluation: evaluation.name,
)
def test_depth_limited_search_with_an_evaluation_equals_minimax_with_it(evaluation):
    """Also checks the frontier pruning, which relies on every evaluation being >= 0."""
    for grid in POSITIONS[:20] + FULL_5X5[:1]:
        for depth in (1, 2, 3, 4):
            expected = rules.negamax_value(grid, depth, evaluation.oracle)
            for tt_bits, ordering in ((0, 0), (0, ORDER_ALL), (16, ORDER_ALL)):
                searcher = Searcher(Bitboard(grid), tt_bits=tt_bits, ordering=ordering, eval_kind=evaluation.kind)
                assert searcher.search(depth).value == expected, (depth, tt_bits, ordering)


@pytest.mark.parametrize("size, types", [(8, 3), (10, 4), (12, 6), (14, 9)])
@pytest.mark.parametrize(
    "eval_kind, evaluate",
    [(kind, ORACLES[kind]) for kind in (EVAL_GREEDY_PAIR, EVAL_PAIR_EXCHANGE)],
)
def test_frontier_evaluation_on_larger_boards_equals_plain_minimax(size, types, eval_kind, evaluate):
    """One ply above the horizon the alpha-beta search lists only the groups that can
    raise alpha and evaluates each child once, from the summary of its groups; plain
    minimax plays and evaluates every move. Larger boards, because their many small groups
    are what the frontier leaves out (a bound gone wrong there was missed by the
    small-board tests)."""
    for seed in range(3):
        grid = random_grid(random.Random(seed), size, types, 0.3)
        board = Bitboard(grid)
        for depth in (1, 2, 3):
            plain = Searcher(board, alpha_beta=False, eval_kind=eval_kind).search(depth)
            for tt_bits, ordering in ((0, 0), (16, ORDER_ALL)):
                fast = Searcher(board, tt_bits=tt_bits, ordering=ordering, eval_kind=eval_kind)
                assert fast.search(depth).value == plain.value, (seed, depth, tt_bits)
    assert rules.negamax_value(grid, 2, evaluate) == Searcher(board, eval_kind=eval_kind).search(2).value


@pytest.mark.parametrize("size, types", [(6, 3), (9, 4)])
def test_root_windows_give_fail_soft_bounds_and_a_move_that_reaches_the_value(size, types):
    """Aspiration searches the root in a narrow window. Whatever the window, the value is
    exact inside it and a bound on the correct side outside it (fail-soft), and a value
    inside comes with a root move that reaches it. Depth 1 is its own case: the root is
    then the frontier, which leaves small groups unplayed."""
    evaluate = rules.greedy_pair_value
    for seed in range(4):
        grid = random_grid(random.Random(seed), size, types, 0.2)
        for depth in (1, 2):
            true = rules.negamax_value(grid, depth, evaluate)
            for alpha, beta in (
                (true - 40, true + 40),
                (true - 1, true + 1),
                (true, true + 1),
                (true - 1, true),
                (true + 5, true + 60),
                (true - 60, true - 5),
            ):
                result = Searcher(Bitboard(grid), tt_bits=16, eval_kind=EVAL_GREEDY_PAIR).search(depth, alpha, beta)
                value = result.value
                if true <= alpha:
                    assert true <= value <= alpha, (seed, depth, alpha, beta)
                elif true >= beta:
                    assert beta <= value <= true, (seed, depth, alpha, beta)
                else:
                    assert value == true, (seed, depth, alpha, beta)
                    child, points = Bitboard(grid).play(result.move)
                    assert points - rules.negamax_value(child.rows(), depth - 1, evaluate) == true


@pytest.mark.parametrize("seed", range(6))
def test_depth_limited_with_table_on_boards_that_cannot_end(seed):
    """With no position solvable within the depth, table or not gives the same value."""
    grid = random_grid(random.Random(seed), 7, 4)
    board = Bitboard(grid)
    for depth in (1, 2, 3):
        plain = Searcher(board, alpha_beta=False, eval_kind=EVAL_NONE).search(depth).value
        for ordering in (0, ORDER_ALL):
            with_table = Searcher(board, tt_bits=16, ordering=ordering, eval_kind=EVAL_NONE)
            assert with_table.search(depth).value == plain


@pytest.mark.parametrize("eval_kind", [evaluation.kind for evaluation in EVALUATIONS])
def test_evaluation_never_changes_an_exact_result(eval_kind):
    for grid in POSITIONS[:15]:
        result = Searcher(Bitboard(grid), eval_kind=eval_kind).search(99)
        assert result.exact and result.value == solve(grid)


def test_iterative_deepening_solves_small_positions_exactly(deepening_only):
    for grid in POSITIONS[:15]:
        now = time.process_time()
        decision = think(Bitboard(grid), managed(grid, now, now + 5, now + 10, False))
        assert decision.exact and decision.value == solve(grid)
        assert [iteration.depth for iteration in decision.iterations][:2] in ([1], [1, 2])  # deepened
        cell = decision.move
        assert grid[cell[0]][cell[1]] != rules.EMPTY


def test_a_clock_that_affords_the_solve_gets_the_exact_value_right_after_the_one_ply_search():
    for grid in POSITIONS[:15]:
        now = time.process_time()
        decision = think(Bitboard(grid), managed(grid, now, now + 5, now + 10, False))
        assert decision.exact and decision.value == solve(grid)
        depths = [iteration.depth for iteration in decision.iterations]
        assert depths == [1] if decision.iterations[0].exact else depths == [1, Bitboard(grid).fruit]


def test_a_deadline_in_the_past_stops_the_search_but_a_move_is_still_legal():
    grid = random_grid(random.Random(3), 26, 9)
    searcher = Searcher(Bitboard(grid))
    result = searcher.search(6, deadline=0.0)
    assert not result.completed
    decision = think(Bitboard(grid), managed(grid, 0.0, 0.0, 0.0, False))
    assert decision.depth == 1
    assert grid[decision.move[0]][decision.move[1]] != rules.EMPTY


class SearcherOutOfMemoryFrom:
    """A real searcher whose move lists cannot grow past `depth` plies, as under a memory cap."""

    def __init__(self, searcher, depth):
        self.searcher = searcher
        self.depth = depth

    def search(self, depth, *args):
        if depth >= self.depth:
            raise MemoryError("move lists")
        return self.searcher.search(depth, *args)


def test_no_memory_for_a_deeper_iteration_plays_the_move_found(monkeypatch):
    import agent.move.deepening

    real = agent.move.deepening.new_searcher
    monkeypatch.setattr(
        agent.move.deepening, "new_searcher", lambda *args: SearcherOutOfMemoryFrom(real(*args), depth=3)
    )
    grid = random_grid(random.Random(4), 12, 4)
    now = time.process_time()
    decision = think(Bitboard(grid), managed(grid, now, now + 5, now + 10, False))
    assert decision.depth == 2
    assert grid[decision.move[0]][decision.move[1]] != rules.EMPTY


def test_principal_variation_is_a_legal_line():
    grid = random_grid(random.Random(5), 6, 3)
    searcher = Searcher(Bitboard(grid))
    searcher.search(4)
    line = searcher.principal_variation(4)
    assert line
    for cell in line:
        assert grid[cell[0]][cell[1]] != rules.EMPTY
        grid = rules.play(grid, cell)[0]


@functools.lru_cache(maxsize=None)
def minimax_against_greedy(grid, depth, evaluate=None, our_turn=True):
    """Plain minimax, except that the opponent takes a largest group (of several, the one
    worst for us): the oracle for MODEL_GREEDY. Negamax form, the mover's view; memoised."""
    if rules.is_empty(grid):
        return 0
    if depth == 0:
        return evaluate(grid) if evaluate else 0
    moves = rules.groups(grid)
    if not our_turn:
        largest = max(len(g) for g in moves)
        moves = [g for g in moves if len(g) == largest]
    return max(
        len(g) ** 2 - minimax_against_greedy(rules.remove_and_fall(grid, g), depth - 1, evaluate, not our_turn)
        for g in moves
    )


@pytest.mark.parametrize("grid", POSITIONS[:25] + FULL_5X5)
def test_search_against_a_modelled_greedy_opponent_equals_its_minimax(grid):
    exact = minimax_against_greedy(grid, 99)
    for tt_bits in (0, 16):
        for ordering in (0, ORDER_ALL):
            searcher = Searcher(Bitboard(grid), tt_bits=tt_bits, ordering=ordering, opponent_model=MODEL_GREEDY)
            result = searcher.search(99)
            assert result.exact and result.value == exact, (tt_bits, ordering)
            child, points = Bitboard(grid).play(result.move)
            assert points - minimax_against_greedy(child.rows(), 99, our_turn=False) == exact
    assert exact >= solve(grid)  # a greedy opponent can only do worse than the best one
    for depth in (1, 2, 3, 4):
        expected = minimax_against_greedy(grid, depth, rules.greedy_pair_value)
        for tt_bits in (0, 16):
            searcher = Searcher(Bitboard(grid), tt_bits=tt_bits, opponent_model=MODEL_GREEDY)
            assert searcher.search(depth).value == expected, (depth, tt_bits)


def game_against_greedy(grid, greedy_opponent):
    """Greedy moves first; ours, told or not that it plays a greedy player, replies with a
    search long enough to solve these boards. Returns our final margin."""
    margin, ours = 0, False
    while not rules.is_empty(grid):
        if ours:
            now = time.process_time()
            cell = think(
                Bitboard(grid),
                managed(grid, now, now + 5, now + 10, False),
                searcher_options=search_options(5, greedy_opponent),
            ).move
        else:
            cell = greedy_move(grid)
        grid, points = rules.play(grid, cell)
        margin += points if ours else -points
        ours = not ours
    return margin


def test_told_its_opponent_is_greedy_the_agent_gets_what_the_model_promised():
    better = 0
    for seed in range(12):
        start = random_grid(random.Random(seed), 5, 4)
        after_greedy, points = rules.play(start, greedy_move(start))
        # the searches' exact values (each tested against its oracle above)
        promised = Searcher(Bitboard(after_greedy), opponent_model=MODEL_GREEDY).search(99).value
        best_reply = Searcher(Bitboard(after_greedy)).search(99).value
        modelled = game_against_greedy(start, greedy_opponent=True)
        # greedy's own choice among equal groups can only help us
        assert modelled >= promised - points >= best_reply - points
        better += modelled > game_against_greedy(start, greedy_opponent=False)
    assert better >= 1, "the model never made a difference"
    with pytest.raises(ValueError):
        Searcher(Bitboard(start), opponent_model=7)
