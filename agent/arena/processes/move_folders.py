"""Where moves run: a folder per match, in it a private folder (mode 0700) per side, and in
that a fresh folder per move, removed when the move ends.

Every folder is held by a descriptor from the moment it is made, and what the referee reads
or removes is reached through those descriptors, never through a path a move could have
turned into a symbolic link: a move that swaps its folder (or output.txt) for a link sends
the referee nowhere, and the link is removed with the rest."""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import tempfile
import threading
from typing import Optional

from agent.arena.processes.referee_tags import TAG, left_by_gone_referee, own_tag
from agent.arena.processes.stop_signals import signals_held

OUTPUT_LIMIT = 100_000  # bytes of output.txt read: a 26x26 answer is under 1 kB
SHARED_SIDE = "shared"  # the side of moves run without one
_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


MATCH_FOLDER_PREFIX = "fruit-rage-match-"  # then the referee's tag: what a sweep goes by
_MATCH_FOLDER = re.compile(rf"{re.escape(MATCH_FOLDER_PREFIX)}({TAG})-[^/]+")


class FolderFailed(Exception):
    """A folder for a move could not be made or written: the referee's trouble."""


class MatchFolders:
    """The match folder, made at the first move. `shared_with_others`: the sides run as
    users of their own, who must pass through it to reach their folders."""

    def __init__(self, shared_with_others: bool = False):
        self.shared_with_others = shared_with_others
        self._lock = threading.Lock()
        self._path: Optional[str] = None
        self._fd: Optional[int] = None
        self._sides: dict[str, tuple[str, int]] = {}  # name -> (path, descriptor)

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
            assert self._path is not None  # made just now, or before
            if side not in self._sides:
                os.mkdir(side, 0o700, dir_fd=self._fd)
                if owner is not None:
                    os.chown(side, *owner, dir_fd=self._fd, follow_symlinks=False)
                self._sides[side] = (os.path.join(self._path, side), os.open(side, _DIRECTORY, dir_fd=self._fd))
            return self._sides[side]

    def _make_match_folder(self) -> None:
        # Made and held with the stop signals blocked: a Ctrl-C between the two would leave
        # it unknown, and so behind (as would one while Python first probes TMPDIR).
        with signals_held():
            try:
                path = tempfile.mkdtemp(prefix=f"{MATCH_FOLDER_PREFIX}{own_tag()}-")
            except OSError as error:  # no filename: no usable temporary folder at all
                where = f" in {os.path.dirname(error.filename)}" if error.filename else ""
                raise FolderFailed(f"cannot make a folder for a move{where}: {error.strerror}") from None
            self._fd = os.open(path, _DIRECTORY)
            self._path = path
        if self.shared_with_others:
            os.fchmod(self._fd, 0o711)

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
            path, fd, sides = self._path, self._fd, self._sides
            self._path, self._fd, self._sides = None, None, {}  # forgotten first: never closed twice
            for _, descriptor in sides.values():
                os.close(descriptor)
            assert fd is not None  # held with the path
            remove_folder(fd, os.path.dirname(path), os.path.basename(path))


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
        self.fd: Optional[int] = os.open(self.name, _DIRECTORY, dir_fd=side_fd)
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
        allowed to read, nor a file with other names (a hard link); not a folder, nor a FIFO,
        which would wait for a writer forever (O_NONBLOCK keeps the open itself from
        waiting), nor a socket or a device; nor a file larger than any answer (a sparse
        terabyte, say). Whatever the move left there, the answer is this pair, never an
        exception that would stop the match."""
        try:
            descriptor = os.open(
                "output.txt", os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_NOCTTY, dir_fd=self.fd
            )
        except FileNotFoundError:
            return None, "no output.txt"
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENXIO):  # a link; a socket
                return None, "output.txt is not a regular file"
            return None, f"output.txt cannot be opened: {error.strerror}"
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):  # checked before a file object: a folder refuses to be one
                return None, "output.txt is not a regular file"
            if info.st_nlink != 1:
                return None, "output.txt is a hard link: it may be a file from elsewhere"
            if info.st_size > OUTPUT_LIMIT:
                return None, f"output.txt is {info.st_size} bytes, more than any answer ({OUTPUT_LIMIT})"
            with open(descriptor, "rb", closefd=False) as handle:
                return handle.read(OUTPUT_LIMIT).decode("ascii", errors="replace"), ""
        except OSError as error:
            return None, f"output.txt cannot be read: {error.strerror}"
        finally:
            os.close(descriptor)

    def remove(self) -> None:
        if self.fd is not None:
            remove_folder(self.fd, self.side_fd, self.name)
            self.fd = None


def remove_orphaned_match_folders(where: str, referee: Optional[int] = None) -> None:
    """Remove the match folders in `where` (the temporary folder) whose referee is gone
    (`referee`'s only, when given, gone or not): killed outright, it removed none. Only
    folders of ours: anyone may put a folder of that name in /tmp; and only those of
    referees this process can judge (not another PID namespace's)."""
    try:
        where_fd = os.open(where, _DIRECTORY)
    except OSError:
        return
    try:
        for name in os.listdir(where_fd):
            match = _MATCH_FOLDER.fullmatch(name)
            if match is None or not left_by_gone_referee(match.group(1), referee):
                continue
            try:
                fd = os.open(name, _DIRECTORY, dir_fd=where_fd)
            except OSError:  # a link, a file, or gone meanwhile
                continue
            if os.fstat(fd).st_uid == os.geteuid():
                remove_folder(fd, where_fd, name)
            else:
                os.close(fd)
    finally:
        os.close(where_fd)


def remove_folder(fd: int, parent, name: str) -> None:
    """Remove the folder open as `fd`, made as `name` in `parent` (a path or a descriptor),
    and close fd. Its contents go through fd; if it was moved away, it is removed where it
    went, and whatever stands in its place (a link, say) is removed, never followed.
    Errors leave things behind rather than fail the match."""
    try:
        os.fchmod(fd, 0o700)  # the move may have made its folder unwritable
        for entry in os.listdir(fd):
            _remove_tree(entry, fd)
        mine = os.fstat(fd)
        parent_fd = parent if isinstance(parent, int) else os.open(parent, _DIRECTORY)
        try:
            here = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
            if (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino):
                os.rmdir(name, dir_fd=parent_fd)
                return
            _remove_tree(name, parent_fd)
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


def _remove_tree(name: str, dir_fd: int) -> None:
    """Remove `name` from the folder open as dir_fd, and if it is a folder, all it holds.
    A loop, not shutil.rmtree's recursion, which a move nesting a few thousand folders
    would take past Python's limit; one descriptor at a time, climbing back by "..", which
    must be the folder it came from. Folders are made ours to empty first: a move may have
    taken their permissions away. A folder of another file system (mounted there by a
    move run as root) is not entered. What cannot be removed is left behind."""
    fd = os.dup(dir_fd)
    device = os.fstat(fd).st_dev
    above = []  # per folder entered: its name, its parent's identity, the names left in the parent
    left = [name]
    try:
        while True:
            while left:
                entry = left.pop()
                try:
                    inner = _open_to_empty(entry, fd, device)
                except NotADirectoryError:  # a file, a link, a FIFO...: unlinked, never opened
                    _unlink_quietly(entry, fd)
                    continue
                except OSError:
                    continue
                above.append((entry, _identity(fd), left))
                os.close(fd)
                fd = inner
                try:
                    left = os.listdir(fd)
                except OSError:
                    left = []
            if not above:
                return
            entry, parent, left = above.pop()
            outer = os.open("..", _DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = outer
            if _identity(fd) != parent:  # moved meanwhile: the rest stays where it went
                return
            try:
                os.rmdir(entry, dir_fd=fd)
            except OSError:
                pass
    finally:
        os.close(fd)


def _open_to_empty(name: str, dir_fd: int, device: int) -> int:
    """Folder `name` in dir_fd, open, searchable and writable by us; NotADirectoryError when
    it is anything else (a link included: it is never followed), OSError when it is on
    another device than `device` (a mount)."""
    held = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_DIRECTORY, dir_fd=dir_fd)
    try:
        if os.fstat(held).st_dev != device:
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
        os.chmod(f"/proc/self/fd/{held}", 0o700)  # fchmod takes no O_PATH descriptor
        return os.open(".", _DIRECTORY, dir_fd=held)
    finally:
        os.close(held)


def _unlink_quietly(name: str, dir_fd: int) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass


def _identity(fd: int) -> tuple:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


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
