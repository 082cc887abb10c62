# Contract of the search unit (search.pyx): alpha-beta negamax of one depth over the score
# difference, with late move reduction and the frontier's pruning. Uses search_state.pxd
# (the state it searches with), last_plies.pxd (the nodes two plies above a horizon worth
# 0), and position.pxd, groups.pxd, frontier.pxd, evaluation.pxd, table.pxd, ordering.pxd.
from libc.stdint cimport int32_t, int64_t, uint64_t

from core_types cimport Position

# Room for `plies` plies of buffers with `room` groups each (the root's fruit, the same on
# every call); False when the memory is not there (nothing is lost).
cdef bint reserve_plies(PlyBuffers *buffers, int plies, int room) noexcept nogil
cdef void free_plies(PlyBuffers *buffers) noexcept nogil
# Zero the statistics and the root's progress, set the deadline and the node cap: before
# each search.
cdef void start_search(SearchState *s, double deadline, int64_t node_limit) noexcept nogil
# The key the table stores the node at `ply` of position `pos` under.
cdef uint64_t node_key(const SearchState *s, const Position *pos, int ply) noexcept nogil
# The value of `pos`, the node at `ply` searched `depth` plies deep, fail-soft in
# (alpha, beta); 0 once s.clock.stop is set.
cdef int32_t negamax(SearchState *s, const Position *pos, int depth, int32_t alpha, int32_t beta,
                     int ply) noexcept nogil
