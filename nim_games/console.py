"""What every interactive game here does at the end of input, on Ctrl-C, and when its output
goes nowhere."""
from __future__ import annotations

import os
import sys


def play_to_the_end(play, *args) -> int:
    """Run `play(*args)`; end of input or Ctrl-C abandon the game with a message.
    Returns the exit code: 0, 1 when the output cannot be written, 130 when interrupted."""
    code = 0
    try:
        try:
            play(*args)
        except EOFError:
            print("\nEnd of input: game abandoned.")
        except KeyboardInterrupt:
            code = 130
            print("\nInterrupted: game abandoned.")
    except BrokenPipeError:
        # The reader left (e.g. `| head`): stop quietly, and keep the interpreter's final
        # flush of stdout from failing again on the same pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return code or 1
    except OSError as error:  # e.g. stdout on a full disk
        print(f"{os.path.basename(sys.argv[0])}: cannot write the game: {error.strerror}",
              file=sys.stderr)
        return code or 1
    return code
