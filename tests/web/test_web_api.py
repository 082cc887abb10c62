"""The web server's JSON API through Starlette's TestClient: every endpoint, with good and
bad input (oversized bodies, unknown ids, illegal moves, malformed records)."""

from __future__ import annotations

import json
import threading

import pytest
from arena_helpers import random_game_record
from starlette.testclient import TestClient
from web_helpers import long_game_record, records_file

from agent import GreedyPlayer, RandomPlayer, play_game
from agent.arena.processes.referee_clock import CPU_CLOCK, WALL_CLOCK
from agent.arena.records.reading import MATCH_FIELDS, read_records
from agent.arena.review.phases import match_phases
from agent.board import Board, Move
from agent.web.app import MAX_GAMES_PER_CLIENT, REPLAY_SHARE, UNPLAYED_GRACE, create_app
from agent.web.bodies import JSON_BODY_LIMIT
from agent.web.replays import MAX_RECORDS_BYTES
from agent.web.strict_records import WORK_BUDGET

GAME = {"size": 5, "types": 3, "opponent": "greedy", "seed": 11}


def jsonl(records) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


@pytest.fixture(scope="module")
def records_dir(tmp_path_factory):
    """random.jsonl (three games, the last lost on time), broken.jsonl, and files the
    server must not offer: a link, a folder named like a record, a .txt."""
    folder = tmp_path_factory.mktemp("records")
    outside = tmp_path_factory.mktemp("outside") / "secret.jsonl"
    outside.write_text(jsonl([random_game_record(9, 4, 3)]))
    records = [random_game_record(seed, 5, 3) for seed in (1, 2)] + [random_game_record(3, 5, 3, fault_at=4)]
    (folder / "random.jsonl").write_text(jsonl(records))
    (folder / "broken.jsonl").write_text("this is not JSON\n")
    (folder / "notes.txt").write_text(jsonl(records))
    (folder / "folder.jsonl").mkdir()
    (folder / "link.jsonl").symlink_to(outside)
    return folder


@pytest.fixture(scope="module")
def client(records_dir):
    with TestClient(create_app(records_dir=str(records_dir), workers=2)) as client:
        yield client


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def assert_error(response, status: int, fragment: str) -> None:
    assert response.status_code == status, response.text
    assert fragment in response.json()["error"], response.json()


def new_game(client, **settings) -> dict:
    response = client.post("/api/games", json={**GAME, **settings})
    assert response.status_code == 201, response.text
    return response.json()


