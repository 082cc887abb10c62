"""The search's shortcuts near a horizon worth 0 and near the end of the game, against plain
minimax: the nodes two plies above the horizon valued from group sizes (no node below them),
the bound of each type's fruit squared in searches to the end, and the one search to the end
that replaces the deepening when a position can be solved."""

import functools
import random
import time

import pytest
from fruit_helpers import random_grid

from agent import Board as LibraryBoard
from agent import Limit, rules, search
from agent._core import EVAL_NONE, ORDER_ALL, ORDER_SIZE, ORDER_TT, Bitboard, Searcher
from agent.move import timing
from agent.move.deepening import think


@functools.lru_cache(maxsize=None)
def solve(grid):
    """Plain minimax to the end over the reference rules, memoised by grid."""
    if rules.is_empty(grid):
        return 0
    return max(len(g) ** 2 - solve(rules.remove_and_fall(grid, g)) for g in rules.groups(grid))


@pytest.mark.parametrize(
    "size, types, emptiness, depths", [(8, 3, 0.4, (2, 3, 4)), (12, 5, 0.5, (2, 3)), (16, 9, 0.7, (2, 3))]
)
def test_two_plies_above_a_horizon_worth_0_equal_plain_minimax(size, types, emptiness, depths):
    """Larger boards, many groups: most moves of a node two plies up are settled by the
    bound of the largest group they leave untouched, which plain minimax never uses."""
    board = Bitboard(random_grid(random.Random(size), size, types, emptiness))
    for depth in depths:
        plain = Searcher(board, alpha_beta=False, eval_kind=EVAL_NONE).search(depth)
        for tt_bits, ordering in ((0, ORDER_ALL), (16, ORDER_ALL), (16, ORDER_TT | ORDER_SIZE), (0, 0)):
            fast = Searcher(board, tt_bits=tt_bits, ordering=ordering, eval_kind=EVAL_NONE).search(depth)
            assert fast.value == plain.value, (depth, tt_bits, ordering)
        child, points = board.play(fast.move)
        if child.fruit:
            reached = points - Searcher(child, alpha_beta=False, eval_kind=EVAL_NONE).search(depth - 1).value
            assert reached == plain.value, "the move does not reach the value"


@pytest.mark.parametrize("seed", (2, 4, 6))
def test_full_boards_whose_largest_groups_lie_in_a_moves_band_equal_plain_minimax(seed):
    """Full 10x10 boards of three types: a move's band often holds every group of the node's
    summary of its largest, and the largest reply is then read from a walk of the band when
    it is at least as large as all of those, else from a walk of the whole board (a reply
    census that skipped the walks gets these three boards wrong)."""
    board = Bitboard(random_grid(random.Random(seed), 10, 3, 0.0))
    plain = Searcher(board, alpha_beta=False, eval_kind=EVAL_NONE).search(3)
    for tt_bits, ordering in ((16, ORDER_ALL), (0, 0)):
        fast = Searcher(board, tt_bits=tt_bits, ordering=ordering, eval_kind=EVAL_NONE).search(3)
        assert fast.value == plain.value, (tt_bits, ordering)


@pytest.mark.parametrize("seed", range(4))
def test_two_plies_above_the_horizon_give_fail_soft_bounds_in_any_window(seed):
    grid = random_grid(random.Random(seed), 7, 4, 0.2)
    for depth in (2, 3):
        true = rules.negamax_value(grid, depth)
        for alpha, beta in (
            (true - 1, true + 1),
            (true, true + 1),
            (true - 1, true),
            (true + 5, true + 60),
            (true - 60, true - 5),
        ):
            value = Searcher(Bitboard(grid), tt_bits=16, eval_kind=EVAL_NONE).search(depth, alpha, beta).value
            if true <= alpha:
                assert true <= value <= alpha
            elif true >= beta:
                assert beta <= value <= true
            else:
                assert value == true


