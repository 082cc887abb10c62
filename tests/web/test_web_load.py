"""Many tabs at once: 20 games played over the API at the same time against a real server,
every built-in player among the opponents; each game ends judged, and the server still
answers afterwards."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from web_helpers import running_server

from agent.board import Board, Move

pytestmark = pytest.mark.slow

GAMES = 20
OPPONENTS = ("ours", "greedy", "random", "minimax3")
REQUEST_SECONDS = 120


async def play_one(client: httpx.AsyncClient, number: int) -> tuple:
    """(settings, final state) of one game in which the person takes a largest group."""
    settings = {
        "size": 6,
        "types": 3,
        "seed": 500 + number,
        "opponent": OPPONENTS[number % len(OPPONENTS)],
        "first": ("you", "agent")[number % 2],
        "clock": 120,
        "agent_clock": 3,
    }
    reply = await client.post("/api/games", json=settings)
    assert reply.status_code == 201, reply.text
    game = reply.json()
    board = Board(game["rows"], game["types"])
    while not game["over"]:
        if game["turn"] == "you":
            move = max(game["groups"], key=lambda group: group["points"])["move"]
            reply = await client.post(f"/api/games/{game['id']}/move", json={"move": move})
        else:
            reply = await client.post(f"/api/games/{game['id']}/agent-move")
        assert reply.status_code == 200, reply.text
        moves_before, game = len(game["moves"]), reply.json()
        if len(game["moves"]) > moves_before:
            board, _ = board.play(Move.from_name(game["last_move"]["move"]))
        assert list(board.rows) == game["rows"]
    return settings, game


async def play_all(base: str) -> list:
    async with httpx.AsyncClient(base_url=base, timeout=REQUEST_SECONDS) as client:
        return await asyncio.gather(*(play_one(client, number) for number in range(GAMES)))


def test_twenty_games_at_once_all_finish_and_the_server_still_answers(tmp_path):
    with running_server(log_path=tmp_path / "log") as (base, _):
        results = asyncio.run(play_all(base))
        after = httpx.get(base + "/api/options", timeout=10)
        fresh = httpx.post(base + "/api/games", json={"size": 4}, timeout=10)
    assert len(results) == GAMES and len({game["id"] for _, game in results}) == GAMES
    for settings, game in results:
        assert game["over"] and game["rows"] == ["******"] * 6, (settings, game["reason"])
        assert game["first"] == settings["first"] and game["opponent"] == settings["opponent"]
        for side in ("you", "agent"):
            assert game["scores"][side] == sum(m["points"] for m in game["moves"] if m["side"] == side)
        assert 0 < game["clocks"]["agent"] <= 3
    assert after.status_code == 200 and fresh.status_code == 201
    assert "Traceback" not in (tmp_path / "log").read_text()
