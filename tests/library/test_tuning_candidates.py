"""agent.tuning.candidates: the players a match names, and the speed measurement's shape."""

from agent.tuning import candidates


def test_the_players_search_with_their_candidate():
    assert candidates.largest_exchange().evaluation == "largest-exchange"
    assert candidates.pair_exchange().evaluation == "pair-exchange"
    assert candidates.largest_exchange().limit is None
    for player, evaluation in (
        (candidates.largest_exchange_at_depth_4(), "largest-exchange"),
        (candidates.pair_exchange_at_depth_4(), "pair-exchange"),
    ):
        assert (player.evaluation, player.limit.depth) == (evaluation, candidates.EQUAL_DEPTH)


def test_speeds_names_every_variant_with_a_rate():
    variants = [v for v in candidates.VARIANTS if v[0] in ("pair-exchange", "largest-exchange")]
    rates = candidates.speeds(variants, size=6, types=3, depth=2, boards=(1,), plies=(0, 2))
    assert set(rates) == {"pair-exchange", "largest-exchange"}
    assert all(rate > 0 and seconds > 0 for rate, seconds in rates.values())


def test_the_speed_command_has_help_and_measures_what_it_is_asked(capsys):
    import pytest

    with pytest.raises(SystemExit) as help_exit:
        candidates.main(["--help"])
    assert help_exit.value.code == 0 and "The speed of the agent" in capsys.readouterr().out
    # an 8x8 board ends long before 60 greedy moves: the positions it reaches are measured
    assert candidates.main(["--size", "8", "--types", "3", "--depth", "2", "--only", "greedy-pair"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("greedy-pair") and "M nodes/s" in lines[0]
    with pytest.raises(SystemExit) as refused:
        candidates.main(["--only", "best-eval"])
    assert refused.value.code == 2 and "invalid choice: 'best-eval'" in capsys.readouterr().err
