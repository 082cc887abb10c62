"""What every interactive game here does at the end of input, on Ctrl-C, and when its output
goes nowhere."""

from __future__ import annotations

import io
import sys

from agent.cli_support import interrupted, reader_left


def play_to_the_end(program: str, play, *args) -> int:
    """Run `play(*args)`; end of input or Ctrl-C abandon the game with a message.
    Returns the exit code: 0, 1 when the output cannot be written, 130 when interrupted
    (`PROGRAM: interrupted` on stderr)."""
    if sys.stdout is None:  # started with it closed (`>&-`): nowhere to show the game
        _cannot_write(program, "standard output is closed")
        return 1
    if sys.stdin is None:  # started with it closed (`<&-`): read as an empty input
        sys.stdin = io.StringIO()
    code = 0
    try:
        try:
            play(*args)
        except EOFError:
            print("\nEnd of input: game abandoned.")
        except KeyboardInterrupt:
            code = interrupted(program, mid_line=True)  # after the prompt's line
    except BrokenPipeError:
        failed = reader_left()
        return code or failed
    except OSError as error:  # e.g. stdout on a full disk
        _cannot_write(program, error.strerror or str(error))
        return code or 1
    return code


def _cannot_write(program: str, why: str) -> None:
    print(f"{program}: cannot write the game: {why}", file=sys.stderr)
