# agent._core, the Fruit Rage hot core: one extension module built from the units below
# (each a .pyx with its contract in a .pxd, see _core.pxd), then its Python edge. Every
# unit works on C data in nogil functions; the classes here only convert at the edges.
# agent/rules.py is the oracle for all of it. One module rather than one per unit: it
# starts faster (docs/core-speed.md has the figures).
include "position.pyx"
include "free_singles.pyx"
include "groups.pyx"
include "frontier.pyx"
include "evaluation.pyx"
include "table.pyx"
include "ordering.pyx"
include "last_plies.pyx"
include "search.pyx"
include "perft.pyx"

from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from bits cimport ctz, popcount
from core_types cimport MAX_N, Group, GroupList, Position


cdef class _Block:
    """`size` bytes of C memory, freed with this object: scratch for the edge."""
    cdef void *data

    def __cinit__(self, size_t size, str what):
        self.data = malloc(size if size else 1)
        if self.data == NULL:
            raise MemoryError(what)

    def __dealloc__(self):
        free(self.data)


cdef class _GroupLists:
    """`count` group lists for plies of one position, with room for `room` groups each."""
    cdef PlyLists plies
    cdef GroupList *lists

    def __cinit__(self, int count, int room):
        if not reserve_lists(&self.plies, count, max(room, 1)):
            raise MemoryError("group lists")
        self.lists = self.plies.lists

    def __dealloc__(self):
        free_lists(&self.plies)


cdef check_eval_kind(int kind):
    if not 0 <= kind < EVAL_KINDS:
        raise ValueError(f"eval_kind must be one of the EVAL_* constants (0..{EVAL_KINDS - 1}), not {kind}")


cdef tuple group_cells(const Position *pos, const GroupList *groups, const Group *group):
    cdef int c, n = pos.n
    cdef uint32_t bits
    cdef const uint32_t *masks = group_masks(groups, group)
    cells = []
    for c in range(group.lo, group.hi + 1):
        bits = masks[c - group.lo]
        while bits:
            cells.append((n - 1 - ctz(bits), c))
            bits &= bits - 1
    return tuple(cells)


