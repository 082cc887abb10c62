"""The program an agent name runs, and how: a built-in's command line, or any shell command
that reads input.txt and writes output.txt in its current folder (the competition
protocol). A player named on a command line (agent.arena.player_specs) that is a program
runs its AgentCommand."""

from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from typing import Optional

from agent.baselines import BASELINE_NAMES
from agent.move import launch


@dataclass(frozen=True)
class AgentCommand:
    label: str  # as given on the command line
    command: object  # an argument list (built-ins) or a shell command string
    shell: bool
    env: Optional[dict] = None  # the environment to run it in; None: inherit


@functools.lru_cache(maxsize=None)  # built and checked once, not for every game of a match
def agent_command(text: str) -> AgentCommand:
    """ValueError when a command agent surely cannot run (see command_problem)."""
    if text == "ours":
        # The lean launch a competitor would use: start-up is charged to the clock.
        launch.compile_bytecode()
        return AgentCommand(text, launch.move_command(), False, launch.move_environment())
    if text in BASELINE_NAMES:
        return AgentCommand(text, [sys.executable, "-m", "agent.baselines", text], False, _built_in_env())
    problem = command_problem(text)
    if problem:
        raise ValueError(f"agent {text!r}: {problem}")
    return AgentCommand(text, text, True)


BUILT_IN_NAMES = ("ours", *BASELINE_NAMES)  # this project's own programs


# Words the shell runs itself, which no PATH lookup finds.
_SHELL_WORDS = {".", "cd", "command", "eval", "exec", "export", "set", "source", "ulimit", "umask"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


# Files the referee itself puts in (or takes from) each move's folder.
_PROTOCOL_FILES = {"input.txt", "output.txt"}


def command_problem(text: str):
    """Why a shell-command agent cannot run, or None: its program (the first word after
    any VAR=value) is not found, it or a later word is a relative path, which the fresh
    folder of every move would not have, or its script does not exist. Caught before the
    first game: otherwise every move would be a forfeit. Commands too shell-ish to judge
    are let through."""
    if not text.strip():
        return "the command is empty"
    try:
        words = shlex.split(text)
    except ValueError:
        return None  # unbalanced quotes: the shell's own message says more
    while words and _ASSIGNMENT.match(words[0]):
        words.pop(0)
    if not words or words[0] in _SHELL_WORDS or re.search(r"[$`(){};|&<>*?~]", words[0]):
        return None
    program = words[0]
    if "/" in program:
        if not os.path.isabs(program):
            return _relative(program)
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):  # a folder has X too
            return f"{program} is not an executable file"
    elif shutil.which(program) is None:
        return f"{program}: command not found"
    for before, word in zip(words, words[1:]):
        path = word.partition("=")[2] if word.startswith("-") else word  # --weights=net.bin
        if before != "-m" and _names_a_relative_path(path):  # python's -m takes a module
            return _relative(path)
    return _missing_script(words[1:])


# Options after which an interpreter runs no script file: python's -m module and -c code.
_NO_SCRIPT_AFTER = {"-m", "-c", "-e"}
# Endings of a script an interpreter runs. Only those: a program's first argument may be a
# file it is to create (`touch /tmp/marker`).
_SCRIPT_ENDINGS = (".py", ".js", ".mjs", ".rb", ".pl", ".php", ".lua", ".sh", ".jar")


def _missing_script(arguments) -> Optional[str]:
    """Why the program's first argument that is not an option cannot be its script, or
    None: it ends as a script does and no such file exists, as `python3 /abs/g.py` with
    no g.py there."""
    for word in arguments:
        if word in _NO_SCRIPT_AFTER:
            return None
        if word.startswith("-"):
            continue
        if not word.endswith(_SCRIPT_ENDINGS) or os.path.exists(word):
            return None
        if os.path.isabs(word):
            return f"{word}: no such file"
        return f"{word}: no such file, and every move runs in a fresh folder: give the script's absolute path"
    return None


def _names_a_relative_path(word: str) -> bool:
    """A word that is a path relative to this folder: a file that is here (a script, a
    data file), or a path starting ./ or ../."""
    if not word or os.path.isabs(word) or word in _PROTOCOL_FILES:
        return False
    return word.startswith(("./", "../")) or os.path.isfile(word)


def _relative(path: str) -> str:
    return (
        f"{path} is a relative path, but every move runs in a fresh folder: give its "
        f"absolute path, {os.path.abspath(path)}"
    )


def files_named(text: str) -> list:
    """The existing files an agent's command names by absolute path (its program, its
    script, ...): what a match must never write over. Built-in names name none."""
    try:
        words = shlex.split(text)
    except ValueError:
        return []
    return [word for word in words if os.path.isabs(word) and os.path.isfile(word)]


def _built_in_env() -> dict:
    """Built-ins run from a fresh folder: make sure they import this very project."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": launch.package_root() + (os.pathsep + path if path else "")}
