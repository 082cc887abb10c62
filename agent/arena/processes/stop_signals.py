"""The signals that stop a match (or a game, a tournament, a tuning run) as Ctrl-C does,
and how a stop is made to finish its cleanup: the moves running killed, their folders and
cgroups removed, whatever signals follow.

Within stop_signals_interrupt() the first of them raises KeyboardInterrupt; the others,
Ctrl-C included, are then ignored to the end of the block, where that cleanup is done: a
second signal would break it off, and one often follows (`timeout` signals the process,
then its whole group). Python swallows an exception raised in a hook it runs at a fork or
in a finalizer, so a first KeyboardInterrupt may stop nothing: the loops that wait for
games call raise_lost_stop(), which raises it again."""

from __future__ import annotations

import contextlib
import signal
import threading

# Signals that end a session as Ctrl-C does: `timeout` and batch systems send SIGTERM, a
# closed terminal or a dropped ssh connection SIGHUP. Left to their default action they
# would end us at once, leaving the move running (it has a session of its own) and its
# folder behind.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
INTERRUPTING = (signal.SIGINT, *STOP_SIGNALS)


class Stopping(SystemExit):
    """Raised by a game process's stop handler: the referee ends the game. A SystemExit of
    its own kind, so that it is never taken for a player that tried to end its process."""


_stop_pending = False  # a stop signal came; cleared when its KeyboardInterrupt is raised again


@contextlib.contextmanager
def stop_signals_interrupt():
    """Within: a stop signal or Ctrl-C raises KeyboardInterrupt, once. A signal ignored
    (nohup) stays ignored."""
    global _stop_pending
    taken = _not_ignored(INTERRUPTING)
    _stop_pending = False
    previous = {number: signal.signal(number, _interrupt_once(taken)) for number in taken}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
        _stop_pending = False


def _interrupt_once(numbers: list):
    def interrupt(signum, frame):
        global _stop_pending
        ignore_signals(numbers)
        _stop_pending = True
        raise KeyboardInterrupt

    return interrupt


def raise_lost_stop() -> None:
    """In the main thread, where it runs no cleanup: KeyboardInterrupt when a stop signal
    came and this code still runs, its KeyboardInterrupt lost."""
    global _stop_pending
    if _stop_pending and threading.current_thread() is threading.main_thread():
        _stop_pending = False
        raise KeyboardInterrupt


def stops_the_run(error: BaseException) -> bool:
    """Whether `error`, raised out of a player's code, stops the run rather than being the
    player's fault: a game process's Stopping, or a KeyboardInterrupt a signal may have
    raised (a stop signal came, see stop_signals_interrupt, or Ctrl-C meets Python's own
    handler). Else the player raised it itself."""
    if isinstance(error, Stopping):
        return True
    interrupted = _stop_pending or signal.getsignal(signal.SIGINT) is signal.default_int_handler
    return isinstance(error, KeyboardInterrupt) and interrupted


def _not_ignored(numbers) -> list:
    """Those of `numbers` not set ignored (nohup's SIGHUP stays ignored)."""
    return [number for number in numbers if signal.getsignal(number) is not signal.SIG_IGN]


def ignore_signals(numbers) -> None:
    for number in numbers:
        signal.signal(number, signal.SIG_IGN)


@contextlib.contextmanager
def stop_signals_deferred():
    """Within, in the main thread, for short work that must finish to leave nothing behind:
    a stop signal or Ctrl-C is noted, and at the end handed to the handler it would have
    met (stop_signals_interrupt's, say), or raised as KeyboardInterrupt where that was the
    default action. Elsewhere (signal handlers are the main thread's to set) nothing
    changes. Process-wide, unlike signals_held: another thread (a library's) would take a
    blocked signal's default action."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came = []
    previous = {
        number: signal.signal(number, lambda signum, frame: came.append(signum))
        for number in _not_ignored(INTERRUPTING)
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
    if came:
        handler = previous[came[0]]
        if not callable(handler):
            raise KeyboardInterrupt
        handler(came[0], None)


@contextlib.contextmanager
def signals_held(numbers=INTERRUPTING):
    """Within, these signals wait (blocked) and then come: a process forked within starts
    with them blocked, and a thread started within keeps them blocked."""
    signal.pthread_sigmask(signal.SIG_BLOCK, numbers)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, numbers)
