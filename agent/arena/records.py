"""Reading the game records that `match --out` writes, one JSON object per line."""
from __future__ import annotations

import json


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
