"""`fruit-rage bench` and agent.bench: the project's positions read whole, small files made
here searched with their values checked against the plain rules (agent.rules.negamax_value),
a wrong value exit 1, a file that is no positions file exit 2, the node total the same
run after run, and the figures the guides give held to what the command prints. The
project's own sets take seconds of CPU: they are searched whole by one slow test, which
holds docs/core-speed.md's node counts to them."""

import json
import os
import re

import pytest
from arena_helpers import fruit_rage
from fruit_helpers import mid_game
from paths import PROJECT_ROOT

from agent import rules
from agent.bench import positions as bench_positions
from agent.bench import read_sets, run_set
from agent.bench.processor import this_processor
from agent.commands.bench import _ratio

FIRST_OF_THE_6X6_SET = 0  # solved in about half a second


def exact_set(name="small-exact", boards=3) -> dict:
    grids = [mid_game(seed, 4, 3, 0.5) for seed in range(boards)]
    return {
        "name": name,
        "mode": "exact",
        "depth": None,
        "reference_cpu_s_total": 0.01,
        "positions": [{"grid": list(g), "value": rules.negamax_value(g, rules.fruit_count(g))} for g in grids],
    }


def depth_set(name="small-depth2") -> dict:
    grids = [rules.random_board(seed, 5, 3) for seed in range(2)]
    return {
        "name": name,
        "mode": "depth",
        "depth": 2,
        "evaluation": "none",
        "positions": [{"grid": list(g), "value": rules.negamax_value(g, 2)} for g in grids],
    }


def project_position_set() -> dict:
    """The first position of the project's full 6x6 set, as the file holds it."""
    with open(bench_positions.DEFAULT_PATH, encoding="utf-8") as handle:
        first = json.load(handle)["sets"][0]
    return {**first, "positions": [first["positions"][FIRST_OF_THE_6X6_SET]]}


def read_doc(path: str) -> str:
    with open(os.path.join(PROJECT_ROOT, path), encoding="utf-8") as handle:
        return handle.read()


def write(tmp_path, sets, name="positions.json", **metadata):
    path = tmp_path / name
    path.write_text(json.dumps({**metadata, "sets": sets}))
    return path


def table(stdout: str) -> list:
    """The table's lines, its header first, without the legend above it."""
    lines = stdout.splitlines()
    return lines[next(k for k, line in enumerate(lines) if line.startswith("set ")) :]


def test_the_project_positions_are_read_whole():
    sets = read_sets()
    assert [(s.name, s.mode, s.depth, len(s.positions)) for s in sets] == [
        ("exact-6x6-full", "exact", None, 20),
        ("exact-8x8-endgames", "exact", None, 20),
        ("exact-26x26-endgames", "exact", None, 20),
        ("exact-26x26-selfplay", "exact", None, 10),
        ("depth4-26x26-full", "depth", 4, 10),
        ("depth5-26x26-full", "depth", 5, 10),
        ("depth7-10x10-full", "depth", 7, 10),
    ]
    # the agent's own endgames have no time of the reference searcher
    assert all((s.reference_cpu_s_total is None) == (s.name == "exact-26x26-selfplay") for s in sets)
    assert all(s.reference_cpu_s_total is None or s.reference_cpu_s_total > 0 for s in sets)
    assert {s.reference_processor for s in sets} == {"Intel Xeon (Sapphire Rapids)"}
    assert sets[0].positions[0].value == 18 and sets[0].positions[0].grid[0] == "020101"


def test_the_command_checks_every_value_and_prints_a_line_a_set(tmp_path):
    path = write(tmp_path, [exact_set(), depth_set(), project_position_set()])
    done = fruit_rage("bench", "--positions", path)
    assert done.returncode == 0, done.stderr
    lines = table(done.stdout)
    assert lines[0].split() == ["set", "pos.", "nodes", "CPU", "s", "nodes/s", "ref", "s", "ratio"]
    end = next(k for k, line in enumerate(lines) if line.startswith("total: "))
    rows = {line.split()[0]: line.split() for line in lines[1:end]}
    assert set(rows) == {"small-exact", "small-depth2", "exact-6x6-full"}
    assert rows["small-exact"][1] == "3" and rows["small-depth2"][1] == "2" and rows["exact-6x6-full"][1] == "1"
    assert rows["small-depth2"][-2:] == ["-", "-"]  # no reference time given: no ratio
    assert rows["small-exact"][-1].endswith("x")
    total = sum(int(row[2].replace(",", "")) for row in rows.values())
    assert lines[end] == f"total: 6 positions, {total:,} nodes"
    assert done.stderr == ""


