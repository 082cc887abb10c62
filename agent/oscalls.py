"""The few operating-system calls of the move path, without importing `os`: that import
(posixpath, stat, _collections_abc, ...) would cost every move ~1 ms of its clock, while
the built-in posix module is loaded at start-up anyway."""

try:
    from posix import _exit, getpid, lstat, replace, stat, unlink
except ImportError:  # not a POSIX system
    from os import _exit, getpid, lstat, replace, stat, unlink

__all__ = ["_exit", "getpid", "lstat", "replace", "stat", "unlink"]
