"""The core's units declare what they use of each other, and the declarations are checked.

ext/_core.pyx pastes every unit into one module with `include` (it starts faster than a
module per unit, docs/core-speed.md), so the compiler sees one namespace: a unit could use
another's names with no cimport and still build. Each unit's header declares its uses
instead, one line per unit used, in the unit's .pxd (the contract; for a unit that is a
.pyx or a .pxd alone, in that file):

    # Uses groups: GroupSummary, summarize

This test reads every unit (its .pyx and .pxd), finds every name it uses that another unit
defines (cdef and inline functions, structs, ctypedefs, enum members, module constants,
the edge's classes), and fails on a use not declared, a declared name not used or not
defined by the unit named, a use of a name another unit keeps to itself (defined in its
.pyx, not its .pxd), and a use of a unit included after the user. core_types.pxd and
bits.pxd are cimported, not included: the compiler checks those uses itself.
"""

import os
import re
from dataclasses import dataclass, field

import pytest

EXT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "ext")
CIMPORTED = ("core_types", "bits")  # real cimports, checked by Cython

USES_LINE = re.compile(r"^# Uses (\w+): (.+)$", re.M)
STRINGS = re.compile(r'"""(?:.|\n)*?"""|\'\'\'(?:.|\n)*?\'\'\'|"[^"\n]*"|\'[^\'\n]*\'')
COMMENT = re.compile(r"#[^\n]*")
IDENTIFIER = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
# At the top level of a file: a function or class (cdef, cpdef, def, inline), a struct or
# other ctypedef, or a module constant; and the members of an enum block.
FUNCTION = re.compile(r"^(?:cdef|cpdef|def)\b[^\n=]*?\b(\w+)\s*\(", re.M)
CLASS = re.compile(r"^(?:cdef\s+)?class\s+(\w+)", re.M)
CTYPEDEF = re.compile(r"^ctypedef\b[^\n]*?\b(\w+)\s*(?::|$)", re.M)
CONSTANT = re.compile(r"^(?:cdef\s+[\w ]+?\s+)?([A-Za-z_]\w*)\s*(?:\[[^\n]*\])?\s*(?:=[^=]|$)", re.M)
ENUM_BLOCK = re.compile(r"^c(?:p)?def enum\s*\w*:\n((?:[ \t]+[^\n]*\n?)+)", re.M)
ENUM_MEMBER = re.compile(r"^[ \t]+(\w+)\s*(?:=|$)", re.M)


@dataclass
class Unit:
    name: str
    public: set = field(default_factory=set)  # defined in its .pxd (or its only file)
    private: set = field(default_factory=set)  # defined in its .pyx alone
    code: str = ""  # every file of the unit, without comments and strings
    declared: dict = field(default_factory=dict)  # unit name -> names its header declares


def code_of(text: str) -> str:
    """`text` without strings (docstrings too) and comments: what the compiler reads."""
    return COMMENT.sub("", STRINGS.sub('""', text))


def definitions(text: str) -> set:
    """The names `text` (a .pyx or .pxd) defines at its top level."""
    code = code_of(text)
    names = set(FUNCTION.findall(code)) | set(CLASS.findall(code)) | set(CTYPEDEF.findall(code))
    for line in re.findall(r"^(?:cdef|ctypedef)?[^\n]*$", code, re.M):
        if not line.startswith(("cdef enum", "cpdef enum", "from ", "import ", "include ")):
            names |= set(CONSTANT.findall(line))
    for block in ENUM_BLOCK.findall(code + "\n"):
        names |= set(ENUM_MEMBER.findall(block))
    return names - {"cdef", "cpdef", "ctypedef", "inline", "struct", "enum", "class", "def"}


def read_units(folder: str) -> dict:
    """Every unit of `folder` (a .pyx, a .pxd or both of one name) but the cimported ones
    and the module that includes them."""
    units: dict[str, Unit] = {}
    for file in sorted(os.listdir(folder)):
        stem, ext = os.path.splitext(file)
        if ext not in (".pyx", ".pxd") or stem in CIMPORTED or stem.startswith("_"):
            continue
        with open(os.path.join(folder, file), encoding="utf-8") as f:
            text = f.read()
        unit = units.setdefault(stem, Unit(stem))
        unit.code += code_of(text) + "\n"
        for used, names in USES_LINE.findall(text):
            unit.declared.setdefault(used, set()).update(name.strip() for name in names.split(","))
        defined = definitions(text)
        if ext == ".pxd" or not os.path.exists(os.path.join(folder, stem + ".pxd")):
            unit.public |= defined
        else:
            unit.private |= defined
    for unit in units.values():
        unit.private -= unit.public
    return units


def include_order(folder: str) -> list:
    """The units in the order the module sees them: the contracts' (agent/_core.pxd), then
    the .pyx files _core.pyx includes."""
    order = []
    for path in (os.path.join(folder, "agent", "_core.pxd"), os.path.join(folder, "_core.pyx")):
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for stem in re.findall(r'^include "(\w+)\.(?:pyx|pxd)"', f.read(), re.M):
                    if stem not in order:
                        order.append(stem)
    return order


