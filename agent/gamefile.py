"""input.txt / output.txt: parse strictly where harm could come, liberally where none can.

Liberal: CRLF and CR-only line ends, trailing spaces, a missing final newline, blank
lines after the board, fruit digits >= p, a UTF-8 byte order mark. Everything else raises
InputError with the line it is about.
"""

from agent.cli_support import file_kind, is_regular_file, plural, without_bom
from agent.oscalls import getpid, lstat, replace, stat, unlink
from agent.rules import DIGITS, EMPTY, MAX_SIZE, is_empty


class InputError(ValueError):
    """A malformed input file; the message names the line and the problem."""


NO_SUCH_FILE = "no such file"


class GameInput:
    """A parsed input.txt. (A plain class: dataclasses would cost the per-move process
    the import of inspect.)"""

    __slots__ = ("n", "types", "time_left", "grid")

    def __init__(self, n: int, types: int, time_left: float, grid: tuple):
        self.n = n
        self.types = types
        self.time_left = time_left
        self.grid = grid  # n row strings, top row first


def _line_error(line_no: int, problem: str) -> InputError:
    return InputError(f"line {line_no}: {problem}")


def _short_error(lines: int, problem: str) -> InputError:
    """The text ends too soon: said by its length, since the line it lacks is none of its own."""
    return InputError(f"only {plural(lines, 'line')}: {problem}" if lines else f"empty: {problem}")


def parse_input(text: str) -> GameInput:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 3:
        raise _short_error(len(lines), "expected n, p and the remaining time on lines 1-3")

    n = _parse_int(lines[0], 1, "board size n")
    if not 1 <= n <= MAX_SIZE:
        raise _line_error(1, f"board size n must be 1..{MAX_SIZE}, got {_cut(str(n))}")
    types = _parse_int(lines[1], 2, "number of fruit types p")
    if types < 1:
        raise _line_error(2, f"number of fruit types p must be at least 1, got {_cut(str(types))}")
    time_left = _parse_time(lines[2])

    rows = lines[3:]
    if len(rows) < n:
        raise _short_error(len(lines), f"expected {n} board rows on lines 4-{n + 3}, found {len(rows)}")
    for index, row in enumerate(rows[:n]):  # a bad row first: a blank line within the board is one
        line_no = index + 4
        if len(row) != n:
            raise _line_error(line_no, f"board row has {len(row)} characters, expected {n}: {_shown(row)}")
        for col, ch in enumerate(row):
            if ch != EMPTY and ch not in DIGITS:
                raise _line_error(line_no, f"column {col + 1}: {ch!r} is neither a digit nor '{EMPTY}'")
    _check_nothing_after(rows, n)
    grid = tuple(rows)
    if is_empty(grid):
        raise _line_error(4, f"the board is empty (lines 4-{n + 3}): there is no move to make")
    floating = _first_floating(grid)
    if floating:
        row, col = floating
        raise _line_error(row + 4, f"column {col + 1}: fruit floats above an empty cell (gravity not applied)")
    return GameInput(n, types, time_left, grid)


def _check_nothing_after(rows, n: int) -> None:
    """Blank lines after the board were dropped at the end; text after more blank lines was
    not: name that text's own line, not the first blank one before it."""
    for index in range(n, len(rows)):
        if rows[index]:
            raise _line_error(index + 4, f"unexpected text after the {n} board rows: {_shown(rows[index])}")


def _cut(text: str) -> str:
    """`text` cut short for a message: a line can be as long as the file."""
    return text if len(text) <= 40 else text[:40] + "..."


def _shown(text: str) -> str:
    return repr(_cut(text))


def _plain_number(text: str) -> bool:
    """int() and float() also take '1_000' and digits of other scripts ('\u0663'): no
    referee writes those, and a file that has them is not what it seems."""
    return text.isascii() and "_" not in text


def _refuse_plus_sign(text: str, line_no: int, what: str) -> None:
    """A count or a clock is written in digits: the format forgives no sign, and a
    leading '+' is in no referee's output, whatever int() and float() take."""
    if text.startswith("+"):
        raise _line_error(line_no, f"{what} must be written without a '+' sign, got {_shown(text)}")


