# Python edge: Bitboard, a position of the core built from and shown as rules-style rows, with
# its groups, moves, perft and the views the tests read (edge_views.pyx).
# Uses position: hash_from_scratch, play_group
# Uses free_singles: ColumnTypes, drop_free_pairs, key_to_the_end, never_merging_count
# Uses free_singles: read_columns
# Uses groups: group_masks, list_child_groups, list_groups
# Uses perft: perft
# Uses edge_scratch: _GroupLists, group_cells
# Uses edge_views: evaluations_after, frontier_views_after, groups_after
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memset

from bits cimport ctz, popcount
from core_types cimport MAX_N, Group, GroupList, Position


cdef class Bitboard:
    """A position of the core, built from and shown as rules-style rows (top row first)."""
    cdef Position pos
    cdef _GroupLists listed      # its groups once listed (see group_list)

    def __init__(self, rows):
        rows = tuple(rows)
        cdef int n = len(rows), row, col, t
        if not 1 <= n <= MAX_N or any(len(r) != n for r in rows):
            raise ValueError(f"need 1..{MAX_N} rows of equal length n")
        memset(&self.pos, 0, sizeof(Position))
        self.pos.n = n
        for row in range(n):
            for col in range(n):
                ch = rows[row][col]
                if ch == "*":
                    continue
                if ch not in "0123456789":
                    raise ValueError(f"bad cell {ch!r}")
                t = ord(ch) - 48
                self.pos.plane[t][col] |= 1u << (n - 1 - row)
                self.pos.types = max(self.pos.types, t + 1)
                self.pos.fruit += 1
        self.pos.hash = hash_from_scratch(&self.pos)

    @property
    def n(self):
        return self.pos.n

    @property
    def fruit(self):
        return self.pos.fruit

    @property
    def hash(self):
        return self.pos.hash

    def hash_from_scratch(self):
        return hash_from_scratch(&self.pos)

    def rows(self):
        cdef int n = self.pos.n, t, col
        cdef uint32_t bits
        grid = bytearray(b"*" * (n * n))
        cdef unsigned char[::1] cells = grid
        for t in range(self.pos.types):
            for col in range(n):
                bits = self.pos.plane[t][col]
                while bits:
                    cells[(n - 1 - ctz(bits)) * n + col] = 48 + t
                    bits &= bits - 1
        text = grid.decode("ascii")
        return tuple(text[row * n:(row + 1) * n] for row in range(n))

    def write_planes(self, signed char[:, :, ::1] out):
        """Writes the position into `out`, a (planes, n, n) int8 array: plane t (below the
        last) 1 where fruit t lies, the last plane 1 on the holes. The array of the
        environments' observations, filled without a Python object per cell."""
        cdef int n = self.pos.n, holes = out.shape[0] - 1, t, row, col
        cdef uint32_t bits, filled
        if out.shape[1] != n or out.shape[2] != n or holes < self.pos.types:
            raise ValueError(f"need a ({self.pos.types + 1} or more, {n}, {n}) array")
        memset(&out[0, 0, 0], 0, out.shape[0] * n * n)
        for col in range(n):
            filled = 0
            for t in range(self.pos.types):
                bits = self.pos.plane[t][col]
                filled |= bits
                while bits:
                    out[t, n - 1 - ctz(bits), col] = 1
                    bits &= bits - 1
            # gravity: a column's fruit fills its bottom rows, the holes are those above
            for row in range(n - popcount(filled)):
                out[holes, row, col] = 1

    def write_naming_cells(self, signed char[::1] mask):
        """Writes into `mask` (n * n int8) 1 at row * n + col for each group's naming cell
        (its lowest cell in its leftmost column), 0 elsewhere: the environments' action
        mask, without a Python object per cell."""
        cdef GroupList *groups
        cdef const Group *g
        cdef int i, n = self.pos.n
        if mask.shape[0] != n * n:
            raise ValueError(f"need an array of {n * n} cells")
        groups = self.group_list()
        memset(&mask[0], 0, n * n)
        for i in range(groups.count):
            g = &groups.groups[i]
            mask[(n - 1 - ctz(group_masks(groups, g)[0])) * n + g.lo] = 1

    cdef GroupList *group_list(self) except NULL:
        """This position's groups, listed on first use: an environment's step reads them
        for its mask and then plays one of them."""
        if self.listed is None:
            self.listed = _GroupLists(1, self.pos.fruit)
            list_groups(&self.pos, self.listed.lists)
        return self.listed.lists

    def groups(self):
        """Every group as a tuple of (row, col) cells, in the core's enumeration order."""
        cdef GroupList *groups = self.group_list()
        cdef int i
        return [group_cells(&self.pos, groups, &groups.groups[i]) for i in range(groups.count)]

    def evaluations_after_moves(self, int kind):
        """{cell: evaluation `kind` of the position the move there leaves}, one cell per
        group, computed as the search computes it (from this position's groups and a walk
        near the move). For tests against the oracles."""
        return evaluations_after(&self.pos, kind)

    def groups_after_moves(self):
        """{cell: the groups of the position the move there leaves, as groups() gives them},
        one cell per group, built as the search builds them: from this position's list and
        a walk of the move's band. For tests against groups() of the child."""
        return groups_after(&self.pos)

    def frontier_views(self, int min_size):
        """{cell: what the search reads one ply above the horizon of the position the move
        there leaves, with the groups of at least `min_size` fruit as its moves}: "moves"
        (all, in order), "largest" (the largest ones, in order), "unlisted" (smaller groups,
        counted up to 2), "largest_unlisted", "keyed" (each move found by its key), and
        from the summary "multi" (groups of two or more fruit), "largest_sizes" and
        "singles" (per column). For tests against the child's groups()."""
        return frontier_views_after(&self.pos, min_size)

    def group_count(self):
        return self.group_list().count

    def never_merging_count(self):
        """How many fruit can never join a group: alone of their type in their own column
        and both neighbouring ones (rules.never_merging)."""
        return never_merging_count(&self.pos)

    def without_free_pairs(self):
        """(Bitboard, dropped): this position without its free singles in pairs, the lowest of
        the leftmost column's kept when they are odd (rules.free_singles), as a search to
        the end searches it; the same Bitboard when fewer than two."""
        cdef Bitboard without = Bitboard.__new__(Bitboard)
        cdef ColumnTypes columns
        cdef uint64_t key
        read_columns(&self.pos, &columns)
        cdef int32_t dropped = drop_free_pairs(&without.pos, &self.pos, &columns, &key)
        return (without, dropped) if dropped else (self, 0)

    def solve_key(self):
        """The table's key of this position in a search to the end: fruit that can never
        merge keyed as one kind, free singles by the parity of their count alone."""
        return key_to_the_end(&self.pos)

    def play(self, cell):
        """(next Bitboard, points) for the move at (row, col); ValueError on an empty cell."""
        cdef int row = cell[0], col = cell[1], i, n = self.pos.n
        cdef uint32_t bit
        cdef Group *g
        cdef Bitboard child
        cdef GroupList *groups
        if not (0 <= row < n and 0 <= col < n):
            raise ValueError(f"cell {cell} is off the board")
        bit = 1u << (n - 1 - row)
        groups = self.group_list()
        for i in range(groups.count):
            g = &groups.groups[i]
            if g.lo <= col <= g.hi and group_masks(groups, g)[col - g.lo] & bit:
                child = Bitboard.__new__(Bitboard)
                points = play_group(&child.pos, &self.pos, g, group_masks(groups, g))
                return child, points
        raise ValueError(f"cell {cell} is empty")

    def perft(self, int depth):
        if depth < 0:
            raise ValueError("depth must be >= 0")
        cdef int64_t leaves
        with nogil:
            leaves = perft(&self.pos, depth)
        if leaves < 0:
            raise MemoryError("perft stack")
        return leaves

    def bench_play_enumerate(self, long count):
        """Plays `count` root moves in turn, listing the groups of each resulting position
        as the search does (from the root's); returns how many positions were listed (the
        benchmark's unit)."""
        cdef _GroupLists scratch = _GroupLists(2, self.pos.fruit)
        cdef GroupList *groups = scratch.lists
        cdef Position child
        cdef long i, done = 0
        cdef Group *g
        with nogil:
            list_groups(&self.pos, groups)
            if groups.count:
                for i in range(count):
                    g = &groups.groups[i % groups.count]
                    play_group(&child, &self.pos, g, group_masks(groups, g))
                    list_child_groups(groups, g, &child, groups + 1)
                    done += 1
        return done
