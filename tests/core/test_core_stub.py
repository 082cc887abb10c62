"""agent/_core.pyi, the types a checker reads for the compiled core, names what the built
module has: the same public names, the same members of each class, the same parameters."""

from __future__ import annotations

import ast
import inspect
import os

import pytest

import agent
import agent._core as core

STUB = os.path.join(os.path.dirname(agent.__file__), "_core.pyi")


def _public(names) -> set:
    return {name for name in names if not name.startswith("_")}


def _stub() -> ast.Module:
    with open(STUB, encoding="utf-8") as source:
        return ast.parse(source.read())


def _stub_names() -> set:
    names = set()
    for node in _stub().body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return _public(names)


def _stub_classes() -> dict:
    return {node.name: node for node in _stub().body if isinstance(node, ast.ClassDef) and node.name in _stub_names()}


def _parameters(function: ast.FunctionDef) -> list:
    arguments = function.args
    return [argument.arg for argument in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]


def test_the_stub_names_every_public_name_of_the_module_and_no_other():
    assert _stub_names() == _public(dir(core))


@pytest.mark.parametrize("name", sorted(_stub_classes()))
def test_each_class_has_the_stubs_members(name):
    stub_members = {node.name for node in _stub_classes()[name].body if isinstance(node, ast.FunctionDef)}
    assert _public(stub_members) == _public(dir(getattr(core, name)))


@pytest.mark.parametrize("name", sorted(_stub_classes()))
def test_each_method_takes_the_stubs_parameters(name):
    for node in _stub_classes()[name].body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
            continue
        member = getattr(getattr(core, name), node.name)
        if isinstance(member, property) or not callable(member):
            continue
        assert _parameters(node) == list(inspect.signature(member).parameters), f"{name}.{node.name}"
