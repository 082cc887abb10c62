"""Stream framing and message validation of the wire protocol."""
import json

import pytest
from hypothesis import given, strategies as st

from nim_games.expanding.protocol import (
    Hello, MessageDecoder, ProtocolError, encode, parse_hello, parse_move)
from nim_games.expanding.rules import Move

MESSAGES = st.lists(
    st.dictionaries(st.text(max_size=5),
                    st.one_of(st.integers(), st.booleans(), st.text(max_size=8),
                              st.lists(st.integers(), max_size=3)), max_size=4),
    min_size=1, max_size=5)


@given(MESSAGES, st.lists(st.integers(min_value=1, max_value=7), min_size=1), st.booleans())
def test_any_chunking_yields_the_same_messages(messages, cuts, newline):
    data = b"".join(encode(m) if newline else json.dumps(m).encode() for m in messages)
    decoder = MessageDecoder()
    received, position, index = [], 0, 0
    while position < len(data):
        size = cuts[index % len(cuts)]
        received.extend(decoder.feed(data[position:position + size]))
        position, index = position + size, index + 1
    assert received == messages


def test_utf8_split_inside_a_character():
    data = '{"name": "Zoë"}'.encode()
    decoder = MessageDecoder()
    cut = data.index("ë".encode()) + 1
    assert list(decoder.feed(data[:cut])) == []
    assert list(decoder.feed(data[cut:])) == [{"name": "Zoë"}]


def test_encode_ends_with_newline_and_is_one_object():
    assert encode({"a": 1}) == b'{"a": 1}\n'


@pytest.mark.parametrize("data", [b"[1]", b"42", b'"x"', b'{"a": 1}}', b'{"a": tru}', b"\xff{}"])
def test_malformed_data_is_reported(data):
    with pytest.raises(ProtocolError):
        list(MessageDecoder().feed(data))


@pytest.mark.parametrize("data, problem", [(b'{"a": ' + b"1" * 5000 + b"}", "a number too long"),
                                           (b'{"a": ' + b"[" * 30000 + b"]" * 30000 + b"}", "nested too deeply")],
                         ids=["long number", "deep nesting"])
def test_json_python_cannot_read_is_a_protocol_error(data, problem):
    with pytest.raises(ProtocolError, match=problem):
        list(MessageDecoder().feed(data))


def test_messages_before_a_malformed_one_are_still_delivered():
    received = []
    with pytest.raises(ProtocolError):
        for message in MessageDecoder().feed(b'{"a": 1} nonsense'):
            received.append(message)
    assert received == [{"a": 1}]


def test_endless_object_is_cut_off():
    with pytest.raises(ProtocolError, match="too long"):
        list(MessageDecoder().feed(b'{"a": "' + b"x" * 70000))


def test_parse_move_accepts_bool_or_the_c_clients_0_1_reset():
    assert parse_move({"num_stones": 2, "reset": True}) == Move(2, True)
    assert parse_move({"num_stones": 2, "reset": 0, "order": 1}) == Move(2, False)
    assert parse_move({"num_stones": -3, "reset": False}) == Move(-3, False)  # a rule breach, not a type error


@pytest.mark.parametrize("message", [
    {"num_stones": "1", "reset": False}, {"num_stones": 1.0, "reset": False},
    {"num_stones": False, "reset": False}, {"num_stones": 1, "reset": 2},
    {"num_stones": 1}, {"reset": False}, {},
])
def test_parse_move_rejects_wrong_types(message):
    with pytest.raises(ProtocolError):
        parse_move(message)


@pytest.mark.parametrize("message", [
    {"name": "a", "order": 2}, {"name": "a", "order": True}, {"name": "  ", "order": 0},
    {"name": 5, "order": 0}, {"order": 0},
])
def test_parse_hello_rejects_bad_hellos(message):
    with pytest.raises(ProtocolError):
        parse_hello(message)


@pytest.mark.parametrize("name", ["bob\nGame over: bob wins", "bob\rx", "\x1b[2Jbob", "bob\tthe great"])
def test_a_name_that_could_forge_log_lines_is_refused(name):
    with pytest.raises(ProtocolError, match="must be printable"):
        parse_hello({"name": name, "order": 0})


def test_a_name_is_stripped_before_it_is_judged():
    assert parse_hello({"name": " bob\n", "order": 1}) == Hello("bob", 1)
