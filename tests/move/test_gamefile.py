"""input.txt parsing: liberal where harmless, a clear error naming the line otherwise."""

import os
import stat
import threading

import pytest

from agent.gamefile import InputError, format_output, parse_input, parse_output, read_input, write_atomically

GOOD = "3\n2\n24.345\n***\n*10\n000\n"


def test_parses_the_worked_example():
    game = parse_input(GOOD)
    assert (game.n, game.types, game.time_left, game.grid) == (3, 2, 24.345, ("***", "*10", "000"))


@pytest.mark.parametrize(
    "text",
    [
        GOOD.replace("\n", "\r\n"),  # CRLF
        GOOD.replace("\n", "\r"),  # CR alone, as old Mac editors end lines
        GOOD.replace("\n", "  \n"),  # trailing spaces
        GOOD.rstrip("\n"),  # no final newline
        GOOD + "\n\n",  # blank lines after the board
    ],
)
def test_liberal_forms_parse_the_same(text):
    assert parse_input(text).grid == ("***", "*10", "000")


def test_a_sign_is_refused_before_a_number_but_not_in_an_exponent():
    """The format writes counts and clocks in digits; a clock printed with %g may carry an
    exponent's sign (1e+02)."""
    assert parse_input("2\n2\n1e+02\n00\n00\n").time_left == 100.0
    for text, line in (("+2\n2\n1\n00\n00\n", 1), ("2\n+2\n1\n00\n00\n", 2), ("2\n2\n+1.5\n00\n00\n", 3)):
        with pytest.raises(InputError, match=f"line {line}: .* must be written without a '\\+' sign, got '\\+"):
            parse_input(text)


def test_digits_at_or_above_p_are_accepted():
    assert parse_input("3\n10\n7.24\n444\n444\n444\n").grid == ("444",) * 3
    assert parse_input("2\n1\n5\n77\n79\n").grid == ("77", "79")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("x\n2\n1\n", "line 1: board size n must be an integer"),
        ("0\n2\n1\n", "line 1: board size n must be 1..26"),
        ("27\n2\n1\n", "line 1: board size n must be 1..26"),
        ("2\nz\n1\n00\n00\n", "line 2: number of fruit types p must be an integer"),
        ("2\n0\n1\n00\n00\n", "line 2: number of fruit types p must be at least 1"),
        ("2\n2\nsoon\n00\n00\n", "line 3: remaining time must be a number"),
        ("2\n2\n0\n00\n00\n", "line 3: remaining time must be a positive number"),
        ("2\n2\n-4.5\n00\n00\n", "line 3: remaining time must be a positive number"),
        ("2\n2\nnan\n00\n00\n", "line 3: remaining time must be a positive number"),
        ("3\n2\n1\n000\n00\n000\n", "line 5: board row has 2 characters, expected 3"),
        ("3\n2\n1\n000\n0000\n000\n", "line 5: board row has 4 characters, expected 3"),
        ("2\n2\n1\n0a\n00\n", "line 4: column 2: 'a' is neither a digit nor '*'"),
        ("2\n2\n1\n0.\n00\n", "line 4: column 2: '.' is neither a digit nor '*'"),
        ("2\n2\n1\n**\n**\n", "the board is empty"),
        ("2\n2\n1\n0*\n*0\n", "line 4: column 1: fruit floats above an empty cell"),
        ("2\n2\n1\n00\n00\n00\n", "line 6: unexpected text after the 2 board rows"),
        ("3\n2\n1\n000\n\n000\n000\n", "line 5: board row has 0 characters, expected 3"),
        ("2\n2\n1\n\u0663\u0663\n00\n", "neither a digit"),
        ("2\n2\n1\n00\n00\n\n\nxx\n", "line 8: unexpected text after the 2 board rows: 'xx'"),
        ("2\n1_0\n1\n00\n00\n", "line 2: number of fruit types p must be an integer, got '1_0'"),
        ("2\n\u0663\n1\n00\n00\n", "line 2: number of fruit types p must be an integer"),
        ("1_0\n2\n1\n", "line 1: board size n must be an integer"),
        ("2\n2\n1_0.5\n00\n00\n", "line 3: remaining time must be a number of seconds, got '1_0.5'"),
        ("2\n2\n\u0663\n00\n00\n", "line 3: remaining time must be a number of seconds"),
    ],
)
def test_bad_input_is_rejected_with_the_line(text, fragment):
    with pytest.raises(InputError) as caught:
        parse_input(text)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty: expected n, p and the remaining time on lines 1-3"),
        ("\n\n", "empty: expected n, p and the remaining time on lines 1-3"),
        ('{"game": 1}\n', "only 1 line: expected n, p and the remaining time on lines 1-3"),
        ("2\n2\n", "only 2 lines: expected n, p and the remaining time on lines 1-3"),
        ("3\n2\n1\n000\n000\n", "only 5 lines: expected 3 board rows on lines 4-6, found 2"),
        ("3\n2\n1\n000\n000\n\n\n", "only 5 lines: expected 3 board rows on lines 4-6, found 2"),
    ],
)
def test_a_text_that_ends_too_soon_is_told_by_its_length_not_by_a_line_it_lacks(text, message):
    with pytest.raises(InputError) as caught:
        parse_input(text)
    assert str(caught.value) == message


