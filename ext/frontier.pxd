# Contract of the frontier unit (frontier.pyx): a node one ply above the horizon (two, for
# a horizon worth 0) seen through its parent's list, without a list of its own.
# Uses groups: ColumnCounts, GroupCensus, GroupSummary, add_band_groups, band_of
# Uses groups: begin_child_summary, count_columns, in_band, keep_largest_beside, list_singles
# Uses groups: merge_by_rank, sort_by_rank, start_list_after, summarize, walk_columns
from libc.stdint cimport int16_t, int32_t, uint8_t, uint32_t

from core_types cimport MAX_GROUPS, MAX_N, Group, GroupList, Position

ctypedef struct ReplyCensus:
    # The largest groups in the band of a move G of the indexed list, in the position G
    # leaves: the same in a child's position taking G, as long as the child's own move
    # lies away from every column the walk looked at (see reply_census).
    uint32_t stamp                      # the index's stamp when it was taken
    int16_t first
    int16_t second
    uint8_t reach_lo                    # the columns of the groups the walk found
    uint8_t reach_hi

ctypedef struct ParentIndex:
    # A list read for its children above the horizon, which need only the large
    # groups they keep of it and counts (see frontier_view).
    int32_t ready                       # 0 until filled for the current list of its ply
    int32_t children                    # the list's children that could have read it so far
    const Group **by_size               # the list's groups, size descending (room for them)
    int32_t largest_size
    int32_t at_least[MAX_GROUPS + 2]    # [s]: groups of at least s fruit, s <= largest_size + 1
    int16_t by_key[MAX_N * 32]          # list index of the group a Group.key names, -1: none
    ColumnCounts all
    ColumnCounts multi                  # the same for groups of two or more fruit
    GroupSummary summary
    uint32_t stamp                      # new for every list indexed (0: never)
    ReplyCensus replies[MAX_N * 32]     # by Group.key

ctypedef struct FrontierView:
    # The groups of a position above the horizon, not listed but read from its
    # parent's list and index and the groups of its move's band.
    const GroupList *parent
    const ParentIndex *index
    GroupList *band                     # the band's groups of two or more fruit, then of one
    const Position *child
    int band_lo
    int band_hi
    int min_size                        # the groups of at least this size are its moves
    int unlisted_singles                # the band's groups of one fruit, until listed

# Fill `index` (whose by_size has room for the list) for the children of `groups`.
cdef void index_children(const GroupList *groups, int n, ParentIndex *index) noexcept nogil
# The view of `child`, the position `move` (a group of `parent`) leaves, with the groups of
# at least `min_size` fruit as its moves: the band's groups go into `band` (masks after the
# parent's); into `seen`, how many groups are smaller (counted up to 2, the most that
# matters) and the largest of them; into `summary`, what its own children's census reads.
cdef void frontier_view(const GroupList *parent, const ParentIndex *index, const Group *move,
                        const Position *child, int min_size, GroupList *band, FrontierView *view,
                        GroupCensus *seen, GroupSummary *summary) noexcept nogil
# The band's groups of one fruit are listed only when they are moves (min_size 1) and one
# of these three asks for the moves.
# Into `out`, the view's moves of the largest size, in rank order; returns how many.
cdef int largest_moves(FrontierView *view, const Group **out) noexcept nogil
# The view's move that `key` names; NULL when none does.
cdef const Group *move_with_key(FrontierView *view, int key) noexcept nogil
# Into `out`, all of the view's moves in rank order; returns how many.
cdef int all_moves(FrontierView *view, const Group **out) noexcept nogil
# How many groups the view's position has, of any size.
cdef int view_count(const FrontierView *view) noexcept nogil