def problems(folder: str) -> list:
    """What is wrong with the declared uses of the units of `folder`, one line each."""
    units = read_units(folder)
    order = include_order(folder)
    found = []
    for unit in units.values():
        used_words = set(IDENTIFIER.findall(unit.code))
        own = unit.public | unit.private
        for other in units.values():
            if other is unit:
                continue
            declared = unit.declared.get(other.name, set())
            uses = (used_words & (other.public | other.private)) - own
            for name in sorted(uses - declared):
                found.append(f"{unit.name} uses {other.name}'s {name} without declaring it")
            for name in sorted(uses & other.private):
                found.append(f"{unit.name} uses {name}, private to {other.name} (not in its .pxd)")
            for name in sorted(declared - other.public):
                found.append(
                    f"{unit.name} declares {other.name}: {name}, which {other.name}'s contract does not define"
                )
            for name in sorted((declared & other.public) - uses):
                found.append(f"{unit.name} declares {other.name}: {name} but does not use it")
            if uses and unit.name in order and other.name in order and order.index(other.name) > order.index(unit.name):
                found.append(f"{unit.name} uses {other.name}, which is included after it")
        for name in sorted(set(unit.declared) - set(units)):
            found.append(f"{unit.name} declares uses of {name}, which is no unit")
    return found


def test_every_unit_declares_exactly_what_it_uses_of_the_others():
    assert problems(EXT) == []


def test_the_units_and_their_names_are_read():
    """The parse finds the units and the names the headers rely on (else the check above
    would pass on nothing)."""
    units = read_units(EXT)
    assert {"position", "groups", "frontier", "ordering", "search_state", "search", "edge_board"} <= set(units)
    assert {"MovePicker", "next_move", "PICK_ORDERED", "TT_MOVE_SCORE", "ORDER_ALL"} <= units["ordering"].public
    assert {"ColumnTypes", "drop_free_pairs"} <= units["free_singles"].public
    assert "SHELL_GAPS" in units["ordering"].private and "MODELLED_SIDE_KEY" in units["search"].private
    assert {"Bitboard", "group_cells", "_GroupLists"} <= units["edge_board"].public | units["edge_scratch"].public
    assert "drop_free_pairs" in units["search"].declared["free_singles"]


def write_units(folder, files: dict) -> str:
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)
    return str(folder)


SYNTHETIC = {
    "_core.pyx": 'include "low.pyx"\ninclude "high.pyx"\n',
    "low.pxd": (
        "# Contract of low.\n"
        "cdef enum:\n    LOW_LIMIT = 3\n"
        "ctypedef struct Pair:\n    int a\n    int b\n"
        "cdef int low_sum(const Pair *pair) noexcept nogil\n"
    ),
    "low.pyx": (
        "cdef int helper(int x) noexcept nogil:\n    return x\n\n"
        "cdef int low_sum(const Pair *pair) noexcept nogil:\n    return helper(pair.a) + pair.b\n"
    ),
    "high.pxd": "# Contract of high.\n# Uses low: Pair, low_sum\ncdef int high_value(Pair *pair) noexcept nogil\n",
    "high.pyx": (
        "cdef int high_value(Pair *pair) noexcept nogil:\n"
        '    """Not low_sum: a name in a docstring is no use."""\n'
        "    return low_sum(pair)  # LOW_LIMIT in a comment is no use either\n"
    ),
}


def test_the_check_passes_declared_uses(tmp_path):
    assert problems(write_units(tmp_path, SYNTHETIC)) == []


@pytest.mark.parametrize(
    "change, problem",
    [
        (
            ("high.pyx", "return low_sum(pair)", "return low_sum(pair) + LOW_LIMIT"),
            "high uses low's LOW_LIMIT without declaring it",
        ),
        (
            ("high.pyx", "return low_sum(pair)", "return helper(1)"),
            "high uses helper, private to low (not in its .pxd)",
        ),
        (("high.pxd", "Pair, low_sum", "Pair, low_sum, LOW_LIMIT"), "high declares low: LOW_LIMIT but does not use it"),
        (("high.pxd", "Pair, low_sum", "Pair, low_sum, low_max"), "which low's contract does not define"),
        (
            ("_core.pyx", 'include "low.pyx"\ninclude "high.pyx"', 'include "high.pyx"\ninclude "low.pyx"'),
            "which is included after it",
        ),
    ],
)
def test_the_check_fails_on_a_use_not_declared_as_it_is(tmp_path, change, problem):
    file, old, new = change
    files = dict(SYNTHETIC)
    assert old in files[file]
    files[file] = files[file].replace(old, new)
    found = problems(write_units(tmp_path, files))
    assert any(problem in line for line in found), found
