"""The fruit-rage command end to end, in temporary folders, as separate processes."""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import types
from pathlib import Path

import paths
import pytest
from fruit_helpers import fruit_rage, mid_game

from agent import rules
from agent.commands import cli
from agent.commands import perft as perft_command
from agent.gamefile import parse_input, parse_output
from agent.move import launch

SAMPLES = Path(paths.SAMPLES)
SAMPLE_DIRS = sorted(p for p in SAMPLES.iterdir() if p.is_dir())


def assert_legal_answer(input_text, output_text):
    game = parse_input(input_text)
    move, grid = parse_output(output_text, game.n)
    cell = rules.parse_move_name(move)
    assert 0 <= cell[0] < game.n and 0 <= cell[1] < game.n
    assert game.grid[cell[0]][cell[1]] != rules.EMPTY, f"{move} is an empty cell"
    assert grid == rules.play(game.grid, cell)[0]


def test_there_are_enough_samples():
    assert len(SAMPLE_DIRS) >= 12
    sizes = {parse_input((d / "input.txt").read_text()).n for d in SAMPLE_DIRS}
    assert {1, 2, 5, 10, 15, 20, 26} <= sizes


@pytest.mark.parametrize("sample", SAMPLE_DIRS, ids=lambda p: p.name)
def test_sample_outputs_are_correct(sample):
    assert_legal_answer((sample / "input.txt").read_text(), (sample / "output.txt").read_text())


