"""Gating a candidate with the pair-margin SPRT: `gate()` and `fruit-rage gate` (and
`tune`, its old name)."""

from __future__ import annotations

import json
import re

import pytest
from arena_helpers import fruit_rage

from agent import GreedyPlayer, MatchSettings, RandomPlayer
from agent.arena.matches.gate import gate
from agent.commands.gate import parse_param

SETTINGS = MatchSettings(games=600, size=4, types=3, time=5, seed=1, paired=True)


def test_a_clearly_better_candidate_is_kept_and_a_worse_one_rejected():
    better = gate(GreedyPlayer, RandomPlayer, SETTINGS)
    assert better.accepted and better.sprt.verdict == "H1" and better.sprt.llr >= better.sprt.upper
    assert len(better.match.records) == 2 * better.stats.pairs < SETTINGS.games
    worse = gate(RandomPlayer, GreedyPlayer, SETTINGS)
    assert not worse.accepted and worse.sprt.verdict == "H0" and worse.sprt.llr <= worse.sprt.lower


def test_a_gate_needs_paired_boards():
    with pytest.raises(ValueError, match="paired"):
        gate(GreedyPlayer, RandomPlayer, MatchSettings(games=4, size=4, types=3))


def test_params():
    assert parse_param("depth=3") == ("depth", 3)
    assert parse_param("opponent=greedy") == ("opponent", "greedy")
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_param("3")


def test_gate_writes_its_verdict(tmp_path):
    verdict = tmp_path / "verdict.json"
    done = fruit_rage(
        "gate",
        "ours",
        "random",
        "--param",
        "depth=1",
        "--in-process",
        "--size",
        "4",
        "--types",
        "3",
        "--time",
        "5",
        "--seed",
        "2",
        "--verdict",
        verdict,
    )
    assert done.returncode == 0, done.stderr
    assert "verdict: keep the candidate (H1)" in done.stdout
    record = json.loads(verdict.read_text())
    assert record["accepted"] and record["params"] == {"depth": 1} and record["games"] == 2 * record["pairs"]


def test_gate_refuses_params_for_a_program():
    done = fruit_rage("gate", "greedy", "random", "--param", "depth=1")
    assert done.returncode == 2 and "parameters go to Python players" in done.stderr
    assert done.stderr.rstrip().endswith("; add --in-process")  # a built-in takes them in-process
    done = fruit_rage("gate", "python3 player.py", "random", "--param", "depth=1")
    assert done.returncode == 2 and "--in-process" not in done.stderr  # a command never takes them


def test_gate_takes_no_paired_option_its_games_are_always_paired():
    done = fruit_rage("gate", "greedy", "random", "--paired")
    assert done.returncode == 2 and "unrecognized arguments: --paired" in done.stderr
    assert "--paired" not in fruit_rage("gate", "--help").stdout


def test_an_undecided_gate_says_in_words_what_it_found_and_what_deciding_would_take():
    """Greedy wins every pair against random by far more than H1's 10 points, yet 10 pairs
    do not decide: margins beyond both hypotheses count against both. The last line says
    so, with the margin and the pairs it would take; and nothing says `running`."""
    common = ("greedy", "random", "--size", 6, "--types", 3, "--time", 5, "--seed", 1, "--in-process")
    done = fruit_rage("gate", *common, "--games", 20)
    assert done.returncode == 0, done.stderr
    assert "running" not in done.stdout
    assert "SPRT after 10 pairs: LLR: " in done.stdout and done.stdout.count("no verdict") == 1  # in 80 columns
    verdict = " ".join(done.stdout[done.stdout.index("verdict: ") :].split())
    found = re.fullmatch(
        r"verdict: none: the candidate gained \+[0-9.]+ \+/- [0-9.]+ points a pair \(95%\), but 10 pairs were too "
        r"few for the test to tell H0 \(<= 0\) from H1 \(>= 10\) at the error rates asked; at this mean and "
        r"spread it would take about (\d+) pairs \(--games (\d+)\)",
        verdict,
    )
    assert found, verdict
    # The estimate holds: with the games it names, the same boards reach a verdict.
    games = int(found.group(2))
    decided = fruit_rage("gate", *common, "--games", games)
    assert "verdict: keep the candidate (H1): the candidate gained" in " ".join(decided.stdout.split())
    pairs = int(re.search(r"SPRT after (\d+) pairs", decided.stdout).group(1))
    assert 0.7 * int(found.group(1)) <= pairs <= int(found.group(1))


def test_a_gate_of_one_pair_shows_no_figure_one_pair_cannot_give():
    """One pair has no spread: no infinite interval of the margin, no nElo or LOS; the
    score comes with the interval the match table would give it, and the words agree
    with the count."""
    done = fruit_rage(
        "gate", "greedy", "random", "--size", 6, "--types", 3, "--time", 5, "--seed", 1, "--in-process", "--games", 2
    )
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "inf" not in text and "nElo:" not in text and "LOS:" not in text
    assert "Score of A (95%, by pairs): " in text and "points a pair (one pair: no interval)" in text
    assert "at most 1 pair," in text and "but 1 pair was too few" in text


def test_tune_the_old_name_of_gate_says_the_same_in_its_own_name():
    """Users' scripts call `fruit-rage tune`: it runs the gate, and what it prints is the
    gate's word for word, but for the name it goes by."""
    common = ("greedy", "random", "--size", 4, "--types", 3, "--time", 5, "--seed", 3, "--in-process", "--games", 20)
    gated, tuned = fruit_rage("gate", *common), fruit_rage("tune", *common)
    assert gated.returncode == tuned.returncode == 0, tuned.stderr
    assert gated.stdout.startswith("gate greedy against random:")
    assert tuned.stdout == "tune" + gated.stdout.removeprefix("gate")
    odd = fruit_rage("tune", "greedy", "random", "--games", 3)
    assert odd.returncode == 2 and odd.stderr.startswith("fruit-rage tune: the boards are paired")