def play_out(client, game: dict) -> dict:
    """Play `game` to its end, the person taking the first group each turn; every state
    seen is checked against the library's own play of the same moves."""
    board = Board(game["rows"], game["types"])
    while not game["over"]:
        if game["turn"] == "you":
            reply = client.post(f"/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]})
        else:
            reply = client.post(f"/api/games/{game['id']}/agent-move")
        assert reply.status_code == 200, reply.text
        game = reply.json()
        last = game["last_move"]
        taken = board.group_at(Move.from_name(last["move"]))
        assert sorted(map(tuple, last["cells"])) == sorted(taken.cells)
        board, points = board.play(Move.from_name(last["move"]))
        assert (list(board.rows), points) == (game["rows"], last["points"])
    return game


def test_the_page_and_its_files_are_served_with_security_headers(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="play-board"' in page.text
    assert "script-src" not in page.headers["content-security-policy"]  # default-src 'self' covers it
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    script = client.get("/static/js/main.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static//etc/passwd",
        "/static/js/../../app.py",
        "/app.py",
        "/api/nothing",
    ],
)
def test_nothing_outside_the_static_folder_is_served(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "STATIC" not in response.text and "import" not in response.text


def test_options_offer_the_players_and_only_plain_record_files(client):
    options = client.get("/api/options").json()
    assert options["players"] == ["ours", "greedy", "random", "minimax3"]
    assert options["records"] == ["broken.jsonl", "random.jsonl"]


def test_a_game_against_greedy_is_played_to_its_end_and_judged(client):
    game = play_out(client, new_game(client))
    assert game["rows"] == ["*****"] * 5 and game["groups"] == [] and game["turn"] is None
    for side in ("you", "agent"):
        assert game["scores"][side] == sum(m["points"] for m in game["moves"] if m["side"] == side)
    assert [m["side"] for m in game["moves"]] == ["you", "agent"] * (len(game["moves"]) // 2) + ["you"] * (
        len(game["moves"]) % 2
    )
    you, agent = game["scores"]["you"], game["scores"]["agent"]
    if you != agent:
        assert game["winner"] == ("you" if you > agent else "agent")
        assert game["reason"] == f"score {max(you, agent)} to {min(you, agent)}"
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == game["moves"]


def test_the_agent_plays_the_named_player_in_its_pool(client):
    """Greedy takes a largest group every turn."""
    game = new_game(client, first="agent", size=6)
    board = Board(game["rows"], game["types"])
    reply = client.post(f"/api/games/{game['id']}/agent-move").json()
    assert reply["last_move"]["points"] == max(group.points for group in board.groups())
    assert reply["clocks"]["agent"] <= game["clocks"]["agent"] and reply["turn"] == "you"


def test_ours_moves_within_its_clock(client):
    game = new_game(client, opponent="ours", first="agent", size=6, agent_clock=2.0)
    reply = client.post(f"/api/games/{game['id']}/agent-move").json()
    assert reply["turn"] == "you" and 0 < reply["clocks"]["agent"] < 2.0
    assert reply["last_move"]["seconds"] == pytest.approx(2.0 - reply["clocks"]["agent"], abs=0.002)


def test_whose_turn_it_is_is_enforced(client):
    game = new_game(client, first="agent")
    assert game["turn"] == "agent"
    assert_error(client.post(f"/api/games/{game['id']}/move", json={"move": "A1"}), 409, "the agent's turn")
    game = new_game(client, first="you")
    assert_error(client.post(f"/api/games/{game['id']}/agent-move"), 409, "your turn")


def test_a_random_first_mover_follows_the_seed(client):
    firsts = {new_game(client, first="random", seed=seed)["first"] for seed in range(12)}
    assert firsts == {"you", "agent"}
    assert {new_game(client, first="random", seed=5)["first"] for _ in range(3)} == {
        new_game(client, first="random", seed=5)["first"]
    }


@pytest.mark.parametrize(
    "body, fragment",
    [
        ({"size": 0}, "'size' must be a whole number from 1 to 26"),
        ({"size": 27}, "'size' must be a whole number from 1 to 26"),
        ({"size": "6"}, "'size' must be a whole number"),
        ({"size": True}, "'size' must be a whole number"),
        ({"size": 6.0}, "'size' must be a whole number"),
        ({"types": 10}, "'types' must be a whole number from 1 to 9"),
        ({"clock": 0}, "'clock' must be a number of seconds above 0 and up to 300"),
        ({"agent_clock": 301}, "'agent_clock' must be a number of seconds"),
        ({"clock": "ten"}, "'clock' must be a number"),
        ({"clock": 10**310}, "'clock' must be a number of seconds above 0 and up to 300"),  # beyond a float
        ({"agent_clock": -(10**310)}, "'agent_clock' must be a number of seconds above 0"),
        ({"opponent": "human"}, "'opponent' must be one of: ours, greedy, random, minimax3"),
        ({"first": "me"}, "'first' must be one of: you, agent, random"),
        ({"seed": -1}, "'seed' must be a whole number from 0"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_bad_game_settings_are_refused_with_a_message(client, body, fragment):
    assert_error(client.post("/api/games", json=body), 400, fragment)


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"clock": NaN}', "'clock' must be"),
        (b'{"clock": 1e999}', "'clock' must be"),
        (b"\xff\xfe", "not JSON"),
        (b'"text"', "not a JSON object"),
        (b"[" * 2000 + b"]" * 2000, "not JSON"),
    ],
)
def test_bodies_that_are_no_json_object_are_refused(client, content, fragment):
    assert_error(client.post("/api/games", content=content), 400, fragment)


def test_oversized_bodies_are_refused_before_they_are_parsed(client):
    assert_error(client.post("/api/games", content=b" " * (JSON_BODY_LIMIT + 1)), 413, "larger than 4096 bytes")
    game = new_game(client)
    assert_error(
        client.post(f"/api/games/{game['id']}/move", content=b'{"move": "' + b"A" * 5000 + b'"}'), 413, "larger than"
    )
    assert_error(client.post("/api/records/upload", content=b"\n" * (MAX_RECORDS_BYTES + 1)), 413, "larger than")


def test_a_body_without_a_length_is_cut_off_at_the_cap(client):
    chunks = (b" " * 1024 for _ in range(8))  # sent chunked: no Content-Length to refuse up front
    assert_error(client.post("/api/games", content=chunks), 413, "larger than 4096 bytes")


@pytest.mark.parametrize("game_id", ["nope", "A" * 22, "%00", "a" * 300])
def test_unknown_game_ids_are_404(client, game_id):
    assert_error(client.get(f"/api/games/{game_id}"), 404, "no such game")
    assert_error(client.post(f"/api/games/{game_id}/move", json={"move": "A1"}), 404, "no such game")
    assert_error(client.post(f"/api/games/{game_id}/agent-move"), 404, "no such game")
    assert client.get(f"/api/games/../../{game_id}").status_code == 404


def test_illegal_and_malformed_moves_are_refused(client):
    game = new_game(client, seed=4)
    url = f"/api/games/{game['id']}/move"
    assert_error(client.post(url, json={"move": "F1"}), 422, "F1 is off the 5x5 board")
    assert_error(client.post(url, json={"move": "hello"}), 422, "not a cell name")
    assert_error(client.post(url, json={"move": "A0"}), 422, "")
    assert_error(client.post(url, json={}), 400, "'move' must be text of 1 to 8 characters")
    assert_error(client.post(url, json={"move": 11}), 400, "'move' must be text")
    assert_error(client.post(url, json={"move": "A1", "also": 1}), 400, "unknown field 'also'")
    played = client.post(url, json={"move": game["groups"][0]["move"]}).json()
    row, col = next((r, c) for r, line in enumerate(played["rows"]) for c, ch in enumerate(line) if ch == "*")
    client.post(f"/api/games/{game['id']}/agent-move")
    empty = f"{'ABCDE'[col]}{row + 1}"
    assert_error(client.post(url, json={"move": empty}), 422, f"{empty} is an empty cell")
    assert client.get(f"/api/games/{game['id']}").json()["turn"] == "you"  # nothing was taken


def test_a_finished_game_takes_no_more_moves(client):
    game = play_out(client, new_game(client, size=3))
    assert_error(client.post(f"/api/games/{game['id']}/move", json={"move": "A1"}), 409, "the game is over")
    assert_error(client.post(f"/api/games/{game['id']}/agent-move"), 409, "the game is over")


def test_the_persons_clock_runs_out_on_the_server():
    clock = FakeClock()
    with TestClient(create_app(workers=1, clock=clock)) as client:
        game = new_game(client, clock=10.0)
        clock.now += 4.0
        assert client.get(f"/api/games/{game['id']}").json()["clocks"]["you"] == 6.0
        late = new_game(client, clock=10.0)
        clock.now += 11.0
        reply = client.post(f"/api/games/{late['id']}/move", json={"move": late["groups"][0]["move"]})
        assert reply.status_code == 200
        assert (reply.json()["winner"], reply.json()["reason"]) == ("agent", "you ran out of time")
        assert reply.json()["rows"] == late["rows"] and reply.json()["moves"] == []
        shown = client.get(f"/api/games/{game['id']}").json()
        assert shown["over"] and shown["winner"] == "agent" and shown["clocks"]["you"] == 0.0


def test_idle_games_expire_and_the_count_of_games_is_capped():
    clock = FakeClock()
    with TestClient(create_app(workers=1, clock=clock, idle_seconds=60, max_games=2)) as client:
        kept, dropped = new_game(client), new_game(client)
        clock.now += 40
        assert client.get(f"/api/games/{kept['id']}").status_code == 200  # asked for: kept alive
        clock.now += 40
        assert client.get(f"/api/games/{kept['id']}").status_code == 200
        assert_error(client.get(f"/api/games/{dropped['id']}"), 404, "may have expired")
        third = new_game(client)
        fourth = new_game(client)  # the least recently used game makes room
        assert_error(client.get(f"/api/games/{kept['id']}"), 404, "may have expired")
        assert client.get(f"/api/games/{third['id']}").status_code == 200
        assert client.get(f"/api/games/{fourth['id']}").status_code == 200


def test_games_that_never_had_a_move_expire_long_before_idle_ones():
    """Games never played are dropped once the first movers' clocks (and a grace) have run
    out, not 30 minutes later. A game begun stays."""
    clock = FakeClock()
    with TestClient(create_app(workers=1, clock=clock)) as client:
        begun = new_game(client, clock=100.0)
        client.post(f"/api/games/{begun['id']}/move", json={"move": begun["groups"][0]["move"]})
        unplayed = [new_game(client, clock=100.0) for _ in range(4)]
        clock.now += 100.0 + UNPLAYED_GRACE + 1
        assert all(client.get(f"/api/games/{game['id']}").status_code == 404 for game in unplayed)
        assert client.get(f"/api/games/{begun['id']}").status_code == 200


def test_one_address_holds_a_bounded_number_of_games_under_way():
    """At its cap, an address's games over or never played make room; when every one is
    under way, a new game is refused (429) until one ends or expires."""
    with TestClient(create_app(workers=1, max_games=MAX_GAMES_PER_CLIENT * 4)) as client:
        left = new_game(client)
        under_way = []
        for _ in range(MAX_GAMES_PER_CLIENT):
            game = new_game(client)
            under_way.append(client.post(f"/api/games/{game['id']}/move", json={"move": game["groups"][0]["move"]}))
        assert all(reply.json()["turn"] == "agent" for reply in under_way)
        assert_error(client.get(f"/api/games/{left['id']}"), 404, "no such game")  # made room
        assert_error(
            client.post("/api/games", json=GAME), 429, f"this address has {MAX_GAMES_PER_CLIENT} games under way"
        )


def test_a_record_file_opens_by_name_with_its_games_and_phases(client, records_dir):
    opened = client.post("/api/records/open", json={"name": "random.jsonl"})
    assert opened.status_code == 201, opened.text
    view = opened.json()
    records = read_records(str(records_dir / "random.jsonl"))
    assert view["label"] == "random.jsonl"
    assert [(g["game"], g["scores"], g["moves"]) for g in view["games"]] == [
        (r["game"], r["scores"], len(r["moves"])) for r in records
    ]
    phases = match_phases(records, 10)
    for series in view["phases"]["series"]:
        games = phases.margins[series["first"]]
        assert series["games"] == len(games)
        assert series["margins"] == [sum(g[k] for g in games) / len(games) for k in range(10)]
    assert view["phases"]["skipped"] == 1 and view["phases"]["fruit_gone"] == list(range(10, 101, 10))


@pytest.mark.parametrize(
    "name, status, fragment",
    [
        ("missing.jsonl", 404, "no record file named 'missing.jsonl'"),
        ("../outside/secret.jsonl", 404, "no record file named"),
        ("link.jsonl", 404, "no record file named"),
        ("folder.jsonl", 404, "no record file named"),
        ("notes.txt", 404, "no record file named"),
        ("/etc/passwd", 404, "no record file named"),
        ("broken.jsonl", 400, "broken.jsonl: line 1 is not a game record"),
    ],
)
def test_record_files_outside_the_listing_or_malformed_are_refused(client, name, status, fragment):
    response = client.post("/api/records/open", json={"name": name})
    assert_error(response, status, fragment)
    assert str(client.app) not in response.text and "/tmp" not in response.json()["error"]


def test_record_requests_need_a_name(client):
    assert_error(client.post("/api/records/open", json={"name": 3}), 400, "'name' must be text")
    assert_error(client.post("/api/records/open", json={"path": "/etc"}), 400, "unknown field 'path'")


def test_without_records_folder_no_file_is_offered():
    with TestClient(create_app(workers=1)) as client:
        assert client.get("/api/options").json()["records"] == []
        assert_error(client.post("/api/records/open", json={"name": "random.jsonl"}), 404, "without --records")


def test_an_uploaded_file_is_read_as_records(client):
    records = [random_game_record(seed, 4, 3) for seed in (5, 6)]
    upload = client.post("/api/records/upload", content=jsonl(records).encode())
    assert upload.status_code == 201, upload.text
    assert upload.json()["label"] == "the uploaded file"
    assert [g["scores"] for g in upload.json()["games"]] == [r["scores"] for r in records]


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"", "holds no game records"),
        (b"\n\n", "holds no game records"),
        (
            jsonl([random_game_record(5, 4, 3)]).encode() + b"garbage\n",
            "the uploaded file: line 2 is not a game record",
        ),
        (b"\xff\xfe\n", "line 1 is not UTF-8 text"),
        (b'{"game": 1}\n', "the uploaded file: game 1: the record names no agents"),
        (b'{"game": "one"}\n', "line 1 is not a game record"),
        (b"[" * 100000 + b"\n", "line 1 is not a game record"),
    ],
)
def test_malformed_uploads_are_refused_with_the_reason(client, content, fragment):
    response = client.post("/api/records/upload", content=content)
    assert_error(response, 400, fragment)
    assert "fruit-rage-upload" not in response.json()["error"]  # the temporary file is never named