def test_the_node_total_is_the_same_run_after_run_and_in_json(tmp_path):
    path = write(tmp_path, [exact_set(), depth_set()])
    sets = read_sets(str(path))
    first = [run_set(s) for s in sets]
    again = [run_set(s) for s in sets]
    nodes = [[p.nodes for p in result.positions] for result in first]
    assert nodes == [[p.nodes for p in result.positions] for result in again]
    assert all(not result.failures for result in first)
    done = fruit_rage("bench", "--positions", path, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["nodes"] == sum(map(sum, nodes)) > 0
    assert [[p["nodes"] for p in s["results"]] for s in report["sets"]] == nodes
    assert [[p["value"] for p in s["results"]] for s in report["sets"]] == [
        [p["value"] for p in made["positions"]] for made in (exact_set(), depth_set())
    ]
    assert report["sets"][1]["ratio"] is None and report["sets"][0]["failures"] == []


def test_a_wrong_value_is_named_and_exits_1(tmp_path):
    wrong = exact_set("with-a-wrong-value")
    right = wrong["positions"][1]["value"]
    wrong["positions"][1]["value"] = right + 2
    done = fruit_rage("bench", "--positions", write(tmp_path, [wrong]))
    assert done.returncode == 1
    assert done.stderr == (  # wrapped in 80 columns
        f"fruit-rage bench: with-a-wrong-value position 2: the search's value is {right}, the\n  file's {right + 2}\n"
    )
    assert table(done.stdout)[1].startswith("with-a-wrong-value")  # the set's figures are still shown


def test_a_position_not_solved_within_the_time_limit_exits_1_and_its_set_has_no_ratio(tmp_path):
    path = write(tmp_path, [project_position_set()])
    done = fruit_rage("bench", "--positions", path, "--time-limit", "0.001")
    assert done.returncode == 1
    assert "fruit-rage bench: exact-6x6-full position 1: not solved within 0.001 s (depth " in done.stderr
    row = table(done.stdout)[1].split()
    assert row[0] == "exact-6x6-full" and row[-2] == "2.153" and row[-1] == "-"
    report = json.loads(fruit_rage("bench", "--positions", path, "--time-limit", "0.001", "--json").stdout)
    assert report["sets"][0]["ratio"] is None
    assert report["sets"][0]["ratio_note"] == "a search did not finish: its CPU is not the whole search's"


def test_the_table_names_the_reference_processor_beside_this_one(tmp_path):
    """The reference times are another machine's: the lines above the table say whose,
    and this machine's processor, so that the ratio is not read as like for like."""
    path = write(tmp_path, [depth_set()], reference_processor="Some CPU (model 7)")
    done = fruit_rage("bench", "--positions", path)
    assert done.returncode == 0, done.stderr
    legend = " ".join(done.stdout[: done.stdout.index("\nset ")].split())
    assert "measured on Some CPU (model 7)" in legend and f"CPU s here ({this_processor()})" in legend
    assert "across two machines, not like for like" in legend
    report = json.loads(fruit_rage("bench", "--positions", path, "--json").stdout)
    assert report["reference_processor"] == "Some CPU (model 7)" and report["processor"] == this_processor()
    unnamed = fruit_rage("bench", "--positions", write(tmp_path, [depth_set()], name="unnamed.json"))
    assert "measured on a processor the file does not name" in " ".join(unnamed.stdout.split())


def test_this_processor_is_named():
    assert this_processor().strip() and "\n" not in this_processor()


def test_only_the_sets_asked_for_are_searched(tmp_path):
    path = write(tmp_path, [exact_set("first"), exact_set("second", boards=1), depth_set("third")])
    done = fruit_rage("bench", "--positions", path, "--set", "third", "--set", "second", "--json")
    assert done.returncode == 0, done.stderr
    assert [s["name"] for s in json.loads(done.stdout)["sets"]] == ["third", "second"]
    refused = fruit_rage("bench", "--positions", path, "--set", "fourth")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == "fruit-rage bench: no set named 'fourth'; the sets: first, second, third\n"


def test_files_that_are_not_positions_files_exit_2(tmp_path):
    not_json = tmp_path / "not.json"
    not_json.write_text("{ nope")
    for args, message in (
        ([tmp_path / "missing.json"], "missing.json: no such file or directory"),
        ([tmp_path], "not a regular file"),
        ([not_json], "not.json: not JSON: not a positions file"),
        ([write(tmp_path, [{**exact_set(), "mode": "deep"}])], "set 1 (small-exact): mode: 'deep', not one of"),
        (
            [write(tmp_path, [exact_set()], name="cpu.json", reference_processor="a\x1b[2J")],
            "cpu.json: reference_processor: not a printable text",
        ),
    ):
        done = fruit_rage("bench", "--positions", *args)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr and done.stdout == ""
    for bad in ("0", "-1", "nan", "inf", "x"):
        done = fruit_rage("bench", "--time-limit", bad)
        assert done.returncode == 2 and "--time-limit" in done.stderr and "Traceback" not in done.stderr


def position(**fields) -> dict:
    return {"grid": ["01", "10"], "value": 0, **fields}


def one_set(**fields) -> dict:
    return {"name": "s", "mode": "exact", "depth": None, "positions": [position()], **fields}


@pytest.mark.parametrize(
    "content, message",
    [
        ([], "needs an object whose `sets` is a list of one set or more"),
        ({"sets": []}, "needs an object whose `sets` is a list of one set or more"),
        ({"sets": [1]}, "set 1: not an object"),
        ({"sets": [one_set(name="")]}, "set 1: name: not a printable text of 1..80 characters"),
        ({"sets": [one_set(name="a\x1b[2Jb")]}, "set 1: name: not a printable text"),
        ({"sets": [one_set(name="x" * 81)]}, "set 1: name: not a printable text"),
        ({"sets": [one_set(), one_set()]}, "two sets are named 's'"),
        ({"sets": [one_set(mode=None)]}, "set 1 (s): mode: null, not one of exact, depth"),
        ({"sets": [one_set(depth=3)]}, "set 1 (s): depth: an exact set is searched to the end: its depth is null"),
        ({"sets": [one_set(mode="depth", depth=0)]}, "set 1 (s): depth: 0, not a whole number of 1..676"),
        ({"sets": [one_set(mode="depth", depth=True)]}, "set 1 (s): depth: true, not a whole number"),
        ({"sets": [one_set(mode="depth", depth="4")]}, "set 1 (s): depth: '4', not a whole number"),
        ({"sets": [one_set(mode="depth", depth=677)]}, "set 1 (s): depth: 677, not a whole number"),
        ({"sets": [one_set(evaluation="greedy-pair")]}, "set 1 (s): evaluation: 'greedy-pair': only none"),
        ({"sets": [one_set(positions=[])]}, "set 1 (s): positions: not a list of one position or more"),
        ({"sets": [one_set(reference_cpu_s_total=-1)]}, "set 1 (s): reference_cpu_s_total: -1, not a number"),
        ({"sets": [one_set(reference_cpu_s_total="1")]}, "reference_cpu_s_total: '1', not a number of seconds"),
        ({"sets": [one_set(positions=[7])]}, "set 1 (s): position 1: not an object"),
        ({"sets": [one_set(positions=[position(grid="01")])]}, "position 1: grid: not a list of rows"),
        ({"sets": [one_set(positions=[position(grid=["01", "1"])])]}, "position 1: grid: row 2 is '1': need 2"),
        ({"sets": [one_set(positions=[position(grid=["0*", "**"])])]}, "grid: fruit floats above a hole"),
        ({"sets": [one_set(positions=[position(grid=["**", "**"])])]}, "grid: the box is empty"),
        ({"sets": [one_set(positions=[position(grid=[])])]}, "position 1: grid: a board has 1..26 rows, not 0"),
        ({"sets": [one_set(positions=[position(value=1.5)])]}, "position 1: value: 1.5, not a margin"),
        ({"sets": [one_set(positions=[position(value=False)])]}, "position 1: value: false, not a margin"),
        ({"sets": [one_set(positions=[position(value=17)])]}, "position 1: value: 17, not a margin this board can"),
        ({"sets": [one_set(positions=[position(reference_cpu_s=[1])])]}, "reference_cpu_s: [1], not a number"),
    ],
)
def test_every_part_of_a_file_is_checked_before_a_search(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(content))
    with pytest.raises(ValueError) as refused:
        read_sets(str(path))
    assert message in str(refused.value) and str(refused.value).startswith(str(path))


def test_numbers_json_does_not_have_and_files_too_large_are_refused(tmp_path, monkeypatch):
    path = tmp_path / "nan.json"
    path.write_text('{"sets": [{"name": "s", "mode": "exact", "reference_cpu_s_total": NaN, "positions": []}]}')
    with pytest.raises(ValueError, match="not JSON"):
        read_sets(str(path))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000)
    with pytest.raises(ValueError, match="not JSON"):
        read_sets(str(deep))
    monkeypatch.setattr(bench_positions, "MAX_FILE_BYTES", 100)
    big = write(tmp_path, [exact_set()], "big.json")
    with pytest.raises(ValueError, match="larger than"):
        read_sets(str(big))


