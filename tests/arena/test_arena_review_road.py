"""One road from a record to the search: the reviews (agent/arena/review) and the page's
library module walk a record on the library's Board and reach the search through
review/searches.py alone, which goes through the library's agent.engine (search and
solve) and nothing below it."""

from __future__ import annotations

import ast
import os

from paths import PROJECT_ROOT

REVIEW = os.path.join(PROJECT_ROOT, "agent", "arena", "review")
ROAD = "agent.arena.review.searches"
SEARCH_MODULES = {"agent.engine", "agent._core", "agent.move", "agent.move.deepening"}


def imported(path: str) -> set:
    """Every module a source file names in an import, inside functions too."""
    with open(path, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def review_modules() -> dict:
    return {
        f"agent.arena.review.{name[:-3]}": os.path.join(REVIEW, name)
        for name in os.listdir(REVIEW)
        if name.endswith(".py") and name != "__init__.py"
    }


def test_the_reviews_reach_the_search_through_searches_alone():
    modules = review_modules()
    assert ROAD in modules
    for name, path in modules.items():
        if name != ROAD:
            assert not imported(path) & SEARCH_MODULES, name
    assert imported(modules[ROAD]) & SEARCH_MODULES == {"agent.engine"}
    page = imported(os.path.join(PROJECT_ROOT, "agent", "web", "library.py"))
    assert not page & SEARCH_MODULES and ROAD in page


def test_the_reviews_walk_the_library_board_not_raw_grids():
    """No review module plays or reads a position with the plain rules: a record becomes
    Boards once (review/replayed.py), and goes down from there."""
    for name, path in review_modules().items():
        assert "agent.rules" not in imported(path), name