cdef class Board:
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
        cdef _GroupLists scratch = _GroupLists(2, self.pos.fruit)
        cdef GroupList *groups = scratch.lists
        cdef GroupSummary summary
        cdef Position child
        cdef Group *g
        cdef int i
        check_eval_kind(kind)
        list_groups(&self.pos, groups)
        summarize(groups, &summary)
        values = {}
        for i in range(groups.count):
            g = &groups.groups[i]
            play_group(&child, &self.pos, g, group_masks(groups, g))
            values[group_cells(&self.pos, groups, g)[0]] = evaluate(kind, &child, g, groups, &summary, groups + 1)
        return values

    def groups_after_moves(self):
        """{cell: the groups of the position the move there leaves, as groups() gives them},
        one cell per group, built as the search builds them: from this position's list and
        a walk of the move's band. For tests against groups() of the child."""
        cdef _GroupLists scratch = _GroupLists(2, self.pos.fruit)
        cdef GroupList *groups = scratch.lists
        cdef Position child
        cdef Group *g
        cdef int i, j
        list_groups(&self.pos, groups)
        found = {}
        for i in range(groups.count):
            g = &groups.groups[i]
            play_group(&child, &self.pos, g, group_masks(groups, g))
            list_child_groups(groups, g, &child, groups + 1)
            found[group_cells(&self.pos, groups, g)[0]] = [
                group_cells(&child, groups + 1, &groups[1].groups[j]) for j in range(groups[1].count)]
        return found

    def frontier_views(self, int min_size):
        """{cell: what the search reads one ply above the horizon of the position the move
        there leaves, with the groups of at least `min_size` fruit as its moves}: "moves"
        (all, in order), "largest" (the largest ones, in order), "unlisted" (smaller groups,
        counted up to 2), "largest_unlisted", "keyed" (each move found by its key), and
        from the summary "multi" (groups of two or more fruit), "largest_sizes" and
        "singles" (per column). For tests against the child's groups()."""
        cdef _GroupLists scratch = _GroupLists(2, self.pos.fruit)
        cdef GroupList *groups = scratch.lists
        cdef _Block moves_block = _Block(max(self.pos.fruit, 1) * sizeof(Group *), "frontier views")
        cdef _Block index_block = _Block(sizeof(ParentIndex), "frontier views")
        cdef _Block by_size_block = _Block(max(self.pos.fruit, 1) * sizeof(Group *), "frontier views")
        cdef const Group **moves = <const Group **> moves_block.data
        cdef ParentIndex *index = <ParentIndex *> index_block.data
        cdef FrontierView view
        cdef GroupCensus seen
        cdef GroupSummary summary
        cdef Position child
        cdef Group *g
        cdef int i, j, count
        list_groups(&self.pos, groups)
        index.by_size = <const Group **> by_size_block.data
        index_children(groups, self.pos.n, index)
        found = {}
        for i in range(groups.count):
            g = &groups.groups[i]
            play_group(&child, &self.pos, g, group_masks(groups, g))
            frontier_view(groups, index, g, &child, min_size, groups + 1, &view, &seen, &summary)
            count = all_moves(&view, moves)
            listed = [group_cells(&child, groups, moves[j]) for j in range(count)]
            keyed = [group_cells(&child, groups, move_with_key(&view, moves[j].key)) for j in range(count)]
            count = largest_moves(&view, moves)
            found[group_cells(&self.pos, groups, g)[0]] = {
                "moves": listed, "keyed": keyed,
                "largest": [group_cells(&child, groups, moves[j]) for j in range(count)],
                "unlisted": seen.unlisted, "largest_unlisted": seen.largest_unlisted,
                "multi": summary.multi_count,
                "largest_sizes": [summary.largest[j].size for j in range(summary.largest_count)],
                "singles": [summary.singles[j] for j in range(self.pos.n)],
            }
        return found

    def group_count(self):
        return self.group_list().count

    def never_merging_count(self):
        """How many fruit can never join a group: alone of their type in their own column
        and both neighbouring ones (rules.never_merging)."""
        return never_merging_count(&self.pos)

    def without_free_pairs(self):
        """(Board, dropped): this position without its free singles in pairs, the lowest of
        the leftmost column's kept when they are odd (rules.free_singles), as a search to
        the end searches it; the same Board when fewer than two."""
        cdef Board reduced = Board.__new__(Board)
        cdef ColumnTypes columns
        cdef uint64_t key
        read_columns(&self.pos, &columns)
        cdef int32_t dropped = drop_free_pairs(&reduced.pos, &self.pos, &columns, &key)
        return (reduced, dropped) if dropped else (self, 0)

    def solve_key(self):
        """The table's key of this position in a search to the end: fruit that can never
        merge keyed as one kind, free singles by the parity of their count alone."""
        return key_to_the_end(&self.pos)

    def play(self, cell):
        """(next Board, points) for the move at (row, col); ValueError on an empty cell."""
        cdef int row = cell[0], col = cell[1], i, n = self.pos.n
        cdef uint32_t bit
        cdef Group *g
        cdef Board child
        cdef GroupList *groups
        if not (0 <= row < n and 0 <= col < n):
            raise ValueError(f"cell {cell} is off the board")
        bit = 1u << (n - 1 - row)
        groups = self.group_list()
        for i in range(groups.count):
            g = &groups.groups[i]
            if g.lo <= col <= g.hi and group_masks(groups, g)[col - g.lo] & bit:
                child = Board.__new__(Board)
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


cdef class DepthResult:
    """What one Searcher.search call found."""
    cdef readonly int value         # the root's value, mover's view (best so far when cut off)
    cdef readonly object move       # (row, col) naming the best group; None before any root move completed
    cdef readonly bint completed    # False: the deadline cut the search off
    cdef readonly int moves_done    # root moves searched to the end
    cdef readonly bint exact        # no horizon was reached: the value is the true final margin
    cdef readonly long long nodes
    cdef readonly long long tt_hits
    cdef readonly long long tt_probes

    def __repr__(self):
        return (f"DepthResult(value={self.value}, move={self.move}, completed={self.completed}, "
                f"exact={self.exact}, nodes={self.nodes})")


