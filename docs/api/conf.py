"""Sphinx configuration of the API reference: the pages in this folder, the guides in docs/
and the README read as they are (myst-parser), the signatures and docstrings by autodoc.

Build (from the repository's folder): python3 -m sphinx -W --keep-going -b html -c docs/api docs build/docs/html"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)  # the source tree, with its compiled core built in place

from agent import __version__  # noqa: E402  (after the path is set)

project = "fruit-rage"
author = "the fruit-rage developers"
copyright = author  # the footer names who holds it; without it Sphinx prints "Copyright ©" alone
release = version = __version__
root_doc = "api/index"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.doctest"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["images"]
html_theme = "furo"
html_title = f"fruit-rage {release}"

# A reference to a name that is not documented here is a warning, and so an error.
nitpicky = True
# The standard library's own classes: the build fetches no inventory of Python's docs.
# (Path: as game_log's `str | Path` annotation names it)
nitpick_ignore = [("py:class", "socket.socket"), ("py:class", "pathlib.Path"), ("py:class", "Path")]
# Internal classes the annotations name, not part of the reference: the compiled core's
# Bitboard (Board.core's result, typed for checkers in agent/_core.pyi) and the arena's
# parsed agent command (CommandPlayer's `command` may be one).
nitpick_ignore += [("py:class", "Bitboard"), ("py:class", "AgentCommand")]
# The type variables of SearchResult and IterationInfo (agent/move/__init__.py): the move
# type, a Move from agent.search and a (row, col) cell from the move's deepening.
nitpick_ignore += [("py:class", "MoveT"), ("py:class", "OtherT")]
# The classes of numpy and of the rl extra's libraries that agent.envs builds on: the
# build fetches none of their inventories.
nitpick_ignore += [
    ("py:class", name)
    for name in (
        "numpy.ndarray",
        "pettingzoo.utils.env.AECEnv",
        "gymnasium.core.Env",
        "pyspiel.Game",
        "pyspiel.State",
        "pyspiel.Bot",
    )
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"show-inheritance": True}
myst_heading_anchors = 3
# The docstrings' examples run as the modules' own doctests do, with the public names at hand.
doctest_global_setup = "from agent import *"
