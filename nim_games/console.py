"""What every command here does alike, the Nim games' and fruit-rage's: its exit codes, how
Ctrl-C and a reader that left end it, its number arguments, counts in words, text from
outside shown with its control characters escaped, and how an interactive game ends.

It lives here so that the Nim games import nothing from agent (the top level holds only
the two packages); fruit-rage imports it through agent.cli_support. A move loads it, and a
move's clock pays for every import: at the top it imports only io and sys, which the
interpreter has loaded already, and argparse and os only where they are used."""

import io
import sys

EXIT_CODES = "exit codes: 0 done, 1 runtime failure, 2 bad input or arguments, 130 interrupted"
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program that Ctrl-C ended


def interrupted(program: str, mid_line: bool = False) -> int:
    """Ctrl-C: `PROGRAM: interrupted` on stderr, not a traceback; returns the exit code,
    130. With `mid_line`, a newline first ends the line a prompt or a progress line left
    open."""
    print(("\n" if mid_line else "") + f"{program}: interrupted", file=sys.stderr)
    return INTERRUPTED


def reader_left() -> int:
    """The reader of stdout left (`| head`), or stdout takes no more: stop writing to it,
    and keep the interpreter's final flush from failing the same way. Returns the exit
    code, 1."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 1


def number(kind, low, high=None, above_low=False, below_high=False, unit=""):
    """An argparse type: a `kind` (int or float) from `low` (or above it) up to `high` (or
    below it); no upper limit when `high` is None, but never an infinite float. Every range
    is checked here, where the parser names the option in the message; `unit` (seconds)
    is named there too."""
    of_unit, in_unit = (f" of {unit}", f" {unit}") if unit else ("", "")

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise _argument_error(f"not {'an integer' if kind is int else 'a number'}{of_unit}: {text!r}") from None
        # written so that nan fails every comparison
        top = _INFINITY if high is None else high
        if not ((low < value) if above_low else (low <= value)) or not (
            (value < top) if below_high or high is None else (value <= top)
        ):
            raise _argument_error(f"must be {_bounds(kind, low, high, above_low, below_high)}{in_unit}, got {text}")
        return value

    return parse


_INFINITY = float("inf")  # not math.inf: a move imports this module, and math would cost it


def _bounds(kind, low, high, above_low: bool, below_high: bool) -> str:
    if high is None:
        bound = f"{'>' if above_low else '>='} {_figure(low)}"
        return f"a finite number {bound}" if kind is float else bound
    if not (above_low or below_high):
        return f"{_figure(low)}..{_figure(high)}"
    if above_low and below_high:
        return f"between {_figure(low)} and {_figure(high)}"
    lower = f"above {_figure(low)}" if above_low else f"from {_figure(low)}"
    upper = f"below {_figure(high)}" if below_high else f"up to {_figure(high)}"
    return f"{lower} and {upper}"


def _figure(value) -> str:
    """A bound as a message shows it: 1000000 for a whole number, 1e+06 for the float 1e6."""
    return str(value) if isinstance(value, int) else f"{value:g}"


def _argument_error(message: str) -> Exception:
    import argparse  # only when an argument is refused: a move never parses one

    return argparse.ArgumentTypeError(message)


def plural(count: int, word: str, words: str = "") -> str:
    """`1 point`, `2 points`; `words` for a plural that is not `word` + s (match, matches)."""
    return f"{count} {word}" if count == 1 else f"{count} {words or word + 's'}"


def printable(text) -> str:
    """`text` from outside (an agent's stderr or answer, a record read from a file, a
    server's message) as it may go to a terminal: every character that is not printable
    (control characters, which move the cursor, clear the screen or set the window's
    title; bidirectional overrides, which reorder what a line says; line separators)
    written as Python writes it in a string, \\x1b, \\n or \\u202e."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


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
