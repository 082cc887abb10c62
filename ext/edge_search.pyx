# Python edge: Searcher, one search of one position (its table and buffers kept across the
# iterations of iterative deepening), and DepthResult, what one depth of it found.
# Uses free_singles: key_to_the_end
# Uses evaluation: EVAL_GREEDY_PAIR
# Uses table: NO_MOVE, TTEntry, entry_holds, table_allocate, table_free, table_slot
# Uses ordering: ORDER_ALL
# Uses search_state: INFINITE, MODEL_GREEDY, MODEL_NONE, SearchState
# Uses search: free_plies, negamax, node_key, reserve_plies, start_search
# Uses edge_scratch: check_eval_kind
# Uses edge_board: Bitboard
from libc.stdint cimport INT64_MAX, int32_t, uint64_t
from libc.string cimport memset


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
    the greedy pair and the greedy exchange) or EVAL_NONE (the bare margin).
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
    cdef Bitboard board

    def __cinit__(self, Bitboard board, int tt_bits=20, int ordering=ORDER_ALL,
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
        cdef Bitboard board = self.board
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
