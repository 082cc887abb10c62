"""`fruit-rage tournament`: round robin and gauntlet, with a cross table."""

from __future__ import annotations

import json

import pytest
from arena_helpers import fruit_rage

from agent.commands.tournament import pairings


def test_pairings():
    assert pairings(3, gauntlet=False) == [(0, 1), (0, 2), (1, 2)]
    assert pairings(4, gauntlet=True) == [(0, 1), (0, 2), (0, 3)]


@pytest.mark.slow
def test_a_round_robin_plays_every_pairing_and_its_cross_table_adds_up(tmp_path):
    out = tmp_path / "games.jsonl"
    done = fruit_rage(
        "tournament",
        "greedy",
        "random",
        "minimax3",
        "--games",
        "4",
        "--paired",
        "--size",
        "5",
        "--types",
        "3",
        "--time",
        "5",
        "--in-process",
        "--seed",
        "2",
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 12
    assert {tuple(r["agents"].values()) for r in records} == {
        ("greedy", "random"),
        ("greedy", "minimax3"),
        ("random", "minimax3"),
    }
    rows = {line.split()[1]: line.split()[2:] for line in done.stdout.splitlines() if line[:2] in ("1.", "2.", "3.")}
    margins = {}
    for record in records:
        a, b = record["agents"]["A"], record["agents"]["B"]
        margins[a, b] = margins.get((a, b), 0) + record["scores"]["A"] - record["scores"]["B"]
    assert rows["greedy"][1] == f"{margins['greedy', 'random'] / 4:+.1f}"  # its cell against 2. random
    assert rows["random"][0] == f"{-margins['greedy', 'random'] / 4:+.1f}"  # and the mirror cell
    assert rows["minimax3"][-1] == f"{-(margins['greedy', 'minimax3'] + margins['random', 'minimax3']) / 8:+.1f}"


@pytest.mark.slow
def test_a_gauntlet_plays_the_first_against_each_other(tmp_path):
    done = fruit_rage(
        "tournament",
        "greedy",
        "random",
        "random",
        "--gauntlet",
        "--games",
        "2",
        "--size",
        "4",
        "--types",
        "3",
        "--time",
        "5",
        "--in-process",
        "--seed",
        "1",
    )
    assert done.returncode == 0, done.stderr
    assert "2 matches of 2 games" in done.stdout and done.stderr.count("] greedy vs random") == 2


def test_a_tournament_needs_two_agents():
    done = fruit_rage("tournament", "greedy")
    assert done.returncode == 2 and "at least two agents" in done.stderr
