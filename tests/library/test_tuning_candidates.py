"""agent.tuning.candidates: the players a match names, and the speed measurement's shape."""

from agent.tuning import candidates


def test_the_players_search_with_their_candidate():
    assert candidates.hot_exchange().evaluation == "hot-exchange"
    assert candidates.greedy_line().evaluation == "greedy-line"
    assert candidates.hot_exchange().limit is None
    for player, evaluation in (
        (candidates.hot_exchange_at_depth_4(), "hot-exchange"),
        (candidates.greedy_line_at_depth_4(), "greedy-line"),
        (candidates.pair_exchange_at_depth_4(), "pair-exchange"),
    ):
        assert (player.evaluation, player.limit.depth) == (evaluation, candidates.EQUAL_DEPTH)


def test_speeds_names_every_evaluation_with_a_rate():
    rates = candidates.speeds(("pair-exchange", "hot-exchange"), size=6, types=3, depth=2, boards=(1,), plies=(0, 2))
    assert set(rates) == {"pair-exchange", "hot-exchange"} and all(rate > 0 for rate in rates.values())
