"""Agent specs: a built-in name, or any shell command that reads input.txt and writes
output.txt in its current folder (the competition protocol)."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Optional

import agent
from agent import launch
from agent.baselines import BASELINE_NAMES

BUILT_IN_NAMES = ("ours",) + BASELINE_NAMES

# Built-ins run from a fresh folder: make sure they import this very project.
_PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(agent.__file__)))


@dataclass(frozen=True)
class AgentSpec:
    label: str                # as given on the command line
    command: object           # an argument list (built-ins) or a shell command string
    shell: bool
    env: Optional[dict] = None  # the environment to run it in; None: inherit


def agent_spec(text: str) -> AgentSpec:
    if text == "ours":
        # The lean launch a competitor would use: start-up is charged to the clock.
        launch.compile_bytecode()
        return AgentSpec(text, launch.move_command(), False, launch.move_environment())
    if text in BASELINE_NAMES:
        return AgentSpec(text, [sys.executable, "-m", "agent.baselines", text], False, _built_in_env())
    return AgentSpec(text, text, True)


def _built_in_env() -> dict:
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": _PROJECT_ROOT + (os.pathsep + path if path else "")}
