"""The server's limits against clients that try to take it over (issue 54, items 9 to 13),
through Starlette's TestClient and the pool itself: requests from other sites, one client
filling what all share, floods of hints and of tasks, numbers no game index can be, and
the limits as docs/security.md states them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading

import pytest
from arena_helpers import random_game_record
from paths import PROJECT_ROOT
from starlette.testclient import TestClient
from web_helpers import long_game_record, records_file

from agent.arena.matches.cluster import CONNECT_TIMEOUT
from agent.web.app import (
    ANALYSES_PER_CLIENT,
    ANALYSES_WAITING,
    ANALYSIS_NODES,
    ANALYSIS_TOTAL_NODES,
    BUSY_RETRY_SECONDS,
    GAMES_RETRY_SECONDS,
    MAX_GAMES,
    MAX_GAMES_PER_CLIENT,
    MAX_REPLAYS,
    MAX_REPLAYS_PER_CLIENT,
    RECEIVING_BYTES,
    RECEIVING_SHARE,
    RECORD_FILES_AT_ONCE,
    REPLAY_BYTES,
    REPLAY_SHARE,
    create_app,
)
from agent.web.bodies import BODY_SECONDS, BodyBytes, NoRoom
from agent.web.client_turns import ClientTurns
from agent.web.http_server import ANSWERED_BODY_SECONDS, HEAD_SECONDS
from agent.web.thinking import WorkerPool

GAME = {"size": 4, "types": 3, "opponent": "greedy", "seed": 11}
OWN_ORIGIN = "http://testserver"  # the origin TestClient's requests come to
HANG_GUARD_SECONDS = 10  # what a wait that must end at once may take before the test fails


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


def client_from(lead: TestClient, address: str) -> TestClient:
    """A client of `lead`'s app (its lifespan, its event loop) from another address."""
    other = TestClient(lead.app, client=(address, 50000))
    other.portal = lead.portal
    return other


def test_sixty_uploads_from_one_address_leave_room_for_every_other():
    with TestClient(create_app(workers=1), client=("10.0.0.1", 50000)) as flood:
        uploads = [flood.post("/api/records/upload", content=jsonl([random_game_record(1, 3, 2)])) for _ in range(60)]
        others = [client_from(flood, f"10.0.1.{number}") for number in range(8)]
        theirs = [other.post("/api/records/upload", content=jsonl([random_game_record(2, 3, 2)])) for other in others]
        oldest, newest = (flood.get(f"/api/replays/{uploads[k].json()['id']}/games/0") for k in (0, -1))
        first_other = others[0].get(f"/api/replays/{theirs[0].json()['id']}/games/0")
    assert {upload.status_code for upload in uploads} == {201}
    assert [reply.status_code for reply in theirs] == [201] * 8, theirs[-1].text
    assert (oldest.status_code, newest.status_code, first_other.status_code) == (404, 200, 200)
    assert len({upload.json()["id"] for upload in uploads}) == 60


