"""The page's analysis, hints and saved games through the API (Starlette's TestClient): a
finished game downloads as a match record the commands read, a hint is the analysis's own
choice, an analysis has the figures `fruit-rage analyse --json` prints, is kept once done,
and a cancelled one loses its process within a second."""

from __future__ import annotations

import json
import os
import time

import pytest
from arena_helpers import fruit_rage
from starlette.testclient import TestClient
from web_helpers import alive, children

from agent.arena.records.reading import read_records
from agent.arena.review.analysis import DEFAULT_NODES
from agent.arena.review.searches import search_position
from agent.board import Board
from agent.web.app import create_app

NODES = 20_000
GAME = {"size": 5, "types": 3, "opponent": "greedy", "seed": 11}


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2)) as client:
        yield client


def finished_game(client, hint_first: bool = False, **settings) -> dict:
    """A game played to its end, the person taking the first group each turn (after a
    hint on the first turn when asked)."""
    game = client.post("/api/games", json={**GAME, **settings}).json()
    if hint_first:
        assert client.post(f"/api/games/{game['id']}/hint").status_code == 200
    while not game["over"]:
        if game["turn"] == "you":
            game = client.post(f"/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]}).json()
        else:
            game = client.post(f"/api/games/{game['id']}/agent-move").json()
    return game


def saved(client, game_id: str, tmp_path) -> dict:
    """The game's record as the page saves it, read back by the commands' reader."""
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200, response.text
    path = tmp_path / "saved.jsonl"
    path.write_bytes(response.content)
    (record,) = read_records(str(path))
    return record


def analysed(client, path: str, nodes: int = NODES) -> dict:
    """The finished analysis of the replayed game at `path`."""
    state = client.post(path, json={"nodes": nodes}).json()
    deadline = time.monotonic() + 120
    while state["state"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.1)
        state = client.get(path).json()
    assert state["state"] == "done", state
    return state


def test_a_finished_game_is_saved_as_a_match_record_with_its_hints(client, tmp_path):
    game = finished_game(client, hint_first=True)
    assert game["hints"] == 1
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.headers["content-disposition"] == 'attachment; filename="fruit-rage-5x5-seed-11.jsonl"'
    record = saved(client, game["id"], tmp_path)
    assert record["agents"] == {"A": "you", "B": "greedy"} and record["hints"] == {"A": 1}
    assert record["board"] == list(Board.random(11, 5, 3).rows) and record["seed"] == 11
    assert [move["move"] for move in record["moves"]] == [move["move"] for move in game["moves"]]
    assert record["scores"] == {"A": game["scores"]["you"], "B": game["scores"]["agent"]}
    assert record["winner"] == {"you": "A", "agent": "B", None: None}[game["winner"]]
    assert set(record) >= {"format", "date", "versions", "time", "clocks", "fault", "reason"}
    plain = finished_game(client)
    assert "hints" not in saved(client, plain["id"], tmp_path)


def test_a_game_lost_on_time_is_saved_with_its_losing_turn(tmp_path):
    clock = FakeClock()
    with TestClient(create_app(workers=1, clock=clock)) as client:
        game = client.post("/api/games", json={**GAME, "clock": 10.0}).json()
        client.post(f"/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]})
        game = client.post(f"/api/games/{game['id']}/agent-move").json()
        clock.now += 12.0
        assert client.get(f"/api/games/{game['id']}").json()["reason"] == "you ran out of time"
        record = saved(client, game["id"], tmp_path)
    assert record["fault"] == "time" and record["winner"] == "B"
    assert record["moves"][-1]["fault"] == "time" and record["moves"][-1]["player"] == "A"


def test_a_game_not_over_has_no_record_yet(client):
    game = client.post("/api/games", json=GAME).json()
    for response in (client.get(f"/api/games/{game['id']}/record"), client.post(f"/api/games/{game['id']}/replay")):
        assert response.status_code == 409 and "not over" in response.json()["error"]


def test_a_hint_is_the_analysis_choice_for_the_person_and_only_on_their_turn(client):
    game = client.post("/api/games", json={**GAME, "size": 7}).json()
    hint = client.post(f"/api/games/{game['id']}/hint").json()
    found = search_position(Board(game["rows"]), DEFAULT_NODES)
    group = Board(game["rows"]).group_at(found.move)
    assert (hint["move"], hint["value"], hint["exact"]) == (group.move.name, found.value, found.exact)
    assert sorted(map(tuple, hint["cells"])) == sorted(group.cells)
    assert (hint["position"], hint["hints"]) == (0, 1)
    again = client.post(f"/api/games/{game['id']}/hint").json()
    assert again["hints"] == 1  # the same position: one hint
    waiting = client.post("/api/games", json={**GAME, "first": "agent"}).json()
    refused = client.post(f"/api/games/{waiting['id']}/hint")
    assert refused.status_code == 409 and refused.json()["error"] == "it is the agent's turn"


def test_the_analysis_of_an_uploaded_match_has_the_figures_fruit_rage_analyse_prints(client, tmp_path):
    path = tmp_path / "match.jsonl"
    done = fruit_rage(
        "match",
        "greedy",
        "random",
        "--games",
        "1",
        "--size",
        "12",
        "--types",
        "4",
        "--time",
        "10",
        "--seed",
        "4",
        "--in-process",
        "--out",
        path,
    )
    assert done.returncode == 0, done.stderr
    printed = fruit_rage("analyse", path, "--nodes", NODES, "--json")
    assert printed.returncode == 0, printed.stderr
    replay = client.post("/api/records/upload", content=path.read_bytes()).json()
    state = analysed(client, f"/api/replays/{replay['id']}/games/0/analysis")
    assert state["analysis"] == json.loads(printed.stdout)
    assert state["done"] == state["total"] == len(state["analysis"]["moves"]) + 1


def test_an_analysis_is_kept_once_done_and_a_page_game_opens_once_as_a_replay(client):
    game = finished_game(client)
    first = client.post(f"/api/games/{game['id']}/replay")
    assert first.status_code == 201 and first.json()["label"] == "fruit-rage-5x5-seed-11.jsonl"
    assert client.post(f"/api/games/{game['id']}/replay").json()["id"] == first.json()["id"]
    path = f"/api/replays/{first.json()['id']}/games/0/analysis"
    assert client.get(path).json()["state"] == "none"
    done = analysed(client, path)
    assert [move["move"] for move in done["analysis"]["moves"]] == [move["move"] for move in game["moves"]]
    again = client.post(path, json={"nodes": NODES})
    assert again.status_code == 202 and again.json() == done  # kept: nothing searched again


def test_analysis_requests_are_checked(client):
    game = finished_game(client)
    replay = client.post(f"/api/games/{game['id']}/replay").json()
    assert client.post("/api/replays/AAAAAAAAAAAAAAAAAAAAAA/games/0/analysis").status_code == 404
    assert client.post(f"/api/replays/{replay['id']}/games/3/analysis").status_code == 404
    too_many = client.post(f"/api/replays/{replay['id']}/games/0/analysis", json={"nodes": 10**9})
    assert too_many.status_code == 400 and "'nodes' must be a whole number" in too_many.json()["error"]
    assert client.delete(f"/api/replays/{replay['id']}/games/0/analysis").status_code == 404


def test_a_cancelled_long_analysis_stops_its_process_within_a_second(client, tmp_path):
    path = tmp_path / "large.jsonl"
    done = fruit_rage(
        "match",
        "greedy",
        "greedy",
        "--games",
        "1",
        "--size",
        "26",
        "--types",
        "9",
        "--time",
        "60",
        "--seed",
        "5",
        "--in-process",
        "--out",
        path,
    )
    assert done.returncode == 0, done.stderr
    replay = client.post("/api/records/upload", content=path.read_bytes()).json()
    analysis = f"/api/replays/{replay['id']}/games/0/analysis"
    before = set(children(os.getpid()))
    state = client.post(analysis, json={}).json()
    deadline = time.monotonic() + 60
    while not (state["state"] == "running" and state["done"] > 0) and time.monotonic() < deadline:
        time.sleep(0.05)
        state = client.get(analysis).json()
    assert state["state"] == "running" and 0 < state["done"] < state["total"], state
    (worker,) = set(children(os.getpid())) - before
    cancelled_at = time.monotonic()
    assert client.delete(analysis).json()["state"] == "cancelled"
    while alive(worker) and time.monotonic() - cancelled_at < 1.0:
        time.sleep(0.02)
    assert not alive(worker)
    assert client.get(analysis).json()["state"] == "none"
