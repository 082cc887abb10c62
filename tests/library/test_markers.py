"""The suite's markers, as pytest reads them from pyproject.toml: `slow` is registered, so
`pytest -m "not slow"` is the quick local loop, and a marker that is not registered fails
the run instead of leaving a misspelt slow test in that loop."""

import subprocess
import sys

from paths import PROJECT_ROOT

TESTS = """
import pytest

@pytest.mark.slow
def test_slow():
    pass

def test_quick():
    pass
"""


def run_pytest(folder, *args):
    """pytest with the project's configuration on test_marked.py in `folder`."""
    config = ["-c", f"{PROJECT_ROOT}/pyproject.toml", "--rootdir", str(folder), "test_marked.py"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q", *config, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_slow_is_registered_with_strict_markers(pytestconfig):
    markers = pytestconfig.getini("markers")
    assert any(line.startswith("slow: starts a browser or many processes") for line in markers), markers
    assert "--strict-markers" in pytestconfig.getini("addopts")


def test_the_quick_loop_deselects_the_slow_tests(tmp_path):
    (tmp_path / "test_marked.py").write_text(TESTS)
    done = run_pytest(tmp_path, "-m", "not slow")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 1 deselected" in done.stdout


def test_a_marker_not_registered_fails_the_run(tmp_path):
    (tmp_path / "test_marked.py").write_text(TESTS.replace("mark.slow", "mark.slwo"))
    done = run_pytest(tmp_path)
    assert done.returncode == 2 and "slwo" in done.stdout, done.stdout + done.stderr
    assert "1 passed" not in done.stdout