def test_the_help_and_the_guide_say_how_big_the_bench_is_as_it_prints_it():
    """Its positions, as the total line counts them, and no CPU figure, which is the
    processor's (the guides give none either)."""
    positions = sum(len(bench_set.positions) for bench_set in read_sets())
    shown = " ".join(fruit_rage("bench", "--help").stdout.split())
    commands = read_doc("docs/commands.md")
    guide = " ".join(
        commands[commands.index("### `fruit-rage bench`") : commands.index("### `fruit-rage calibrate`")].split()
    )
    for text in (shown, guide):
        assert f"The whole bench, {positions} positions, takes seconds of CPU" in text
        assert not re.search(r"\d s of CPU", text)


def test_the_ratio_has_two_significant_figures():
    """0.033 s against 1.552 s is 0.021x (48 times as fast), not 0.0x."""
    assert [_ratio(r) for r in (0.033 / 1.552, 0.58, 0.1, 1.104, 9.96, 123.4, None)] == [
        "0.021x",
        "0.58x",
        "0.10x",
        "1.1x",
        "10x",
        "123x",
        "-",
    ]


def test_a_set_without_a_reference_time_says_so_below_the_total(tmp_path):
    done = fruit_rage("bench", "--positions", write(tmp_path, [exact_set(), depth_set()]))
    assert done.returncode == 0, done.stderr
    lines = table(done.stdout)
    total = next(k for k, line in enumerate(lines) if line.startswith("total: "))
    assert lines[total + 1 :] == ["no ratio for small-depth2: the positions file gives no reference time"]


