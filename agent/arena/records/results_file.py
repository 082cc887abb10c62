"""The results file of `match --out` / `--resume`, `tournament --out` and `play --out`:
held by one command at a time, and written a whole line at a time."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import stat


class RecordsFile:
    """One JSON line per finished game, each written by a single write() to a file opened
    for appending, so that no line is split by another writer. A regular file is locked
    (flock) for the command's life: a second command given it is refused before it changes
    a byte. A write that fails (a full disk, a pipe whose reader left) stops the match: the
    games after it would be played for no record."""

    class WriteFailed(Exception):
        pass

    class Refused(Exception):
        """The file cannot be this command's (exit 2): the message says why."""

    def __init__(self, path: str, resume: bool = False):
        """--out: the file is emptied once it is locked. `resume`: it is kept, to be read
        (reader) and cut back to its whole lines (cut_back), and must be a regular file."""
        if resume:
            _check_regular(path)  # before opening: a FIFO would wait for a writer, a device never end
        mode = os.O_RDWR | os.O_NONBLOCK if resume else os.O_WRONLY
        self.fd = os.open(path, mode | os.O_CREAT | os.O_APPEND | os.O_NOCTTY, 0o666)
        try:
            regular = stat.S_ISREG(os.fstat(self.fd).st_mode)
            if resume and not regular:  # put there since the check
                raise RecordsFile.Refused("is not a regular file")
            if regular:
                lock_records(self.fd)
            if resume:
                os.set_blocking(self.fd, True)
            elif regular:
                os.ftruncate(self.fd, 0)
        except BaseException:
            os.close(self.fd)
            raise

    def reader(self):
        """The file from its start, for reading (the file stays open when it is closed)."""
        return open(self.fd, "rb", closefd=False)

    def cut_back(self, length: int) -> None:
        """Drop whatever follows the first `length` bytes (a line cut short)."""
        os.ftruncate(self.fd, length)

    def write(self, record: dict) -> None:
        line = (json.dumps(record) + "\n").encode()
        try:
            written = os.write(self.fd, line)
        except OSError as error:
            raise RecordsFile.WriteFailed(error.strerror or str(error)) from None
        if written < len(line):  # the disk filled up mid-line: `--resume` drops the part written
            raise RecordsFile.WriteFailed(f"only {written} of the {len(line)} bytes of a record were written")

    def close(self) -> None:
        os.close(self.fd)


def _check_regular(path: str) -> None:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return  # made empty: a match with no game played yet
    if not stat.S_ISREG(mode):
        raise RecordsFile.Refused("is a folder" if stat.S_ISDIR(mode) else "is not a regular file")


def lock_records(fd: int) -> None:
    """Hold the records file open as `fd` for this command's life: RecordsFile.Refused when
    another command (every writer of records takes this lock) holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise RecordsFile.Refused("is in use by another command (a match, tournament or play)") from None
        # else a file system without locks (ENOLCK): the file is written unlocked
