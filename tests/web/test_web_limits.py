"""The server's limits against clients that try to take it over (issue 54, items 9 to 13),
through Starlette's TestClient: requests from other sites, one client filling what all
share, floods of hints, and numbers no game index can be."""

from __future__ import annotations

import json

import pytest
from arena_helpers import random_game_record
from starlette.testclient import TestClient

from agent.web.app import create_app

GAME = {"size": 4, "types": 3, "opponent": "greedy", "seed": 11}
OWN_ORIGIN = "http://testserver"  # the origin TestClient's requests come to


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1)) as client:
        yield client


def jsonl(records) -> bytes:
    return "".join(json.dumps(record) + "\n" for record in records).encode()


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example", "content-type": "text/plain"},
        {"origin": "http://evil.example", "content-type": "application/json"},
        {"origin": "null", "content-type": "application/json"},
        {"origin": "http://testserver:8000", "content-type": "application/json"},
        {"sec-fetch-site": "cross-site", "content-type": "application/json"},
        {"sec-fetch-site": "same-site", "content-type": "application/json"},
        {"origin": OWN_ORIGIN, "sec-fetch-site": "cross-site", "content-type": "application/json"},
    ],
)
def test_a_change_asked_by_another_site_is_refused_with_403(client, headers):
    made = client.post("/api/games", content=json.dumps(GAME), headers=headers)
    assert made.status_code == 403, made.text
    assert "another site" in made.json()["error"]
    uploaded = client.post("/api/records/upload", content=jsonl([random_game_record(1, 4, 3)]), headers=headers)
    assert uploaded.status_code == 403, uploaded.text


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]
)
def test_bodies_of_types_a_foreign_form_can_send_are_refused(client, content_type):
    """The types any page may send to any server without the browser asking it first (a
    CORS preflight), so a forged request would come in one of them."""
    made = client.post("/api/games", content=json.dumps(GAME), headers={"content-type": content_type})
    assert made.status_code == 415, made.text
    assert "application/json" in made.json()["error"]


def test_the_pages_own_requests_are_taken(client):
    own = {"origin": OWN_ORIGIN, "sec-fetch-site": "same-origin"}
    made = client.post("/api/games", json=GAME, headers=own)
    assert made.status_code == 201, made.text
    upload = jsonl([random_game_record(1, 4, 3)])
    uploaded = client.post(
        "/api/records/upload", content=upload, headers={**own, "content-type": "application/octet-stream"}
    )
    assert uploaded.status_code == 201, uploaded.text
    asked = client.post(f"/api/games/{made.json()['id']}/hint", headers=own)  # no body, no type
    assert asked.status_code == 200, asked.text
    assert client.post("/api/games", json=GAME, headers={"content-type": "Application/JSON; charset=utf-8"})


@pytest.mark.parametrize("digits", [5000, 20])
def test_a_game_index_of_many_digits_is_no_such_game(client, digits):
    replay = client.post("/api/records/upload", content=jsonl([random_game_record(1, 4, 3)])).json()
    for path in ("", "/analysis"):
        response = client.get(f"/api/replays/{replay['id']}/games/{'9' * digits}{path}")
        assert response.status_code == 404, response.text
        assert "no game" in response.json()["error"]
