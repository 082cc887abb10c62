"""A game played in the page as a match record: the JSON line `fruit-rage match --out`
writes (agent.arena.referee.GameRecord), the person as A and the built-in player as B, so
that replay, audit, phases and analyse read it and the page opens it again; its "clock"
says A's seconds are wall time, as `play --out` says of a person's. A game in
which the person took hints says how many in its "hints"."""

from __future__ import annotations

import datetime

from agent.web.games import AGENT, HUMAN
from agent.web.library import CPU_CLOCK, VERSION, WALL_CLOCK, GameRecord, Turn

SIDES = {HUMAN: "A", AGENT: "B"}
PERSON = "you"


def match_record(game) -> dict:
    """The record of a game that is over."""
    if not game.over:
        raise ValueError("the game is not over yet")
    turns = [(SIDES[move.side], Turn(move.seconds, move.name, points=move.points)) for move in game.moves]
    if game.fault is not None:
        loser = HUMAN if game.winner == AGENT else AGENT
        spent = sum(move.seconds for move in game.moves if move.side == loser)
        seconds = game.start_clocks[loser] - spent - game.clocks[loser]  # the losing turn's
        turns.append((SIDES[loser], Turn(max(seconds, 0.0), fault=game.fault, reason=game.reason)))
    record = GameRecord(
        agents=(PERSON, game.opponent),
        first=SIDES[game.first],
        board=tuple(game.start_rows),
        types=game.board.types,
        start_clocks=(game.start_clocks[HUMAN], game.start_clocks[AGENT]),
        turns=turns,
        scores={SIDES[side]: points for side, points in game.scores.items()},
        clocks={SIDES[side]: game.start_clocks[side] - _spent(turns, SIDES[side]) for side in SIDES},
        winner=None if game.winner is None else SIDES[game.winner],
        reason=game.reason,
        fault=game.fault,
        versions=(None, VERSION),
        date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        game=1,
        seed=game.seed,
        clock_kinds=(WALL_CLOCK, CPU_CLOCK),  # the person's clock runs while they think
    ).to_dict()
    if game.hinted:
        record["hints"] = {"A": len(game.hinted)}
    return record


def _spent(turns: list, side: str) -> float:
    # rounded as the record gives each move's seconds, so that its clocks add up
    return sum(round(turn.seconds, 6) for mover, turn in turns if mover == side)


def file_name(game) -> str:
    return f"fruit-rage-{game.board.size}x{game.board.size}-seed-{game.seed}.jsonl"
