"""Where moves run: a folder per match, in it a private folder (mode 0700) per side, and in
that a fresh folder per move, removed when the move ends.

Every folder is held by a descriptor from the moment it is made, and what the referee reads
or removes is reached through those descriptors, never through a path a move could have
turned into a symbolic link: a move that swaps its folder (or output.txt) for a link sends
the referee nowhere, and the link is removed with the rest."""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import tempfile
import threading
from typing import Optional

OUTPUT_LIMIT = 100_000  # bytes of output.txt read: a 26x26 answer is under 1 kB
SHARED_SIDE = "shared"  # the side of moves run without one
_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


class FolderFailed(Exception):
    """A folder for a move could not be made or written: the referee's trouble."""


class MatchFolders:
    """The match folder, made at the first move. `shared_with_others`: the sides run as
    users of their own, who must pass through it to reach their folders."""

    def __init__(self, shared_with_others: bool = False):
        self.shared_with_others = shared_with_others
        self._lock = threading.Lock()
        self._path = None
        self._fd = None
        self._sides = {}  # name -> (path, descriptor)

    @property
    def path(self) -> Optional[str]:
        return self._path

    def side_folder(self, side: str, owner: Optional[tuple] = None) -> tuple:
        """(path, descriptor) of `side`'s folder, made at its first move, owned by `owner`
        (uid, gid) when given."""
        if not side.isascii() or not side.replace("-", "").replace("_", "").isalnum():
            raise ValueError(f"side {side!r}: letters, digits, - and _ only")
        with self._lock:
            if self._path is None:
                self._make_match_folder()
            if side not in self._sides:
                os.mkdir(side, 0o700, dir_fd=self._fd)
                if owner is not None:
                    os.chown(side, *owner, dir_fd=self._fd, follow_symlinks=False)
                self._sides[side] = (os.path.join(self._path, side), os.open(side, _DIRECTORY, dir_fd=self._fd))
            return self._sides[side]

    def _make_match_folder(self) -> None:
        try:
            path = tempfile.mkdtemp(prefix="fruit-rage-match-")
        except OSError as error:  # no filename: no usable temporary folder at all
            where = f" in {os.path.dirname(error.filename)}" if error.filename else ""
            raise FolderFailed(f"cannot make a folder for a move{where}: {error.strerror}") from None
        self._fd = os.open(path, _DIRECTORY)
        if self.shared_with_others:
            os.fchmod(self._fd, 0o711)
        self._path = path

    def new_move(self, side: str, owner: Optional[tuple], input_text: str) -> MoveFolder:
        """A fresh folder in `side`'s, holding input.txt, owned by `owner` when given."""
        try:
            side_path, side_fd = self.side_folder(side, owner)
            return MoveFolder(side_path, side_fd, owner, input_text)
        except FolderFailed:
            raise
        except OSError as error:
            raise FolderFailed(f"cannot make a folder for a move in {self._path}: {error.strerror}") from None

    def stderr_file(self):
        """An unnamed file in the match folder, for a move's stderr: no move can find it."""
        try:
            return tempfile.TemporaryFile(dir=self._path)
        except OSError as error:
            raise FolderFailed(f"cannot make a file for a move's stderr in {self._path}: {error.strerror}") from None

    def remove(self) -> None:
        """The whole match folder, whatever the moves left in it. Made again by a later move."""
        with self._lock:
            if self._path is None:
                return
            for _, descriptor in self._sides.values():
                os.close(descriptor)
            remove_folder(self._fd, os.path.dirname(self._path), os.path.basename(self._path))
            self._path, self._fd, self._sides = None, None, {}


class MoveFolder:
    def __init__(self, side_path: str, side_fd: int, owner: Optional[tuple], input_text: str):
        self.side_fd = side_fd
        while True:
            self.name = "move-" + secrets.token_hex(8)
            try:
                os.mkdir(self.name, 0o700, dir_fd=side_fd)
                break
            except FileExistsError:  # taken, by chance or by the side itself
                continue
        self.path = os.path.join(side_path, self.name)
        self.fd = os.open(self.name, _DIRECTORY, dir_fd=side_fd)
        try:
            _write_input(self.fd, input_text)
            if owner is not None:
                os.fchown(self.fd, *owner)
        except BaseException:
            self.remove()
            raise

    def __enter__(self) -> MoveFolder:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()

    def read_output(self) -> tuple:
        """(output.txt's text, "") or (None, why there is none). Only a regular file of the
        move's own is read: not a link (O_NOFOLLOW), whose target the move may not even be
        allowed to read, nor a file with other names (a hard link); not a FIFO, which would
        wait for a writer forever (O_NONBLOCK keeps the open itself from waiting), nor a
        device."""
        try:
            descriptor = os.open(
                "output.txt", os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_NOCTTY, dir_fd=self.fd
            )
        except OSError as error:
            if error.errno == errno.ELOOP:
                return None, "output.txt is not a regular file"
            return None, "no output.txt"  # absent (or unreadable): no answer
        with open(descriptor, "rb") as handle:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):
                return None, "output.txt is not a regular file"
            if info.st_nlink != 1:
                return None, "output.txt is a hard link: it may be a file from elsewhere"
            try:
                return handle.read(OUTPUT_LIMIT).decode("ascii", errors="replace"), ""
            except OSError as error:
                return None, f"output.txt cannot be read: {error.strerror}"

    def remove(self) -> None:
        if self.fd is not None:
            remove_folder(self.fd, self.side_fd, self.name)
            self.fd = None


def remove_folder(fd: int, parent, name: str) -> None:
    """Remove the folder open as `fd`, made as `name` in `parent` (a path or a descriptor),
    and close fd. Its contents go through fd; if it was moved away, it is removed where it
    went, and whatever stands in its place (a link, say) is removed, never followed.
    Errors leave things behind rather than fail the match."""
    try:
        for entry in os.listdir(fd):
            _remove_entry(entry, fd)
        mine = os.fstat(fd)
        parent_fd = parent if isinstance(parent, int) else os.open(parent, _DIRECTORY)
        try:
            here = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
            if (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino):
                os.rmdir(name, dir_fd=parent_fd)
                return
            _remove_entry(name, parent_fd)
        except FileNotFoundError:
            pass
        finally:
            if parent_fd is not parent:
                os.close(parent_fd)
        _remove_where_it_went(fd, mine)
    except OSError:
        pass
    finally:
        os.close(fd)


def _remove_entry(name: str, dir_fd: int) -> None:
    if stat.S_ISDIR(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode):
        shutil.rmtree(name, dir_fd=dir_fd, ignore_errors=True)
    else:
        os.unlink(name, dir_fd=dir_fd)


def _remove_where_it_went(fd: int, mine: os.stat_result) -> None:
    where = os.readlink(f"/proc/self/fd/{fd}")
    if where.endswith(" (deleted)"):
        return
    there = os.stat(where, follow_symlinks=False)
    if (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino):
        os.rmdir(where)


def _write_input(folder_fd: int, input_text: str) -> None:
    try:
        descriptor = os.open("input.txt", os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=folder_fd)
        with open(descriptor, "wb") as handle:
            os.fchmod(descriptor, 0o644)  # readable by a side's own user whatever our umask
            handle.write(input_text.encode("ascii"))
    except OSError as error:
        raise FolderFailed(f"cannot write a move's input.txt: {error.strerror}") from None
