"""The client of the running server is the address its connection comes from: an
X-Forwarded-For header, which any process of this machine can send from 127.0.0.1, is
believed only from the proxies `--forwarded-allow-ips` names. The per-client caps show
whose request it was: an address with all its games under way is refused another."""

from __future__ import annotations

import httpx
import pytest
from arena_helpers import fruit_rage
from web_helpers import running_server

from agent.web.app import MAX_GAMES_PER_CLIENT

GAME = {"size": 4, "types": 3, "opponent": "greedy", "seed": 11}
FORGED = {"x-forwarded-for": "10.9.9.9"}


def games_under_way_then_one_more(base: str) -> httpx.Response:
    """Every game this address may keep, each under way (a move made), then one more
    asked for in another address's name."""
    with httpx.Client(base_url=base, timeout=30) as client:
        for _ in range(MAX_GAMES_PER_CLIENT):
            game = client.post("/api/games", json=GAME).json()
            moved = client.post(f"/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]})
            assert moved.status_code == 200, moved.text
        return client.post("/api/games", json=GAME, headers=FORGED)


def test_a_forged_forwarded_for_from_this_machine_does_not_change_the_client(tmp_path):
    with running_server(log_path=tmp_path / "log") as (base, _):
        another = games_under_way_then_one_more(base)
    assert another.status_code == 429, another.text
    assert f"this address has {MAX_GAMES_PER_CLIENT} games under way" in another.json()["error"]


def test_the_proxies_named_are_believed(tmp_path):
    with running_server("--forwarded-allow-ips", "127.0.0.1, ::1", log_path=tmp_path / "log") as (base, _):
        another = games_under_way_then_one_more(base)
    assert another.status_code == 201, another.text


@pytest.mark.parametrize("addresses", ["proxy.example", "10.0.0.0/8,", "*,127.0.0.1"])
def test_proxies_that_are_no_addresses_are_refused(addresses):
    done = fruit_rage("serve", "--forwarded-allow-ips", addresses, "--port", "0")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "--forwarded-allow-ips: " in done.stderr and "is not an IP address or network" in done.stderr