@pytest.mark.parametrize("sample", SAMPLE_DIRS, ids=lambda p: p.name)
def test_agent_answers_every_sample_legally(sample, tmp_path):
    shutil.copy(sample / "input.txt", tmp_path / "input.txt")
    done = fruit_rage(cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_legal_answer((tmp_path / "input.txt").read_text(), (tmp_path / "output.txt").read_text())


def test_move_subcommand_with_paths_and_verbose(tmp_path):
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "position.txt")
    done = fruit_rage("move", "--input", "position.txt", "--output", "answer.txt", "--verbose", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "depth   1" in done.stderr and "chose" in done.stderr
    assert_legal_answer((tmp_path / "position.txt").read_text(), (tmp_path / "answer.txt").read_text())


def test_move_told_the_opponent_is_greedy(tmp_path):
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "input.txt")
    done = fruit_rage("move", "--opponent", "greedy", "--verbose", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "against a greedy opponent" in done.stderr
    assert_legal_answer((tmp_path / "input.txt").read_text(), (tmp_path / "output.txt").read_text())
    done = fruit_rage("move", "--opponent", "clever", cwd=tmp_path)
    assert done.returncode == 2 and "invalid choice: 'clever'" in done.stderr


def run_lean(folder, *args, command=None):
    """The competition's launch (or `command` in its environment), run in `folder`."""
    return subprocess.run(
        (command or launch.move_command()) + list(args),
        env=launch.move_environment(),
        cwd=folder,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def test_lean_launch_plays_a_move(tmp_path):
    shutil.copy(SAMPLE_DIRS[0] / "input.txt", tmp_path / "input.txt")
    done = run_lean(tmp_path)
    assert done.returncode == 0, done.stderr
    assert_legal_answer((tmp_path / "input.txt").read_text(), (tmp_path / "output.txt").read_text())


def test_lean_launch_reports_a_bad_input_and_passes_arguments_on(tmp_path):
    """It leaves without the interpreter's teardown: what it printed must still get out."""
    (tmp_path / "input.txt").write_text("2\n2\nnan\n00\n00\n")
    done = run_lean(tmp_path)
    assert done.returncode == 2 and "line 3" in done.stderr
    shutil.copy(SAMPLE_DIRS[0] / "input.txt", tmp_path / "input.txt")
    done = run_lean(tmp_path, "move", "--verbose")
    assert done.returncode == 0 and "chose" in done.stderr


def test_a_move_imports_only_what_it_uses(tmp_path):
    """Every import is charged to the move's clock, so a move loads nothing it does not
    use: not os (~1 ms), argparse, the arena, numpy, not even __future__ or the ascii codec
    (~0.2 ms each)."""
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "input.txt")
    code = "import sys, agent.move_command as m; code = m.main(); print(' '.join(sorted(sys.modules)))"
    done = run_lean(tmp_path, command=[sys.executable, "-S", "-c", code])
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "agent._core" in loaded and (tmp_path / "output.txt").exists()
    assert not loaded & {
        "os",
        "argparse",
        "numpy",
        "agent.arena",
        "agent.commands.cli",
        "random",
        "math",
        "__future__",
        "encodings.ascii",
        "dataclasses",
        "typing",
        "agent.board",
        "agent.engine",
        "agent.players",
        "dask",
        "distributed",
        "starlette",
        "uvicorn",
        "rich",
    }


def test_a_command_line_loads_only_the_subcommand_it_names():
    """A move through the full command line (`fruit-rage move --depth 2`) builds the parser
    with the move's options only: no other subcommand's module, nor the arena they use."""
    code = (
        "import sys; from agent.commands import cli; cli.build_parser(['move', '--depth', '2']); "
        "print(' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    subcommand_modules = {module for module, _ in cli.SUBCOMMANDS.values()}
    assert loaded & subcommand_modules == {"agent.commands.move"}
    assert "agent.arena" not in loaded and "agent.commands.options" not in loaded


def test_bytecode_is_written_even_where_python_is_told_not_to(tmp_path, monkeypatch):
    """So that move processes started with PYTHONDONTWRITEBYTECODE load the package's
    bytecode instead of compiling it on every move."""
    (tmp_path / "module.py").write_text("VALUE = 1\n")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    launch.compile_bytecode(str(tmp_path))
    assert [p.name.split(".")[0] for p in (tmp_path / "__pycache__").iterdir()] == ["module"]


def test_every_module_a_move_loads_has_its_bytecode_after_compile_bytecode():
    """nim_games' too: the move imports agent's console helpers from there."""
    launch.compile_bytecode()
    code = (
        "import os, sys; import agent.move_command; print(sorted(m.__name__ for m in list(sys.modules.values())"
        " if m.__name__.split('.')[0] in ('agent', 'nim_games') and getattr(m, '__cached__', None)"
        " and not os.path.exists(m.__cached__)))"
    )
    env = {**launch.move_environment(), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-S", "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "content, fragment",
    [
        (None, "input.txt: no such file"),
        ("3\n2\n1\n000\n00\n000\n", "line 5"),
        ("2\n2\n-1\n00\n00\n", "line 3"),
        ("2\n2\n1\n0*\n*0\n", "floats"),
        ("2\n2\n1\n00\n00\n" + " " * 100_000, "more than 64 KiB"),
    ],
    ids=["missing", "short row", "negative time", "floating", "huge"],
)
def test_bad_input_fails_cleanly_and_writes_nothing(tmp_path, content, fragment):
    if content is not None:
        (tmp_path / "input.txt").write_text(content)
    done = fruit_rage(cwd=tmp_path)
    assert done.returncode == 2
    assert fragment in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "output.txt").exists()
    assert sorted(os.listdir(tmp_path)) == (["input.txt"] if content is not None else [])


def test_the_bare_call_with_no_input_txt_points_to_the_commands(tmp_path):
    done = fruit_rage(cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "fruit-rage: input.txt: no such file (fruit-rage --help for the commands)\n"
    moved = fruit_rage("move", cwd=tmp_path)  # one who names a subcommand knows the commands
    assert moved.stderr == "fruit-rage move: input.txt: no such file\n"


def test_perft_command_prints_counts(tmp_path):
    (tmp_path / "p.txt").write_text("3\n2\n10\n***\n*10\n000\n")
    done = fruit_rage("perft", "p.txt", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    counts = [int(line.split()[1].replace(",", "")) for line in done.stdout.splitlines()[1:]]
    grid = ("***", "*10", "000")
    assert counts == [rules.perft(grid, d) for d in (1, 2, 3)]


@pytest.mark.parametrize("reference", [False, True])
def test_perft_times_each_count_alone(tmp_path, monkeypatch, capsys, reference):
    """A clock that moves 0.5 s between any two readings, and 1000 s while a thread
    starts: each depth's seconds are one step of it, the count's own."""
    (tmp_path / "p.txt").write_text("3\n2\n10\n***\n*10\n000\n")
    now = [0.0]

    def perf_counter():
        now[0] += 0.5
        return now[0]

    starting = threading.Thread.start

    def slow_start(thread):
        now[0] += 1000.0
        starting(thread)

    monkeypatch.setattr(perft_command, "time", types.SimpleNamespace(perf_counter=perf_counter))
    monkeypatch.setattr(threading.Thread, "start", slow_start)
    args = argparse.Namespace(file=str(tmp_path / "p.txt"), depth=2, reference=reference)
    assert perft_command.run(args) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [(row[0], row[2]) for row in rows] == [("1", "0.500"), ("2", "0.500")], rows


def test_perft_stops_where_every_game_has_ended(tmp_path):
    (tmp_path / "p.txt").write_text("3\n2\n10\n***\n*10\n000\n")  # 5 fruit
    done = fruit_rage("perft", "p.txt", "1000000", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    grid = ("***", "*10", "000")
    last = max(depth for depth in range(1, 6) if rules.perft(grid, depth))
    assert [int(line.split()[0]) for line in lines[1:-1]] == list(range(1, last + 2))
    assert lines[-2].split()[1] == "0"
    assert (
        lines[-1]
        == f"(every game from here ends within {last} moves: the counts of depths {last + 2}..1000000 are 0 too)"
    )


def test_perft_of_a_board_one_move_empties_is_0_at_depth_2(tmp_path):
    (tmp_path / "p.txt").write_text("10\n1\n100\n" + "0000000000\n" * 10)
    for reference in ((), ("--reference",)):
        done = fruit_rage("perft", "p.txt", "2", *reference, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert [line.split()[:2] for line in done.stdout.splitlines()[1:]] == [["1", "1"], ["2", "0"]]


def test_ctrl_c_stops_a_long_perft(tmp_path):
    """The core counts without the interpreter: Ctrl-C must not wait for the count of
    depth 4 on a full 26x26 board (minutes), nor be lost."""
    shutil.copy(SAMPLES / "12-size26-p9" / "input.txt", tmp_path / "p.txt")
    process = subprocess.Popen(
        [sys.executable, "-m", "agent", "perft", "p.txt", "6"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for line in process.stdout:
            if line.split()[0] == "3":  # depth 4 is being counted now
                break
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130 and err == "fruit-rage perft: interrupted\n"


def test_help_and_bad_arguments(tmp_path):
    done = fruit_rage("--help", cwd=tmp_path)
    assert done.returncode == 0 and "perft" in done.stdout and "match" in done.stdout
    done = fruit_rage("perft", "p.txt", "0", cwd=tmp_path)
    assert done.returncode == 2 and "must be >= 1" in done.stderr and "Traceback" not in done.stderr


def test_unwritable_output_is_a_clear_error(tmp_path):
    shutil.copy(SAMPLE_DIRS[0] / "input.txt", tmp_path / "input.txt")
    done = fruit_rage("move", "--output", str(tmp_path / "missing" / "out.txt"), cwd=tmp_path)
    assert done.returncode == 1 and "cannot write" in done.stderr and "Traceback" not in done.stderr


def test_calibration_file_is_written_and_read(tmp_path):
    done = fruit_rage("calibrate", "--seconds", "0.3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    from agent.move.calibration import load

    calibration = load(str(tmp_path / "calibration.txt"))
    assert calibration.nodes_per_second > 1000 and 0 < calibration.startup < 2


def test_a_calibration_saved_by_a_windows_editor_is_read_and_a_folder_is_not(tmp_path):
    from agent.move.calibration import DEFAULT_NODES_PER_SECOND, load

    path = tmp_path / "calibration.txt"
    path.write_bytes(b"\xef\xbb\xbfnodes_per_second=123456\r\nstartup_seconds=0.02\r\n")
    calibration = load(str(path))
    assert (calibration.nodes_per_second, calibration.startup) == (123456.0, 0.02)
    folder = load(str(tmp_path))  # read as no calibration: defaults
    assert (folder.nodes_per_second, folder.startup) == (DEFAULT_NODES_PER_SECOND, 0.0)


def test_output_onto_the_input_is_refused(tmp_path):
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "in.txt")
    before = (tmp_path / "in.txt").read_text()
    done = fruit_rage("move", "--input", "in.txt", "--output", "./in.txt", cwd=tmp_path)
    assert done.returncode == 2 and "is the input file" in done.stderr
    assert (tmp_path / "in.txt").read_text() == before
    (tmp_path / "input.txt").write_text(before)
    for link in (os.symlink, os.link):  # the competition call, output.txt a link to input.txt
        (tmp_path / "output.txt").unlink(missing_ok=True)
        link(tmp_path / "input.txt", tmp_path / "output.txt")
        done = fruit_rage(cwd=tmp_path)
        assert done.returncode == 2 and "output.txt is the input file input.txt" in done.stderr
        assert (tmp_path / "input.txt").read_text() == before


@pytest.mark.parametrize(
    "args",
    [
        ("--output", "top.txt", "move"),
        ("--input", "in.txt", "move", "--output", "o.txt"),
        ("--verbose", "perft", "in.txt", "1"),
    ],
)
def test_move_options_before_a_subcommand_are_refused(tmp_path, args):
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "in.txt")
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "input.txt")
    done = fruit_rage(*args, cwd=tmp_path)
    assert done.returncode == 2 and "options of a move go after `move`" in done.stderr
    assert sorted(os.listdir(tmp_path)) == ["in.txt", "input.txt"]


def test_move_options_with_no_subcommand_are_the_move_options(tmp_path):
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "in.txt")
    done = fruit_rage("--input", "in.txt", "--output", "answer.txt", "--verbose", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "depth" in done.stderr
    assert_legal_answer((tmp_path / "in.txt").read_text(), (tmp_path / "answer.txt").read_text())


def test_an_absurdly_long_clock_still_plays(tmp_path):
    (tmp_path / "input.txt").write_text("2\n2\n1e303\n01\n10\n")
    done = fruit_rage(cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_legal_answer((tmp_path / "input.txt").read_text(), (tmp_path / "output.txt").read_text())


def test_a_reader_that_left_ends_a_command_quietly(tmp_path):
    (tmp_path / "p.txt").write_text("3\n2\n10\n***\n*10\n000\n")
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head` having exited: every write fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "agent", "perft", "p.txt", "3"],
            cwd=tmp_path,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 1 and done.stderr == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_standard_output_is_named_not_a_traceback(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "agent", "command"],
            cwd=tmp_path,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr == "fruit-rage command: No space left on device\n"


def test_a_closed_standard_output_is_no_traceback(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "agent", "play", "--size", "3"],
        cwd=tmp_path,
        input="q\n",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(1),
    )  # `fruit-rage play >&-`
    assert done.returncode == 0 and done.stderr == ""


def test_ctrl_c_during_the_competition_call_is_a_line_and_130(tmp_path, monkeypatch, capsys):
    from agent import move_command
    from agent.commands import cli
    from agent.move import protocol

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(protocol, "play_files", interrupted)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["-c"])
    for call in (lambda: cli.main([]), move_command.main):  # `fruit-rage`; the lean launch
        try:
            assert call() == 130
        except KeyboardInterrupt:
            pytest.fail("Ctrl-C escaped as a traceback")
    assert capsys.readouterr().err == "fruit-rage: interrupted\n" * 2


def test_calibrate_refuses_an_unwritable_output_before_measuring(tmp_path):
    for output, message in (
        (tmp_path / "missing" / "c.txt", "there is no folder"),
        (tmp_path, "it is a folder"),
        ("", "no file name given"),
        ("missing/", "a name ending in / is a folder's"),
    ):
        done = fruit_rage("calibrate", "--seconds", "600", "--output", str(output), cwd=tmp_path)
        assert done.returncode == 1 and message in done.stderr
        assert "measuring" not in done.stderr and "Traceback" not in done.stderr


def subcommands() -> list:
    from agent.commands.cli import build_parser

    parser = build_parser()
    return [parser, *next(a for a in parser._actions if a.dest == "command").choices.values()]


def test_version_is_the_package_s(tmp_path):
    from agent import __version__

    done = fruit_rage("--version", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == f"fruit-rage {__version__}\n"


def test_every_help_lists_the_exit_codes(tmp_path):
    # A command may add what else a code means (serve: a port in use is a 2), never change them.
    for parser in subcommands():
        assert parser.epilog.startswith(
            "exit codes: 0 done, 1 runtime failure, 2 bad input or arguments, 130 interrupted"
        ), parser.prog
    done = fruit_rage("replay", "--help", cwd=tmp_path)
    assert done.returncode == 0 and "exit codes: 0 done" in done.stdout


def test_every_numeric_option_gives_its_range_in_its_help():
    numeric = [
        (parser.prog, action)
        for parser in subcommands()
        for action in parser._actions
        if getattr(action.type, "__qualname__", "").startswith("number.")  # agent.cli_support.number
    ]
    assert len(numeric) > 20  # found, or the test would pass on none
    for prog, action in numeric:
        assert re.search(r"\d\.\.\d|>= ?\d|above \d|between \d|\(0, 0\.5\]", action.help), (prog, action.dest)


def test_argument_errors_name_the_subcommand_as_every_message_does(tmp_path):
    done = fruit_rage("match", "greedy", "random", "--games", "0", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == "fruit-rage match: argument --games: must be >= 1, got 0"
    done = fruit_rage("play", "--first", "me", cwd=tmp_path)
    assert done.stderr.splitlines()[-1].startswith("fruit-rage play: argument --first: invalid choice: 'me'")
    assert "error:" not in done.stderr


def test_match_s_agents_are_explained_in_its_help(tmp_path):
    done = fruit_rage("match", "--help", cwd=tmp_path)
    assert re.search(r"\n  A\s+the first agent", done.stdout) and re.search(r"\n  B\s+the second agent", done.stdout)


def test_a_source_tree_without_its_compiled_core_says_what_to_do(tmp_path):
    """`python3 -m agent` in the source folder after a plain `pip install .`: the folder's
    agent/ (with no agent._core built in it) hides the installed package."""
    for package in ("agent", "nim_games"):  # the source tree has both; agent imports nim_games.console
        shutil.copytree(
            Path(launch.package_root()) / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
        )
    (tmp_path / "setup.py").write_text("")
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "input.txt")
    for args, program in (
        ((), "fruit-rage"),
        (("move", "--verbose"), "fruit-rage move"),
        (("perft", "input.txt", "1"), "fruit-rage perft"),
    ):
        # -S: no site-packages, where this test run's own install would supply the core
        done = subprocess.run(
            [sys.executable, "-S", "-m", "agent", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith(f"{program}: the compiled core (agent._core) is not in {tmp_path / 'agent'}.")
        assert "Run `fruit-rage` instead of python3 -m agent" in done.stderr
        assert "python3 -m pip install -e ." in done.stderr
        assert not (tmp_path / "output.txt").exists()


def test_a_lean_move_with_options_reads_them_without_argparse(tmp_path):
    """`move --opponent greedy` is a competition call too: its options cost no argparse
    (~30 ms of the move's clock); what they mean is the same as through the full CLI."""
    from agent.move.protocol import move_options

    assert move_options(["move", "--opponent", "greedy", "--depth=3", "--verbose"]) == {
        "input_path": "input.txt",
        "output_path": "output.txt",
        "greedy_opponent": True,
        "depth": 3,
        "verbose": True,
    }
    for words in (
        ["--help"],
        ["perft", "x", "1"],
        ["--opponent", "wise"],
        ["--depth", "0"],
        ["--input", "--verbose"],
        ["--output"],
    ):
        assert move_options(words) is None, words  # left to the full parser and its messages
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "input.txt")
    code = "import sys, agent.move_command as m; code = m.main(); print(' '.join(sorted(sys.modules)))"
    done = run_lean(
        tmp_path,
        command=[
            sys.executable,
            "-S",
            "-c",
            code,
            "move",
            "--opponent",
            "greedy",
            "--depth",
            "2",
            "--output",
            "lean.txt",
        ],
    )
    assert done.returncode == 0, done.stderr
    assert "argparse" not in done.stdout.split()
    through_cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "agent",
            "move",
            "--opponent",
            "greedy",
            "--depth",
            "2",
            "--input",
            str(tmp_path / "input.txt"),
            "--output",
            str(tmp_path / "cli.txt"),
        ],
        cwd=SAMPLES.parent,
        capture_output=True,
        text=True,
    )
    assert through_cli.returncode == 0, through_cli.stderr
    assert (tmp_path / "lean.txt").read_text() == (tmp_path / "cli.txt").read_text()


def test_the_competition_move_takes_no_research_evaluation(tmp_path):
    """The move plays the agent's own evaluation only: `--evaluation` is refused by the lean
    launch and the full command line alike, before any file is read."""
    from agent.move.protocol import move_options

    assert move_options(["--evaluation", "largest-exchange"]) is None
    shutil.copy(SAMPLE_DIRS[4] / "input.txt", tmp_path / "input.txt")
    for command in (launch.move_command(), [sys.executable, "-m", "agent"]):
        done = run_lean(tmp_path, "move", "--evaluation", "largest-exchange", command=command)
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines()[-1] == "fruit-rage move: unrecognized arguments: --evaluation largest-exchange"
    assert not (tmp_path / "output.txt").exists()


def test_research_evaluations_are_players_of_the_research_commands():
    """What `--evaluation` gave the move, the players match and tune name give: a Python
    player of agent.tuning.candidates, or the in-process agent with an `evaluation`
    parameter (tune --param); each plays what the library's search with that evaluation
    chooses, and the two evaluations choose apart on this board."""
    from agent.arena.player_specs import PlayerSpec
    from agent.board import Board
    from agent.engine import Limit, search

    grid = mid_game(1, 10, 3, 0.3)
    chosen = {}
    for evaluation in ("largest-exchange", "pair-exchange"):
        expected = Board(grid).normalize(search(Board(grid), Limit(depth=1), evaluation=evaluation).move)
        params = (("evaluation", evaluation), ("depth", 1))
        for spec in (
            PlayerSpec("py:agent.players:SearchPlayer", params=params),
            PlayerSpec("ours", in_process=True, params=params),
        ):
            assert Board(grid).normalize(spec().choose(Board(grid), 100.0)) == expected, spec
        chosen[evaluation] = expected
    assert chosen["largest-exchange"] != chosen["pair-exchange"]
    assert PlayerSpec("py:agent.tuning.candidates:largest_exchange")().evaluation == "largest-exchange"


def test_a_fifo_as_the_input_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "f")
    done = subprocess.run(  # a hang (the FIFO opened, no writer ever) ends in TimeoutExpired
        [sys.executable, "-m", "agent", "move", "--input", "f", "--output", "o.txt"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (2, "fruit-rage move: f: a FIFO, not a regular file\n")
    assert sorted(os.listdir(tmp_path)) == ["f"]


def test_the_help_names_its_values_without_pointing_into_the_repository(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    shown = cli.build_parser().format_help()
    assert "BARE_" not in shown and "docs/" not in shown, shown
    assert "--depth DEPTH" in shown and "--evaluation" not in shown
