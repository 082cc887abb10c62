"""A worker whose parent is killed outright (SIGKILL) ends, with every process below it,
even one whose parent-death signal's handler cannot run: inside one long C call, with
SIGTERM blocked, or stopped (SIGSTOP). Its guard (agent.arena.processes.worker_guard)
ends it by the stop rule; a guard never outlives its worker, even one that dies as it
starts. (A review killed outright: tests/arena/test_arena_review_jobs.py; a match's
player: tests/arena/test_arena_players_that_end.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import psutil
import pytest
from paths import PROJECT_ROOT

pytestmark = pytest.mark.slow

# A parent running one task in a worker: it prints the worker's pid once the task runs,
# then waits to be killed. The task is named on the command line.
PARENT = textwrap.dedent(
    """
    import hashlib, os, signal, sys, time
    from agent.arena.processes.workers import run_tasks

    def long_c_call():
        hashlib.pbkdf2_hmac("sha256", b"fruit", b"rage", 2**31 - 1)  # minutes in C, the GIL released

    def spin_with_sigterm_blocked():
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        while True:
            pass

    def stopped():
        os.kill(os.getpid(), signal.SIGSTOP)

    def task(name, note):
        if os.fork() == 0:  # a child of the task's, in a session of its own, spinning
            os.setsid()
            while True:
                pass
        print(os.getpid(), flush=True)
        globals()[name]()

    run_tasks([sys.argv[1]], 1, task, lambda task, result: True, lambda *lost: None)
    """
)


def start_parent(tmp_path, task: str):
    """(the parent's Popen, its worker's psutil.Process and every process below that), once
    the task runs."""
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    parent = subprocess.Popen(
        [sys.executable, str(script), task],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    worker = psutil.Process(int(parent.stdout.readline()))
    time.sleep(0.5)  # the task's child has begun to spin
    return parent, [worker, *worker.children(recursive=True)]


@pytest.mark.parametrize("task", ["long_c_call", "spin_with_sigterm_blocked", "stopped"])
def test_a_worker_that_cannot_handle_its_parent_death_signal_is_ended_by_its_guard(tmp_path, task):
    parent, tree = start_parent(tmp_path, task)
    try:
        assert len(tree) >= 2  # the worker and the task's child (and the guard)
        parent.kill()
        parent.wait()
        # generous for a loaded machine; left alone, the worker would run for minutes or for ever
        _, alive = psutil.wait_procs(tree, timeout=60)
        assert not alive, alive
    finally:
        parent.kill()
        parent.wait()
        for process in tree:
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass


# Workers that die as they start, many times over: each has a guard, which must end with
# it and never act for it once it is gone.
DYING_AT_ONCE = textwrap.dedent(
    """
    import os, signal
    from agent.arena.processes.workers import run_tasks

    run_tasks(range(20), 4, lambda task, note: os.kill(os.getpid(), signal.SIGKILL), lambda *done: True,
              lambda *lost: None)
    print("done", flush=True)
    """
)


def test_the_guard_of_a_worker_that_dies_as_it_starts_ends_with_it(tmp_path):
    script = tmp_path / "dying.py"
    script.write_text(DYING_AT_ONCE)
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout == "done\n", done.stderr
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and guards_of(script):
        time.sleep(0.1)
    assert not guards_of(script)


def guards_of(script) -> list:
    """The processes still running `script` (a worker's guard is a fork of the worker)."""
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        if str(script) in (process.info["cmdline"] or []) and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process)
    return found
