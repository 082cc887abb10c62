"""docs/core-design.md's recipes name only what exists: every file they cite, and every
function or constant they cite defined in a file named beside it."""

import os
import re

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILE = re.compile(r"^[\w./-]+/[\w.-]+\.(?:py|pyi|pyx|pxd|md)$")
NAME = re.compile(r"^[A-Za-z_]\w*$")


def read(path: str) -> str:
    with open(os.path.join(PROJECT_ROOT, path), encoding="utf-8") as f:
        return f.read()


def recipe_items() -> list[str]:
    """The recipes' list items, each joined into one line."""
    recipes = read("docs/core-design.md").split("## Recipes", 1)[1]
    items = re.split(r"\n- ", recipes)[1:]
    assert len(items) >= 10, "the recipes are lists of files and the names to touch in them"
    return [" ".join(item.split("\n\n", 1)[0].split()) for item in items]


def defines(text: str, name: str) -> bool:
    """Whether `text` defines `name`: a function, class or struct, or a constant or enum
    member assigned at the start of a line."""
    word = re.escape(name)
    return bool(
        re.search(rf"\b(?:def|cdef|cpdef|class|struct)\b[^\n=]*?\b{word}\s*[(:]", text)
        or re.search(rf"^\s*{word}\s*[:=]", text, re.M)
    )


def test_every_file_a_recipe_names_exists():
    for item in recipe_items():
        for token in re.findall(r"`([^`]+)`", item):
            if FILE.match(token):
                assert os.path.exists(os.path.join(PROJECT_ROOT, token)), token


def test_every_name_a_recipe_cites_is_defined_in_a_file_named_beside_it():
    checked = 0
    for item in recipe_items():
        tokens = re.findall(r"`([^`]+)`", item)
        files = [token for token in tokens if FILE.match(token) and not token.startswith("tests/")]
        names = [token for token in tokens if NAME.match(token)]
        if names:
            assert files, f"names without a file to find them in: {item}"
        for name in names:
            assert any(defines(read(path), name) for path in files), (name, files)
            checked += 1
    assert checked >= 30
