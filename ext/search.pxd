# Contract of the search unit (search.pyx; needs the other contracts before it): alpha-beta
# negamax of one depth over the score difference, with late move
# reduction and the frontier's pruning, and the buffers and statistics of one search.
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t

from core_types cimport MAX_N, Group, GroupList, Position

cdef enum:
    INFINITE = 1000000          # above any reachable margin (26 * 26) ** 2

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
    bint frontier_shortcut      # False: nodes above the horizon list their groups whole (the
                                # plain twin of frontier_view, for tests)
    int quiescence              # plies searched past the horizon, hot moves only (0: none)
    int hot_size                # a hot move takes a group of at least this many fruit

ctypedef struct PlyBuffers:
    # One of each per ply, grown by reserve_plies and kept across iterations; the lists
    # have room for the root's fruit (no position below it has more groups).
    int plies
    int room                    # groups per ply: the root's fruit
    GroupList *lists            # the node's groups, built from the ply above's (one ply
                                # above the horizon, two for a horizon worth 0: only the
                                # band's, see frontier_view)
    Group *groups               # their storage, `room` per ply
    uint32_t *pool              # the masks of all plies' lists, `room` per ply
    const Group **order         # per ply: the moves in the order they are tried
    int32_t *scores             # per ply: the ordering scores, aligned with `order`
    GroupSummary *summaries     # per ply: of the node's groups, for its children's evaluation
    ParentIndex *indexes        # per ply: of the node's list, for children above the horizon
    const Group **by_size       # the indexes' storage, `room` per ply
    const Group **played        # per ply: the move being searched

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

# Room for `plies` plies of buffers with `room` groups each (the root's fruit, the same on
# every call); False when the memory is not there (nothing is lost).
cdef bint reserve_plies(PlyBuffers *buffers, int plies, int room) noexcept nogil
cdef void free_plies(PlyBuffers *buffers) noexcept nogil
# Zero the statistics and the root's progress, set the deadline and the node cap: before
# each search.
cdef void start_search(SearchState *s, double deadline, int64_t node_limit) noexcept nogil
# The key the table stores the node at `ply` of position `pos` under.
cdef uint64_t node_key(const SearchState *s, const Position *pos, int ply) noexcept nogil
cdef int32_t negamax(SearchState *s, const Position *pos, int depth, int32_t alpha, int32_t beta,
                     int ply) noexcept nogil