def test_an_upload_with_an_illegal_move_is_refused(client):
    record = random_game_record(7, 4, 3)
    record["moves"][1]["move"] = "Z9"
    assert_error(
        client.post("/api/records/upload", content=jsonl([record]).encode()),
        400,
        "game 7: move 2: Z9 is off the 4x4 board",
    )


def test_a_record_as_match_writes_it_uploads_with_every_field():
    """Every field the referee writes is one the server takes: a time-odds game of a
    paired match from a given position against a person's clock, a move with its search
    depth and value. What the replay shows of them is kept."""
    played = play_game(GreedyPlayer(), RandomPlayer(seed=1), Board.random(4, 5, 3), clocks=(10, 20))
    played.pair, played.position, played.clock_kinds = 1, 2, (CPU_CLOCK, WALL_CLOCK)
    record = dict(played.to_dict(), game=1, seed=4)
    record["moves"][0].update(depth=3, value=12)
    assert set(MATCH_FIELDS) | {"time_b", "pair", "position", "clock"} <= set(record)
    with TestClient(create_app(workers=1)) as client:
        upload = client.post("/api/records/upload", content=jsonl([record]).encode())
        assert upload.status_code == 201, upload.text
        view = client.get(f"/api/replays/{upload.json()['id']}/games/0").json()
    assert view["time"] == {"A": 10, "B": 20} and len(view["moves"]) == len(record["moves"])
    assert [move["measured"] for move in view["moves"][:2]] == ["CPU", "wall time"]


