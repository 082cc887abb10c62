"""fruit-rage's command helpers: the console ones it shares with the Nim games (exit codes,
Ctrl-C, a reader that left, number arguments, counts in words, escaping), which live in
nim_games.console so that the games import nothing from agent, and the text files it reads
(a byte order mark skipped, only a regular file opened where a FIFO or a device could hang
it).

A move loads it, and a move's clock pays for every import: it imports nothing but sys and
nim_games.console at the top, os only where it is used."""

from nim_games.console import EXIT_CODES, INTERRUPTED, interrupted, number, plural, printable, reader_left

# fruit-rage's modules import every command helper from here, the shared ones too
__all__ = [
    "EXIT_CODES",
    "INTERRUPTED",
    "interrupted",
    "number",
    "plural",
    "printable",
    "reader_left",
    "UTF8_BOM",
    "without_bom",
    "is_regular_file",
    "file_kind",
    "open_regular_file",
    "LineProgress",
]


class LineProgress:
    """`PREFIX: 5 of 40 positions` on one line of a terminal's stream (stderr), rewritten as
    the work goes on; nothing where the stream is a file or a pipe."""

    def __init__(self, stream):
        self.stream = stream
        self.enabled = stream.isatty()
        self.shown = False

    def reporter(self, prefix: str, noun: str = "position"):
        """`show(done, total)` for one piece of work, counted in `noun`s; None where
        nothing is shown."""
        if not self.enabled:
            return None

        def show(done: int, total: int) -> None:
            self.stream.write(f"\r\x1b[K{prefix}: {done} of {plural(total, noun)}")
            self.stream.flush()
            self.shown = True

        return show

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


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
