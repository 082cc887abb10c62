"""Attacks on a real `python -m agent.web` server, each with what the server must still do:
uploads built to take memory, uploads that cost minutes of checking while a game is on, a
flood of new games from one address, connections that never finish their headers."""

from __future__ import annotations

import json
import select
import socket
import threading
import time

import httpx
from arena_helpers import random_game_record
from web_helpers import children, long_game_record, records_file, rss_mb, running_server

from agent.web.app import MAX_GAMES
from agent.web.http_server import ANSWERED_BODY_SECONDS, HEAD_SECONDS
from agent.web.replays import MAX_RECORDS_BYTES

UPLOAD = "/api/records/upload"
RSS_LIMIT_MB = 200
# Wall seconds past its clock an agent's move may wait while files are checked: the checks
# run in a pool of their own, at a lower priority, so they must not hold the move up.
CHECKS_DELAY = 5.0


def padded_upload() -> bytes:
    """A valid record of a 1x1 game padded to the upload limit with about 1.4 million empty
    objects under a field no record has."""
    record = {
        "game": 1,
        "seed": 1,
        "size": 1,
        "types": 1,
        "time": 10.0,
        "agents": {"A": "a", "B": "b"},
        "first": "A",
        "board": ["0"],
        "moves": [{"player": "A", "move": "A1", "cpu": 0.01, "points": 1}],
        "scores": {"A": 1, "B": 0},
        "winner": "A",
        "reason": "score 1 to 0",
        "fault": None,
    }
    head = json.dumps(record)[:-1] + ', "padding": ['
    objects = (MAX_RECORDS_BYTES - len(head) - len("]}\n")) // len("{},")
    return (head + "{}," * (objects - 1) + "{}]}\n").encode()


def test_ten_uploads_padded_with_empty_objects_leave_the_server_small(tmp_path):
    upload = padded_upload()
    assert len(upload) <= MAX_RECORDS_BYTES and upload.count(b"{}") > 1_390_000
    with running_server(log_path=tmp_path / "log") as (base, process):
        replies = [httpx.post(base + UPLOAD, content=upload, timeout=120) for _ in range(10)]
        memory = {pid: rss_mb(pid) for pid in [process.pid, *children(process.pid)]}
    assert all(reply.status_code == 400 for reply in replies), replies[0].text
    assert "line 1 is not a game record (more than 10000 values)" in replies[0].json()["error"]
    assert max(memory.values()) < RSS_LIMIT_MB, memory


def test_a_game_moves_on_time_while_two_heavy_uploads_are_checked(tmp_path):
    """The attack: 4 MB files of whole 26x26 games of over 500 moves each, two at once
    (from two addresses); the agent's move must still come, within its clock and a few
    seconds (CHECKS_DELAY)."""
    record = long_game_record(26, 9, seed=1)
    heavy = records_file(record, MAX_RECORDS_BYTES // len(records_file(record, 1)))
    assert len(heavy) <= MAX_RECORDS_BYTES and len(record["moves"]) > 500
    agent_clock = 3.0
    with running_server(log_path=tmp_path / "log") as (base, _):
        game = httpx.post(
            base + "/api/games",
            json={"size": 12, "types": 4, "opponent": "ours", "first": "agent", "agent_clock": agent_clock},
            timeout=10,
        ).json()
        uploads = {}

        def send(address: str) -> None:
            with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=600) as sender:
                uploads[address] = sender.post(base + UPLOAD, content=heavy)

        senders = [threading.Thread(target=send, args=(address,)) for address in ("127.0.0.1", "127.0.0.2")]
        for sender in senders:
            sender.start()
        time.sleep(1.0)  # both files are in, their checks begun
        started = time.monotonic()
        moved = httpx.post(f"{base}/api/games/{game['id']}/agent-move", timeout=600)
        waited = time.monotonic() - started
        for sender in senders:
            sender.join()
    assert moved.status_code == 200 and moved.json()["turn"] == "you", moved.text
    assert waited < agent_clock + CHECKS_DELAY, f"the agent's move took {waited:.1f} s"
    for reply in uploads.values():
        assert reply.status_code == 413 and "too long to check at once" in reply.json()["error"], reply.text