@pytest.mark.parametrize(
    "change, fragment",
    [
        (
            {"padding": [{}] * 10},
            "line 1 is not a game record: the record has a field match --out never writes, 'padding'",
        ),
        (
            {"agents": {"A": "a", "B": "b", "C": [[]]}},
            "the record's 'agents' has a field match --out never writes, 'C'",
        ),
        ({"x" * 100: 1}, "never writes, '" + "x" * 40 + "...'"),
        ({"types": 0}, "the uploaded file: game 5: the record's 'types' is 0, not 1..9"),
        ({"types": -3}, "the record's 'types' is -3, not 1..9"),
        ({"types": 10}, "the record's 'types' is 10, not 1..9"),
        ({"types": 2}, "holds fruit 2, but the record's 'types' is 2 (fruit 0..1)"),
    ],
    ids=["padding", "a third agent", "a long name", "no types", "negative types", "ten types", "too few types"],
)
def test_uploads_with_fields_no_record_has_or_no_fruit_types_are_refused(client, change, fragment):
    assert_error(
        client.post("/api/records/upload", content=jsonl([{**random_game_record(5, 4, 3), **change}]).encode()),
        400,
        fragment,
    )


def test_a_move_with_a_field_no_move_has_is_refused(client):
    record = random_game_record(5, 4, 3)
    record["moves"][2]["note"] = [1, 2, 3]
    assert_error(
        client.post("/api/records/upload", content=jsonl([record]).encode()),
        400,
        "line 1 is not a game record: move 3 has a field match --out never writes, 'note'",
    )


