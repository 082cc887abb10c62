"""Whether a text is a JSON object cut short, as a write stopped mid-line leaves it: what
lets a results file's unfinished last line be told from a line that was never a record."""

from __future__ import annotations

import json
import re
from typing import Optional

NUMBER_START = re.compile(r"-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:(?<=[0-9])[eE][+-]?[0-9]*)?)?")
LITERALS = ("true", "false", "null")
SPACE = re.compile(r"[ \t\r\n]*")
ESCAPE_AT_END = re.compile(r"(\\+)(?:u[0-9a-fA-F]{0,3})?\Z")
# A record nests 3 deep (its moves are objects in a list) and holds a few thousand values:
# a text beyond these is no record, and the limits bound what telling so costs.
MAX_DEPTH = 4
MAX_STEPS = 100_000
_DECODER = json.JSONDecoder()


def cut_object_keys(text: str) -> Optional[list]:
    """The whole keys of the top-level object when `text` is the start of a JSON object
    that ends before the object does; None for anything else (a whole value included)."""
    stack: list[str] = []
    keys: list[str] = []
    expect, at = "value", 0
    for _ in range(MAX_STEPS):
        at = SPACE.match(text, at).end()  # type: ignore[union-attr]  # the pattern matches the empty string
        if at == len(text):
            return keys if stack else None
        if not stack and expect != "value":
            return None  # something after a whole value
        char = text[at]
        if expect == "comma or close":
            if char == ",":
                expect = "key" if stack[-1] == "{" else "value"
            elif char != {"{": "}", "[": "]"}[stack.pop()]:
                return None
            at += 1
        elif expect == "colon":
            if char != ":":
                return None
            expect, at = "value", at + 1
        elif char == expect[-1] and expect in ("key or }", "value or ]"):
            stack.pop()
            expect, at = "comma or close", at + 1
        else:
            if char != '"' and (expect.startswith("key") or not stack and char != "{"):
                return None  # a key is a string; a record is an object
            if char in "{[":
                if len(stack) == MAX_DEPTH:
                    return None
                stack.append(char)
                expect, at = ("key or }" if char == "{" else "value or ]"), at + 1
                continue
            if NUMBER_START.fullmatch(text, at):
                return keys  # a number at the end, which json would read without its cut "." or "e"
            value, end = _whole_scalar(text, at)
            if end is None:
                return keys if _cut_scalar(text[at:]) else None
            if expect.startswith("key"):
                if len(stack) == 1:
                    keys.append(value)
                expect, at = "colon", end
            else:
                expect, at = "comma or close", end
    return None


def _whole_scalar(text: str, at: int) -> tuple:
    """(the string, number or literal starting at `at`, where it ends), or (None, None)."""
    try:
        return _DECODER.raw_decode(text, at)
    except ValueError:
        return None, None


def _cut_scalar(rest: str) -> bool:
    """Whether `rest` is the start of a string, number or literal that the text's end cut."""
    if rest.startswith('"'):
        escape = ESCAPE_AT_END.search(rest)
        if escape and len(escape.group(1)) % 2:  # the last backslash starts an escape cut short
            rest = rest[: escape.start() + len(escape.group(1)) - 1]
        try:
            return isinstance(json.loads(rest + '"'), str)
        except ValueError:
            return False
    return bool(NUMBER_START.fullmatch(rest)) or any(literal.startswith(rest) for literal in LITERALS)
