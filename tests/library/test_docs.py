"""The examples in README.md and in the public modules' docstrings run as written; the API
reference's footer names who holds its copyright."""

import ast
import doctest
import importlib
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from paths import PROJECT_ROOT

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_readme_examples():
    failed, attempted = doctest.testfile(
        os.path.join(PROJECT_ROOT, "README.md"), module_relative=False, optionflags=FLAGS
    )
    assert attempted > 10 and failed == 0


@pytest.mark.parametrize(
    "module", ["agent", "agent.board", "agent.engine", "agent.players", "agent.arena.matches.gate"]
)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert attempted > 0 and failed == 0


def test_the_api_reference_documents_every_public_name():
    """The reference (docs/api, built by .ci/run) names each entry of agent.__all__."""
    import agent

    with open(os.path.join(PROJECT_ROOT, "docs", "api", "library.rst"), encoding="utf-8") as page:
        documented = set(re.findall(r"^\.\. auto(?:class|function):: (\w+)$", page.read(), re.MULTILINE))
    assert documented == set(agent.__all__)


def _readme_block_after(marker: str) -> str:
    """The first fenced block after the line that holds `marker`."""
    with open(os.path.join(PROJECT_ROOT, "README.md"), encoding="utf-8") as readme:
        text = readme.read()
    after = text[text.index(marker) :]
    opening = after.index("```")
    body_start = after.index("\n", opening) + 1
    return after[body_start : after.index("```", body_start)]


@pytest.mark.slow
def test_the_readme_own_player_example_works_word_for_word_from_a_fresh_folder(tmp_path):
    """The README's my_players.py and its match command, in a folder of their own, run by
    the installed console script (which, unlike `python3 -m`, puts no folder on the path)
    with no PYTHONPATH: the player is found in the current folder."""
    (tmp_path / "my_players.py").write_text(_readme_block_after("Save this as `my_players.py`"))
    command = _readme_block_after("and, in the same folder:").strip()
    assert command.startswith("fruit-rage match py:my_players:")
    script = shutil.which("fruit-rage") or os.path.join(os.path.dirname(sys.executable), "fruit-rage")
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    done = subprocess.run(
        [script, *shlex.split(command)[1:]], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "first-group" in done.stdout and "10 games" in done.stdout, done.stdout


def test_the_api_reference_footer_names_who_holds_the_copyright():
    """Sphinx prints `Copyright ©` and nothing more when conf.py sets no copyright."""
    with open(os.path.join(PROJECT_ROOT, "docs", "api", "conf.py"), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    assigned = {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert "copyright" in assigned
    holder = assigned["copyright"]
    value = ast.literal_eval(assigned[holder.id]) if isinstance(holder, ast.Name) else ast.literal_eval(holder)
    assert "fruit-rage" in value
