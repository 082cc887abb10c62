"""--isolate with built-in agents whose Python the sides' own users cannot run: refused
before the first game, with what to do, not forfeited move by move."""

from __future__ import annotations

import os
import subprocess
import sys

from containment_helpers import needs_root
from paths import PROJECT_ROOT


@needs_root
def test_isolate_refuses_built_ins_whose_python_other_users_cannot_run(tmp_path):
    hidden = tmp_path / "hidden"
    hidden.mkdir(mode=0o700)  # as /root is: only we may enter it
    python = hidden_python(hidden)
    done = subprocess.run(
        [str(python), "-m", "agent", "match", "greedy", "random", "--isolate", "--games", "2", "--size", "3"]
        + ["--out", str(tmp_path / "games.jsonl")],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "with --isolate it runs as a user of its own, who cannot run this project's Python" in done.stderr
    assert "or leave out --isolate" in done.stderr and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "games.jsonl").exists()  # refused before the first game


def hidden_python(hidden):
    """This Python reached through `hidden`: its environment's folder linked there, so that
    a virtual environment's interpreter still finds its pyvenv.cfg and packages beside it
    (a link to the interpreter alone starts the base Python, without them)."""
    environment = hidden / "environment"
    environment.symlink_to(sys.prefix, target_is_directory=True)
    inside = os.path.relpath(sys.executable, sys.prefix)
    assert not inside.startswith(os.pardir), f"{sys.executable} is not in {sys.prefix}"
    return environment / inside