def _parse_int(text: str, line_no: int, what: str) -> int:
    text = text.strip()
    _refuse_plus_sign(text, line_no, what)
    try:
        if _plain_number(text):
            return int(text)
    except ValueError:
        unsigned = text[1:] if text[:1] == "-" else text
        if unsigned.isdigit():  # more digits than int() converts
            raise _line_error(line_no, f"{what} is too large: {_shown(text)}") from None
    raise _line_error(line_no, f"{what} must be an integer, got {_shown(text)}")


def _parse_time(text: str) -> float:
    text = text.strip()
    _refuse_plus_sign(text, 3, "remaining time")
    try:
        value = float(text) if _plain_number(text) else None
    except ValueError:
        value = None
    if value is None:
        raise _line_error(3, f"remaining time must be a number of seconds, got {_shown(text)}")
    if not 0 < value < float("inf"):  # also false for nan
        raise _line_error(3, f"remaining time must be a positive number of seconds, got {_shown(text)}")
    return value


def _first_floating(grid):
    """(row, col) of the first fruit above a hole, reading order; None on a settled grid."""
    n = len(grid)
    for row in range(n - 1):
        for col in range(n):
            if grid[row][col] != EMPTY and grid[row + 1][col] == EMPTY:
                return row, col
    return None


UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# A position takes under 1 KiB; this leaves room for any trailing spaces and blank lines,
# and a huge file or a device (/dev/zero) is refused without reading it whole.
MAX_INPUT_BYTES = 64 * 1024


def read_input(path: str) -> GameInput:
    """The position in the file at `path`, which must be a regular file: told before any
    open, as a FIFO's would wait for a writer, and a device's may never end."""
    try:
        mode = stat(path).st_mode
        if not is_regular_file(mode):
            raise InputError(f"{file_kind(mode)}, not a regular file")
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(NO_SUCH_FILE) from None  # callers name the path
    except OSError as error:
        raise InputError(f"cannot read it: {error.strerror}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"more than {MAX_INPUT_BYTES // 1024} KiB: not a position (one takes under 1 KiB)")
    if data.startswith(UTF16_BOMS):
        raise _line_error(1, "the file is UTF-16 text: save it as ASCII (or UTF-8)")
    # UTF-8, so that a message shows a stray character as it looks; the checks take ASCII only
    return parse_input(without_bom(data).decode("utf-8", errors="replace"))


def format_input(grid, types: int, time_left: float) -> str:
    seconds = format_input_seconds(time_left)
    return f"{len(grid)}\n{types}\n{seconds}\n" + "".join(row + "\n" for row in grid)


def format_input_seconds(time_left: float) -> str:
    # microsecond precision, no exponent: a referee must not round a clock up by much
    return f"{time_left:.6f}".rstrip("0").rstrip(".")


def format_output(move: str, grid) -> str:
    return move + "\n" + "".join(row + "\n" for row in grid)


def parse_output(text: str, n: int) -> tuple:
    """(move name, grid) from output.txt text; ValueError when garbled."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    if len(lines) != n + 1:
        raise ValueError(f"expected a move and {n} rows, got {plural(len(lines), 'line')}")
    return lines[0].strip(), tuple(lines[1:])


def write_atomically(path: str, text: str) -> None:
    """Write via a temporary file and rename, so a killed process leaves no half file. A
    path that exists and is not a plain file (a symbolic link, a pipe, a device) is written
    through instead: the rename would replace the link, pipe or device node itself."""
    if not _plain_file_or_absent(path):
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        return
    temp_path = _temp_path_beside(path)
    try:
        with open(temp_path, "x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        replace(temp_path, path)
    except BaseException:
        try:
            unlink(temp_path)
        except OSError:
            pass
        raise


def _temp_path_beside(path: str) -> str:
    """A temporary file in the same folder (a rename does not cross file systems), named
    after the output cut short: the output's own name may already take the 255 bytes a
    name can have. (rpartition, not os.path: no `os` import on the move path.)"""
    folder, slash, name = path.rpartition("/")
    return f"{folder}{slash}{name[:40]}.{getpid()}.tmp"


def _plain_file_or_absent(path: str) -> bool:
    try:
        return is_regular_file(lstat(path).st_mode)
    except OSError:  # absent, or unreachable: the rename path reports the error
        return True