def test_output_round_trip_and_atomic_write(tmp_path):
    path = tmp_path / "output.txt"
    write_atomically(str(path), format_output("B1", ("0*", "2*")))
    assert path.read_text() == "B1\n0*\n2*\n"
    assert parse_output(path.read_text(), 2) == ("B1", ("0*", "2*"))
    assert [p.name for p in tmp_path.iterdir()] == ["output.txt"]


def test_an_output_name_of_the_longest_length_is_written(tmp_path):
    """The temporary file beside it must not need a longer name than the file system allows."""
    path = tmp_path / ("o" * 250)
    write_atomically(str(path), format_output("A1", ("0",)))
    assert path.read_text() == "A1\n0\n"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_symbolic_link_or_pipe_is_written_through_not_replaced(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomically(str(link), format_output("A1", ("0",)))
    assert link.is_symlink() and target.read_text() == "A1\n0\n"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so that the writer can open
    try:
        write_atomically(str(pipe), format_output("A1", ("0",)))
        assert os.read(reader, 100) == b"A1\n0\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "pipe", "target.txt"]


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "input.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert read_input(str(path)).grid == ("***", "*10", "000")


def test_a_number_of_thousands_of_digits_is_too_large_not_a_non_integer():
    with pytest.raises(InputError, match="line 1: board size n is too large: '99999"):
        parse_input("9" * 5000 + "\n2\n1\n")


def test_a_long_line_is_cut_short_in_the_message():
    with pytest.raises(InputError) as caught:
        parse_input("2\n2\n1\n00\n0" + "x" * 100_000 + "\n")
    assert "line 5: board row has 100001 characters" in str(caught.value)
    assert len(str(caught.value)) < 200


def test_a_file_too_large_for_a_position_is_refused(tmp_path):
    """However harmless its tail (here trailing spaces), a file of megabytes is no position."""
    path = tmp_path / "input.txt"
    path.write_bytes(GOOD.encode() + b" " * 2_000_000)
    with pytest.raises(InputError, match="more than 64 KiB"):
        read_input(str(path))


def test_a_sparse_terabyte_input_is_not_read_whole(tmp_path):
    path = tmp_path / "input.txt"
    with open(path, "wb") as handle:
        handle.truncate(1 << 40)
    with pytest.raises(InputError, match="more than 64 KiB"):
        read_input(str(path))


def test_only_a_regular_file_is_opened(tmp_path):
    """A FIFO would wait for a writer (for ever, when none comes) and a device may never
    end: both are refused before any open, as is a folder, and a link to one of them."""
    pipe = tmp_path / "input.txt"
    os.mkfifo(pipe)
    link = tmp_path / "link.txt"
    link.symlink_to(pipe)
    for path, kind in ((pipe, "a FIFO"), (link, "a FIFO"), ("/dev/zero", "a device"), (tmp_path, "a folder")):
        refused = []
        reader = threading.Thread(target=_refusal, args=(path, refused), daemon=True)
        reader.start()
        reader.join(timeout=30)  # a FIFO opened for reading would hold it for ever
        assert refused == [f"{kind}, not a regular file"], path


def _refusal(path, said: list) -> None:
    """What read_input says of `path`, appended to `said`."""
    try:
        read_input(str(path))
        said.append("read")
    except InputError as error:
        said.append(str(error))


def test_utf16_is_named(tmp_path):
    path = tmp_path / "input.txt"
    path.write_text(GOOD, encoding="utf-16")
    with pytest.raises(InputError, match="line 1: the file is UTF-16 text"):
        read_input(str(path))


def test_a_stray_character_is_shown_as_it_looks(tmp_path):
    path = tmp_path / "input.txt"
    path.write_text("2\n2\n1\n0\u00e9\n00\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_input(str(path))
    assert "line 4: column 2: '\u00e9' is neither a digit" in str(caught.value)


def test_a_file_that_cannot_be_read_is_named_once_by_the_caller(tmp_path):
    (tmp_path / "a-file").write_text("")
    with pytest.raises(InputError) as caught:
        read_input(str(tmp_path / "a-file" / "input.txt"))  # a file taken for a folder
    assert str(caught.value) == "cannot read it: Not a directory"
    with pytest.raises(InputError) as caught:
        read_input(str(tmp_path / "missing.txt"))
    assert str(caught.value) == "no such file"
