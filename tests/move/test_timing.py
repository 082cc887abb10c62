"""The time policy's pure functions, over every clock and board size."""

import pytest

from agent.move import timing

REMAINING = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600]
GROUPS = sorted({1, 2, 3, 5, 10, 36, 82, 150, 300, 544, 676})  # 1x1 up to full 26x26 boards


@pytest.mark.parametrize("remaining", REMAINING)
@pytest.mark.parametrize("startup", [0.0, 0.01, 0.03, 0.1])
def test_hard_maximum_leaves_the_reserve(remaining, startup):
    for groups in GROUPS:
        most_moves = timing.own_moves_left(groups)[1]
        for spent in (0.005, 0.02, 0.05):
            budget = timing.plan(remaining, groups, startup, spent)
            assert spent <= budget.start <= budget.optimum <= budget.maximum
            if budget.instant:
                assert budget.maximum == spent + timing.MIN_THINK
                continue
            # this move's whole charge, exit included, leaves the reserve for the moves after it
            overhead = max(startup, spent) + timing.EXIT_COST
            later = timing.reserve(remaining, most_moves - 1, overhead)
            assert budget.maximum + timing.EXIT_COST <= remaining - later + 1e-9
            assert budget.maximum + timing.EXIT_COST <= remaining - timing.SAFETY_FLOOR


@pytest.mark.parametrize("remaining", REMAINING)
def test_a_search_to_the_end_in_reach_gets_what_it_needs_within_the_reserve(remaining):
    """Predicted to fit, a search to the end is given twice its predicted cost (the
    deepening tries it when half the nodes left suffice); the moves after it keep their
    reserve either way. Out of reach, the endgame reserve is not spent."""
    for groups in GROUPS:
        most_moves = timing.own_moves_left(groups)[1]
        spendable = remaining - timing.reserve(remaining, most_moves, 0.02 + timing.EXIT_COST)
        for solve in (0.0005, 0.005, 0.05, 0.5, 5.0, 50.0):
            budget = timing.plan(remaining, groups, 0.01, 0.02, solve)
            assert 0.02 <= budget.start <= budget.optimum <= budget.maximum
            if budget.instant:
                continue
            later = timing.reserve(remaining, most_moves - 1, 0.02 + timing.EXIT_COST)
            assert budget.maximum + timing.EXIT_COST <= remaining - later + 1e-9
            needed = solve / timing.SOLVE_SHARE
            if needed <= timing.SOLVE_REACH * spendable:
                assert budget.optimum - 0.02 >= needed - 1e-12
            else:
                kept = spendable - timing.endgame_reserve(spendable)
                assert budget.maximum - 0.02 <= timing.MAX_FRACTION * kept + 1e-12


def test_the_endgame_reserve_is_kept_until_the_solve_comes():
    without = timing.plan(6.0, 30, 0.01, 0.02)
    assert without.maximum == timing.plan(6.0, 30, 0.01, 0.02, 1e9).maximum
    spendable = 6.0 - timing.reserve(6.0, timing.own_moves_left(30)[1], 0.02 + timing.EXIT_COST)
    assert without.maximum - 0.02 <= timing.MAX_FRACTION * (spendable - timing.ENDGAME_RESERVE)
    # a solve predicted at 1 s: the move may spend 2 s, the reserve included
    assert timing.plan(6.0, 30, 0.01, 0.02, 1.0).optimum - 0.02 >= 2.0 > without.maximum
    # the reserve is never more than half of what the other reserves leave to spend
    assert timing.endgame_reserve(1.0) == 0.5 and timing.endgame_reserve(60.0) == timing.ENDGAME_RESERVE


