"""The time policy's pure functions, over every clock and board size."""

import pytest

from agent.move import timing

REMAINING = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600]
GROUPS = sorted({1, 2, 3, 5, 10, 36, 82, 150, 300, 544, 676})  # 1x1 up to full 26x26 boards
SPEED = 500_000.0


def mergeable_counts(groups: int) -> list:
    """None (no search to the end planned) and counts of groups that may merge, up to all."""
    return [None, 0, groups // 3, groups]


@pytest.mark.parametrize("remaining", REMAINING)
@pytest.mark.parametrize("startup", [0.0, 0.01, 0.03, 0.1])
def test_hard_maximum_leaves_the_reserve(remaining, startup):
    for groups in GROUPS:
        most_moves = timing.most_own_moves(groups)
        for spent in (0.005, 0.02, 0.05):
            for mergeable in mergeable_counts(groups):
                budget = timing.plan(remaining, groups, startup, spent, SPEED, mergeable)
                assert spent <= budget.start <= budget.optimum <= budget.maximum
                if budget.instant:
                    assert budget.maximum == spent + timing.MIN_THINK
                    continue
                # this move's whole charge, exit included, leaves the reserve for the moves after it
                overhead = max(startup, spent) + timing.EXIT_COST
                later = timing.reserve(remaining, most_moves - 1, overhead)
                assert budget.maximum + timing.EXIT_COST <= remaining - later + 1e-9
                # and the quick move's floor: the last moves are Python's
                assert budget.maximum + timing.EXIT_COST <= remaining - timing.QUICK_ANSWER_BELOW


def spendable(remaining: float, groups: int, spent: float = 0.02) -> float:
    return remaining - timing.reserve(remaining, timing.most_own_moves(groups), spent + timing.EXIT_COST)


@pytest.mark.parametrize("remaining", REMAINING)
@pytest.mark.parametrize("size", [8, 26])
def test_the_endgame_begins_when_its_searches_fit_and_that_move_may_spend_what_they_need(remaining, size):
    """A position whose endgame (its search to the end at twice the prediction, and the
    later ones) fits in SOLVE_REACH of what can be spent is searched to its end; before,
    what the endgame from ENDGAME_GROUPS needs is kept unspent, ENDGAME_SHARE at most, and
    less where the moves to come cost more to start than there is to spend."""
    need = 1 / timing.SOLVE_SHARE + timing.FOLLOW_UP
    endgame_groups = timing.ENDGAME_GROUPS_LARGE if size >= timing.LARGE_BOARD else timing.ENDGAME_GROUPS
    for groups in GROUPS:
        can_spend = spendable(remaining, groups)
        for mergeable in range(0, groups + 1, max(1, groups // 7)):
            budget = timing.plan(remaining, groups, 0.01, 0.02, SPEED, mergeable, size)
            if budget.instant:
                continue
            solve = timing.solve_seconds(mergeable, SPEED, size)
            if need * solve <= timing.SOLVE_REACH * can_spend:
                assert budget.optimum - 0.02 >= solve / timing.SOLVE_SHARE - 1e-12
                assert budget.maximum - 0.02 <= can_spend + 1e-12
                manager = timing.TimeManager(budget, groups, SPEED, 0, size)
                assert manager.solve_cap(mergeable, 0.02 + timing.SOLVE_START) is not None
            else:
                endgame = need * timing.solve_seconds(endgame_groups, SPEED, size) / timing.SOLVE_REACH
                startups = (0.02 + timing.EXIT_COST) * timing.most_own_moves(groups)
                kept = min(timing.ENDGAME_SHARE * min(1.0, can_spend / startups) * can_spend, endgame)
                assert budget.maximum - 0.02 <= timing.MAX_FRACTION * (can_spend - kept) + 1e-12


def test_an_endgame_of_a_small_board_is_predicted_cheaper():
    assert timing.solve_seconds(20, SPEED, 12) < timing.solve_seconds(20, SPEED, 26)
    assert timing.solvable_groups(1.0, SPEED, 12) > timing.solvable_groups(1.0, SPEED, 26)


def test_the_moves_before_the_endgame_share_what_it_leaves_and_the_later_ones_get_more():
    # 60 s left, 200 groups of which 180 may merge, against 40 groups of which 30 may
    early = timing.plan(60.0, 200, 0.02, 0.02, SPEED, 180)
    late = timing.plan(20.0, 40, 0.02, 0.02, SPEED, 30)
    assert late.optimum - late.start > early.optimum - early.start
    # with no endgame planned, the share is over all the moves left
    plain = timing.plan(60.0, 200, 0.02, 0.02, SPEED)
    assert plain.optimum - plain.start >= early.optimum - early.start


def test_the_largest_solvable_position_is_the_inverse_of_the_prediction():
    for size in (8, 26):
        for seconds in (0.001, 0.01, 0.1, 1.0, 10.0, 100.0):
            groups = timing.solvable_groups(seconds, SPEED, size)
            assert timing.solve_seconds(groups, SPEED, size) <= seconds < timing.solve_seconds(groups + 1, SPEED, size)
        assert timing.solvable_groups(0.0, SPEED, size) == -1


def test_the_cost_of_a_solve_is_predicted_from_the_groups_that_may_merge():
    assert timing.solve_seconds(None, SPEED) == float("inf")
    assert timing.solve_seconds(20, SPEED) == pytest.approx(
        timing.predicted_solve_nodes(20) / (SPEED * timing.SOLVE_SPEEDUP)
    )
    assert timing.solve_seconds(20, SPEED) < timing.solve_seconds(21, SPEED)


def test_a_solve_is_tried_when_its_prediction_fits_in_half_the_nodes_the_move_may_visit():
    manager = timing.TimeManager(timing.Budget(0.0, 1.0, 2.0, False), 30, SPEED)
    may_visit = SPEED * timing.SOLVE_SPEEDUP * 2.0
    fits = timing.solvable_groups(may_visit * timing.SOLVE_SHARE / (SPEED * timing.SOLVE_SPEEDUP), SPEED)
    assert manager.solve_cap(fits, 0.0) == int(may_visit * timing.SOLVE_SHARE)
    assert manager.solve_cap(fits + 1, 0.0) is None
    assert manager.solve_cap(fits, 2.0) is None  # nothing left to spend
    # a node limit replays on any machine: it alone decides
    assert manager.solve_cap(10, 0.0, max_nodes=10**9) == 10**9 // 2
    assert manager.solve_cap(60, 0.0, max_nodes=10**9) is None
    # no search to the end on an instant budget, or without a clock or a node limit
    assert timing.TimeManager(timing.Budget(0.0, 0.0, 0.005, True), 3, SPEED).solve_cap(0, 0.0) is None
    assert timing.TimeManager.until(0.0, float("inf"), 3, SPEED).solve_cap(0, 0.0) is None


def test_more_time_or_fewer_moves_never_shrink_the_budget():
    for mergeable in (None, 90):
        previous = None
        for remaining in REMAINING:
            budget = timing.plan(remaining, 100, 0.03, 0.03, SPEED, mergeable)
            if previous is not None:
                assert budget.optimum >= previous.optimum and budget.maximum >= previous.maximum
            previous = budget
    assert timing.plan(100, 20, 0.03, 0.03, SPEED).optimum > timing.plan(100, 200, 0.03, 0.03, SPEED).optimum


def test_too_little_time_answers_at_once():
    assert timing.plan(0.1, 40, 0.03, 0.03, SPEED).instant
    assert not timing.plan(300, 40, 0.03, 0.03, SPEED).instant


@pytest.mark.parametrize("remaining", [1e6, 1e9, 1e302, 1e303, 1.7e308])
def test_an_absurdly_long_clock_is_planned_as_the_longest_one(remaining):
    def fields(budget):
        return budget.start, budget.optimum, budget.maximum, budget.instant

    for mergeable in (None, 50):
        budget = timing.plan(remaining, 100, 0.03, 0.03, SPEED, mergeable)
        assert fields(budget) == fields(timing.plan(timing.LONGEST_CLOCK, 100, 0.03, 0.03, SPEED, mergeable))
        assert budget.maximum < timing.LONGEST_CLOCK


def test_keep_searching_stops_at_the_optimum_and_before_an_overrun():
    budget = timing.Budget(start=1.0, optimum=2.0, maximum=4.0, instant=False)
    assert timing.keep_searching(budget, 1.5, 0.1, 0, False)
    assert not timing.keep_searching(budget, 2.1, 0.1, 0, False)
    assert timing.keep_searching(budget, 2.1, 0.1, 0, True)  # unstable: stretch
    assert not timing.keep_searching(budget, 1.75, 0.1, timing.STABLE_ITERATIONS, False)  # settled: stop early
    assert timing.keep_searching(budget, 1.75, 0.1, 0, False)
    assert not timing.keep_searching(budget, 1.5, 2.6, 0, False)  # would pass the maximum


def test_prediction_uses_the_growth_of_the_same_parity():
    # even depths cost far more than odd ones on wide boards
    costs = [0.001, 0.002, 0.004, 1.2, 2.5]
    assert timing.predict_next_iteration(costs, 500, 1e5) == pytest.approx(2.5 * 1.2 / 0.004)
    assert timing.predict_next_iteration(costs[:4], 500, 1e5) == pytest.approx(1.2 * 0.004 / 0.002)
    assert timing.predict_next_iteration([0.01], 500, 1e5) == pytest.approx(0.01 * timing.DEFAULT_GROWTH)
    assert timing.predict_next_iteration([], 500, 1e5) == 0.0


def test_depth_4_is_predicted_from_the_moves_at_the_root_and_the_search_speed():
    costs = [0.001, 0.002, 0.004]
    # 2 x 500 ** 2 nodes at 100k nodes/s
    assert timing.predict_next_iteration(costs, 500, 1e5) == pytest.approx(5.0)
    assert timing.predict_next_iteration(costs, 60, 2e5) == pytest.approx(0.036)
    # never below twice what depth 3 took
    assert timing.predict_next_iteration(costs, 10, 1e5) == pytest.approx(0.008)


def test_with_reduced_late_moves_the_first_costly_depth_comes_later():
    costs = [0.001, 0.002, 0.004, 0.006, 0.009]
    # depths 4 and 5 cost little more than 3: predicted from the growth of the same parity
    assert timing.predict_next_iteration(costs[:3], 500, 1e5, 6) == pytest.approx(0.004 * 2.0)
    assert timing.predict_next_iteration(costs[:4], 500, 1e5, 6) == pytest.approx(0.006 * 2.0)
    # depth 6, the first costly one, from the moves at the root: 2 x 500 ** 2 nodes
    assert timing.predict_next_iteration(costs, 500, 1e5, 6) == pytest.approx(5.0)


def test_the_most_own_moves_are_half_the_groups_rounded_up():
    assert [timing.most_own_moves(groups) for groups in (0, 1, 2, 3, 4, 5)] == [1, 1, 1, 2, 2, 3]


def test_the_manager_of_a_move_process_plans_as_plan_does():
    manager = timing.TimeManager.for_move_process(60.0, 300, 0.01, 0.008, 400_000.0, 0, 250)
    assert manager.budget.maximum == timing.plan(60.0, 300, 0.01, 0.008, 400_000.0, 250).maximum == manager.deadline
    in_process = timing.TimeManager.in_process(60.0, 300, 100.0, 400_000.0)
    assert in_process.budget.start == 100.0
    assert in_process.deadline == timing.plan(60.0, 300, 0.0, 0.0, 400_000.0).maximum + 100.0


def test_the_manager_stops_at_once_when_the_budget_is_instant():
    manager = timing.TimeManager.for_move_process(0.02, 300, 0.01, 0.008, 400_000.0)
    assert manager.budget.instant and manager.should_stop(0.008)


def test_the_manager_stops_early_when_the_best_move_is_stable_and_stretches_when_it_changes():
    budget = timing.Budget(0.0, 1.0, 4.0, False)
    stable, changing = (timing.TimeManager(budget, 40, 1e9) for _ in range(2))
    for manager, changed in ((stable, False), (changing, True)):
        for _ in range(4):
            manager.update(0.001, changed)
    # past STABLE_CUT of the share a settled search stops; a changing one goes on to UNSTABLE_STRETCH
    assert stable.should_stop(timing.STABLE_CUT + 0.01) and not changing.should_stop(timing.STABLE_CUT + 0.01)
    assert changing.should_stop(timing.UNSTABLE_STRETCH + 0.01)
    # never an iteration predicted to overrun the maximum
    costly = timing.TimeManager(budget, 40, 1e9)
    costly.update(0.5, True)
    costly.update(1.5, True)
    assert costly.should_stop(0.1)


def test_the_table_is_sized_to_the_nodes_the_search_can_visit():
    bits = [
        timing.TimeManager(timing.Budget(0.0, t, t, False), 100, 400_000.0).table_bits(0.0)
        for t in (0.0, 0.001, 0.1, 1.0, 100.0, float("inf"))
    ]
    assert bits == sorted(bits) and bits[0] == timing.TT_BITS_RANGE[0] and bits[-1] == timing.TT_BITS_RANGE[1]


def test_a_budget_says_what_it_is_in_words():
    assert str(timing.Budget(0.02, 0.12, 0.5, False)) == "aim 0.100 s, at most 0.480 s"
    assert str(timing.Budget(0.02, 0.02, 0.025, True)) == "answer at once"


def test_a_search_to_the_end_cut_short_leaves_the_deepening_a_move_s_share():
    budget = timing.plan(5.0, 30, 0.02, 0.02, SPEED, 21, 12)  # a solving move: 21 groups may merge
    manager = timing.TimeManager(budget, 30, SPEED, 0, 12)
    assert budget.optimum > budget.unsolved > budget.start
    manager.solve_cut()
    assert manager.budget.optimum == budget.unsolved and manager.budget.maximum == budget.maximum
    middle = timing.plan(60.0, 200, 0.02, 0.02, SPEED, 180)
    assert middle.unsolved == middle.optimum  # no search to the end planned: nothing to cut


@pytest.mark.parametrize("mergeable", [None, 60])
def test_a_middle_game_move_may_stretch_twice_its_share_under_20_columns_and_four_times_from_20(mergeable):
    for size, stretch in ((12, 2.0), (19, 2.0), (20, 4.0), (26, 4.0)):
        budget = timing.plan(10.0, 100, 0.02, 0.02, 650_000.0, mergeable, size)
        share, most = budget.optimum - budget.start, budget.maximum - budget.start
        assert most == pytest.approx(stretch * share), size
