"""Wire format: JSON objects on a TCP stream, framed by parsing rather than by delimiters.

The original platform sent bare JSON objects and read one per recv, so a stream may carry
several objects at once or one object in pieces; we end each message with a newline, which
the original's readers accept as trailing whitespace.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .rules import Move

if TYPE_CHECKING:
    from typing import TypeGuard  # Python 3.10+: for the checker only

MAX_MESSAGE_CHARS = 65536
# Whitespace allowed before a message: the original sends none, we send one newline; a
# sender of endless blanks is cut off rather than read forever.
MAX_GAP_CHARS = 1024
MAX_NAME_CHARS = 64
_WHITESPACE = " \t\r\n"
# What can change the nesting state of an object: outside strings, and inside them.
_STRUCTURE = re.compile(r'["{}\[\]]')
_STRING_SPECIAL = re.compile(r'["\\]')


class ProtocolError(ValueError):
    """The peer sent something that is not a valid message."""


def _refuse_constant(name: str):
    raise ProtocolError(f"malformed JSON: {name} is not a JSON value")


# Python's json reads NaN and Infinity, which no other JSON reader takes and which crash
# the arithmetic on times and counts.
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def encode(message: dict) -> bytes:
    return (json.dumps(message) + "\n").encode("utf-8")


class MessageDecoder:
    """Turns received bytes, in any chunking, into JSON objects.

    Framing is by parsing: the decoder follows the nesting of the object being received
    (depth, inside a string, after a backslash) across calls, so every character is
    examined once however the bytes are cut up.
    """

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._pieces: list[str] = []  # the unfinished object, from its "{"
        self._length = 0
        self._gap = 0  # whitespace since the last object
        self._depth = 0
        self._in_string = False
        self._escaped = False

    def feed(self, data: bytes) -> Iterator[dict]:
        """Yield every complete object so far; raise ProtocolError at the first bad one."""
        try:
            text = self._utf8.decode(data)
        except UnicodeDecodeError as error:
            raise ProtocolError("data is not UTF-8 text") from error
        position = 0
        while position < len(text):
            if not self._pieces:
                position = self._skip_gap(text, position)
                if position == len(text):
                    return
                if text[position] != "{":
                    raise ProtocolError(f"expected a JSON object, got {text[position : position + 20]!r}")
            end = self._scan(text, position)
            self._length += (len(text) if end is None else end) - position
            if self._length > MAX_MESSAGE_CHARS:
                raise ProtocolError("message too long")
            if end is None:
                self._pieces.append(text[position:])
                return
            self._pieces.append(text[position:end])
            whole = "".join(self._pieces)
            self._pieces, self._length, self._gap = [], 0, 0
            yield _decode_object(whole)
            position = end

    def _skip_gap(self, text: str, position: int) -> int:
        start = position
        while position < len(text) and text[position] in _WHITESPACE:
            position += 1
        self._gap += position - start
        if self._gap > MAX_GAP_CHARS:
            raise ProtocolError(f"more than {MAX_GAP_CHARS} blank characters between messages")
        return position

    def _scan(self, text: str, position: int) -> int | None:
        """Follow the object's nesting through text[position:]; the index just past its
        closing brace, or None if it goes on past the text."""
        while True:
            if self._escaped:  # the character after a backslash is taken as it is
                if position == len(text):
                    return None
                self._escaped = False
                position += 1
            pattern = _STRING_SPECIAL if self._in_string else _STRUCTURE
            found = pattern.search(text, position)
            if found is None:
                return None
            char, position = found.group(), found.end()
            if self._in_string:
                if char == "\\":
                    self._escaped = True
                else:
                    self._in_string = False
            elif char == '"':
                self._in_string = True
            elif char in "{[":
                self._depth += 1
            else:
                self._depth -= 1
                if self._depth == 0:
                    return position


def _decode_object(text: str) -> dict:
    """The object `text` holds, which _scan found balanced; ProtocolError if it is not valid."""
    try:
        message, stop = _DECODER.raw_decode(text)
    except ProtocolError:  # NaN or Infinity
        raise
    except json.JSONDecodeError as error:
        raise ProtocolError(f"malformed JSON: {error.msg}") from error
    except ValueError as error:  # Python reads no integer of over 4300 digits
        raise ProtocolError("malformed JSON: a number too long to read") from error
    except RecursionError as error:
        raise ProtocolError("malformed JSON: nested too deeply") from error
    if stop != len(text) or not isinstance(message, dict):
        raise ProtocolError("malformed JSON object")
    return message


@dataclass(frozen=True)
class Hello:
    name: str
    order: int


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_hello(message: dict) -> Hello:
    name, order = message.get("name"), message.get("order")
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError("the hello needs a non-empty string 'name'")
    name = name.strip()
    if len(name) > MAX_NAME_CHARS:  # it travels in every state, twice: a long one swells them all
        raise ProtocolError(f"the hello's 'name' is too long (at most {MAX_NAME_CHARS} characters)")
    if not name.isprintable():  # a line break would forge lines of the log, an escape drive a terminal
        raise ProtocolError("the hello's 'name' must be printable (no line breaks or control characters)")
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
