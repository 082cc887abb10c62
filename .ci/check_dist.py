"""Checks the built distributions against the source tree before anything installs them.

    python3 .ci/check_dist.py SDIST WHEEL WHEEL_FROM_SDIST

- the wheel holds the compiled core, the quick move (an executable), every file of the
  browser page, the bench's positions, every module of the source tree, the typing files
  (PEP 561 markers and the core's stub), and nothing else: no tests, no Cython or C
  sources, no bytecode, no build leftovers;
- the sdist holds what a build needs (every unit of the core and its declarations, the
  build files, the page, the positions, the typing files) and nothing built;
- a wheel built from the sdist has the same file list as one built from the tree.
Prints what is wrong and exits 1, or prints a summary of the wheel's contents."""

from __future__ import annotations

import collections
import fnmatch
import os
import subprocess
import sys
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("agent", "nim_games")
# the files the package reads at run time (pyproject.toml's package-data)
PACKAGE_DATA = ("agent/web/static/*", "agent/bench/positions.json")
# Named, not globbed from the tree: a marker deleted from the tree must fail the check too.
TYPING_FILES = {"agent/py.typed", "nim_games/py.typed", "agent/_core.pyi"}
NEVER_SHIPPED = ("*/__pycache__/*", "*.pyc", "*.c", "*.pyx", "*.pxd", "*.egg-info/*")
QUICK_MOVE = "agent/move/quick_move"  # built by setup.py from ext/quick_move.c


def tracked(*patterns: str) -> set:
    """The source files (tracked, or new and not ignored) that match one of the patterns."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *patterns],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(listed.stdout.split())


def wheel_problems(names: set) -> list:
    problems = []
    cores = fnmatch.filter(names, "agent/_core.*.so") + [name for name in names if name == QUICK_MOVE]
    if len(cores) != 2:
        problems.append(f"the compiled core agent/_core.*.so and {QUICK_MOVE}: found {cores or 'neither'}")
    expected = tracked(*PACKAGE_DATA) | tracked(*(f"{package}/*.py" for package in PACKAGES))
    expected |= TYPING_FILES
    problems += [f"missing from the wheel: {name}" for name in sorted(expected - names)]
    for name in sorted(names):
        top = name.split("/", 1)[0]
        if not (top in PACKAGES or top.endswith(".dist-info")):
            problems.append(f"outside the packages: {name}")
        elif any(fnmatch.fnmatch(name, pattern) for pattern in NEVER_SHIPPED):
            problems.append(f"not for a wheel: {name}")
        elif top in PACKAGES and name not in expected and name not in cores:
            problems.append(f"not in the source tree: {name}")
    return problems


def sdist_problems(names: set) -> list:
    needed = tracked("ext/*", *PACKAGE_DATA, *(f"{package}/*.py" for package in PACKAGES))
    needed |= {"setup.py", "pyproject.toml", "README.md", "MANIFEST.in"} | TYPING_FILES
    problems = [f"missing from the sdist: {name}" for name in sorted(needed - names)]
    built = ("*.so", "ext/_core.c", QUICK_MOVE, "*.pyc", "build/*", "dist/*")
    problems += [f"not for an sdist: {name}" for name in sorted(names) if any(fnmatch.fnmatch(name, p) for p in built)]
    return problems


def sdist_names(path: str) -> set:
    with tarfile.open(path) as sdist:
        members = [member.name for member in sdist.getmembers() if member.isfile()]
    return {name.split("/", 1)[1] for name in members if "/" in name}


def wheel_names(path: str) -> set:
    with zipfile.ZipFile(path) as wheel:
        return {name for name in wheel.namelist() if not name.endswith("/")}


def quick_move_runs(path: str) -> bool:
    """Whether the wheel's quick move is marked executable (installers keep the mark)."""
    with zipfile.ZipFile(path) as wheel:
        try:
            mode = wheel.getinfo(QUICK_MOVE).external_attr >> 16
        except KeyError:
            return False
    return bool(mode & 0o111)


def summary(names: set) -> str:
    folders = collections.Counter(name.rsplit("/", 1)[0] if "/" in name else "." for name in names)
    return "\n".join(f"  {count:3d}  {folder}/" for folder, count in sorted(folders.items()))


def main(argv: list) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    sdist, wheel, wheel_from_sdist = argv
    from_tree, from_sdist = wheel_names(wheel), wheel_names(wheel_from_sdist)
    problems = wheel_problems(from_tree) + sdist_problems(sdist_names(sdist))
    problems += [f"only in the wheel built from the sdist: {name}" for name in sorted(from_sdist - from_tree)]
    problems += [f"only in the wheel built from the tree: {name}" for name in sorted(from_tree - from_sdist)]
    problems += [
        f"{QUICK_MOVE} is not executable in {path}" for path in (wheel, wheel_from_sdist) if not quick_move_runs(path)
    ]
    for problem in problems:
        print(f"check_dist: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"{os.path.basename(wheel)}: {len(from_tree)} files\n{summary(from_tree)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
