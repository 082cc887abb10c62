"""The public position and move types: `Board`, `Move` and `Group`.

A `Board` is an immutable Fruit Rage position, shown and built as rows of digits and
`*` (top row first), with the compiled core underneath for groups and moves. A `Move`
names a cell; every cell of a group is the same move on a given board, and
`Board.normalize` gives the one name the agent itself uses for it.

>>> board = Board(["01", "21"])
>>> print(board)
01
21
>>> [group.move.name for group in board.groups()]
['A1', 'A2', 'B2']
>>> after, points = board.play(Move.from_name("B1"))
>>> points, after.rows
(4, ('0*', '2*'))
>>> board.normalize(Move.from_name("B1")).name
'B2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Collection, Iterable, Optional

from agent import rules

if TYPE_CHECKING:
    from agent._core import Bitboard


@dataclass(frozen=True, order=True)
class Move:
    """A cell of the board, 0-based from the top-left corner, named like `G8` (column
    letter, then the row counted from 1 at the top)."""

    row: int
    col: int

    def __post_init__(self) -> None:
        if not (
            isinstance(self.row, int)
            and isinstance(self.col, int)
            and 0 <= self.row < rules.MAX_SIZE
            and 0 <= self.col < rules.MAX_SIZE
        ):
            raise ValueError(f"a move's row and column are 0..{rules.MAX_SIZE - 1}, not ({self.row!r}, {self.col!r})")

    @classmethod
    def from_name(cls, name: str) -> "Move":
        """`Move.from_name("G8")`; ValueError on anything that is not a cell name."""
        return cls(*rules.parse_move_name(name))

    @classmethod
    def from_cell(cls, cell: tuple[int, int]) -> "Move":
        return cls(*cell)

    @property
    def name(self) -> str:
        return rules.move_name((self.row, self.col))

    @property
    def cell(self) -> tuple[int, int]:
        """(row, col)."""
        return self.row, self.col

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Group:
    """A group of one fruit type, 4-connected: what a move takes."""

    move: Move  # the name the agent gives it (see Board.normalize)
    cells: frozenset[tuple[int, int]]  # (row, col) cells
    fruit: str  # its fruit type, a digit

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def points(self) -> int:
        """What taking it scores: its size squared."""
        return self.size * self.size


def naming_cell(cells: Collection[tuple[int, int]]) -> tuple[int, int]:
    """The cell that names a group: the lowest one in its leftmost column (as the core
    names the moves it searches)."""
    col = min(c for _, c in cells)
    return max(r for r, c in cells if c == col), col


class Board:
    """An n x n position (1 <= n <= 26), gravity applied. Immutable: `play` returns a new
    board.

    Build one from rows (`Board(["01", "21"])`), from the text of an input.txt
    (`Board.from_text`) or at random (`Board.random(seed, size, types)`).
    """

    __slots__ = ("_rows", "_types", "_core")

    def __init__(self, rows: Iterable[str], types: Optional[int] = None):
        rows = tuple(rows)
        _check_rows(rows)
        self._rows = rows
        digits = [int(ch) for row in rows for ch in row if ch != rules.EMPTY]
        self._types = types if types is not None else (max(digits) + 1 if digits else 1)
        self._core: Optional[Bitboard] = None

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """The position of an input.txt's text (its clock is not part of a board; see
        agent.gamefile.parse_input for it). ValueError naming the line when malformed."""
        from agent.gamefile import parse_input

        game = parse_input(text)
        return cls(game.grid, game.types)

    @classmethod
    def random(cls, seed: int, size: int, types: int) -> "Board":
        """A full board of `types` fruit types (1..9); the same seed always gives the same
        board."""
        if not 1 <= size <= rules.MAX_SIZE or not 1 <= types <= rules.MAX_TYPES:
            raise ValueError(f"need a size of 1..{rules.MAX_SIZE} and 1..{rules.MAX_TYPES} fruit types")
        return cls(rules.random_board(seed, size, types), types)

    @property
    def rows(self) -> tuple[str, ...]:
        """The rows, top first: digits for fruit, `*` for a hole."""
        return self._rows

    @property
    def size(self) -> int:
        return len(self._rows)

    @property
    def types(self) -> int:
        """The fruit types declared for the game (the highest digit + 1 when not given)."""
        return self._types

    @property
    def fruit(self) -> int:
        """The fruit left on the board."""
        return rules.fruit_count(self._rows)

    @property
    def is_over(self) -> bool:
        """True when the box is empty: the game has ended."""
        # gravity (a board is settled) empties the bottom row last
        return self._rows[-1].count(rules.EMPTY) == len(self._rows)

    def core(self) -> Bitboard:
        """This position in the compiled core (agent._core.Bitboard), built once."""
        if self._core is None:
            from agent._core import Bitboard

            self._core = Bitboard(self._rows)
        return self._core

    def groups(self) -> list[Group]:
        """Every group once, in reading order of their naming cells."""
        found = [
            Group(Move(*naming_cell(cells)), frozenset(cells), self._rows[cells[0][0]][cells[0][1]])
            for cells in self.core().groups()
        ]
        return sorted(found, key=lambda group: group.move)

    def legal_moves(self) -> list[Move]:
        """One move per group (its naming cell), in reading order."""
        return [group.move for group in self.groups()]

    def group_at(self, move: Move) -> Group:
        """The group `move` takes; ValueError saying why when it is not a move here."""
        cell = self._legal_cell(move)
        cells = rules.group_at(self._rows, cell)
        return Group(Move(*naming_cell(cells)), cells, self._rows[cell[0]][cell[1]])

    def normalize(self, move: Move) -> Move:
        """The agent's name for the group `move` takes: any two cells of one group give the
        same answer."""
        return self.group_at(move).move

    def play(self, move: Move) -> tuple[Board, int]:
        """(the board after `move` and gravity, the points it scores); ValueError when it is
        not a move here."""
        child, points = self.core().play(self._legal_cell(move))
        board = Board.__new__(Board)
        board._rows, board._types, board._core = child.rows(), self._types, child
        return board, points

    def _legal_cell(self, move: Move) -> tuple[int, int]:
        if not isinstance(move, Move):
            raise TypeError(f"a move must be a Move, not {type(move).__name__}")
        n = self.size
        if not (move.row < n and move.col < n):
            raise ValueError(f"{move.name} is off the {n}x{n} board")
        if self._rows[move.row][move.col] == rules.EMPTY:
            raise ValueError(f"{move.name} is an empty cell")
        return move.cell

    def __reduce__(self) -> tuple[type[Board], tuple[tuple[str, ...], int]]:
        # pickled as its rows (to worker processes and cluster workers); the core is rebuilt there
        return Board, (self._rows, self._types)

    def __str__(self) -> str:
        return "\n".join(self._rows)

    def __repr__(self) -> str:
        return f"Board({list(self._rows)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._rows == other._rows

    def __hash__(self) -> int:
        return hash(self._rows)


def _check_rows(rows: tuple[str, ...]) -> None:
    """ValueError saying what makes `rows` no position."""
    n = len(rows)
    if not 1 <= n <= rules.MAX_SIZE:
        raise ValueError(f"a board has 1..{rules.MAX_SIZE} rows, not {n}")
    for number, row in enumerate(rows, 1):
        if not isinstance(row, str) or len(row) != n:
            raise ValueError(f"row {number} is {row!r}: need {n} characters, like every row")
        bad = next((ch for ch in row if ch not in rules.DIGITS + rules.EMPTY), None)
        if bad is not None:
            raise ValueError(f"row {number} holds {bad!r}: only digits and '*'")
    if not rules.is_settled(rows):
        raise ValueError("fruit floats above a hole: a position has gravity applied")