cdef class Searcher:
    """One search of one position: a transposition table and the per-ply move lists that
    survive across the iterations of iterative deepening.

    tt_bits: log2 of the table's entries (16 bytes each; 0 turns the table off).
    ordering: ORDER_* flags. eval_kind: EVAL_GREEDY_PAIR (the agent's below 12x12),
    EVAL_LARGEST_EXCHANGE (the agent's from 12x12 up), EVAL_PAIR_EXCHANGE (a fitted blend of
    the greedy pair and the greedy exchange), EVAL_ALTERNATING (an alternative kept for
    tuning) or EVAL_NONE (the bare margin).
    alpha_beta: False gives plain minimax (no pruning, no table), the oracle and baseline.
    reduction, full_moves: the first `full_moves` moves of a node are searched at full
    depth, later ones first `reduction` plies shallower (0: no reduction).
    opponent_model: MODEL_NONE (the opponent replies its best) or MODEL_GREEDY (it takes a
    largest group; of several, the one worst for us): values are then margins against
    that opponent, not against the best one.
    frontier_shortcut: False makes every node one ply above the horizon list its groups
    whole instead of reading them from its parent's, and every node searched to the end
    read its columns whole (for its free singles); the same search, slower (for tests).
    free_singles: False searches free singles (single fruit that can never merge, with only
    such fruit above them) like any other group instead of dropping them in pairs where the
    search reaches the end; the same values, more nodes (for tests and measurement).
    """
    cdef SearchState s
    cdef Board board

    def __cinit__(self, Board board, int tt_bits=20, int ordering=ORDER_ALL,
                  int eval_kind=EVAL_GREEDY_PAIR, bint alpha_beta=True, int reduction=0,
                  int full_moves=4, int opponent_model=MODEL_NONE, bint frontier_shortcut=True,
                  bint free_singles=True):
        if not 0 <= tt_bits <= 28:
            raise ValueError("tt_bits must be 0..28")
        if not (0 <= reduction <= 8 and full_moves >= 0):
            raise ValueError("reduction must be 0..8 and full_moves >= 0")
        if opponent_model not in (MODEL_NONE, MODEL_GREEDY):
            raise ValueError("opponent_model must be MODEL_NONE or MODEL_GREEDY")
        check_eval_kind(eval_kind)
        if not 0 <= ordering <= ORDER_ALL:
            raise ValueError("ordering must be a combination of ORDER_* flags")
        memset(&self.s, 0, sizeof(SearchState))
        self.board = board
        self.s.config.alpha_beta = alpha_beta
        self.s.config.eval_kind = eval_kind
        self.s.config.reduction = reduction
        self.s.config.full_moves = full_moves
        self.s.config.opponent_model = opponent_model
        self.s.config.frontier_shortcut = frontier_shortcut
        self.s.config.free_singles = free_singles
        self.s.ordering.flags = ordering
        self.s.root.move = NO_MOVE
        if tt_bits and alpha_beta and not table_allocate(&self.s.table, tt_bits):
            raise MemoryError("transposition table")

    def __dealloc__(self):
        table_free(&self.s.table)
        free_plies(&self.s.buffers)

    def search(self, int depth, int alpha=-INFINITE, int beta=INFINITE, double deadline=1e300,
               long long max_nodes=0):
        """Search the root to `depth` within (alpha, beta), stopping when the process CPU
        clock passes `deadline` or, given `max_nodes`, once about that many nodes are visited
        (within 256: the same cut on any machine); a DepthResult says what it found."""
        if depth < 1:
            raise ValueError("depth must be >= 1")
        if max_nodes < 0:
            raise ValueError("max_nodes must be >= 0 (0: no cap)")
        depth = min(depth, self.board.pos.fruit)
        plies = depth + 1
        if not reserve_plies(&self.s.buffers, plies, max(self.board.pos.fruit, 1)):
            raise MemoryError(f"search buffers for {plies} plies")
        start_search(&self.s, deadline, max_nodes if max_nodes else INT64_MAX)
        cdef int32_t value
        with nogil:
            value = negamax(&self.s, &self.board.pos, depth, alpha, beta, 0)
        cdef DepthResult result = DepthResult.__new__(DepthResult)
        result.completed = not self.s.clock.stop
        result.value = value if result.completed else self.s.root.value
        result.move = self.move_cell(self.s.root.move)
        result.moves_done = self.s.root.moves_done
        result.exact = result.completed and self.s.stats.horizon_hits == 0 and alpha < value < beta
        result.nodes = self.s.stats.nodes
        result.tt_hits = self.s.stats.tt_hits
        result.tt_probes = self.s.stats.tt_probes
        return result

    def move_cell(self, key):
        """The (row, col) cell a group key names: the group's lowest cell in its leftmost column."""
        if key == NO_MOVE:
            return None
        return self.board.pos.n - 1 - key % 32, key // 32

    def principal_variation(self, int limit):
        """Moves (as cells) read from the table along the best line, at most `limit`."""
        cdef Board board = self.board
        cdef TTEntry *entry
        cdef uint64_t key
        line = []
        while len(line) < limit and board.pos.fruit:
            key = node_key(&self.s, &board.pos, len(line))
            entry = table_slot(&self.s.table, key)
            if entry != NULL and not entry_holds(entry, key) and self.s.config.free_singles:
                # a node searched to the end is stored under its key without free singles
                key = key_to_the_end(&board.pos)
                entry = table_slot(&self.s.table, key)
            if entry == NULL or not entry_holds(entry, key) or entry.move == NO_MOVE:
                break
            cell = self.move_cell(entry.move)
            try:
                board = board.play(cell)[0]
            except ValueError:      # a hash collision left a move of another position
                break
            line.append(cell)
        return line


INFINITE_VALUE = INFINITE
