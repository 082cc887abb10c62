"""Nothing a command prints is wider than 80 columns when it is not on a terminal: every
command's --help (each fruit-rage subcommand, as agent.commands.cli lists them, and the
console scripts of the Nim games), and what the commands that print tables print on tiny
real runs: bench, match, tournament, tune, tune-eval, analyse, audit, phases, replay,
perft and play, with agent names long enough to need wrapping.

Each command runs as a program with stdout a pipe and COLUMNS unset, as in a log or a
pipe to `less`. A diagnostic on stderr (`fruit-rage match: ...`) is one line whatever its
length, so that grep finds it whole, but bench's, which wrap with the line that names the
set and the position first; every other line must fit."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from paths import PROJECT_ROOT, SAMPLES

from agent import rules
from agent.commands.cli import SUBCOMMANDS

WIDTH = 80
DIAGNOSTIC = re.compile(r"(fruit-rage [a-z-]+|red-blue-nim|tictactoe|start-game|exp-nim): ")
# a Python player whose name, as the command line gives it, does not fit beside the rest
LONG_PLAYER = "py:width_players:a_first_group_player_with_a_long_factory_name"
LONG_COMMAND = "python3 /home/someone/projects/fruit-rage/agents/minimax_agent.py --depth 3"
PLAYERS_MODULE = """\
class FirstGroup:
    name = "first-group"

    def choose(self, board, clock_left):
        return board.legal_moves()[0]


def a_first_group_player_with_a_long_factory_name(**params):
    return FirstGroup()
"""
TINY_GAMES = ("--size", "4", "--types", "3", "--time", "5", "--seed", "11", "--in-process")


def run(folder, *argv, stdin_text: str = "") -> subprocess.CompletedProcess:
    """`argv` run in `folder` with this project first on the import path, stdout and
    stderr pipes, COLUMNS unset."""
    env = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PROJECT_ROOT, env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, *map(str, argv)],
        cwd=folder,
        env=env,
        input=stdin_text,
        capture_output=True,
        text=True,
        timeout=120,
    )


def fruit_rage(folder, *argv, stdin_text: str = "") -> subprocess.CompletedProcess:
    return run(folder, "-m", "agent", *argv, stdin_text=stdin_text)


def assert_fits(done: subprocess.CompletedProcess, what: str, diagnostics_too: bool = False) -> None:
    """Every line of stdout and stderr within WIDTH columns, but diagnostics (with them when
    `diagnostics_too`)."""
    assert done.stdout.strip() or diagnostics_too, (what, done.stderr)
    for stream, text in (("stdout", done.stdout), ("stderr", done.stderr)):
        lines = (
            text.splitlines()
            if stream == "stdout" or diagnostics_too
            else [line for line in text.splitlines() if not DIAGNOSTIC.match(line)]
        )
        wide = [line for line in lines if len(line) > WIDTH]
        assert not wide, f"{what} ({stream}): {len(wide[0])} columns: {wide[0]!r}"


def nim_scripts() -> dict:
    """The Nim games' console scripts (pyproject.toml's [project.scripts] but fruit-rage):
    name -> (module, function)."""
    with open(os.path.join(PROJECT_ROOT, "pyproject.toml"), encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("[project.scripts]") :].split("\n\n")[0]
    scripts = dict(re.findall(r'^([\w-]+) = "([\w.]+:\w+)"$', section, re.MULTILINE))
    scripts.pop("fruit-rage")
    return {name: tuple(target.split(":")) for name, target in scripts.items()}


def test_the_nim_scripts_are_found():
    assert set(nim_scripts()) == {"red-blue-nim", "tictactoe", "start-game", "exp-nim"}


@pytest.mark.parametrize("subcommand", [None, *SUBCOMMANDS])
def test_every_fruit_rage_help_fits(tmp_path, subcommand):
    done = fruit_rage(tmp_path, *([subcommand] if subcommand else []), "--help")
    assert done.returncode == 0, done.stderr
    assert_fits(done, f"fruit-rage {subcommand or ''} --help")


@pytest.mark.parametrize("script", sorted(nim_scripts()))
def test_every_nim_help_fits(tmp_path, script):
    module, function = nim_scripts()[script]
    done = run(tmp_path, "-c", f"import sys; from {module} import {function}; sys.exit({function}(['--help']))")
    assert done.returncode == 0, done.stderr
    assert_fits(done, f"{script} --help")


def test_bench_fits(tmp_path):
    """The project's quickest set, and a set of a long name (its figures go on a line of
    their own) whose searches do not finish (no ratio): its diagnostics fit too, and so
    does the list of the sets when a name is not one of them."""
    grid = rules.random_board(3, 5, 3)
    long_name = "a-set-whose-name-is-longer-than-its-column"
    positions = tmp_path / "positions.json"
    positions.write_text(
        json.dumps(
            {
                "reference_processor": "Intel Xeon (Sapphire Rapids)",
                "sets": [
                    {
                        "name": long_name,
                        "mode": "depth",
                        "depth": 2,
                        "reference_cpu_s_total": 0.001,
                        "positions": [{"grid": list(grid), "value": rules.negamax_value(grid, 2)}],
                    }
                ],
            }
        )
    )
    assert_fits(fruit_rage(tmp_path, "bench", "--set", "depth4-26x26-full"), "bench")
    assert_fits(fruit_rage(tmp_path, "bench", "--positions", positions), "bench --positions")
    done = fruit_rage(tmp_path, "bench", "--positions", positions, "--time-limit", "1e-9")
    assert done.returncode == 1 and long_name in done.stdout
    assert done.stderr.startswith(f"fruit-rage bench: {long_name} position 1: not\n  searched to depth 2")
    assert_fits(done, "bench --time-limit", diagnostics_too=True)
    done = fruit_rage(tmp_path, "bench", "--set", "nosuch")
    assert done.returncode == 2 and done.stderr.startswith("fruit-rage bench: no set named 'nosuch'; the sets:")
    assert "depth7-10x10-full" in done.stderr
    assert_fits(done, "bench --set nosuch", diagnostics_too=True)


def test_a_move_s_verbose_lines_fit(tmp_path):
    """An iteration's principal variation goes on lines of its own where it would pass
    the width: depth 6 of a 26x26 middle game lists six moves."""
    shutil.copy(os.path.join(SAMPLES, "13-size26-p9-midgame", "input.txt"), tmp_path / "input.txt")
    done = fruit_rage(tmp_path, "move", "--verbose", "--depth", "6")
    assert done.returncode == 0 and "depth   6" in done.stderr, done.stderr
    assert max(map(len, done.stderr.splitlines())) <= WIDTH, done.stderr


def test_the_nim_games_own_lines_fit(tmp_path):
    """A demonstration's scoreboard lists every move: it wraps."""
    demo = "import sys; from nim_games.red_blue import main; sys.exit(main(['20', '20', '--demo']))"
    done = run(tmp_path, "-c", demo)
    assert done.returncode == 0 and "Scoreboard:" in done.stdout, done.stderr
    assert_fits(done, "red-blue-nim --demo")


