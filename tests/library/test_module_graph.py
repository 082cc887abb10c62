"""The package's shape, as docs/architecture.md draws it: every import between the
project's modules (those inside functions too; not those under `if TYPE_CHECKING:`, which
only a type checker reads) goes down the picture's blocks, no two modules need each other,
no module inside agent imports the package face, the Nim games import nothing from agent,
and a competition move loads nothing above the move path."""

import ast
import os
import subprocess
import sys

import pytest
from paths import PROJECT_ROOT, SAMPLES

# The blocks of docs/architecture.md's picture, top first; a block's units are the
# packages (or named sets of modules) in it. A unit imports only its own modules and
# those of the blocks below its own.
BLOCKS = [
    {"entry points": ["agent.__main__", "agent.move_command", "agent.eval_search"]},
    {"commands": ["agent.commands"], "web": ["agent.web"]},
    {
        "matches": ["agent.arena.matches"],
        "review": ["agent.arena.review"],
        "tuning": ["agent.tuning"],
        "bench": ["agent.bench"],
        "envs": ["agent.envs"],
    },
    {"arena": ["agent.arena"], "stats": ["agent.arena.stats"]},
    {
        "processes": ["agent.arena.processes"],
        "records": ["agent.arena.records"],
        "terminal": ["agent.arena.terminal"],
    },
    {"library": ["agent.board", "agent.engine", "agent.players", "agent.baselines", "agent.evaluations"]},
    {"move": ["agent.move"]},
    {
        "ground": [
            "agent",
            "agent._version",
            "agent._core",
            "agent.rules",
            "agent.gamefile",
            "agent.oscalls",
            "agent.cli_support",
        ]
    },
]


def project_modules() -> dict:
    """{dotted name: source path} of every module of agent and nim_games."""
    found = {}
    for package in ("agent", "nim_games"):
        for folder, folders, files in os.walk(os.path.join(PROJECT_ROOT, package)):
            folders[:] = [name for name in folders if name != "__pycache__"]
            for file in files:
                if file.endswith(".py"):
                    path = os.path.join(folder, file)
                    name = os.path.relpath(path, PROJECT_ROOT)[: -len(".py")].replace(os.sep, ".")
                    found[name.removesuffix(".__init__")] = path
    return found


