"""Reading the game records that `match --out` writes, one JSON object per line."""
from __future__ import annotations

import json
from typing import Optional


def read_records(path: str) -> list:
    """Every record in the file, in file order; ValueError names a line that is not one."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                record = None
            if not isinstance(record, dict) or "game" not in record:
                raise ValueError(f"{path}: line {line_no} is not a game record")
            records.append(record)
    return records


def find_game(path: str, game: int) -> dict:
    records = read_records(path)
    for record in records:
        if record["game"] == game:
            return record
    raise ValueError(f"{path} has no game {game} (games recorded: {len(records)})")


def starting_clocks(record: dict) -> dict:
    """Each side's clock at the start of a recorded game."""
    return {"A": record["time"], "B": record.get("time_b", record["time"])}


def describe_clocks(time: float, time_b: Optional[float]) -> str:
    """`60 s each`, or `A 60 s, B 120 s` in a time-odds match."""
    if time_b is None or time_b == time:
        return f"{time:g} s each"
    return f"A {time:g} s, B {time_b:g} s"
