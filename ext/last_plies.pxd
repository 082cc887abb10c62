# Contract of the last plies unit (last_plies.pyx): the nodes two plies above a horizon
# worth 0, whose value is read from group sizes, not searched.
# Uses position: play_group_unhashed
# Uses groups: GroupCensus, GroupSummary, band_of, child_census, count_groups, group_masks
# Uses groups: kept_census, summarize, walk_columns
# Uses frontier: FrontierView, ReplyCensus
# Uses evaluation: EVAL_NONE
# Uses table: NO_MOVE
# Uses ordering: MovePicker, ahead_done, next_move, none_larger_after, pick_largest_first
# Uses search_state: INFINITE, MODEL_NONE, SearchState, enter_node, fold_move_value
from libc.stdint cimport int32_t, uint16_t

from core_types cimport Position

# Whether the nodes two plies above the horizon can be valued by two_plies_left: the horizon
# is worth 0 (evaluation none) and both sides play their best.
cdef bint reads_last_plies(const SearchState *s) noexcept nogil
# The value of `pos`, a node at `ply` two plies above the horizon whose moves `picker` hands
# out (list_moves started it: listed, or read through its view): fail-soft in (alpha, beta),
# the best move's key into `best_move` (NO_MOVE when every move was bounded without being
# played).
cdef int32_t two_plies_left(SearchState *s, const Position *pos, MovePicker *picker,
                            int32_t alpha, int32_t beta, int ply, uint16_t *best_move) noexcept nogil