def test_an_upload_whose_moves_are_too_long_to_check_is_refused_before_checking(client):
    record = long_game_record(26, 9, seed=2)
    work = len(record["moves"]) * 26 * 26
    games = WORK_BUDGET // work + 1
    record["moves"][-1]["points"] += 1  # checking would find this; the budget refuses first
    assert_error(
        client.post("/api/records/upload", content=records_file(record, games)),
        413,
        f"the uploaded file is too long to check at once: its {games} games replay {games * len(record['moves']):,} "
        f"moves on boards of up to 26x26 ({games * work:,} moves times board cells, at most {WORK_BUDGET:,})",
    )


def test_the_replays_kept_are_bounded_by_their_bytes():
    upload = jsonl([random_game_record(seed, 5, 3) for seed in range(1, 11)]).encode()
    kept = sum(len(json.dumps(json.loads(line), separators=(",", ":"))) for line in upload.splitlines())
    with TestClient(create_app(workers=1, replay_bytes=kept * 2 * REPLAY_SHARE)) as client:
        first, second, third = (client.post("/api/records/upload", content=upload) for _ in range(3))
        again = [
            client.get(f"/api/replays/{reply.json()['id']}/games/0").status_code for reply in (first, second, third)
        ]
    assert first.status_code == second.status_code == third.status_code == 201
    assert again == [404, 200, 200]  # one address keeps two of these: its oldest made room


