"""Paired games: a board played twice, each agent moving first once. Game records (as
`match --out` writes them, one per game, in any order) become pairs, seen from A's side.

As games finish, feed each record to a PairCollector; it hands back a Pair when the
record completes one:

    collector = PairCollector()
    for record in finished_games:
        if collector.add(record) is not None:
            ...  # collector.pairs holds every complete pair so far
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Optional

GAME_POINTS = {"A": 1.0, "B": 0.0, None: 0.5}  # A's result in one game, by its winner


@dataclass(frozen=True)
class Pair:
    board: int  # the pair number of the records
    points: float  # A's game points over both games (win 1, draw 1/2): 0, 0.5, .., 2
    margin: int  # A's fruit score minus B's, summed over both games
    faulted: bool  # a game of the pair was lost on a fault (time, invalid answer)


class PairCollector:
    """Completes pairs from game records arriving one at a time; a pair with a game still
    missing stays pending and is in no statistic."""

    def __init__(self) -> None:
        self.pairs: list = []  # complete pairs, in the order they were completed
        self._pending: dict = {}  # pair number -> its first record
        self._complete: set = set()

    def add(self, record: dict) -> Optional[Pair]:
        """The pair this record completes, or None while its twin has not arrived;
        ValueError when the record cannot belong to a pair."""
        board = record.get("pair")
        if board is None:
            raise ValueError(f"game {record['game']} is not part of a pair (the match was not played with --paired)")
        if board in self._complete:
            raise ValueError(f"pair {board} has more than two games (game {record['game']} is a third)")
        first = self._pending.pop(board, None)
        if first is None:
            self._pending[board] = record
            return None
        if first["first"] == record["first"]:
            raise ValueError(
                f"pair {board}: {record['first']} moves first in both games ({first['game']} and {record['game']})"
            )
        pair = _pair_of(board, (first, record))
        self._complete.add(board)
        self.pairs.append(pair)
        return pair


def pairs_from_records(records: Iterable[dict]) -> list:
    """The complete pairs among the records, by pair number; pairs with a game missing
    (an interrupted match) are left out. ValueError as PairCollector.add."""
    collector = PairCollector()
    for record in records:
        collector.add(record)
    return sorted(collector.pairs, key=lambda pair: pair.board)


def _pair_of(board: int, games: tuple) -> Pair:
    return Pair(
        board=board,
        points=sum(GAME_POINTS[game["winner"]] for game in games),
        margin=sum(game["scores"]["A"] - game["scores"]["B"] for game in games),
        faulted=any(game["fault"] for game in games),
    )
