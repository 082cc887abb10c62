"""Fixtures shared by the test folders. The folders follow the code's units: core (the
Cython core against the rules), move (one move: CLI, files, timing), library (the public
API and its docs), arena (games, matches, statistics), strength (features and tuning),
terminal, web, and nim (the Nim games and tic-tac-toe). Helpers shared as functions are
modules beside this file (tests/ is on the import path: pyproject's pythonpath)."""

import signal

import pytest

from agent.move import launch

# A shell starts a background job (`nohup pytest ... &`) with SIGINT ignored, and every
# program the tests start would inherit that and shrug off the Ctrl-C they are sent. A
# handled signal is reset to its default at exec, so Python's own handler here gives them
# the Ctrl-C of a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def bytecode_written():
    """As `fruit-rage command` or `calibrate` leave it before a competition: where
    PYTHONDONTWRITEBYTECODE is set (CI), every move would otherwise compile the modules
    it loads, a cost no competitor's move pays."""
    launch.compile_bytecode()
