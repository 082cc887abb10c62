"""No function of the core (ext/*.pyx, *.pxd) runs past 80 lines: a longer one is split
into named steps (negamax reads as seven of them)."""

import os
import re

EXT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "ext")
LONGEST = 80
DEF = re.compile(r"^(\s*)(?:cdef|cpdef|def)\b(?!\s+(?:class|enum|extern)\b)[^\n]*\(")


def function_lengths(text: str) -> dict:
    """{first line of a function: its lines, from its signature to its last non-blank line}."""
    lines = text.split("\n")
    lengths = {}
    for start, line in enumerate(lines):
        match = DEF.match(line)
        if not match:
            continue
        indent = len(match.group(1))
        end = last = start
        while end + 1 < len(lines):
            end += 1
            body = lines[end]
            if body.strip() and len(body) - len(body.lstrip()) <= indent and not body.lstrip().startswith(")"):
                break
            if body.strip():
                last = end
        lengths[line.strip()] = last - start + 1
    return lengths


def test_the_measure_counts_a_function_to_its_last_line():
    text = "cdef int f(int x) noexcept nogil:\n    x += 1\n\n    return x\n\n\ncdef int g():\n    return 0\n"
    assert function_lengths(text) == {"cdef int f(int x) noexcept nogil:": 4, "cdef int g():": 2}


def test_no_function_of_the_core_is_over_80_lines():
    measured = {}
    for file in sorted(os.listdir(EXT)):
        if file.endswith((".pyx", ".pxd")):
            with open(os.path.join(EXT, file), encoding="utf-8") as f:
                for signature, length in function_lengths(f.read()).items():
                    measured[f"{file}: {signature}"] = length
    assert any(name.startswith("search.pyx: cdef int32_t negamax") for name in measured)
    assert {name: length for name, length in measured.items() if length > LONGEST} == {}
