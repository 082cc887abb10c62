"""The interactive games when their output goes nowhere: no traceback, exit code 1."""
import os
import subprocess
import sys

import pytest

GAMES = {
    "red-blue-nim": ["nim_games.red_blue", "3", "5", "--demo"],
    "tictactoe": ["nim_games.tictactoe", "--first", "computer"],
}


def run_game(module_args, stdout):
    return subprocess.run([sys.executable, "-m", *module_args], stdin=subprocess.DEVNULL,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=60)


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
    script = ("import sys\nfrom nim_games.console import play_to_the_end\n"
              f"def play():\n    raise {ending}\nsys.exit(play_to_the_end(play))\n")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, "-u", "-c", script], stdin=subprocess.DEVNULL,
                                stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert result.returncode == code
    assert result.stderr == ""
