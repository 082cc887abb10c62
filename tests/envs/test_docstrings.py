"""The examples in the environment modules' docstrings run as written (docs/rl.md's run
in the Sphinx doctest build)."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module",
    [
        "agent.envs.pettingzoo",
        "agent.envs.gymnasium",
        "agent.envs.openspiel",
        "agent.envs.openspiel_nim",
        "agent.envs.openspiel_players",
    ],
)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
