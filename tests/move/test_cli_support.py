"""agent.cli_support: the helpers every command shares, and that a move can load it."""

import argparse
import os
import subprocess
import sys

import pytest

from agent.cli_support import EXIT_CODES, INTERRUPTED, interrupted, is_regular_file, number, plural, without_bom
from agent.move import launch


def test_plural_counts_in_words():
    assert plural(1, "game") == "1 game"
    assert plural(0, "game") == "0 games"
    assert plural(2, "point") == "2 points"
    assert plural(1, "match", "matches") == "1 match"
    assert plural(3, "match", "matches") == "3 matches"


def test_interrupted_is_one_line_on_stderr_and_130(capsys):
    assert interrupted("fruit-rage") == INTERRUPTED == 130
    assert interrupted("exp-nim", mid_line=True) == 130
    out, err = capsys.readouterr()
    assert out == "" and err == "fruit-rage: interrupted\n\nexp-nim: interrupted\n"


def test_every_help_ends_with_the_same_exit_codes():
    assert EXIT_CODES == "exit codes: 0 done, 1 runtime failure, 2 bad input or arguments, 130 interrupted"


def test_a_reader_that_left_ends_quietly_with_1():
    """`| head -1`: the rest goes nowhere, no BrokenPipeError at the interpreter's exit."""
    code = (
        "import sys\nfrom agent.cli_support import reader_left\n"
        "try:\n    print('first', flush=True)\n    print('x' * 1000000, flush=True)\n"
        "except BrokenPipeError:\n    sys.exit(reader_left())\n"
    )
    reader, writer = os.pipe()
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=writer, stderr=subprocess.PIPE, env=launch.move_environment()
    )
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        assert pipe.read(6) == b"first\n"  # then the reader leaves
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and err == b""


def test_a_utf8_byte_order_mark_is_dropped_and_nothing_else():
    assert without_bom(b"\xef\xbb\xbf10\n") == b"10\n"
    assert without_bom(b"10\n") == b"10\n"
    assert without_bom(b"") == b""
    assert without_bom(b"1\xef\xbb\xbf") == b"1\xef\xbb\xbf"  # only at the start


def test_only_a_regular_file_is_regular(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    (tmp_path / "link").symlink_to(plain)
    assert is_regular_file(os.stat(plain).st_mode)
    assert is_regular_file(os.stat(tmp_path / "link").st_mode)  # followed: the file it names
    assert not is_regular_file(os.lstat(tmp_path / "link").st_mode)
    assert not is_regular_file(os.stat(tmp_path).st_mode)  # a folder
    assert not is_regular_file(os.stat(pipe).st_mode)
    assert not is_regular_file(os.stat("/dev/null").st_mode)


def refusal(parse, text: str) -> str:
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        parse(text)
    return str(caught.value)


def test_a_number_in_its_range_is_taken_as_its_kind():
    assert number(int, 1, 26)("26") == 26 and isinstance(number(int, 1, 26)("1"), int)
    assert number(float, 0, 0.5, above_low=True)("0.5") == 0.5
    assert number(int, 1)("1000000000000") == 10**12
    assert number(float, 0)("0") == 0.0
    assert number(float, 0, 1, above_low=True, below_high=True)("0.999") == 0.999


@pytest.mark.parametrize(
    "parse, text, message",
    [
        (number(int, 1, 26), "27", "must be 1..26, got 27"),
        (number(int, 1, 26), "0", "must be 1..26, got 0"),
        (number(int, 1, 26), "x", "not an integer: 'x'"),
        (number(int, 1, 26), "2.5", "not an integer: '2.5'"),
        (number(int, 1), "0", "must be >= 1, got 0"),
        (number(int, 1, 1_000_000), "0", "must be 1..1000000, got 0"),  # a whole number written whole
        (number(float, 0, 1e6, above_low=True), "0", "must be above 0 and up to 1e+06, got 0"),
        (number(float, 0, 1e6, above_low=True), "inf", "must be above 0 and up to 1e+06, got inf"),
        (number(float, 0, 1e6, above_low=True), "nan", "must be above 0 and up to 1e+06, got nan"),
        (number(float, 0, 1, above_low=True, below_high=True), "1", "must be between 0 and 1, got 1"),
        (number(float, 0, 1, below_high=True), "1", "must be from 0 and below 1, got 1"),
        (number(float, 0), "inf", "must be a finite number >= 0, got inf"),
        (number(float, 0), "nan", "must be a finite number >= 0, got nan"),
        (number(float, 0, 3600), "ten", "not a number: 'ten'"),
        (number(float, 0.01, 86400, unit="seconds"), "0", "must be 0.01..86400 seconds, got 0"),
        (number(float, 0.01, 86400, unit="seconds"), "abc", "not a number of seconds: 'abc'"),
    ],
)
def test_a_number_out_of_its_range_is_refused_saying_what_it_must_be(parse, text, message):
    assert refusal(parse, text) == message


def test_argparse_names_the_option_before_the_refusal(capsys):
    parser = argparse.ArgumentParser(prog="fruit-rage")
    parser.add_argument("--size", type=number(int, 1, 26))
    with pytest.raises(SystemExit) as stop:
        parser.parse_args(["--size", "30"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == "fruit-rage: error: argument --size: must be 1..26, got 30"


def test_a_move_pays_for_no_import_but_the_shared_console_helpers():
    """A move loads it (and the console helpers it shares with the Nim games); each import
    would be charged to the move's clock."""
    code = "import sys; before = set(sys.modules); import agent.cli_support; print(*sorted(set(sys.modules) - before))"
    done = subprocess.run(
        [*launch.python_command(), "-c", code],
        env=launch.move_environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == {"agent", "agent.cli_support", "nim_games", "nim_games.console"}
