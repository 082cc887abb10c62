"""Wire format: JSON objects on a TCP stream, framed by parsing rather than by delimiters.

The original platform sent bare JSON objects and read one per recv, so a stream may carry
several objects at once or one object in pieces; we end each message with a newline, which
the original's readers accept as trailing whitespace.
"""
from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from dataclasses import dataclass

from .rules import Move

MAX_MESSAGE_CHARS = 65536
_WHITESPACE = " \t\r\n"
_DECODER = json.JSONDecoder()


class ProtocolError(ValueError):
    """The peer sent something that is not a valid message."""


def encode(message: dict) -> bytes:
    return (json.dumps(message) + "\n").encode("utf-8")


def _object_end(text: str, start: int) -> int | None:
    """Index just past the JSON object starting at `start`, or None if it is incomplete.

    Tracking nesting and strings tells an incomplete object (wait for more bytes) from a
    malformed one (raw_decode fails on the complete span) without any delimiter.
    """
    depth = 0
    in_string = escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


class MessageDecoder:
    """Turns received bytes, in any chunking, into JSON objects."""

    def __init__(self) -> None:
        self._text = ""
        self._utf8 = codecs.getincrementaldecoder("utf-8")()

    def feed(self, data: bytes) -> Iterator[dict]:
        """Yield every complete object so far; raise ProtocolError at the first bad one."""
        try:
            self._text += self._utf8.decode(data)
        except UnicodeDecodeError as error:
            raise ProtocolError("data is not UTF-8 text") from error
        while True:
            start = 0
            while start < len(self._text) and self._text[start] in _WHITESPACE:
                start += 1
            self._text = self._text[start:]
            if not self._text:
                return
            if self._text[0] != "{":
                raise ProtocolError(f"expected a JSON object, got {self._text[:20]!r}")
            end = _object_end(self._text, 0)
            if end is None:
                if len(self._text) > MAX_MESSAGE_CHARS:
                    raise ProtocolError("message too long")
                return
            try:
                message, stop = _DECODER.raw_decode(self._text[:end])
            except json.JSONDecodeError as error:
                raise ProtocolError(f"malformed JSON: {error.msg}") from error
            except ValueError as error:  # Python reads no integer of over 4300 digits
                raise ProtocolError("malformed JSON: a number too long to read") from error
            except RecursionError as error:
                raise ProtocolError("malformed JSON: nested too deeply") from error
            if stop != end or not isinstance(message, dict):
                raise ProtocolError("malformed JSON object")
            self._text = self._text[end:]
            yield message


@dataclass(frozen=True)
class Hello:
    name: str
    order: int


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_hello(message: dict) -> Hello:
    name, order = message.get("name"), message.get("order")
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError("the hello needs a non-empty string 'name'")
    name = name.strip()
    if not name.isprintable():  # a line break would forge lines of the log, an escape drive a terminal
        raise ProtocolError(
            "the hello's 'name' must be printable (no line breaks or control characters)")
    if not _is_int(order) or order not in (0, 1):
        raise ProtocolError("the hello needs 'order' 0 (moves first) or 1")
    return Hello(name, order)


def parse_move(message: dict) -> Move:
    """A move message; the number's range is a rule, checked by the game, not here."""
    stones, reset = message.get("num_stones"), message.get("reset")
    if not _is_int(stones):
        raise ProtocolError(f"'num_stones' must be an integer, not {stones!r}")
    # The original C++ client sends the reset flag as 0 or 1.
    if not (isinstance(reset, bool) or (_is_int(reset) and reset in (0, 1))):
        raise ProtocolError(f"'reset' must be true/false (or 1/0), not {reset!r}")
    return Move(stones, bool(reset))
