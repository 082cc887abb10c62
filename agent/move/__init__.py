"""The competition move: input.txt -> output.txt within the clock. The launch line, the
time policy, iterative deepening over the core and the calibration file; it imports
nothing outside this package but the core, the file formats and the rules. Here too is
what a search returns to Python: SearchResult, one IterationInfo a depth."""

# SearchResult and IterationInfo are the one result of a search: the move's deepening
# (deepening.think) returns it with each move the core's cell, (row, col), and
# agent.search the same class with each move an agent.board.Move (with_moves), as
# python-chess's engines return one PlayResult. They live here, in a module a move loads
# anyway, as plain classes with __slots__ rather than frozen dataclasses: a move loads
# neither the dataclasses nor the typing module, nor one module more, each of which
# costs its clock (tests/move/test_cli.py). They behave as the frozen dataclasses that
# agent.engine had did: compared, hashed, shown and pickled by their fields, which cannot
# be set.

# typing.TYPE_CHECKING without loading typing: a type checker takes any name TYPE_CHECKING
# for true, and reads the generic classes below; Python never runs the branch.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar, Union
    from typing import Generic as _Generic

    MoveT = TypeVar("MoveT")
    OtherT = TypeVar("OtherT")
    _Record = Union["IterationInfo[Any]", "SearchResult[Any]"]
else:
    MoveT = OtherT = None
    _Generic = {MoveT: object}  # so `_Generic[MoveT]` below is a plain base at run time


# The behaviour of a frozen dataclass, shared by the two classes below: their fields
# compared, hashed, shown and pickled in __slots__' order, and never set after __init__.
# Functions rather than a base class: a class more would cost each move its creation.
_set_field = object.__setattr__


def _fields(record: "_Record") -> "tuple[Any, ...]":
    return tuple(getattr(record, name) for name in record.__slots__)


def _equal(record: "_Record", other: object) -> bool:
    return type(other) is type(record) and _fields(other) == _fields(record)


def _hash(record: "_Record") -> int:
    return hash(_fields(record))


def _shown(record: "_Record") -> str:
    shown = ", ".join(f"{name}={getattr(record, name)!r}" for name in record.__slots__)
    return f"{type(record).__name__}({shown})"


def _read_only(record: "_Record", name: str, value: object = None) -> None:
    raise AttributeError(f"cannot set field {name!r}: a {type(record).__name__} is read-only")


def _pickled(record: "_Record") -> "tuple[Any, ...]":
    return type(record), _fields(record)


def _same_class(cls: type, item: object) -> type:
    """Generic's subscription at run time: `SearchResult[Move]` is SearchResult."""
    return cls


class IterationInfo(_Generic[MoveT]):
    """One depth searched: of iterative deepening, or, after the one-ply search, the single
    search that stands for it (to the end of the game, or to a depth limit that comes
    alone: no clock, no node limit, no late-move reductions). `value` is the margin
    expected with best play, the mover's view; `move` the best move the depth found;
    `exact`: the value is the true final margin; `nodes` over all its aspiration windows;
    `cpu` the seconds it took; `completed` False: cut off by the clock, its move a proven
    improvement."""

    __slots__ = ("depth", "value", "move", "exact", "nodes", "cpu", "completed")

    if TYPE_CHECKING:  # the fields' types, for a type checker: Python need not build them
        depth: int
        value: int
        move: "MoveT"
        exact: bool
        nodes: int
        cpu: float
        completed: bool

    __eq__, __hash__, __repr__, __reduce__ = _equal, _hash, _shown, _pickled
    __setattr__ = __delattr__ = _read_only
    if not TYPE_CHECKING:
        __class_getitem__ = _same_class

    def __init__(
        self, depth: int, value: int, move: "MoveT", exact: bool, nodes: int, cpu: float, completed: bool
    ) -> None:
        _set_field(self, "depth", depth)
        _set_field(self, "value", value)
        _set_field(self, "move", move)
        _set_field(self, "exact", exact)
        _set_field(self, "nodes", nodes)
        _set_field(self, "cpu", cpu)
        _set_field(self, "completed", completed)


class SearchResult(_Generic[MoveT]):
    """What a search found: the move, its value (the mover's expected margin over the
    rest of the game), the deepest depth, whether that value is exact (the game was
    searched to its end), the nodes visited, the principal variation (`pv`, the move
    first; the move alone where the search did not read it), every iteration
    (`iterations`, shallowest first) and the share of the transposition table's probes
    that found their position (`tt_hit_rate`)."""

    __slots__ = ("move", "value", "depth", "exact", "nodes", "pv", "iterations", "tt_hit_rate")

    if TYPE_CHECKING:  # the fields' types, for a type checker: Python need not build them
        move: "MoveT"
        value: int
        depth: int
        exact: bool
        nodes: int
        pv: "tuple[MoveT, ...]"
        iterations: "tuple[IterationInfo[MoveT], ...]"
        tt_hit_rate: float

    __eq__, __hash__, __repr__, __reduce__ = _equal, _hash, _shown, _pickled
    __setattr__ = __delattr__ = _read_only
    if not TYPE_CHECKING:
        __class_getitem__ = _same_class

    def __init__(
        self,
        move: "MoveT",
        value: int,
        depth: int,
        exact: bool,
        nodes: int,
        pv: "tuple[MoveT, ...]",
        iterations: "tuple[IterationInfo[MoveT], ...]",
        tt_hit_rate: float,
    ) -> None:
        _set_field(self, "move", move)
        _set_field(self, "value", value)
        _set_field(self, "depth", depth)
        _set_field(self, "exact", exact)
        _set_field(self, "nodes", nodes)
        _set_field(self, "pv", pv)
        _set_field(self, "iterations", iterations)
        _set_field(self, "tt_hit_rate", tt_hit_rate)

    def with_moves(self, convert: "Callable[[MoveT], OtherT]") -> "SearchResult[OtherT]":
        """The same result with every move given as `convert(move)`: agent.search's Moves
        for the cells the move's deepening finds."""
        return SearchResult(
            convert(self.move),
            self.value,
            self.depth,
            self.exact,
            self.nodes,
            tuple(convert(move) for move in self.pv),
            tuple(
                IterationInfo(i.depth, i.value, convert(i.move), i.exact, i.nodes, i.cpu, i.completed)
                for i in self.iterations
            ),
            self.tt_hit_rate,
        )
