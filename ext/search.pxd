# Contract of the search unit (search.pyx): alpha-beta negamax of one depth over the score
# difference, with late move reduction and the frontier's pruning.
# Uses position: play_group, squares_bound
# Uses free_singles: ColumnTypes, drop_free_pairs, read_band, read_columns
# Uses groups: GroupCensus, GroupSummary, free_lists, group_masks, groups_of_size, grow_block
# Uses groups: list_child_groups, list_groups, reserve_lists, start_list_after, summarize
# Uses groups: take_census
# Uses frontier: ParentIndex, frontier_view, index_children, view_count
# Uses evaluation: evaluate, needs_summary
# Uses table: BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, NO_MOVE, SOLVED_DEPTH, TTEntry
# Uses table: entry_holds, entry_settles, table_slot, table_store
# Uses ordering: MovePicker, next_move, start_picking
# Uses search_state: INFINITE, MODEL_NONE, NodeMoves, PlyBuffers, SearchState, SearchStats
# Uses search_state: enter_node, fold_move_value
# Uses last_plies: reads_last_plies, two_plies_left
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