def test_a_flood_of_new_games_from_one_address_leaves_room_for_others(tmp_path):
    with running_server(log_path=tmp_path / "log") as (base, _):
        with httpx.Client(base_url=base, timeout=10) as flood:
            statuses = {flood.post("/api/games", json={"size": 1}).status_code for _ in range(MAX_GAMES)}
            again = flood.post("/api/games", json={"size": 1})
        other = httpx.Client(base_url=base, timeout=10, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            fresh = other.post("/api/games", json={"size": 1})
    assert statuses == {201} and again.status_code == 201
    assert fresh.status_code == 201, fresh.text


def test_an_upload_that_stops_halfway_keeps_no_other_upload_waiting(tmp_path):
    """A file being received holds the bytes it has sent, not a turn: a sender that
    stalls keeps nobody from sending, the other clients of its own address included
    (every process of this machine comes from 127.0.0.1)."""
    upload = jsonl_of_games(3)
    with running_server(log_path=tmp_path / "log") as (base, _):
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as stalled:
            stalled.sendall(
                b"POST /api/records/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + f"Content-Length: {len(upload)}\r\n\r\n".encode()
                + upload[:100]
            )
            time.sleep(0.5)  # the server has begun to read it
            same = httpx.post(base + UPLOAD, content=upload, timeout=60)
            with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=60) as other:
                elsewhere = other.post(base + UPLOAD, content=upload)
            stalled.sendall(upload[100:])
            finished = stalled.recv(65536)
    assert same.status_code == 201, same.text
    assert elsewhere.status_code == 201, elsewhere.text
    assert finished.startswith(b"HTTP/1.1 201"), finished[:200]
    assert "Traceback" not in (tmp_path / "log").read_text()


def jsonl_of_games(count: int) -> bytes:
    return b"".join(json.dumps(random_game_record(seed, 5, 3)).encode() + b"\n" for seed in range(1, count + 1))


def test_connections_that_never_finish_their_headers_are_closed(tmp_path):
    """50 connections send part of a request's head, one of them after a whole request
    answered (a kept-alive connection); all are closed within seconds."""
    head = b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    with running_server(log_path=tmp_path / "log") as (base, _):
        port = int(base.rsplit(":", 1)[1])
        partial = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
        try:
            partial[0].sendall(head + b"\r\n")
            assert partial[0].recv(65536).startswith(b"HTTP/1.1 200")
            for connection in partial:
                connection.sendall(head + b"X-Slow: ")
            still_open = set(partial)
            deadline = time.monotonic() + HEAD_SECONDS + 10
            while still_open and time.monotonic() < deadline:
                readable, _, _ = select.select(list(still_open), [], [], 0.5)
                still_open -= {connection for connection in readable if connection.recv(1024) == b""}
            answered = httpx.get(base + "/api/options", timeout=10)
        finally:
            for connection in partial:
                connection.close()
    assert not still_open, f"{len(still_open)} of 50 connections still open"
    assert answered.status_code == 200


def test_connections_whose_body_never_comes_are_closed_after_their_answer(tmp_path):
    """20 requests claim a body of 100 MB: a GET answered without reading it, and an upload
    refused before it is read. Each sends one byte more after its answer (which once kept
    the connection open for good); all are closed within the deadline."""
    heads = [
        b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n",
        b"POST /api/records/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n",
    ]
    with running_server(log_path=tmp_path / "log") as (base, _):
        port = int(base.rsplit(":", 1)[1])
        waiting = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        try:
            for number, connection in enumerate(waiting):
                connection.sendall(heads[number % 2])
            answers = [connection.recv(65536).split(b"\r\n", 1)[0] for connection in waiting]
            for connection in waiting:
                connection.sendall(b"x")
            still_open = set(waiting)
            deadline = time.monotonic() + ANSWERED_BODY_SECONDS + 5
            while still_open and time.monotonic() < deadline:
                readable, _, _ = select.select(list(still_open), [], [], 0.5)
                still_open -= {connection for connection in readable if connection.recv(65536) == b""}
            answered = httpx.get(base + "/api/options", timeout=10)
        finally:
            for connection in waiting:
                connection.close()
    assert set(answers) == {b"HTTP/1.1 200 OK", b"HTTP/1.1 413 Request Entity Too Large"}, answers
    assert not still_open, f"{len(still_open)} of 20 connections still open"
    assert answered.status_code == 200
