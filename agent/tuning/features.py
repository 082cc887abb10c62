"""Position features for a fitted horizon evaluation, in plain Python: the slow oracle.

Every feature reads a rules-style grid (a tuple of row strings, top row first) and is
seen from the side to move. `feature_vector` gathers them in the order of
`FEATURE_NAMES`; agent.tuning.fast_features computes the same vector with the compiled core, and
the tests hold it to this module.

>>> grid = ("01", "00")
>>> fruit_by_type(grid), fragmentation(grid)
({'0': 3, '1': 1}, 0.5)
>>> dict(zip(FEATURE_NAMES, feature_vector(grid)))["greedy_pair"]
8.0
"""

from __future__ import annotations

import math
from collections import Counter

from agent.rules import (
    EMPTY,
    alternating_value,
    greedy_exchange_value,
    greedy_pair_value,
    group_at,
    groups,
    neighbours,
    remove_and_fall,
)

# The size classes (smallest, largest) the groups are counted in: 1, 2, 3-4, 5-8, 9 and up.
SIZE_CLASSES = ((1, 1), (2, 2), (3, 4), (5, 8), (9, math.inf))
# A group this large is "large" for large_group_parity: the bottom of the 5-8 class.
LARGE_GROUP = 5


def fruit_by_type(grid) -> dict:
    """{fruit digit: how many of it are left}."""
    return dict(Counter(ch for row in grid for ch in row if ch != EMPTY))


def fragmentation(grid) -> float:
    """Groups per fruit over the whole board (0 on an empty board)."""
    total = sum(fruit_by_type(grid).values())
    return len(groups(grid)) / total if total else 0.0


def type_concentration(grid) -> float:
    """The sum over types of (their share of the fruit) squared: 1 when one type is left,
    1/p when p types are left in equal numbers (0 on an empty board)."""
    counts = fruit_by_type(grid)
    total = sum(counts.values())
    return sum((count / total) ** 2 for count in counts.values()) if total else 0.0


def size_class_counts(grid) -> tuple:
    """How many groups have 1, 2, 3-4, 5-8 and 9 or more fruit."""
    sizes = [len(g) for g in groups(grid)]
    return tuple(sum(low <= size <= high for size in sizes) for low, high in SIZE_CLASSES)


def column_heights(grid) -> list:
    """The fruit in each column, left to right."""
    n = len(grid)
    return [sum(grid[row][col] != EMPTY for row in range(n)) for col in range(n)]


def column_height_mean(grid) -> float:
    heights = column_heights(grid)
    return sum(heights) / len(heights)


def column_height_spread(grid) -> float:
    """The population standard deviation of the column heights."""
    heights = column_heights(grid)
    mean = sum(heights) / len(heights)
    return math.sqrt(sum((h - mean) ** 2 for h in heights) / len(heights))


def third_fourth_value(grid) -> int:
    """g3^2 - g4^2 of the group sizes largest first (0 for a missing group): what the
    greedy pair would be worth two plies later if the groups stayed as they are."""
    sizes = sorted((len(g) for g in groups(grid)), reverse=True) + [0, 0, 0, 0]
    return sizes[2] ** 2 - sizes[3] ** 2


def fallen_positions(grid, removed) -> dict:
    """{cell: where its fruit lies} after the cells `removed` are taken out and gravity
    acts, for every fruit left: each column keeps its order and sinks to the bottom."""
    n = len(grid)
    moved = {}
    for col in range(n):
        kept = [row for row in range(n) if grid[row][col] != EMPTY and (row, col) not in removed]
        for place, row in enumerate(kept):
            moved[(row, col)] = (n - len(kept) + place, col)
    return moved


def neighbouring_groups(grid, group, all_groups) -> list:
    """The other groups with a fruit 4-adjacent to a fruit of `group`."""
    touching = {nb for cell in group for nb in neighbours(grid, cell)} - group
    return [other for other in all_groups if other is not group and other & touching]


def merge_potential(grid, group, all_groups=None) -> int:
    """The largest group that removing one neighbouring group would create around
    `group`: over every group touching it, the largest group holding one of its fruit once
    that neighbour is taken and gravity acts. A group no other group touches: its size."""
    all_groups = groups(grid) if all_groups is None else all_groups
    best = None
    for other in neighbouring_groups(grid, group, all_groups):
        child = remove_and_fall(grid, other)
        moved = fallen_positions(grid, other)
        size = max(len(group_at(child, moved[cell])) for cell in group)
        best = size if best is None else max(best, size)
    return len(group) if best is None else best


def merge_potentials(grid) -> list:
    """[(group size, its merge potential)] for every group, in rules.groups order."""
    found = groups(grid)
    return [(len(g), merge_potential(grid, g, found)) for g in found]


def joinable_groups(grid) -> int:
    """The groups that one removal of a neighbour would make larger."""
    return sum(potential > size for size, potential in merge_potentials(grid))


def merge_max(grid) -> int:
    """The largest merge potential on the board (0 on an empty board)."""
    return max((potential for _, potential in merge_potentials(grid)), default=0)


def merge_gain(grid) -> int:
    """How many more points the largest merge offers than the largest group now:
    max(0, merge_max^2 - largest^2)."""
    largest = max((len(g) for g in groups(grid)), default=0)
    return max(0, merge_max(grid) ** 2 - largest**2)


def moves_until_large_group(grid):
    """0 when a group of LARGE_GROUP fruit or more can be taken now, 1 when one removal of
    a neighbour makes one, None when neither."""
    if any(len(g) >= LARGE_GROUP for g in groups(grid)):
        return 0
    if merge_max(grid) >= LARGE_GROUP:
        return 1
    return None


def large_group_parity(grid) -> int:
    """+1 when the mover can take a large group now, -1 when it takes one removal to make
    one (whoever makes it hands it over), 0 when no large group is that close."""
    return {0: 1, 1: -1, None: 0}[moves_until_large_group(grid)]


def group_count_parity(grid) -> int:
    """+1 for an odd number of groups (the mover would take the last one if none ever
    merged), -1 for an even number."""
    return 1 if len(groups(grid)) % 2 else -1


FEATURE_NAMES = (
    "fruit",
    "groups",
    "fragmentation",
    "type_concentration",
    "groups_1",
    "groups_2",
    "groups_3_4",
    "groups_5_8",
    "groups_9_up",
    "column_height_mean",
    "column_height_spread",
    "greedy_pair",
    "alternating",
    "third_fourth",
    "greedy_exchange",
    "joinable_groups",
    "merge_max",
    "merge_gain",
    "large_group_parity",
    "group_count_parity",
)

# The features that need a trial removal of every group: the dearest to compute.
MERGE_FEATURES = ("joinable_groups", "merge_max", "merge_gain", "large_group_parity")


def feature_vector(grid) -> tuple:
    """Every feature of `grid` as floats, in the order of FEATURE_NAMES."""
    grid = tuple(grid)
    values = (
        sum(fruit_by_type(grid).values()),
        len(groups(grid)),
        fragmentation(grid),
        type_concentration(grid),
        *size_class_counts(grid),
        column_height_mean(grid),
        column_height_spread(grid),
        greedy_pair_value(grid),
        alternating_value(grid),
        third_fourth_value(grid),
        greedy_exchange_value(grid),
        joinable_groups(grid),
        merge_max(grid),
        merge_gain(grid),
        large_group_parity(grid),
        group_count_parity(grid),
    )
    return tuple(float(value) for value in values)
