# Contract of the groups unit (groups.pyx): a position's groups listed whole or built from
# its parent's, their census, and the summaries that let a child be counted or evaluated
# from its parent's groups and a walk near the move only.
from libc.stdint cimport int16_t, int32_t, uint32_t

from core_types cimport MAX_GROUPS, MAX_N, Group, GroupList, Position

cdef enum:
    SUMMARY_LARGEST = 8   # groups of two or more fruit a GroupSummary keeps, largest first

ctypedef struct GroupCensus:
    int32_t first        # the two largest sizes of all groups, listed or not (0 when absent)
    int32_t second
    int32_t unlisted     # groups below the size that was asked for
    int32_t largest_unlisted  # the largest of them (0 when none)

ctypedef struct GroupSummary:
    # What the census of a child reuses of its parent's groups (see child_census).
    int32_t ready                       # 0 until filled for the current groups of its ply
    int32_t multi_count                 # groups of two or more fruit
    int32_t largest_count               # min(multi_count, SUMMARY_LARGEST)
    const Group *largest[SUMMARY_LARGEST]   # the largest of them, size descending
    int32_t singles[MAX_N]              # groups of one fruit, per column
    int32_t all_singles

ctypedef struct ColumnCounts:
    # How many groups lie wholly left or right of a column: a child keeps those of its
    # parent's groups that lie wholly left or right of its move's band.
    int32_t ends_before[MAX_N + 1]      # [c]: groups whose columns all lie left of c
    int32_t starts_after[MAX_N + 1]     # [c]: groups whose columns all lie right of c

ctypedef struct ParentIndex:
    # A list read for its children one ply above the horizon, which need only the large
    # groups they keep of it and counts (see frontier_view).
    int32_t ready                       # 0 until filled for the current list of its ply
    const Group **by_size               # the list's groups, size descending (room for them)
    int32_t largest_size
    int32_t at_least[MAX_GROUPS + 2]    # [s]: groups of at least s fruit, s <= largest_size + 1
    int16_t by_key[MAX_N * 32]          # list index of the group a Group.key names, -1: none
    ColumnCounts all
    ColumnCounts multi                  # the same for groups of two or more fruit
    GroupSummary summary

ctypedef struct FrontierView:
    # The groups of a position one ply above the horizon, not listed but read from its
    # parent's list and index and the groups of its move's band.
    const GroupList *parent
    const ParentIndex *index
    const GroupList *band
    int band_lo
    int band_hi
    int min_size                        # the groups of at least this size are its moves

cdef inline const uint32_t *group_masks(const GroupList *groups, const Group *group) noexcept nogil:
    """The masks of columns group.lo..group.hi."""
    return &groups.pool[group.mask_at]

# Every group of `pos`, walking the whole board; `out` gets its masks from out.mask_start.
cdef void list_groups(const Position *pos, GroupList *out) noexcept nogil
# The groups of `child`, the position `move` (a group of `parent`) leaves: the parent's
# groups away from the move, and the ones a walk of the move's band finds. The same list,
# in the same order, as list_groups(child); its masks go after the parent's.
cdef void list_child_groups(const GroupList *parent, const Group *move, const Position *child,
                            GroupList *out) noexcept nogil
# The census of all groups; `min_size` says which count as listed.
cdef void take_census(const GroupList *groups, int min_size, GroupCensus *seen) noexcept nogil
cdef void summarize(const GroupList *groups, GroupSummary *summary) noexcept nogil
cdef void count_by_column(const GroupList *groups, int n, ColumnCounts *counts) noexcept nogil
# Fill `index` (whose by_size has room for the list) for the children of `groups`.
cdef void index_children(const GroupList *groups, int n, ParentIndex *index) noexcept nogil
# The view of `child`, the position `move` (a group of `parent`) leaves, with the groups of
# at least `min_size` fruit as its moves: the band's groups go into `band` (masks after the
# parent's); into `seen`, how many groups are smaller (counted up to 2, the most that
# matters) and the largest of them; into `summary`, what its own children's census reads.
cdef void frontier_view(const GroupList *parent, const ParentIndex *index, const Group *move,
                        const Position *child, int min_size, GroupList *band, FrontierView *view,
                        GroupCensus *seen, GroupSummary *summary) noexcept nogil
# Into `out`, the view's moves of the largest size, in rank order; returns how many.
cdef int largest_moves(const FrontierView *view, const Group **out) noexcept nogil
# The view's move that `key` names; NULL when none does.
cdef const Group *move_with_key(const FrontierView *view, int key) noexcept nogil
# Into `out`, all of the view's moves in rank order; returns how many.
cdef int all_moves(const FrontierView *view, const Group **out) noexcept nogil
# The two largest groups (seen.first, seen.second) of `child`, the position `move` leaves,
# from the summary of the groups of the position it was played in.
cdef void child_census(const Position *child, const Group *move, const GroupSummary *summary,
                       GroupCensus *seen) noexcept nogil
# How many groups `child`, the position `move` leaves, has (no masks are built).
cdef int32_t count_child_groups(const Position *child, const Group *move,
                                const ColumnCounts *parent) noexcept nogil
