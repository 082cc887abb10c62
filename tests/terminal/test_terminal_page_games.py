"""A game saved from the browser page, and the analysis' words, at a real terminal (24 rows,
80 columns): `replay` and `phases` call the person's seconds thinking time, never CPU, in
plain words; `analyse --help` defines every label it prints and its mark for "exact"."""

from __future__ import annotations

import pytest
from pty_helpers import Terminal
from screen_helpers import plain
from starlette.testclient import TestClient

from agent.arena.review.analysis import EXACT_MARK
from agent.web.app import create_app

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory):
    """A 5x5 game against greedy played through the page's API, saved as the page saves it."""
    with TestClient(create_app(workers=1)) as client:
        game = client.post("/api/games", json={"size": 5, "types": 3, "opponent": "greedy", "seed": 4}).json()
        while not game["over"]:
            if game["turn"] == "you":
                game = client.post(f"/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]}).json()
            else:
                game = client.post(f"/api/games/{game['id']}/agent-move").json()
        path = tmp_path_factory.mktemp("saved") / "saved.jsonl"
        path.write_bytes(client.get(f"/api/games/{game['id']}/record").content)
    return path


def shown(*args) -> str:
    session = Terminal(*args)
    text, code = session.finish()
    assert code == 0, text
    return plain(text)


def test_replay_calls_a_saved_games_person_s_time_wall_time(saved_game):
    session = Terminal("replay", saved_game)
    session.read_until("q quits: ")  # the person's first move
    session.type("\n")  # the agent's answer
    session.read_until("q quits: ")
    session.type("q\n")
    text, code = session.finish()
    moves = [line for line in plain(text).split("\n") if line.startswith("Move ")]
    assert code == 0 and len(moves) == 2, moves
    assert moves[0].startswith("Move 1: A (you) plays") and moves[0].endswith(" s wall time"), moves[0]
    assert moves[1].startswith("Move 2: B (greedy) plays") and moves[1].endswith(" s CPU"), moves[1]


def test_phases_of_a_saved_game_say_thinking_time_in_plain_words(saved_game):
    text = shown("phases", saved_game)
    assert "A (you) minus B (greedy) in points" in " ".join(text.split())
    assert "you thinking s a game" in text and "CPU" not in text


def test_analyse_help_defines_every_label_and_the_exact_mark():
    text = " ".join(shown("analyse", "--help").split())
    for definition in (
        "best when it gives nothing away",
        "good when it gives away fewer than 3 points",
        "an inaccuracy from 3 points given away",
        "a mistake from 10",
        "a blunder from 30",
        f"(marked {EXACT_MARK})",
    ):
        assert definition in text, definition
