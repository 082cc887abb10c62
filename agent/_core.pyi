# The types of agent._core, the Cython module built from ext/_core.pyx: its Python edge
# (the def methods and cpdef enums), which a type checker cannot read from the .so.
# tests/core/test_core_stub.py holds these names to the built module's.
from typing import Iterable, Optional, TypedDict

import numpy as np
import numpy.typing as npt

_Cell = tuple[int, int]  # (row, col), top row 0
_Cells = tuple[_Cell, ...]  # one group, as groups() lists it

EVAL_NONE: int
EVAL_GREEDY_PAIR: int
EVAL_ALTERNATING: int
EVAL_PAIR_EXCHANGE: int
EVAL_LARGEST_EXCHANGE: int
BLEND_PAIR: int
BLEND_EXCHANGE: int
BLEND_CONSTANT: int
LARGEST_PAIR: int
LARGEST_EXCHANGE: int
LARGEST_SQUARE: int
LARGEST_CONSTANT: int

ORDER_TT: int
ORDER_SIZE: int
ORDER_HISTORY: int
ORDER_ALL: int
MODEL_NONE: int
MODEL_GREEDY: int

INFINITE_VALUE: int

class _FrontierView(TypedDict):
    moves: list[_Cells]
    keyed: list[_Cells]
    largest: list[_Cells]
    unlisted: int
    largest_unlisted: int
    multi: int
    largest_sizes: list[int]
    singles: list[int]

class Board:
    def __init__(self, rows: Iterable[str]) -> None: ...
    @property
    def n(self) -> int: ...
    @property
    def fruit(self) -> int: ...
    @property
    def hash(self) -> int: ...
    def hash_from_scratch(self) -> int: ...
    def rows(self) -> tuple[str, ...]: ...
    def write_planes(self, out: npt.NDArray[np.int8]) -> None: ...
    def write_naming_cells(self, mask: npt.NDArray[np.int8]) -> None: ...
    def groups(self) -> list[_Cells]: ...
    def evaluations_after_moves(self, kind: int) -> dict[_Cell, int]: ...
    def groups_after_moves(self) -> dict[_Cell, list[_Cells]]: ...
    def frontier_views(self, min_size: int) -> dict[_Cell, _FrontierView]: ...
    def group_count(self) -> int: ...
    def never_merging_count(self) -> int: ...
    def without_free_pairs(self) -> tuple[Board, int]: ...
    def solve_key(self) -> int: ...
    def play(self, cell: _Cell) -> tuple[Board, int]: ...
    def perft(self, depth: int) -> int: ...
    def bench_play_enumerate(self, count: int) -> int: ...

class DepthResult:
    @property
    def value(self) -> int: ...
    @property
    def move(self) -> Optional[_Cell]: ...
    @property
    def completed(self) -> bool: ...
    @property
    def moves_done(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def tt_hits(self) -> int: ...
    @property
    def tt_probes(self) -> int: ...

class Searcher:
    def __init__(
        self,
        board: Board,
        tt_bits: int = 20,
        ordering: int = ...,
        eval_kind: int = ...,
        alpha_beta: bool = True,
        reduction: int = 0,
        full_moves: int = 4,
        opponent_model: int = ...,
        frontier_shortcut: bool = True,
        free_singles: bool = True,
    ) -> None: ...
    def search(
        self, depth: int, alpha: int = ..., beta: int = ..., deadline: float = 1e300, max_nodes: int = 0
    ) -> DepthResult: ...
    def move_cell(self, key: int) -> Optional[_Cell]: ...
    def principal_variation(self, limit: int) -> list[_Cell]: ...
