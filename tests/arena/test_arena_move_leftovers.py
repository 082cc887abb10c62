"""Whatever a move leaves where the referee reads or cleans up (a folder, a FIFO, a socket,
a sparse terabyte or an unreadable file as output.txt; folders nested past Python's
recursion limit, or made unreadable): the move loses with a reason, its folders go, and
the match or tournament goes on."""

from __future__ import annotations

import json
import os
import shutil
import tempfile

import pytest
from arena_helpers import fruit_rage
from containment_helpers import CONTAINMENTS, INPUT, needs_root

from agent.arena.processes.move_folders import MatchFolders
from agent.arena.processes.move_runner import MoveRunner

NOBODY = 65534
NESTED = "python3 -c \"import os\nfor _ in range(3000): os.mkdir('d'); os.chdir('d')\""


@pytest.mark.parametrize(
    "leftover, reason",
    [
        ("mkdir output.txt", "output.txt is not a regular file"),
        ("mkfifo output.txt", "output.txt is not a regular file"),
        (
            "python3 -c \"import socket; socket.socket(socket.AF_UNIX).bind('output.txt')\"",
            "output.txt is not a regular file",
        ),
        ("truncate -s 1T output.txt", "output.txt is 1099511627776 bytes, more than any answer (100000)"),
        ("ln -s /dev/zero output.txt", "output.txt is not a regular file"),
        ("ln -s /etc/hostname output.txt", "output.txt is not a regular file"),
    ],
)
@pytest.mark.parametrize("containment", CONTAINMENTS)
def test_what_a_move_leaves_as_output_txt_is_a_reason_not_an_error(leftover, reason, containment):
    with MoveRunner(containment=containment) as runner:
        run = runner.run(leftover, True, INPUT, 5.0, side="A")
        match_folder = runner.match_folder
    assert run.exit_code == 0 and run.output is None
    assert run.output_problem == reason
    assert not os.path.lexists(match_folder)


@pytest.mark.slow
def test_nesting_folders_past_the_recursion_limit_neither_stops_the_match_nor_stays(tmp_path):
    with MoveRunner(containment="subreaper") as runner:
        for where in (".", ".."):  # in the move's folder, removed with it; in its side's, with the match
            run = runner.run(f"(cd {where} && {NESTED}); echo done > output.txt", True, INPUT, 5.0, side="A")
            assert run.output == "done\n"
            assert os.listdir(os.path.join(runner.match_folder, "A")) == ([] if where == "." else ["d"])
        match_folder = runner.match_folder
    assert not os.path.lexists(match_folder)


def as_nobody(work) -> str:
    """work()'s text, worked out in a child process running as an unprivileged user, for
    whom permissions hold (root reads and removes anything); as we are when not root."""
    if os.geteuid() != 0:
        return work()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(write_end, work().encode())
        except BaseException as error:  # noqa: BLE001 - the forked child reports it and exits
            os.write(write_end, f"raised {error!r}".encode())
        os._exit(0)
    os.close(write_end)
    with open(read_end, "rb") as pipe:
        text = pipe.read().decode()
    os.waitpid(pid, 0)
    return text


@pytest.fixture
def open_temporary_folder(monkeypatch):
    """A temporary folder for the match folders, that an unprivileged user may write
    (tmp_path's parents are root's alone)."""
    folder = tempfile.mkdtemp()
    os.chmod(folder, 0o777)
    monkeypatch.setattr(tempfile, "tempdir", folder)
    yield folder
    shutil.rmtree(folder)


def test_an_unreadable_output_txt_is_named_as_such(open_temporary_folder):

    def read_unreadable():
        folders = MatchFolders()
        with folders.new_move("A", None, INPUT) as folder:
            descriptor = os.open("output.txt", os.O_WRONLY | os.O_CREAT, 0o000, dir_fd=folder.fd)
            os.write(descriptor, b"A1\n")
            os.close(descriptor)
            return repr(folder.read_output())

    assert as_nobody(read_unreadable) == repr((None, "output.txt cannot be opened: Permission denied"))


def test_folders_a_move_made_unreadable_and_unwritable_are_removed(open_temporary_folder):

    def leave_locked_folders():
        folders = MatchFolders()
        with folders.new_move("A", None, INPUT) as folder:
            os.makedirs(os.path.join(folder.path, "locked", "inner"))
            open(os.path.join(folder.path, "locked", "inner", "file"), "w").close()
            os.chmod(os.path.join(folder.path, "locked", "inner"), 0o500)
            os.chmod(os.path.join(folder.path, "locked"), 0o000)
            os.chmod(folder.path, 0o500)
        side = os.path.dirname(folder.path)
        os.mkdir(os.path.join(side, "kept"))
        os.chmod(os.path.join(side, "kept"), 0o000)
        left_in_side = os.listdir(side)
        folders.remove()
        return f"{left_in_side} {os.listdir(open_temporary_folder)}"

    assert as_nobody(leave_locked_folders) == "['kept'] []"


DIR_OUT = "mkdir output.txt"  # an agent, as a shell command
TINY = ("--games", "2", "--size", "5", "--types", "3", "--time", "3")


def assert_lost_on_its_folder(out, games: int) -> None:
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == games
    for record in records:
        loser = "A" if record["winner"] == "B" else "B"
        assert record["agents"][loser] == DIR_OUT
        assert record["fault"] == "invalid" and record["reason"].startswith("output.txt is not a regular file")


def test_a_match_goes_on_when_an_agent_makes_output_txt_a_folder(tmp_path):
    out = tmp_path / "o.jsonl"
    done = fruit_rage("match", DIR_OUT, "greedy", *TINY, "--out", out)
    assert done.returncode == 0, done.stderr
    assert_lost_on_its_folder(out, 2)
    assert "A lost 2 games on invalid answers (1, 2): output.txt is not a regular file" in done.stdout


@needs_root
def test_an_isolated_match_goes_on_when_an_agent_makes_output_txt_a_folder(tmp_path):
    out = tmp_path / "o.jsonl"
    done = fruit_rage("match", DIR_OUT, "echo A1 > output.txt", *TINY, "--isolate", "--out", out)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2
    a_first = next(record for record in records if record["first"] == "A")
    assert a_first["winner"] == "B" and a_first["reason"].startswith("output.txt is not a regular file")


def test_a_tournament_goes_on_when_an_agent_makes_output_txt_a_folder(tmp_path):
    out = tmp_path / "o.jsonl"
    done = fruit_rage("tournament", DIR_OUT, "greedy", "random", *TINY, "--gauntlet", "--out", out)
    assert done.returncode == 0, done.stderr
    assert_lost_on_its_folder(out, 4)
