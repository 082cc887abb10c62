"""Fixtures shared by the test folders. The folders follow the code's units: core (the
Cython core against the rules), move (one move: CLI, files, timing), library (the public
API and its docs), arena (games, matches, statistics), strength (features and tuning),
terminal, web, and nim (the Nim games and tic-tac-toe). Helpers shared as functions are
modules beside this file (tests/ is on the import path: pyproject's pythonpath)."""

import pytest

from agent.move import launch


@pytest.fixture(scope="session")
def bytecode_written():
    """As `fruit-rage command` or `calibrate` leave it before a competition: where
    PYTHONDONTWRITEBYTECODE is set (CI), every move would otherwise compile the modules
    it loads, a cost no competitor's move pays."""
    launch.compile_bytecode()
