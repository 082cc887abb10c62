"""Builds the Cython core (ext/) into agent._core, and the quick move (ext/quick_move.c)
into an executable beside the move's modules; everything else is in pyproject.toml."""

import os
import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

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


class BuildCoreAndQuickMove(build_ext):
    """The core, then the quick move: a program of its own, the front of the lean launch
    line, that answers a move too short of time for Python to start (agent/move/launch.py).
    Linked statically where the C library allows (its start is then cheaper); where it
    cannot be built, the launch line starts Python for every move."""

    def run(self):
        super().run()
        folder = os.path.join("agent", "move")
        if not self.inplace:
            folder = os.path.join(self.build_lib, folder)
        objects = self.compiler.compile(["ext/quick_move.c"], output_dir=self.build_temp, extra_postargs=["-O2"])
        for linking in (["-static"], []):
            try:
                self.compiler.link_executable(objects, "quick_move", output_dir=folder, extra_postargs=linking)
                return
            except Exception as error:  # noqa: BLE001 - no static C library: linked the usual way
                failure = error
        self.warn(f"the quick move was not built ({failure}): every move will start Python")


core = Extension(
    "agent._core",
    sources=["ext/_core.pyx"],
    extra_compile_args=["-O3", *POPCOUNT],
)

setup(
    cmdclass={"build_ext": BuildCoreAndQuickMove},
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
