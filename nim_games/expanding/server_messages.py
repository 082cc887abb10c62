"""What a player accepts from a server: the init message and the states, checked field by
field, so that a foreign or broken server is named in a message, never a traceback."""

from __future__ import annotations

import math

from .protocol import ProtocolError
from .rules import GameConfig


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def parse_init(message: dict) -> GameConfig:
    """The game the init message announces; ProtocolError names what is wrong with it."""
    fields = ("init_stones", "init_resets", "init_max", "game_time")
    missing = [field for field in fields if field not in message]
    if missing:
        raise ProtocolError(f"bad init message: no {', '.join(missing)} in {_short(message)}")
    for field in fields[:3]:
        if not _is_int(message[field]):
            raise ProtocolError(f"bad init message: {field} is {_short(message[field])}, not a whole number")
    if not _is_number(message["game_time"]):
        raise ProtocolError(f"bad init message: game_time is {_short(message['game_time'])}, not a number of seconds")
    try:
        return GameConfig(
            message["init_stones"], message["init_resets"], message["init_max"], float(message["game_time"])
        )
    except ValueError as error:
        raise ProtocolError(f"bad init message: {error}") from None


def check_state(state: dict, config: GameConfig) -> dict:
    """`state` itself, once every field a player reads is within what `config` allows."""

    def whole(value, low, high, what):
        if not _is_int(value) or not low <= value <= high:
            raise ProtocolError(f"bad state message: {what} is {_short(value)}, not {low}..{high}")

    if not isinstance(state.get("finished"), bool):
        raise ProtocolError(f"bad state message: no finished flag in {_short(state)}")
    whole(state.get("stones_left"), 0, config.stones, "stones_left")
    whole(state.get("stones_removed", 0), 0, config.stones, "stones_removed")
    whole(state.get("current_max"), 1, config.stones + config.init_max, "current_max")
    for index in (0, 1):
        player = state.get(f"player_{index}")
        if not isinstance(player, dict):
            raise ProtocolError(f"bad state message: no player_{index} in {_short(state)}")
        whole(player.get("resets_left"), 0, config.resets, f"player_{index}'s resets_left")
        taken = player.get("time_taken", 0.0)
        if not _is_number(taken) or taken < 0:
            raise ProtocolError(f"bad state message: player_{index}'s time_taken is {_short(taken)}")
    if state["finished"] and not isinstance(state.get("winner"), str):
        raise ProtocolError("bad state message: a finished game with no winner's name")
    return state


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