def test_a_replayed_game_has_every_board_and_the_margin_after_every_move(client, records_dir):
    opened = client.post("/api/records/open", json={"name": "random.jsonl"}).json()
    records = read_records(str(records_dir / "random.jsonl"))
    for index, record in enumerate(records):
        view = client.get(f"/api/replays/{opened['id']}/games/{index}").json()
        legal = [move for move in record["moves"] if not move.get("fault")]
        assert len(view["margins"]) == len(legal) and len(view["rows"]) == len(legal) + 1
        board, margin = Board(record["board"]), 0
        for move, rows, shown_margin in zip(legal, view["rows"][1:], view["margins"]):
            board, points = board.play(Move.from_name(move["move"]))
            margin += points if move["player"] == "A" else -points
            assert (rows, shown_margin) == (list(board.rows), margin)
        assert view["margins"][-1] == record["scores"]["A"] - record["scores"]["B"]
    faulted = client.get(f"/api/replays/{opened['id']}/games/2").json()
    assert faulted["moves"][-1]["fault"] == "out of time" and "cells" not in faulted["moves"][-1]


def test_replays_refuse_unknown_ids_and_games(client):
    opened = client.post("/api/records/open", json={"name": "random.jsonl"}).json()
    assert_error(client.get(f"/api/replays/{opened['id']}/games/3"), 404, "no game 3: the file holds games 0 to 2")
    assert_error(client.get("/api/replays/" + "B" * 22 + "/games/0"), 404, "no such replay")
    assert client.get(f"/api/replays/{opened['id']}/games/-1").status_code == 404


def test_wrong_methods_get_a_json_405(client):
    assert_error(client.get("/api/games"), 405, "Method Not Allowed")
    assert_error(client.delete("/api/options"), 405, "Method Not Allowed")


def test_a_foreign_host_name_is_refused_when_told_the_local_names():
    app = create_app(workers=1, allowed_hosts=["127.0.0.1", "localhost", "[::1]"])
    with TestClient(app, base_url="http://rebound.example") as client:
        assert_error(client.get("/api/options"), 400, "loopback")
    for base in ("http://127.0.0.1:8000", "http://localhost", "http://[::1]:8000"):
        with TestClient(app, base_url=base) as client:
            assert client.get("/api/options").status_code == 200


def test_other_requests_are_answered_while_the_agent_thinks(client):
    """The search runs in the pool, not on the event loop: requests made while it thinks
    are all answered before it is done."""
    game = new_game(client, opponent="ours", first="agent", size=14, types=4, agent_clock=60.0)
    answered = {}
    thinking = threading.Thread(target=lambda: answered.update(move=client.post(f"/api/games/{game['id']}/agent-move")))
    thinking.start()
    try:
        for _ in range(10):
            assert client.get("/api/options").status_code == 200
            assert client.get(f"/api/games/{game['id']}").status_code == 200
        still_thinking = thinking.is_alive()
    finally:
        thinking.join(timeout=120)
    assert still_thinking
    assert answered["move"].status_code == 200 and answered["move"].json()["turn"] == "you"
