"""Fruit Rage rules in plain Python: the slow, obviously-correct oracle.

A grid is a tuple of row strings, top row first; a cell is (row, col), 0-based from the
top-left corner. `EMPTY` marks a hole; any digit is a fruit. Nothing here is fast: the
Cython core (agent._core) does the same work at speed and the tests hold it to this module.
"""

EMPTY = "*"
DIGITS = "0123456789"
MAX_SIZE = 26
MAX_TYPES = 9  # the most fruit types a new board is drawn with (the competition's p <= 9)
COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Grid = tuple  # tuple[str, ...]: n rows of n characters
Cell = tuple  # tuple[int, int]: (row, col)
Group = frozenset  # frozenset[Cell]


def random_board(seed: int, size: int, types: int) -> Grid:
    """A full board of `types` fruit types; the same seed always gives the same board."""
    import random  # here: the move path never needs it

    rng = random.Random(seed)
    return tuple("".join(str(rng.randrange(types)) for _ in range(size)) for _ in range(size))


def move_name(cell: Cell) -> str:
    """'B1' for (0, 1): column letter, then the 1-based row counted from the top."""
    row, col = cell
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def parse_move_name(name: str) -> Cell:
    """The inverse of move_name; raises ValueError on anything else."""
    name = name.strip().upper()
    row = name[1:]
    if len(name) < 2 or name[0] not in COLUMN_LETTERS or not (row.isascii() and row.isdigit()):
        raise ValueError(f"not a cell name: {name!r} (expected a column letter and a row number, like G8)")
    return int(row) - 1, COLUMN_LETTERS.index(name[0])


def legal_cell(grid: Grid, name: str) -> Cell:
    """The cell a move name picks on `grid`; ValueError saying why when it is not a move."""
    row, col = parse_move_name(name)
    n = len(grid)
    if not (0 <= row < n and 0 <= col < n):
        raise ValueError(f"{name.strip().upper()} is off the {n}x{n} board")
    if grid[row][col] == EMPTY:
        raise ValueError(f"{move_name((row, col))} is an empty cell")
    return row, col


def cells(grid: Grid):
    n = len(grid)
    for row in range(n):
        for col in range(n):
            yield row, col


def neighbours(grid: Grid, cell: Cell):
    n = len(grid)
    row, col = cell
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < n and 0 <= c < n:
            yield r, c


def group_at(grid: Grid, cell: Cell) -> Group:
    """Every fruit of the same type 4-connected to `cell` (which must hold a fruit)."""
    fruit = grid[cell[0]][cell[1]]
    if fruit == EMPTY:
        raise ValueError(f"{move_name(cell)} is empty")
    seen = {cell}
    frontier = [cell]
    while frontier:
        for nb in neighbours(grid, frontier.pop()):
            if nb not in seen and grid[nb[0]][nb[1]] == fruit:
                seen.add(nb)
                frontier.append(nb)
    return frozenset(seen)


def groups(grid: Grid) -> list:
    """All groups, each once, ordered by their first cell in reading order."""
    found = []
    covered: set[Cell] = set()
    for cell in cells(grid):
        if cell not in covered and grid[cell[0]][cell[1]] != EMPTY:
            group = group_at(grid, cell)
            covered |= group
            found.append(group)
    return found


def remove_and_fall(grid: Grid, group: Group) -> Grid:
    """The grid with `group` taken out and every column's fruit fallen to the bottom."""
    n = len(grid)
    columns = []
    for col in range(n):
        kept = [grid[row][col] for row in range(n) if grid[row][col] != EMPTY and (row, col) not in group]
        columns.append([EMPTY] * (n - len(kept)) + kept)
    return tuple("".join(columns[col][row] for col in range(n)) for row in range(n))


def play(grid: Grid, cell: Cell) -> tuple:
    """(next grid, points) for the move at `cell`."""
    group = group_at(grid, cell)
    return remove_and_fall(grid, group), len(group) ** 2


def is_empty(grid: Grid) -> bool:
    return all(ch == EMPTY for row in grid for ch in row)


def is_settled(grid: Grid) -> bool:
    """True when no fruit floats above a hole (gravity already applied)."""
    n = len(grid)
    return all(
        not (grid[row][col] != EMPTY and grid[row + 1][col] == EMPTY) for row in range(n - 1) for col in range(n)
    )


def fruit_count(grid: Grid) -> int:
    return sum(ch != EMPTY for row in grid for ch in row)


def perft(grid: Grid, depth: int) -> int:
    """The number of move sequences of exactly `depth` moves from `grid` (1 for depth 0, the
    empty sequence): a game that ends sooner adds none, and an empty box counts 0."""
    if depth == 0:
        return 1
    return sum(perft(remove_and_fall(grid, group), depth - 1) for group in groups(grid))


def top_left(group: Group) -> Cell:
    """The cell that names a group: its topmost, then leftmost, cell."""
    return min(group)


def negamax_value(grid: Grid, depth: int, evaluate=None) -> int:
    """Plain minimax (negamax form) of the score difference, mover minus opponent, looking
    `depth` moves ahead; a position left at the horizon is worth evaluate(grid) to its
    mover (0 without one). The oracle for the search."""
    if is_empty(grid):
        return 0
    if depth == 0:
        return evaluate(grid) if evaluate else 0
    return max(len(g) ** 2 - negamax_value(remove_and_fall(grid, g), depth - 1, evaluate) for g in groups(grid))


def greedy_pair_value(grid: Grid) -> int:
    """The mover takes the largest group, the opponent the next largest (the core's
    EVAL_GREEDY_PAIR, written plainly)."""
    sizes = sorted((len(g) for g in groups(grid)), reverse=True) + [0, 0]
    return sizes[0] ** 2 - sizes[1] ** 2


