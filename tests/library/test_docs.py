"""The examples in README.md and in the public modules' docstrings run as written."""

import doctest
import importlib
import os

import pytest
from paths import PROJECT_ROOT

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_readme_examples():
    failed, attempted = doctest.testfile(
        os.path.join(PROJECT_ROOT, "README.md"), module_relative=False, optionflags=FLAGS
    )
    assert attempted > 10 and failed == 0


@pytest.mark.parametrize("module", ["agent", "agent.board", "agent.engine", "agent.players", "agent.arena.tune"])
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert attempted > 0 and failed == 0