def test_a_value_read_two_plies_up_is_exact_only_when_the_game_ends_there():
    """Two groups that cannot merge: the game ends within two plies, so depth 2 is exact;
    three groups of one type apart: a reply leaves more to play, so it is not."""
    ends = Searcher(Bitboard(["000", "111", "111"]), eval_kind=EVAL_NONE).search(2)
    assert ends.exact and ends.value == solve(("000", "111", "111"))
    grid = ("0*0*0", "1*1*1", "2*2*2", "1*1*1", "2*2*2")
    goes_on = Searcher(Bitboard(grid), eval_kind=EVAL_NONE).search(2)
    assert not goes_on.exact and goes_on.value == rules.negamax_value(grid, 2)


@pytest.mark.parametrize("seed", range(6))
def test_searches_to_the_end_stay_exact_with_the_squares_bound(seed):
    rng = random.Random(100 + seed)
    grid = random_grid(rng, 5, rng.randint(2, 4), 0.3)
    expected = solve(grid)
    for tt_bits in (0, 16):
        result = Searcher(Bitboard(grid), tt_bits=tt_bits, eval_kind=EVAL_NONE).search(99)
        assert result.exact and result.value == expected


def test_a_depth_limit_alone_is_searched_once_not_deepened():
    grid = random_grid(random.Random(5), 5, 3, 0.2)
    fruit = rules.fruit_count(grid)
    result = search(LibraryBoard(grid), Limit(depth=fruit), evaluation="none", core_options={"reduction": 0})
    assert result.exact and result.value == solve(grid)
    assert [iteration.depth for iteration in result.iterations] == [1, fruit]
    shorter = search(LibraryBoard(grid), Limit(depth=fruit - 1), evaluation="none")
    plain = Searcher(Bitboard(grid), tt_bits=0, eval_kind=EVAL_NONE).search(fruit - 1)
    assert [iteration.depth for iteration in shorter.iterations] == [1, fruit - 1]
    assert shorter.value == plain.value
    # with a node limit, or with late moves reduced, the deepening runs
    capped = search(LibraryBoard(grid), Limit(depth=fruit - 1, nodes=10**9), evaluation="none")
    reduced = search(LibraryBoard(grid), Limit(depth=fruit - 1), evaluation="none", core_options={"reduction": 2})
    for deepened in (capped, reduced):
        assert [iteration.depth for iteration in deepened.iterations][:3] == [1, 2, 3]


def test_a_solve_stopped_by_its_node_cap_leaves_the_deepening_the_rest():
    """A full 6x6 board cannot be solved in 2,000 nodes: the solve gives up at its cap and the
    deepening goes on from depth 2, within the node limit."""
    grid = random_grid(random.Random(8), 6, 3)
    result = search(LibraryBoard(grid), Limit(nodes=4000), evaluation="none")
    assert not result.exact
    assert [iteration.depth for iteration in result.iterations][:2] == [1, 2]
    move_cells = {cell for group in rules.groups(grid) for cell in group}
    assert result.move.cell in move_cells


def test_the_time_policy_solves_what_it_predicts_it_can_and_deepens_the_rest():
    small = Bitboard(random_grid(random.Random(3), 4, 2, 0.3))
    big = Bitboard(random_grid(random.Random(3), 12, 5))
    for board, solved in ((small, True), (big, False)):
        manager = timing.TimeManager(timing.Budget(0.0, 1e9, 1e9, False), board.group_count(), 1000.0)
        decision = think(board, manager, tt_bits=16, clock=lambda: 0.0, max_nodes=50_000)
        assert (decision.iterations[1].depth == board.fruit) == solved
        # the same with a clock: the nodes it leaves at the manager's rate (SOLVE_SPEEDUP x 50,000)
        now = time.process_time()
        budget = timing.Budget(now, now + 0.2, now + 0.4, False)
        decision = think(board, timing.TimeManager(budget, board.group_count(), 125_000.0), tt_bits=16)
        assert (decision.iterations[1].depth == board.fruit) == solved
    assert timing.predicted_solve_nodes(10) < timing.predicted_solve_nodes(20)
