"""What a user's type checker reads of `agent`: the lazy exports (agent._EXPORTS, loaded by
__getattr__ at run time) imported from the same modules under TYPE_CHECKING, since a
checker never runs __getattr__."""

from __future__ import annotations

import ast

import agent


def _checked_imports() -> dict:
    with open(agent.__file__, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    )
    imported = {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom) and node.module != "typing":
            for alias in node.names:
                assert alias.asname == alias.name, f"{alias.name}: re-exported only as `import X as X`"
                imported[alias.name] = node.module
    return imported


def test_every_lazy_export_is_imported_for_the_checker_from_its_module():
    assert _checked_imports() == agent._EXPORTS


def test_each_export_comes_from_the_module_that_defines_it():
    for name in agent.__all__:
        value = getattr(agent, name)
        assert getattr(value, "__module__", None) == agent._EXPORTS[name], name
