"""The interactive games when their output goes nowhere: no traceback, exit code 1."""

import os
import signal
import subprocess
import sys

import pytest

GAMES = {
    "red-blue-nim": ["nim_games.red_blue", "3", "5", "--demo"],
    "tictactoe": ["nim_games.tictactoe", "--first", "computer"],
}


def run_game(module_args, stdout):
    return subprocess.run(
        [sys.executable, "-m", *module_args],
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_reader_that_left_ends_the_game_quietly(game):
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head` having exited: every write fails with EPIPE
    try:
        result = run_game(GAMES[game], write_end)
    finally:
        os.close(write_end)
    assert result.returncode == 1
    assert result.stderr == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_full_disk_is_named(game):
    with open("/dev/full", "w") as full:
        result = run_game(GAMES[game], full)
    assert result.returncode == 1
    assert "cannot write the game: No space left on device" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("ending, code", [("EOFError", 1), ("KeyboardInterrupt", 130)])
def test_a_reader_that_left_before_the_last_message_ends_quietly(ending, code):
    """End of input (or Ctrl-C) after the reader left: the 'game abandoned' line cannot be
    written either (`printf '1 1\\n' | tictactoe | head`)."""
    script = (
        "import sys\nfrom nim_games.console import play_to_the_end\n"
        f"def play():\n    raise {ending}\nsys.exit(play_to_the_end('game', play))\n"
    )
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run(
            [sys.executable, "-u", "-c", script],
            stdin=subprocess.DEVNULL,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert result.returncode == code
    assert result.stderr == ("\ngame: interrupted\n" if code == 130 else "")


INTERACTIVE_GAMES = {
    "red-blue-nim": ["nim_games.red_blue", "3", "5", "standard", "human"],
    "tictactoe": ["nim_games.tictactoe", "--first", "human"],
}


def run_with_closed(fd, module_args):
    """The game started with file descriptor `fd` closed (`<&-` or `>&-` in a shell)."""
    return subprocess.run(
        [sys.executable, "-m", *module_args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(fd),
    )


@pytest.mark.parametrize("game", sorted(INTERACTIVE_GAMES))
def test_a_closed_standard_input_is_the_end_of_input(game):
    result = run_with_closed(0, INTERACTIVE_GAMES[game])
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.endswith("End of input: game abandoned.\n")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_closed_standard_output_is_named(game):
    result = run_with_closed(1, GAMES[game])
    assert result.returncode == 1
    assert result.stderr.endswith("cannot write the game: standard output is closed\n")


@pytest.mark.parametrize("game", sorted(INTERACTIVE_GAMES))
def test_ctrl_c_at_the_prompt_is_a_line_and_130(game):
    """A real SIGINT while the game waits for a move (with Ctrl-C's default meaning: a
    background job may have inherited it ignored)."""
    process = subprocess.Popen(
        [sys.executable, "-m", *INTERACTIVE_GAMES[game]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stdout.readline()  # the game has started and waits at its prompt
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130
    assert err.endswith(f"{game}: interrupted\n") and "Traceback" not in err
