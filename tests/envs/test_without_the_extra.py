"""Without the rl extra the package works as before, and an environment says which extra
to install."""

import subprocess
import sys

import pytest


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(
    "module, library, blocked",
    [
        ("agent.envs.pettingzoo", "PettingZoo", "pettingzoo"),
        ("agent.envs.pettingzoo", "PettingZoo", "gymnasium"),
        ("agent.envs.gymnasium", "Gymnasium", "gymnasium"),
        ("agent.envs.openspiel", "OpenSpiel", "pyspiel"),
        ("agent.envs.openspiel_nim", "OpenSpiel", "pyspiel"),
        ("agent.envs.openspiel_players", "OpenSpiel", "pyspiel"),
    ],
)
def test_an_environment_without_its_library_names_the_extra_to_install(module, library, blocked):
    # None in sys.modules makes `import blocked` fail as if it were not installed.
    done = run_python(f"import sys; sys.modules[{blocked!r}] = None; import {module}")
    assert done.returncode == 1
    last_line = done.stderr.strip().splitlines()[-1]
    assert last_line.startswith("ImportError: ")
    assert library in last_line and "python3 -m pip install '.[rl]' in a clone of the repository" in last_line


def test_the_package_and_the_shared_encoding_load_none_of_the_libraries():
    code = (
        "import sys, agent, agent.envs, agent.envs.encoding, agent.envs.rendering, agent.envs.regret; "
        "from agent import Board, search, play_game; "
        "print(*sorted({'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel'} & set(sys.modules)))"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
