"""Stream framing and message validation of the wire protocol."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nim_games.expanding import protocol
from nim_games.expanding.protocol import (
    MAX_GAP_CHARS,
    MAX_NAME_CHARS,
    Hello,
    MessageDecoder,
    ProtocolError,
    encode,
    parse_hello,
    parse_move,
)
from nim_games.expanding.rules import Move

MESSAGES = st.lists(
    st.dictionaries(
        st.text(max_size=5),
        st.one_of(st.integers(), st.booleans(), st.text(max_size=8), st.lists(st.integers(), max_size=3)),
        max_size=4,
    ),
    min_size=1,
    max_size=5,
)


@given(MESSAGES, st.lists(st.integers(min_value=1, max_value=7), min_size=1), st.booleans())
def test_any_chunking_yields_the_same_messages(messages, cuts, newline):
    data = b"".join(encode(m) if newline else json.dumps(m).encode() for m in messages)
    decoder = MessageDecoder()
    received, position, index = [], 0, 0
    while position < len(data):
        size = cuts[index % len(cuts)]
        received.extend(decoder.feed(data[position : position + size]))
        position, index = position + size, index + 1
    assert received == messages


# Strings full of what the framing must see through: braces, brackets, quotes, backslashes.
TRICKY_TEXT = st.text(alphabet=st.sampled_from('{}[]"\\/ azë\n\u2028'), max_size=12)
NESTED = st.recursive(
    st.one_of(st.integers(), st.booleans(), st.none(), TRICKY_TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TRICKY_TEXT, inner, max_size=3)),
    max_leaves=8,
)
GAPS = st.text(alphabet=" \t\r\n", max_size=6)


def decode_whole(text: str) -> list:
    """The obvious decoder: the whole stream in hand, one raw_decode after another."""
    decoder, messages, position = json.JSONDecoder(), [], 0
    while True:
        while position < len(text) and text[position] in " \t\r\n":
            position += 1
        if position == len(text):
            return messages
        message, position = decoder.raw_decode(text, position)
        messages.append(message)


@given(
    st.lists(st.tuples(GAPS, st.dictionaries(TRICKY_TEXT, NESTED, max_size=4)), min_size=1, max_size=5),
    st.lists(st.integers(min_value=1, max_value=9), min_size=1),
)
def test_decoding_in_pieces_equals_decoding_the_whole_stream(parts, cuts):
    data = "".join(gap + json.dumps(message, ensure_ascii=False) for gap, message in parts).encode()
    decoder = MessageDecoder()
    received, position, index = [], 0, 0
    while position < len(data):
        size = cuts[index % len(cuts)]
        received.extend(decoder.feed(data[position : position + size]))
        position, index = position + size, index + 1
    assert received == decode_whole(data.decode()) == [message for _, message in parts]


def test_a_trickle_is_scanned_once(monkeypatch):
    """1 MB of large messages, 7 bytes at a time: each character goes through the scanner
    once, where rescanning the unfinished message on every read made it quadratic."""
    scanned = []
    scan = MessageDecoder._scan

    def counting_scan(self, text, position):
        end = scan(self, text, position)
        scanned.append((len(text) if end is None else end) - position)
        return end

    monkeypatch.setattr(MessageDecoder, "_scan", counting_scan)
    message = {"pad": '{"[\\' * 10_000, "n": 1}  # 50,000 characters that look like structure
    data = encode(message) * 20
    assert len(data) > 1_000_000
    decoder = MessageDecoder()
    received = []
    for start in range(0, len(data), 7):
        received.extend(decoder.feed(data[start : start + 7]))
    assert received == [message] * 20
    assert sum(scanned) <= len(data)  # the gaps (newlines) are skipped, not scanned


def test_blank_characters_between_messages_are_capped():
    decoder = MessageDecoder()
    assert list(decoder.feed(b" " * MAX_GAP_CHARS + b'{"a": 1}')) == [{"a": 1}]
    for _ in range(MAX_GAP_CHARS):  # counted across reads, one blank at a time
        assert list(decoder.feed(b"\n")) == []
    with pytest.raises(ProtocolError, match=f"more than {MAX_GAP_CHARS} blank characters"):
        list(decoder.feed(b" "))


def test_a_long_message_is_refused_even_when_complete():
    with pytest.raises(ProtocolError, match="too long"):
        list(MessageDecoder().feed(encode({"a": "x" * protocol.MAX_MESSAGE_CHARS})))


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(constant):
    with pytest.raises(ProtocolError, match=f"{constant} is not a JSON value"):
        list(MessageDecoder().feed(b'{"game_time": ' + constant.encode() + b"}"))


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


@pytest.mark.parametrize(
    "data, problem",
    [
        (b'{"a": ' + b"1" * 5000 + b"}", "a number too long"),
        (b'{"a": ' + b"[" * 30000 + b"]" * 30000 + b"}", "nested too deeply"),
    ],
    ids=["long number", "deep nesting"],
)
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


@pytest.mark.parametrize(
    "message",
    [
        {"num_stones": "1", "reset": False},
        {"num_stones": 1.0, "reset": False},
        {"num_stones": False, "reset": False},
        {"num_stones": 1, "reset": 2},
        {"num_stones": 1},
        {"reset": False},
        {},
    ],
)
def test_parse_move_rejects_wrong_types(message):
    with pytest.raises(ProtocolError):
        parse_move(message)


@pytest.mark.parametrize(
    "message",
    [
        {"name": "a", "order": 2},
        {"name": "a", "order": True},
        {"name": "  ", "order": 0},
        {"name": 5, "order": 0},
        {"order": 0},
    ],
)
def test_parse_hello_rejects_bad_hellos(message):
    with pytest.raises(ProtocolError):
        parse_hello(message)


@pytest.mark.parametrize("name", ["bob\nGame over: bob wins", "bob\rx", "\x1b[2Jbob", "bob\tthe great"])
def test_a_name_that_could_forge_log_lines_is_refused(name):
    with pytest.raises(ProtocolError, match="must be printable"):
        parse_hello({"name": name, "order": 0})


def test_a_name_is_capped():
    assert parse_hello({"name": "n" * MAX_NAME_CHARS, "order": 0}).name == "n" * MAX_NAME_CHARS
    with pytest.raises(ProtocolError, match=f"too long \\(at most {MAX_NAME_CHARS} characters\\)"):
        parse_hello({"name": "n" * (MAX_NAME_CHARS + 1), "order": 0})


def test_a_name_is_stripped_before_it_is_judged():
    assert parse_hello({"name": " bob\n", "order": 1}) == Hello("bob", 1)
