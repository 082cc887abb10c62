# The state of one search, shared by the units that search (search.pyx and last_plies.pyx):
# its configuration, per-ply buffers, statistics, clock and root progress, and the steps
# both take inline at every node (count it, look at the clock) and after every move (fold
# its value into the node's).
# Uses free_singles: ColumnTypes
# Uses groups: GroupSummary, PlyLists
# Uses frontier: FrontierView, ParentIndex
# Uses table: Table
# Uses ordering: MoveOrdering, MovePicker, reward_cutoff
from libc.stdint cimport int32_t, int64_t, uint16_t
from posix.time cimport CLOCK_PROCESS_CPUTIME_ID, clock_gettime, timespec

from core_types cimport Group

cdef enum:
    INFINITE = 1000000          # above any reachable margin (26 * 26) ** 2
    CLOCK_POLL_NODES = 256      # ~1 ms of search on the largest boards

# Visible from Python as agent._core.MODEL_NONE etc.
cpdef enum:
    MODEL_NONE = 0
    MODEL_GREEDY = 1

ctypedef struct SearchConfig:
    bint alpha_beta             # False: plain minimax, no pruning and no table
    int eval_kind               # EVAL_*
    int reduction               # plies a late move's first search is cut by (0: none)
    int full_moves              # moves of a node searched at full depth before reducing
    int opponent_model          # MODEL_GREEDY: at odd plies only the largest groups are played
    bint frontier_shortcut      # False: nodes above the horizon list their groups whole, and
                                # nodes searched to the end read their columns whole (the
                                # plain twins of frontier_view and read_band, for tests)
    bint free_singles           # in a search to the end, drop free singles in pairs and key
                                # fruit that can never merge as one kind (free_singles.pyx)

ctypedef struct PlyBuffers:
    # One of each per ply, grown by reserve_plies and kept across iterations; the lists
    # have room for the root's fruit (no position below it has more groups).
    int plies
    PlyLists groups             # the node's groups, built from the ply above's (one ply
                                # above the horizon, two for a horizon worth 0: only the
                                # band's, see frontier_view)
    const Group **order         # per ply: the moves in the order they are tried
    int32_t *scores             # per ply: the ordering scores, aligned with `order`
    GroupSummary *summaries     # per ply: of the node's groups, for its children's evaluation
    ParentIndex *indexes        # per ply: of the node's list, for children above the horizon
    const Group **by_size       # the indexes' storage, `room` per ply
    const Group **played        # per ply: the move being searched
    ColumnTypes *columns        # per ply: what a node searched to the end holds, column by
                                # column (ready: filled for the node now at that ply)

ctypedef struct SearchStats:
    int64_t nodes
    int64_t horizon_hits        # values guessed at the horizon (the value is then not exact)
    int64_t tt_probes
    int64_t tt_hits

ctypedef struct SearchClock:
    double deadline             # process CPU seconds
    int64_t node_limit          # stop once this many nodes are visited (a machine-independent cap)
    bint stop

ctypedef struct RootProgress:
    uint16_t move               # best move of the root search so far (NO_MOVE: none)
    int32_t value
    int moves_done

ctypedef struct SearchState:
    SearchConfig config
    MoveOrdering ordering
    PlyBuffers buffers
    Table table
    SearchStats stats
    SearchClock clock
    RootProgress root

ctypedef struct NodeMoves:
    # A node's moves as the search has them (see list_moves).
    MovePicker picker           # hands them out in the order they are tried
    bint last_plies             # valued by two_plies_left, not searched move by move
    FrontierView view           # read through the parent's list (the picker's view), or unused


cdef inline double cpu_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint enter_node(SearchState *s) noexcept nogil:
    """Count a node and look at the clock and the node cap now and then; True when the
    search must stop."""
    s.stats.nodes += 1
    if s.stats.nodes % CLOCK_POLL_NODES == 0 and (
        s.stats.nodes >= s.clock.node_limit or cpu_seconds() >= s.clock.deadline
    ):
        s.clock.stop = True
    return s.clock.stop


cdef inline bint fold_move_value(SearchState *s, const Group *g, int32_t value, int depth, int ply,
                                 int32_t beta, int32_t *best, uint16_t *best_move,
                                 int32_t *alpha) noexcept nogil:
    """Fold the value of move `g` of the node at `ply`, `depth` plies above the horizon, into
    the node's best and alpha, and at the root into its progress (what the driver keeps when
    the clock stops the search). True on a cutoff, which earns the move its history bonus."""
    if value > best[0]:
        best[0] = value
        best_move[0] = g.key
        if ply == 0:
            s.root.move = g.key
            s.root.value = value
        if value > alpha[0]:
            alpha[0] = value
            if s.config.alpha_beta and value >= beta:
                reward_cutoff(&s.ordering, g.key, depth)
                return True
    if ply == 0:
        s.root.moves_done += 1
    return False
