"""Every message of a subcommand starts `fruit-rage SUBCOMMAND: `, as the README says, so
that a user sees which command spoke; the bare competition call's start `fruit-rage: `.
Checked for an error of each subcommand's own, for words it does not take and for Ctrl-C."""

from __future__ import annotations

import argparse
import importlib
import os

import pytest
from fruit_helpers import fruit_rage
from paths import PROJECT_ROOT

from agent.commands import cli

BARE = "(bare call)"
# Arguments each subcommand refuses or fails on once they are parsed, and the message's start.
FAILURES = {
    BARE: (("--input", "nofile"), "fruit-rage: nofile: no such file"),
    "move": (("move", "--input", "nofile"), "fruit-rage move: nofile: no such file"),
    "perft": (("perft", "nofile", "2"), "fruit-rage perft: nofile: no such file"),
    "calibrate": (("calibrate", "--output", "no/such/folder/c.txt"), "fruit-rage calibrate: cannot write"),
    "command": (("command", "extra"), "fruit-rage command: unrecognized arguments: extra"),
    "match": (("match", "ours", "./x"), "fruit-rage match: agent './x': ./x is a relative path"),
    "tournament": (("tournament", "ours"), "fruit-rage tournament: give at least two agents"),
    "gate": (("gate", "greedy", "random", "--games", "3"), "fruit-rage gate: the boards are paired"),
    "tune": (("tune", "greedy", "random", "--games", "3"), "fruit-rage tune: the boards are paired"),
    "tune-eval": (("tune-eval", "nofile"), "fruit-rage tune-eval: nofile: no such file"),
    "serve": (("serve", "--records", "nofile"), "fruit-rage serve: --records nofile: no such folder"),
    "replay": (("replay", "nofile"), "fruit-rage replay: nofile: no such file"),
    "audit": (("audit", "nofile"), "fruit-rage audit: nofile: no such file"),
    "phases": (("phases", "nofile"), "fruit-rage phases: nofile: no such file"),
    "play": (("play", "--agent", "./x"), "fruit-rage play: agent './x': ./x is a relative path"),
    "analyse": (("analyse", "nofile"), "fruit-rage analyse: nofile: no such file"),
    "bench": (("bench", "--positions", "nofile"), "fruit-rage bench: nofile: no such file"),
    "regret": (("regret", "nosuch"), "fruit-rage regret: no player 'nosuch'"),
}


def subcommands() -> list:
    parser = cli.build_parser()
    (action,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return list(action.choices)


def test_every_subcommand_is_checked_and_the_readme_states_the_form():
    assert set(FAILURES) == {BARE, *subcommands()}
    with open(os.path.join(PROJECT_ROOT, "README.md"), encoding="utf-8") as readme:
        assert "Errors read `fruit-rage SUBCOMMAND: message`" in " ".join(readme.read().split())


@pytest.mark.parametrize("command", list(FAILURES))
def test_an_error_starts_with_the_subcommand_that_spoke(command, tmp_path):
    args, start = FAILURES[command]
    done = fruit_rage(*args, cwd=tmp_path)
    message = [line for line in done.stderr.splitlines() if line.startswith("fruit-rage")]
    assert done.returncode in (1, 2) and len(message) == 1 and message[0].startswith(start), done.stderr


@pytest.mark.parametrize("command", subcommands())
def test_words_a_subcommand_does_not_take_are_refused_in_its_name(command, tmp_path):
    done = fruit_rage(command, "--no-such-option", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0].startswith(f"usage: fruit-rage {command} ")
    assert done.stderr.splitlines()[-1].startswith(f"fruit-rage {command}: "), done.stderr


@pytest.mark.parametrize("command", [BARE, *subcommands()])
def test_ctrl_c_names_the_subcommand(command, monkeypatch, capsys):
    args = ("command",) if command == "command" else FAILURES[command][0]  # words it parses
    handler = importlib.import_module(cli.build_parser(list(args)).parse_args(list(args)).handler)

    def interrupted(parsed):
        raise KeyboardInterrupt

    monkeypatch.setattr(handler, "run", interrupted)
    assert cli.main(list(args)) == 130
    program = "fruit-rage" if command == BARE else f"fruit-rage {command}"
    assert capsys.readouterr().err == f"{program}: interrupted\n"