def test_addresses_holding_every_game_make_room_for_a_newcomer():
    """Two addresses fill the store with games under way; a third address still gets a new
    game, made room for by the least recently used game of the largest holders."""
    with TestClient(create_app(workers=1, max_games=2 * MAX_GAMES_PER_CLIENT), client=("10.0.0.1", 50000)) as first:
        second = client_from(first, "10.0.0.2")
        played = {}
        for holder in (first, second):
            for _ in range(MAX_GAMES_PER_CLIENT):
                game = holder.post("/api/games", json=GAME).json()
                holder.post(f"/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]})
                played.setdefault(holder, []).append(game["id"])
        newcomer = client_from(first, "10.0.0.3").post("/api/games", json=GAME)
        kept = {
            holder: [holder.get(f"/api/games/{game_id}").status_code for game_id in ids]
            for holder, ids in played.items()
        }
    assert newcomer.status_code == 201, newcomer.text
    assert kept[second] == [200] * MAX_GAMES_PER_CLIENT
    assert kept[first] == [404] + [200] * (MAX_GAMES_PER_CLIENT - 1)


def test_a_game_refused_to_an_address_at_its_cap_says_when_to_retry():
    with TestClient(create_app(workers=1)) as client:
        for _ in range(MAX_GAMES_PER_CLIENT):
            game = client.post("/api/games", json=GAME).json()
            client.post(f"/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]})
        refused = client.post("/api/games", json=GAME)
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0


def test_an_analysis_of_a_long_game_searches_fewer_nodes_a_position():
    record = long_game_record(10, 4, seed=1)
    positions = len(record["moves"]) + 1
    with TestClient(create_app(workers=1)) as client:
        replay = client.post("/api/records/upload", content=records_file(record, 1)).json()
        path = f"/api/replays/{replay['id']}/games/0/analysis"
        started = client.post(path, json={"nodes": ANALYSIS_NODES[1]})
        client.delete(path)
    assert started.status_code == 202, started.text
    assert started.json()["nodes"] == ANALYSIS_TOTAL_NODES // positions < ANALYSIS_NODES[1]


def test_analyses_from_one_address_leave_room_for_another():
    """One address asks for more analyses than may wait; its own least recently asked for
    make room, and another address's analysis is taken."""
    games = 8
    upload = b"".join(jsonl([random_game_record(seed, 10, 4)]) for seed in range(1, games + 1))
    with TestClient(create_app(workers=1), client=("10.0.0.1", 50000)) as flood:
        replay = flood.post("/api/records/upload", content=upload).json()
        paths = [f"/api/replays/{replay['id']}/games/{index}/analysis" for index in range(games)]
        asked = [flood.post(path, json={"nodes": ANALYSIS_NODES[1]}) for path in paths[:-1]]
        other = client_from(flood, "10.0.0.2").post(paths[-1], json={"nodes": ANALYSIS_NODES[1]})
        states = [flood.get(path).json()["state"] for path in paths]
        for path in paths:
            flood.delete(path)
    assert [reply.status_code for reply in asked] == [202] * (games - 1)
    assert other.status_code == 202, other.text
    under_way = [state for state in states if state != "none"]
    assert states[-1] != "none" and len(under_way) == ANALYSES_PER_CLIENT + 1, states


def test_a_flood_of_hints_on_one_game_is_looked_for_one_at_a_time(client):
    game = client.post("/api/games", json={"size": 10, "types": 4, "seed": 3}).json()
    together = threading.Barrier(8)
    replies = []

    def ask() -> None:
        together.wait()
        replies.append(client.post(f"/api/games/{game['id']}/hint"))

    askers = [threading.Thread(target=ask) for _ in range(8)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    statuses = sorted(reply.status_code for reply in replies)
    assert statuses[0] == 200 and statuses[-1] == 409 and set(statuses) == {200, 409}, statuses
    refused = next(reply for reply in replies if reply.status_code == 409)
    assert "a hint is being looked for in this game already" in refused.json()["error"]


def test_a_client_flooding_the_pool_waits_while_others_take_their_turns():
    """One worker; a client asks for four tasks, then two others for one each: once the
    task running when they came is done, each of the others goes before the flood's next."""

    async def scenario() -> list:
        pool = WorkerPool(workers=1)
        started = []  # with one worker, the order tasks end in is the order they start in

        async def task(client: str, label: str) -> None:
            started.append(await pool.run(None, str, label, client=client))

        try:
            tasks = [asyncio.create_task(task("10.0.0.1", f"flood {number}")) for number in range(4)]
            await asyncio.sleep(0)  # the flood's tasks have all asked: the first runs, three wait
            tasks += [asyncio.create_task(task(client, client)) for client in ("10.0.0.2", "10.0.0.3")]
            await asyncio.gather(*tasks)
        finally:
            pool.close()
        return started

    assert asyncio.run(scenario()) == ["flood 0", "10.0.0.2", "10.0.0.3", "flood 1", "flood 2", "flood 3"]


def test_a_client_runs_a_second_task_only_while_nobody_else_waits():
    """Two places: a flood takes both while alone; another client's task takes the first
    place freed, and the flood's waiting tasks the next."""

    async def scenario() -> list:
        turns = ClientTurns(2)
        given = []

        async def job(client: str) -> None:
            await turns.acquire(client)
            given.append(client)

        flood = [asyncio.create_task(job("flood")) for _ in range(3)]
        await asyncio.sleep(0)
        other = asyncio.create_task(job("other"))
        await asyncio.sleep(0)
        before = list(given)
        turns.release("flood")
        await asyncio.sleep(0)
        after_one = list(given)
        turns.release("flood")
        await asyncio.gather(*flood, other)
        return [before, after_one, given]

    before, after_one, after_two = asyncio.run(scenario())
    assert before == ["flood", "flood"]
    assert after_one == ["flood", "flood", "other"]
    assert after_two == ["flood", "flood", "other", "flood"]


def test_a_turn_given_up_while_waiting_leaves_the_place_to_the_next():
    async def scenario() -> None:
        turns = ClientTurns(1)
        await turns.acquire("a")
        waiting = asyncio.create_task(turns.acquire("b"))
        await asyncio.sleep(0)
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        turns.release("a")
        await asyncio.wait_for(turns.acquire("c"), HANG_GUARD_SECONDS)

    asyncio.run(scenario())


def read(path: str) -> str:
    with open(os.path.join(PROJECT_ROOT, path), encoding="utf-8") as text:
        return text.read()


def test_bodies_being_received_hold_the_bytes_they_sent_up_to_a_share_and_a_total():
    received = BodyBytes(total=10, share=6)
    with received.holder("a") as first, received.holder("a") as second, received.holder("b") as other:
        first(4)
        second(2)
        with pytest.raises(NoRoom):
            second(1)  # past a's share
        other(4)
        with received.holder("c") as third, pytest.raises(NoRoom):
            third(1)  # past the total
        assert (received.held, received.by_client) == (10, {"a": 6, "b": 4})
    assert (received.held, received.by_client) == (0, {})


def test_the_security_doc_states_the_limits_the_server_keeps():
    text = " ".join(read("docs/security.md").split())
    assert f"| Games | {MAX_GAMES_PER_CLIENT} | {MAX_GAMES} |" in text
    share = REPLAY_BYTES // REPLAY_SHARE // 2**20
    assert f"| {MAX_REPLAYS_PER_CLIENT} files, {share} MB | {MAX_REPLAYS} files, {REPLAY_BYTES // 2**20} MB |" in text
    assert f"| Analyses under way or waiting | {ANALYSES_PER_CLIENT} |" in text and f"{ANALYSES_WAITING} more" in text
    assert f"at most {ANALYSIS_TOTAL_NODES:,} nodes in all" in text
    assert f"(Retry-After: {GAMES_RETRY_SECONDS})" in text and f"(Retry-After: {BUSY_RETRY_SECONDS})" in text
    assert f"still unread {ANSWERED_BODY_SECONDS:g} seconds after its answer" in text
    assert f"within {HEAD_SECONDS:g} seconds" in text and f"within {BODY_SECONDS:g} seconds" in text
    receiving = f"| {RECEIVING_SHARE // 2**20} MB | {RECEIVING_BYTES // 2**20} MB |"
    assert f"| Bytes of uploaded files being received {receiving}" in text
    assert f"| Files of records being checked | 1 | {RECORD_FILES_AT_ONCE} |" in text
    assert "unless `serve --forwarded-allow-ips ADDRS` names the reverse proxies" in text
    assert f"must answer within {CONNECT_TIMEOUT:g} seconds, the connection and Dask's handshake together" in text
    assert "[security.md](security.md)" in read("docs/contract.md")
    serve_row = next(line for line in read("README.md").splitlines() if "`fruit-rage serve [" in line)
    assert "Origin check" in serve_row and "caps for each client" in serve_row