@pytest.fixture(scope="module")
def project_bench() -> dict:
    """`fruit-rage bench --json` of the project's own sets, every one (seconds of CPU)."""
    done = fruit_rage("bench", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_the_speed_guide_gives_the_node_counts_bench_prints(project_bench):
    """docs/core-speed.md's table of the sets, its total, and the exact sets' node counts
    in its account of free singles are those of the bench run here."""
    guide = read_doc("docs/core-speed.md")
    bench_part = guide[guide.index("\n## Bench\n") : guide.index("\n## The agent's own search\n")]
    rows = [line.strip("|").split("|") for line in bench_part.splitlines() if line.startswith("| ")][1:]
    printed = {s["name"]: s for s in project_bench["sets"]}
    assert [row[0].strip() for row in rows] == list(printed)
    for name, positions, nodes, reference in (map(str.strip, row) for row in rows):
        got = printed[name]
        assert (int(positions), int(nodes.replace(",", ""))) == (got["positions"], got["nodes"]), name
        assert reference == ("none" if got["reference_cpu_s"] is None else f"{got['reference_cpu_s']:.3f}"), name
    count = sum(s["positions"] for s in project_bench["sets"])
    assert f"Total: {count} positions, {project_bench['nodes']:,} nodes." in bench_part
    told = " ".join(guide.split())
    for name in ("exact-6x6-full", "exact-8x8-endgames", "exact-26x26-endgames"):
        assert re.search(rf"to {printed[name]['nodes']:,} \({name}\)", told), name
    selfplay = printed["exact-26x26-selfplay"]["nodes"]
    assert f"--set exact-26x26-selfplay` searches ten of the positions of 20-23 groups: {selfplay:,} nodes" in told


@pytest.mark.parametrize("name", ["small-exact", "x" * 22, "ｆ" * 11, "ｆ" * 12, "ｆ" * 80, "x" * 80 + "ｆ" * 40])
def test_a_set_line_fits_80_columns_and_its_figures_stay_under_the_header_whatever_the_name(name):
    from types import SimpleNamespace

    from rich.cells import cell_len

    from agent.commands.bench import HEADER, set_line

    bench_set = SimpleNamespace(name=name, reference_cpu_s_total=1.5)
    result = SimpleNamespace(
        bench_set=bench_set, positions=[1, 2], nodes=12345, cpu_s=1.0, nodes_per_s=12345.0, ratio=0.7
    )
    lines = set_line(result).split("\n")
    assert all(cell_len(line) <= 80 for line in lines), [cell_len(line) for line in lines]  # 160 columns before
    assert "".join(lines[:-1]) == name or lines[-1].startswith(name)
    assert cell_len(lines[-1]) == len(HEADER)
