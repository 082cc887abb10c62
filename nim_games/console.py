"""What every interactive game here does at the end of input and on Ctrl-C."""
from __future__ import annotations


def play_to_the_end(play, *args) -> int:
    """Run `play(*args)`; end of input or Ctrl-C abandon the game with a message.
    Returns the exit code: 0, or 130 when interrupted."""
    try:
        play(*args)
    except EOFError:
        print("\nEnd of input: game abandoned.")
    except KeyboardInterrupt:
        print("\nInterrupted: game abandoned.")
        return 130
    return 0
