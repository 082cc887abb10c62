"""The examples in the environment modules' docstrings run as written (docs/rl.md's run
in the Sphinx doctest build)."""

import doctest
import importlib
import re
from pathlib import Path

import pytest
from paths import PROJECT_ROOT


@pytest.mark.parametrize(
    "module",
    [
        "agent.envs.pettingzoo",
        "agent.envs.gymnasium",
        "agent.envs.openspiel",
        "agent.envs.openspiel_nim",
        "agent.envs.openspiel_players",
        "agent.envs.regret",
    ],
)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


def rl_guide_examples():
    """The doctest blocks of docs/rl.md, each with its first line's number."""
    text = (Path(PROJECT_ROOT) / "docs" / "rl.md").read_text()
    blocks = re.finditer(r"^```\{doctest\}\n(.*?)^```", text, flags=re.S | re.M)
    return [pytest.param(block.group(1), id=f"line {text[: block.start()].count(chr(10)) + 1}") for block in blocks]


@pytest.mark.parametrize("example", rl_guide_examples())
def test_every_example_of_the_rl_guide_runs_as_pasted_into_a_fresh_interpreter(example):
    """Each block on its own, with no name given beforehand (Sphinx's doctest build gives
    every block `from agent import *`)."""
    test = doctest.DocTestParser().get_doctest(example, {}, "docs/rl.md", "docs/rl.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
