"""No function of agent/ or of the core's units (ext/*.pyx) is longer than 80 lines, from
its `def` line to its body's last line: a longer one is cut into named steps.

agent/'s functions are measured on Python's own syntax tree; the .pyx units, which Python
cannot parse, by indentation: a function runs from its `def`, `cdef` or `cpdef` line to the
last line indented deeper than it."""

from __future__ import annotations

import ast
import os
import re
import textwrap

from paths import PROJECT_ROOT

LONGEST = 80
# `def f(`, `cdef inline int f(`, `cpdef object f(`, `cdef Node* f(`: a function's header up to
# its name and the bracket; `cdef int x = f(y)` and `cdef int (*p)(int)` are not (the
# header of a function also ends with a colon, checked once its brackets close).
PYX_HEADER = re.compile(r"^(?P<indent>[ \t]*)(?:cpdef|cdef|def)\s+(?:[\w\[\]\*\.,\s]*?[\s\*])?(?P<name>\w+)\s*\(")


def python_functions(path: str) -> list:
    """(name, first line, lines) of every function of a Python source file, nested ones too."""
    with open(path, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    return [
        (node.name, node.lineno, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def pyx_functions(text: str) -> list:
    """(name, first line, lines) of every def, cdef and cpdef function of Cython source,
    nested ones too: from the header to the last line indented deeper than it."""
    lines = text.splitlines()
    found = []
    for number, line in enumerate(lines):
        header = PYX_HEADER.match(line)
        if header is None:
            continue
        end = number  # the header's last line: where its brackets close
        depth = 0
        while True:
            code = lines[end].split("#", 1)[0]
            depth += code.count("(") + code.count("[") - code.count(")") - code.count("]")
            if depth <= 0 or end + 1 == len(lines):
                break
            end += 1
        if not lines[end].split("#", 1)[0].rstrip().endswith(":"):
            continue  # a declaration, not a definition
        last = end
        for later in range(end + 1, len(lines)):
            if not lines[later].strip():
                continue
            if _indent(lines[later]) <= len(header["indent"]):
                break
            last = later
        found.append((header["name"], number + 1, last - number + 1))
    return found


def too_long(functions: list, where: str) -> list:
    return [f"{where}:{line} {name}: {length} lines" for name, line, length in functions if length > LONGEST]


def test_no_function_of_agent_is_longer_than_80_lines():
    long_ones = []
    for folder, folders, files in os.walk(os.path.join(PROJECT_ROOT, "agent")):
        folders[:] = [name for name in folders if name != "__pycache__"]
        for file in sorted(files):
            if file.endswith(".py"):
                path = os.path.join(folder, file)
                long_ones += too_long(python_functions(path), os.path.relpath(path, PROJECT_ROOT))
    assert not long_ones


def test_no_function_of_the_core_is_longer_than_80_lines():
    ext = os.path.join(PROJECT_ROOT, "ext")
    units = sorted(name for name in os.listdir(ext) if name.endswith(".pyx"))
    assert "search.pyx" in units
    long_ones, counted = [], 0
    for unit in units:
        with open(os.path.join(ext, unit), encoding="utf-8") as source:
            functions = pyx_functions(source.read())
        counted += len(functions)
        long_ones += too_long(functions, f"ext/{unit}")
    assert counted > 50  # the scan finds the core's functions: it is not passing on none
    assert not long_ones


def test_the_pyx_scan_measures_headers_bodies_and_declarations():
    source = textwrap.dedent(
        """\
        cdef int (*callback)(int) noexcept nogil
        cdef int limit = clamp(3)

        cdef inline int clamp(int value,
                              int low) noexcept nogil:
            # the body starts here
            if value < low:
                return low

            return value
        # a comment at the margin ends it

        cpdef object search(Position* root) except *:
            cdef int depth = clamp(2, 1)
            def inner(x):
                return x
            return inner(depth)

        def last():
            pass
        """
    )
    assert pyx_functions(source) == [("clamp", 4, 7), ("search", 13, 5), ("inner", 15, 2), ("last", 19, 2)]


def test_the_pyx_scan_agrees_with_python_on_python_code():
    """On plain Python the indentation scan and the syntax tree give the same lengths (the
    files chosen hold no code in a docstring, which the scan would read as code, and no
    multi-line string at the margin, where it would stop)."""
    for module in ("agent/commands/match.py", "agent/commands/gate.py", "agent/board.py"):
        path = os.path.join(PROJECT_ROOT, module)
        with open(path, encoding="utf-8") as source:
            scanned = sorted(pyx_functions(source.read()))
        assert scanned == sorted(python_functions(path)), module