def imports_of(name: str, path: str, modules: dict) -> set:
    """The project modules `name` imports anywhere in its source: `from p import m` counts
    as module p.m when there is one, else as p; the compiled core counts as agent._core."""
    known = set(modules) | {"agent._core"}

    def nearest(dotted: str) -> str:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted

    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found = set()
    with open(path) as source:
        tree = ast.parse(source.read())
    for node in _run_time_nodes(tree):
        if isinstance(node, ast.Import):
            found.update(nearest(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                found.add(nearest(f"{base}.{alias.name}") or nearest(base))
    return found - {"", name}


def _run_time_nodes(tree: ast.AST):
    """Every node of `tree` but the bodies of `if TYPE_CHECKING:`: Python never runs them."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                stack.extend(child.orelse)
            else:
                stack.append(child)


@pytest.fixture(scope="module")
def graph() -> dict:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def unit_of(module: str):
    """(block index from the top, unit name) of an agent module; the longest prefix wins."""
    best = None
    for index, block in enumerate(BLOCKS):
        for unit, prefixes in block.items():
            for prefix in prefixes:
                if module == prefix or module.startswith(prefix + "."):
                    if best is None or len(prefix) > best[0]:
                        best = (len(prefix), index, unit)
    assert best is not None, f"{module} is in no block of docs/architecture.md's picture"
    return best[1], best[2]


def test_every_import_goes_down_the_picture(graph):
    wrong = []
    for module, imported in graph.items():
        if not module.startswith("agent"):
            continue
        block, unit = unit_of(module)
        for name in imported:
            if name.startswith("agent"):
                other_block, other_unit = unit_of(name)
                if other_unit != unit and other_block <= block:
                    wrong.append(f"{module} ({unit}) imports {name} ({other_unit})")
    assert not wrong, "\n".join(wrong)


def test_no_module_inside_agent_imports_the_package_face(graph):
    """`import agent` or `from agent import NAME` (not a submodule) from inside would make
    a ring through agent/__init__.py, which names the public API of modules inside."""
    wrong = sorted(module for module, imported in graph.items() if module.startswith("agent.") and "agent" in imported)
    assert not wrong, wrong


def test_an_import_of_a_name_of_the_face_counts_as_one_of_the_face_and_a_submodule_s_does_not(tmp_path):
    source = tmp_path / "inside.py"
    modules = {"agent": "", "agent.rules": "", "agent.inside": str(source)}
    source.write_text("import agent\nfrom agent import rules\n")
    assert imports_of("agent.inside", str(source), modules) == {"agent", "agent.rules"}
    source.write_text("from agent import __version__\n")
    assert imports_of("agent.inside", str(source), modules) == {"agent"}
    source.write_text("from agent import rules\nimport agent.rules\n")
    assert imports_of("agent.inside", str(source), modules) == {"agent.rules"}


def test_the_nim_games_import_nothing_from_agent(graph):
    """They stand alone: the console helpers both use live in nim_games.console."""
    wrong = {
        module: sorted(name for name in imported if name == "agent" or name.startswith("agent."))
        for module, imported in graph.items()
        if module.startswith("nim_games")
    }
    assert not {module: names for module, names in wrong.items() if names}


# The file names agent/ holds twice whose folders say whose each is (docs/architecture.md,
# "Names"); a subcommand's module in agent/commands/ may also share its name with the
# one module whose work it fronts (commands/match.py over arena/matches/match.py).
SAME_NAME_BY_FOLDER = {"games.py": {"agent/arena/matches/games.py", "agent/web/games.py"}}


def shared_file_names(paths) -> dict:
    """{file name: its paths} for each name more than one of `paths` has, but a package's
    own (__init__.py, __main__.py), the allowed pairs and a subcommand beside its work."""
    by_name: dict = {}
    for path in paths:
        by_name.setdefault(path.rpartition("/")[2], set()).add(path)
    shared = {}
    for name, found in by_name.items():
        if len(found) < 2 or name in ("__init__.py", "__main__.py") or found == SAME_NAME_BY_FOLDER.get(name):
            continue
        if len(found) == 2 and f"agent/commands/{name}" in found:
            continue
        shared[name] = found
    return shared


def test_no_two_modules_share_a_file_name_unless_their_folders_say_whose_each_is():
    paths = [
        os.path.relpath(path, PROJECT_ROOT).replace(os.sep, "/")
        for name, path in project_modules().items()
        if name.startswith("agent")
    ]
    assert shared_file_names(paths) == {}


def test_the_file_name_check_finds_a_name_two_folders_share():
    assert shared_file_names(["agent/bench/runner.py", "agent/arena/processes/runner.py"]) == {
        "runner.py": {"agent/bench/runner.py", "agent/arena/processes/runner.py"}
    }
    assert shared_file_names(["agent/move/command.py", "agent/commands/command.py", "agent/x/command.py"])
    assert shared_file_names(["agent/commands/bench.py", "agent/bench/bench.py"]) == {}


def find_cycle(graph: dict):
    """A list of modules that import each other in a ring, or None."""
    state = {}  # module -> "open" while on the path, "done" after

    def visit(module, path):
        state[module] = "open"
        path.append(module)
        for name in sorted(graph.get(module, ())):
            if state.get(name) == "open":
                return path[path.index(name) :] + [name]
            if name not in state:
                ring = visit(name, path)
                if ring:
                    return ring
        state[module] = "done"
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state:
            ring = visit(module, [])
            if ring:
                return ring
    return None


def test_no_two_modules_need_each_other(graph):
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_cycle_finder_finds_a_ring_the_graph_would_hide():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_move_path_imports_only_itself_and_the_ground(graph):
    for module, imported in graph.items():
        if module == "agent.move" or module.startswith("agent.move."):
            outside = {name for name in imported if unit_of(name)[1] not in ("move", "ground")}
            assert not outside, (module, outside)


MOVE_PATH_LOADS = {"agent", "agent._core", "agent.move_command"}
GROUND = set(BLOCKS[-1]["ground"])


@pytest.mark.parametrize(
    "statement",
    [
        "import agent.move_command as m; m.main()",  # the launch line, with a move made
        "import agent.move.protocol, agent.move.player, agent.move.deepening, agent.move.timing, "
        "agent.move.calibration, agent.move.launch",
    ],
)
def test_a_move_loads_no_module_of_the_library_the_arena_the_page_or_the_tuning(tmp_path, statement):
    sample = sorted(name for name in os.listdir(SAMPLES) if os.path.isdir(os.path.join(SAMPLES, name)))[0]
    with open(os.path.join(SAMPLES, sample, "input.txt"), "rb") as given:
        (tmp_path / "input.txt").write_bytes(given.read())
    code = f"import sys; {statement}; print(*sorted(sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr
    loaded = {name for name in done.stdout.split() if name == "agent" or name.startswith("agent.")}
    assert "agent.move.protocol" in loaded
    assert loaded <= MOVE_PATH_LOADS | GROUND | {name for name in loaded if name.startswith("agent.move")}, loaded
    if "m.main()" in statement:
        assert (tmp_path / "output.txt").exists()