def alternating_value(grid: Grid) -> int:
    """The players take the groups in turn, largest first, as if they never merged (a
    feature of the evaluation's fits, agent/tuning/features.py)."""
    sizes = sorted((len(g) for g in groups(grid)), reverse=True)
    return sum(size * size if i % 2 == 0 else -size * size for i, size in enumerate(sizes))


def largest_reply(grid: Grid, group: Group) -> int:
    """The size of the largest group of the position taking `group` leaves (0 if none)."""
    return max((len(h) for h in groups(remove_and_fall(grid, group))), default=0)


def greedy_exchange_value(grid: Grid) -> int:
    """The mover takes a largest group (of several, the one that leaves the opponent the
    least), the opponent the largest group of the position that leaves: the greedy pair
    with the merges and splits that first move makes (0 on an empty board)."""
    found = groups(grid)
    largest = max((len(g) for g in found), default=0)
    return max(
        (largest**2 - largest_reply(grid, g) ** 2 for g in found if len(g) == largest),
        default=0,
    )


def from_thousandths(blend: int) -> int:
    """A blend of the core's evaluations in thousandths, as the core rounds it (halves up)
    and never below 0."""
    return max(0, (blend + 500) // 1000)


def pair_exchange_blend(grid: Grid, weights) -> int:
    """The fitted two-number evaluation as the core would compute it: (a * greedy_pair +
    b * greedy_exchange + c) / 1000 for `weights` (a, b, c) in thousandths, rounded to
    the nearest whole number (halves up) and never below 0, since the core's frontier
    pruning needs evaluations >= 0 (the core's: agent.evaluations.PAIR_EXCHANGE_WEIGHTS).
    An empty board has nothing to come: 0."""
    if not groups(grid):
        return 0
    a, b, c = weights
    return from_thousandths(a * greedy_pair_value(grid) + b * greedy_exchange_value(grid) + c)


def group_key(grid: Grid, group: Group) -> int:
    """The core's name of a group in its position (Group.key): its leftmost column times 32
    plus the height above the bottom of its lowest fruit in that column. Two groups never
    share one, so it breaks ties between groups of one size the same way in both."""
    lo = min(col for _, col in group)
    lowest_row = max(row for row, col in group if col == lo)
    return lo * 32 + len(grid) - 1 - lowest_row


def hot_exchange_value(grid: Grid, count: int = 4) -> int:
    """The `count` largest groups taken in turn, largest first, as independent "hot"
    switches: g1^2 - g2^2 + g3^2 - ... (missing groups count 0)."""
    sizes = sorted((len(g) for g in groups(grid)), reverse=True)[:count]
    return sum(size * size if i % 2 == 0 else -size * size for i, size in enumerate(sizes))


def largest_exchange_blend(grid: Grid, weights) -> int:
    """The core's largest exchange: (a * greedy_pair + b * greedy_exchange + s * g1^2 + c)
    / 1000 for `weights` (a, b, s, c) in thousandths, g1 the largest group's size, rounded
    (halves up), never below 0; 0 on an empty board."""
    if not groups(grid):
        return 0
    *terms_weights, c = weights
    return from_thousandths(sum(w * t for w, t in zip(terms_weights, largest_exchange_terms(grid))) + c)


def largest_exchange_terms(grid: Grid) -> tuple:
    """(greedy_pair, greedy_exchange, g1^2), g1 the largest group's size (0 if none): the
    terms the largest exchange weighs (the labels' feature sets build on them)."""
    first = max((len(g) for g in groups(grid)), default=0)
    return greedy_pair_value(grid), greedy_exchange_value(grid), first * first


def best_exchange_value(grid: Grid) -> int:
    """The mover takes whichever group does best against the reply: the most of g^2 - r^2
    over every group g, r the largest group of the position taking g leaves (0 on an
    empty board)."""
    return max((len(g) ** 2 - largest_reply(grid, g) ** 2 for g in groups(grid)), default=0)


def greedy_largest(grid: Grid) -> Group:
    """The largest group; of several, the one with the least group_key."""
    return min(groups(grid), key=lambda g: (-len(g), group_key(grid, g)))


def greedy_line_value(grid: Grid, plies: int = 4) -> int:
    """`plies` moves of both players each taking the largest group (greedy_largest), with
    gravity and the merges it makes, then the greedy pair of what is left; their signed
    squares summed from the mover's view. A line that empties the board stops there."""
    total, sign = 0, 1
    for _ in range(plies):
        if is_empty(grid):
            return total
        group = greedy_largest(grid)
        total += sign * len(group) ** 2
        grid = remove_and_fall(grid, group)
        sign = -sign
    return total + (sign * greedy_pair_value(grid) if not is_empty(grid) else 0)


def never_merging(grid: Grid) -> set:
    """The fruit that can never join a group: alone of their type in their own column and
    both neighbouring ones (fruit never change column, so nothing of that type can ever
    touch them)."""
    n = len(grid)
    lone = set()
    for row, col in cells(grid):
        kind = grid[row][col]
        if kind == EMPTY:
            continue
        near = [(r, c) for r in range(n) for c in (col - 1, col, col + 1) if 0 <= c < n and grid[r][c] == kind]
        if near == [(row, col)]:
            lone.add((row, col))
    return lone


def free_singles(grid: Grid) -> set:
    """The fruit that can never merge with only such fruit above them: taking one moves
    nothing but those above it, which stay as they were, so it is a move worth 1 point that
    changes nothing else, now or later."""
    lone = never_merging(grid)
    return {
        (row, col)
        for row, col in lone
        if all((above, col) in lone for above in range(row) if grid[above][col] != EMPTY)
    }
