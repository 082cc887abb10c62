"""Gating a candidate with the pair-margin SPRT: `gate()` and `fruit-rage tune`."""

from __future__ import annotations

import json

import pytest
from arena_helpers import fruit_rage

from agent import GreedyPlayer, MatchSettings, RandomPlayer
from agent.arena.tune import gate
from agent.arena.tune_command import parse_param

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


def test_tune_writes_its_verdict(tmp_path):
    verdict = tmp_path / "verdict.json"
    done = fruit_rage(
        "tune",
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


def test_tune_refuses_params_for_a_program():
    done = fruit_rage("tune", "greedy", "random", "--param", "depth=1")
    assert done.returncode == 2 and "parameters go to Python players" in done.stderr
