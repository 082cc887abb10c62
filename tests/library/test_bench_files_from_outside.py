"""`bench --positions` with files built to cost it: many sets read in one pass over their
names, and a reference time too small to divide by giving JSON still (a null ratio and
why), never Infinity."""

import dataclasses
import json

from arena_helpers import fruit_rage

from agent.bench import positions as bench_positions
from agent.bench import read_sets


class CountedName(str):
    """A set's name that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other):
        CountedName.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def one_set(name: str, **fields) -> dict:
    return {"name": name, "mode": "exact", "depth": None, "positions": [{"grid": ["01", "10"], "value": 0}], **fields}


def test_the_names_of_many_sets_are_compared_a_few_times_each_not_with_every_other(tmp_path, monkeypatch):
    sets = 2000
    path = tmp_path / "many.json"
    path.write_text(
        json.dumps({"sets": [one_set(f"set {number}") for number in range(sets)] + [one_set(f"set {sets - 1}")]})
    )
    read = bench_positions._bench_set
    monkeypatch.setattr(
        bench_positions,
        "_bench_set",
        lambda *args: dataclasses.replace(read(*args), name=CountedName(read(*args).name)),
    )
    CountedName.compared = 0
    try:
        read_sets(str(path))
    except ValueError as error:
        assert str(error) == f"{path}: two sets are named 'set {sets - 1}'"
    else:
        raise AssertionError("a name given twice was taken")
    assert CountedName.compared <= sets, f"{CountedName.compared:,} comparisons of names for {sets + 1} sets"


def not_json(constant: str):
    raise ValueError(f"{constant} is not JSON")


def test_a_reference_time_too_small_to_divide_by_gives_a_null_ratio_and_why(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"sets": [one_set("tiny", reference_cpu_s_total=5e-324)]}))
    done = fruit_rage("bench", "--positions", path, "--json")
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout, parse_constant=not_json)["sets"]
    assert result["ratio"] is None and result["reference_cpu_s"] == 5e-324
    assert result["ratio_note"] == "the reference time, 4.94066e-324 s, is too small to divide by"
    table = fruit_rage("bench", "--positions", path)
    row = next(line for line in table.stdout.splitlines() if line.startswith("tiny "))
    assert table.returncode == 0 and row.split()[-1] == "-", table.stdout