def test_the_cost_of_a_solve_is_predicted_from_the_groups_that_may_merge():
    assert timing.solve_seconds(None, 500_000.0) == float("inf")
    assert timing.solve_seconds(20, 500_000.0) == pytest.approx(
        timing.predicted_solve_nodes(20) / (500_000.0 * timing.SOLVE_SPEEDUP)
    )
    assert timing.solve_seconds(20, 500_000.0) < timing.solve_seconds(21, 500_000.0)
    manager = timing.TimeManager.for_move_process(10.0, 30, 0.01, 0.02, 500_000.0, solve_groups=12)
    assert manager.budget.maximum == timing.plan(10.0, 30, 0.01, 0.02, timing.solve_seconds(12, 500_000.0)).maximum


def test_more_time_or_fewer_moves_never_shrink_the_budget():
    previous = None
    for remaining in REMAINING:
        budget = timing.plan(remaining, 100, 0.03, 0.03)
        if previous is not None:
            assert budget.optimum >= previous.optimum and budget.maximum >= previous.maximum
        previous = budget
    assert timing.plan(100, 20, 0.03, 0.03).optimum > timing.plan(100, 200, 0.03, 0.03).optimum


def test_too_little_time_answers_at_once():
    assert timing.plan(0.05, 40, 0.03, 0.03).instant
    assert not timing.plan(300, 40, 0.03, 0.03).instant


@pytest.mark.parametrize("remaining", [1e6, 1e9, 1e302, 1e303, 1.7e308])
def test_an_absurdly_long_clock_is_planned_as_the_longest_one(remaining):
    def fields(budget):
        return budget.start, budget.optimum, budget.maximum, budget.instant

    budget = timing.plan(remaining, 100, 0.03, 0.03)
    assert fields(budget) == fields(timing.plan(timing.LONGEST_CLOCK, 100, 0.03, 0.03))
    assert budget.maximum < timing.LONGEST_CLOCK


def test_keep_searching_stops_at_the_optimum_and_before_an_overrun():
    budget = timing.Budget(start=1.0, optimum=2.0, maximum=4.0, instant=False)
    assert timing.keep_searching(budget, 1.5, 0.1, 0, False)
    assert not timing.keep_searching(budget, 2.1, 0.1, 0, False)
    assert timing.keep_searching(budget, 2.1, 0.1, 0, True)  # unstable: stretch
    assert not timing.keep_searching(budget, 1.75, 0.1, 3, False)  # stable: stop early
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


def test_own_moves_left_grows_with_the_groups():
    assert timing.own_moves_left(1) == (1.0, 1.0)
    for groups in GROUPS:
        expected, most = timing.own_moves_left(groups)
        assert 1.0 <= expected <= most
    assert timing.own_moves_left(544)[0] > timing.own_moves_left(100)[0] > 1


def test_the_manager_of_a_move_process_plans_as_plan_does():
    manager = timing.TimeManager.for_move_process(60.0, 300, 0.01, 0.008, 400_000.0)
    assert manager.budget.maximum == timing.plan(60.0, 300, 0.01, 0.008).maximum == manager.deadline
    in_process = timing.TimeManager.in_process(60.0, 300, 100.0, 400_000.0)
    assert in_process.budget.start == 100.0
    assert in_process.deadline == timing.plan(60.0, 300, 0.0, 0.0).maximum + 100.0


def test_the_manager_stops_at_once_when_the_budget_is_instant():
    manager = timing.TimeManager.for_move_process(0.02, 300, 0.01, 0.008, 400_000.0)
    assert manager.budget.instant and manager.should_stop(0.008)


def test_the_manager_stops_early_when_the_best_move_is_stable_and_stretches_when_it_changes():
    budget = timing.Budget(0.0, 1.0, 4.0, False)
    stable, changing = (timing.TimeManager(budget, 40, 1e9) for _ in range(2))
    for manager, changed in ((stable, False), (changing, True)):
        for _ in range(4):
            manager.update(0.001, changed)
    # past 70% of the share a stable search stops; a changing one goes on to 150%
    assert stable.should_stop(0.8) and not changing.should_stop(0.8)
    assert changing.should_stop(1.6)
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
