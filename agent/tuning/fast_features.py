"""The features of agent.tuning.features computed with the compiled core: its groups and its
moves, one labelled grid and a flood fill around each merge, instead of the rules'
search of every cell. The same vector, in the order of agent.tuning.features.FEATURE_NAMES,
held to that module by the tests."""

from __future__ import annotations

import math
from collections import Counter

from agent._core import Bitboard
from agent.rules import EMPTY
from agent.tuning.features import LARGE_GROUP, MERGE_FEATURES, SIZE_CLASSES

NO_GROUP = -1


def core_board(position) -> Bitboard:
    """The core board of an agent.Board, a core board, or rows."""
    if isinstance(position, Bitboard):
        return position
    core = getattr(position, "core", None)
    return core() if callable(core) else Bitboard(tuple(position))


def feature_vector(position, merges: bool = True) -> tuple:
    """agent.tuning.features.feature_vector of the position (an agent.Board, a core board or
    rows), as floats. merges=False leaves out the features of agent.tuning.features.MERGE_FEATURES
    (0 in their places), which cost most of the time on a big board."""
    board = core_board(position)
    rows = board.rows()
    n = len(rows)
    cell_groups = board.groups()
    sizes = [len(cells) for cells in cell_groups]
    counts = Counter(ch for row in rows for ch in row if ch != EMPTY)
    fruit = sum(counts.values())
    heights = [n - column.count(EMPTY) for column in ("".join(col) for col in zip(*rows))]
    mean_height = sum(heights) / n
    largest_first = sorted(sizes, reverse=True) + [0, 0, 0, 0]
    values = (
        fruit,
        len(sizes),
        len(sizes) / fruit if fruit else 0.0,
        sum((count / fruit) ** 2 for count in counts.values()) if fruit else 0.0,
        *(sum(low <= size <= high for size in sizes) for low, high in SIZE_CLASSES),
        mean_height,
        math.sqrt(sum((h - mean_height) ** 2 for h in heights) / n),
        largest_first[0] ** 2 - largest_first[1] ** 2,
        sum(s * s if i % 2 == 0 else -s * s for i, s in enumerate(largest_first[: len(sizes)])),
        largest_first[2] ** 2 - largest_first[3] ** 2,
        greedy_exchange(board, cell_groups, largest_first[0]),
        *(merge_features(board, rows, cell_groups) if merges else (0,) * len(MERGE_FEATURES)),
        1 if len(sizes) % 2 else -1,
    )
    return tuple(float(value) for value in values)


def merge_features(board: Bitboard, rows, cell_groups) -> tuple:
    """joinable_groups, merge_max, merge_gain and large_group_parity of agent.tuning.features."""
    potentials = merge_potentials(board, rows, cell_groups)
    largest = max((len(cells) for cells in cell_groups), default=0)
    most = max(potentials, default=0)
    if largest >= LARGE_GROUP:
        parity = 1
    elif most >= LARGE_GROUP:
        parity = -1
    else:
        parity = 0
    return (
        sum(potential > len(cells) for cells, potential in zip(cell_groups, potentials)),
        most,
        max(0, most * most - largest * largest),
        parity,
    )


def greedy_exchange(board: Bitboard, cell_groups, largest: int) -> int:
    """agent.rules.greedy_exchange_value, from the core's groups of `board`."""
    return max(
        (
            largest * largest - max((len(other) for other in board.play(cells[0])[0].groups()), default=0) ** 2
            for cells in cell_groups
            if len(cells) == largest
        ),
        default=0,
    )


def merge_potentials(board: Bitboard, rows, cell_groups) -> list:
    """agent.tuning.features.merge_potential of every group of `cell_groups` (the core's groups
    of `board`, whose rows are `rows`), in that order."""
    n = len(rows)
    label = [[NO_GROUP] * n for _ in range(n)]
    for index, cells in enumerate(cell_groups):
        for row, col in cells:
            label[row][col] = index
    touching: list[set[int]] = [set() for _ in cell_groups]
    for row in range(n):
        for col in range(n):
            here = label[row][col]
            if here == NO_GROUP:
                continue
            for other in (
                label[row][col + 1] if col + 1 < n else NO_GROUP,
                label[row + 1][col] if row + 1 < n else NO_GROUP,
            ):
                if other != NO_GROUP and other != here:
                    touching[here].add(other)
                    touching[other].add(here)
    best_seen: list[int | None] = [None] * len(cell_groups)
    for taken, cells in enumerate(cell_groups):
        if not touching[taken]:
            continue
        falls = _falls(rows, cells)
        fallen_fruit = {rows[row][col] for row, col in falls}
        child_rows = None
        component_size: dict[tuple[int, int], int] = {}
        for index in touching[taken]:
            group = cell_groups[index]
            # A group that stays put keeps its size unless fruit of its type falls next to it.
            if rows[group[0][0]][group[0][1]] not in fallen_fruit and not any(cell in falls for cell in group):
                size = len(group)
            else:
                if child_rows is None:
                    child_rows = board.play(cells[0])[0].rows()
                size = 0
                for row, col in group:
                    landed = (row + falls.get((row, col), 0), col)
                    if landed not in component_size:
                        _flood_sizes(child_rows, landed, component_size)
                    size = max(size, component_size[landed])
            best = best_seen[index]
            if best is None or size > best:
                best_seen[index] = size
    return [len(cells) if best is None else best for cells, best in zip(cell_groups, best_seen)]


def _falls(rows, taken) -> dict:
    """{cell: how many rows its fruit falls} for every fruit left above a cell of `taken`
    in its column once `taken` is removed."""
    by_column: dict[int, set[int]] = {}
    for row, col in taken:
        by_column.setdefault(col, set()).add(row)
    falls = {}
    for col, taken_rows in by_column.items():
        for row in range(max(taken_rows)):
            if rows[row][col] != EMPTY and row not in taken_rows:
                falls[(row, col)] = sum(r > row for r in taken_rows)
    return falls


def _flood_sizes(rows, start, sizes: dict) -> None:
    """Record in `sizes` the size of the group holding `start`, for each of its cells."""
    n = len(rows)
    fruit = rows[start[0]][start[1]]
    seen = {start}
    frontier = [start]
    while frontier:
        row, col = frontier.pop()
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < n and 0 <= c < n and (r, c) not in seen and rows[r][c] == fruit:
                seen.add((r, c))
                frontier.append((r, c))
    for cell in seen:
        sizes[cell] = len(seen)
