"""The search benchmark, `fruit-rage bench`: positions with known values (positions.json,
beside this module), searched as their set says through `agent.search`, each value checked,
the nodes and CPU counted and set against a reference searcher's time.

>>> from agent.bench import read_sets
>>> [bench_set.name for bench_set in read_sets()][:2]
['exact-6x6-full', 'exact-8x8-endgames']
"""

from agent.bench.positions import BenchPosition, BenchSet, read_sets
from agent.bench.runner import Failure, PositionResult, SetResult, run_set

__all__ = ["BenchPosition", "BenchSet", "Failure", "PositionResult", "SetResult", "read_sets", "run_set"]
