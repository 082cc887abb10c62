"""Builds the Cython core (ext/) into agent._core; everything else is in pyproject.toml."""

import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

EXT = Path(__file__).resolve().parent / "ext"

# Group sizes are popcounts; without the instruction gcc calls a slow library routine
# (15% of all search time on 26x26). Every x86-64 CPU since 2008 has it.
POPCOUNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []


def core_is_stale() -> bool:
    """Whether a unit of the core is newer than the C file generated from them. Cython does
    not follow the includes of ext/agent/_core.pxd: a unit's contract changed alone (a
    weight in evaluation.pxd) would leave the old core in place."""
    generated = EXT / "_core.c"
    if not generated.exists():
        return True
    units = [*EXT.glob("*.pyx"), *EXT.glob("*.pxd"), *EXT.glob("agent/*.pxd")]
    return max(unit.stat().st_mtime for unit in units) > generated.stat().st_mtime


core = Extension(
    "agent._core",
    sources=["ext/_core.pyx"],
    extra_compile_args=["-O3", *POPCOUNT],
)

setup(
    ext_modules=cythonize(
        [core],
        language_level=3,
        force=core_is_stale(),
        include_path=["ext"],
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
