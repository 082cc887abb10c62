"""What every command here does alike, fruit-rage's and the Nim games': its exit codes, how
Ctrl-C and a reader that left end it, its number arguments, counts in words, text from
outside shown with its control characters escaped, and the text files it reads (a byte
order mark skipped, only a regular file opened where a FIFO or a device could hang it).

The Nim games import it from here: both packages ship in one distribution, and a package
of its own would be more than these few helpers are. A move loads it (gamefile,
calibration), and a move's clock pays for every import: it imports nothing but sys at the
top, argparse and os only where they are used."""

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


class LineProgress:
    """`PREFIX: 5 of 40 positions` on one line of a terminal's stream (stderr), rewritten as
    the work goes on; nothing where the stream is a file or a pipe."""

    def __init__(self, stream):
        self.stream = stream
        self.enabled = stream.isatty()
        self.shown = False

    def reporter(self, prefix: str):
        """`show(done, total)` for one piece of work; None where nothing is shown."""
        if not self.enabled:
            return None

        def show(done: int, total: int) -> None:
            self.stream.write(f"\r\x1b[K{prefix}: {done} of {plural(total, 'position')}")
            self.stream.flush()
            self.shown = True

        return show

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


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


UTF8_BOM = b"\xef\xbb\xbf"


def without_bom(data: bytes) -> bytes:
    """A text file's bytes without the UTF-8 byte order mark some Windows editors write
    first: a file saved so is read as any other."""
    return data[len(UTF8_BOM) :] if data.startswith(UTF8_BOM) else data


def is_regular_file(mode: int) -> bool:
    """stat.S_ISREG(mode), without importing stat on a move's path: a regular file, not a
    folder, a link (from lstat), a FIFO that would wait for a writer or a device that may
    never end."""
    return mode & 0o170000 == 0o100000  # S_IFMT, S_IFREG


# S_IFDIR, S_IFIFO, S_IFCHR, S_IFBLK, S_IFSOCK, S_IFLNK
_FILE_KINDS = {
    0o040000: "a folder",
    0o010000: "a FIFO",
    0o020000: "a device",
    0o060000: "a device",
    0o140000: "a socket",
    0o120000: "a symbolic link",
}


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, for a message: `a FIFO`, `a folder`..."""
    return _FILE_KINDS.get(mode & 0o170000, "a special file")


def open_regular_file(path: str, flags: int = 0):
    """The regular file at `path`, open for binary reading; ValueError `PATH: a FIFO, not a
    regular file` for anything else, told before a byte is read (a FIFO would wait for a
    writer, a device may never end); OSError when it cannot be opened. `flags`: more
    os.open flags (O_NOFOLLOW)."""
    import os

    # O_NONBLOCK: a FIFO's open would otherwise wait for a writer before fstat tells it
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | flags)
    try:
        mode = os.fstat(fd).st_mode
        if not is_regular_file(mode):
            raise ValueError(f"{path}: {file_kind(mode)}, not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