@pytest.fixture
def recorded_games(tmp_path):
    """Two games of a match between a Python player of a long name and greedy, recorded,
    and the same games with B named as a long shell command: (folder, the record files)."""
    (tmp_path / "width_players.py").write_text(PLAYERS_MODULE)
    games = tmp_path / "games.jsonl"
    done = fruit_rage(tmp_path, "match", LONG_PLAYER, "greedy", "--games", "2", *TINY_GAMES, "--out", games)
    assert done.returncode == 0, done.stderr
    assert_fits(done, "match")
    records = [json.loads(line) for line in games.read_text().splitlines()]
    for record in records:
        record["agents"]["B"] = LONG_COMMAND
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text("".join(json.dumps(record) + "\n" for record in records))
    return tmp_path, (games, renamed)


def test_the_review_commands_fit(recorded_games):
    folder, files = recorded_games
    for games in (path.name for path in files):  # in the folder: a short path, as a user gives one
        for argv in (
            ("analyse", games, "--nodes", "1000"),
            ("audit", games, "--seconds", "1"),
            ("phases", games),
            ("replay", games, "--delay", "0"),
            ("tune-eval", games, "--seed", "2", "--per-game", "4", "--out", "weights.json"),
        ):
            done = fruit_rage(folder, *argv)
            assert done.returncode == 0, (argv, done.stderr)
            assert_fits(done, " ".join(map(str, argv[:1])))


def test_a_paired_match_with_a_test_and_a_gate_fit(tmp_path):
    (tmp_path / "width_players.py").write_text(PLAYERS_MODULE)
    paired = ("--games", "4", "--paired", *TINY_GAMES)
    assert_fits(fruit_rage(tmp_path, "match", LONG_PLAYER, "greedy", *paired, "--sprt-margin", "0", "10"), "match")
    assert_fits(fruit_rage(tmp_path, "match", "greedy", LONG_PLAYER, *paired, "--sprt", "0", "10"), "match --sprt")
    done = fruit_rage(tmp_path, "gate", LONG_PLAYER, "greedy", "--param", "depth=1", "--games", "4", *TINY_GAMES[:-1])
    assert done.returncode == 0, done.stderr
    assert_fits(done, "gate")
    done = fruit_rage(tmp_path, "tournament", "greedy", "random", LONG_PLAYER, "--games", "2", *TINY_GAMES)
    assert done.returncode == 0, done.stderr
    assert_fits(done, "tournament")


def test_perft_and_play_fit(tmp_path):
    (tmp_path / "width_players.py").write_text(PLAYERS_MODULE)
    position = tmp_path / "input.txt"
    position.write_text("4\n3\n300.0\n" + "\n".join(rules.random_board(5, 4, 3)) + "\n")
    assert_fits(fruit_rage(tmp_path, "perft", position, "2"), "perft")
    done = fruit_rage(
        tmp_path, "play", "--agent", LONG_PLAYER, "--first", "computer", "--size", "4", stdin_text="A1\nq\n"
    )
    assert done.returncode == 0, done.stderr
    assert_fits(done, "play")
