# Contract of the groups unit (groups.pyx): a position's groups listed whole or built from
# its parent's, their census, and the summaries that let a child be counted or evaluated
# from its parent's groups and a walk near the move only. It uses no other unit.
from libc.stdint cimport int32_t, uint32_t

from core_types cimport MAX_N, Group, GroupList, Position

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

ctypedef struct PlyLists:
    # A group list for each ply of a line of play, `room` groups each (the first position's
    # fruit: no later one has more groups), all sharing one mask pool (see GroupList).
    GroupList *lists
    Group *storage              # the lists' groups, `room` per ply
    uint32_t *pool              # the masks of all plies' lists, `room` per ply
    int plies
    int room

cdef inline void band_of(const Group *move, int n, int *band_lo, int *band_hi) noexcept nogil:
    """The columns a move can change groups in: its own and one on each side."""
    band_lo[0] = move.lo - 1 if move.lo > 0 else 0
    band_hi[0] = move.hi + 1 if move.hi + 1 < n else n - 1


cdef inline bint in_band(const Group *g, int band_lo, int band_hi) noexcept nogil:
    """Whether the columns of `g` meet the band."""
    return g.hi >= band_lo and g.lo <= band_hi


cdef inline void count_groups(GroupCensus *seen, int size, int count) noexcept nogil:
    """Record `count` groups of `size` fruit among the two largest."""
    if size > seen.first:
        seen.second = seen.first
        seen.first = size
        count -= 1
    if count > 0 and size > seen.second:
        seen.second = size


cdef inline void start_list_after(GroupList *out, const GroupList *parent) noexcept nogil:
    """Make `out` an empty list whose masks go after those of `parent` (the ply above)."""
    out.count = 0
    out.pool = parent.pool
    out.mask_start = out.mask_end = parent.mask_end


# Groups or pointers to them: a list owns its groups, a node's moves point at them.
ctypedef const Group *GroupRef
ctypedef fused GroupItem:
    Group
    GroupRef


cdef inline void sort_by_rank(GroupItem *groups, int count) noexcept nogil:
    """Insertion sort by rank: for few groups, or groups nearly in rank order already."""
    cdef int i, j
    cdef GroupItem g
    for i in range(1, count):
        g = groups[i]
        j = i
        while j > 0 and groups[j - 1].rank > g.rank:
            groups[j] = groups[j - 1]
            j -= 1
        groups[j] = g


cdef inline int merge_by_rank(const GroupList *parent, int min_size, int band_lo, int band_hi,
                              const GroupItem *band, int band_count, GroupItem *out) noexcept nogil:
    """Into `out` in rank order, the groups of `parent` of at least `min_size` fruit that lie
    beside the band, merged with `band` (in rank order); returns how many. A child's groups
    are these with the band's walked in the child."""
    cdef int i, j = 0, count = 0
    cdef const Group *kept
    for i in range(parent.count):
        kept = &parent.groups[i]
        if kept.size < min_size or in_band(kept, band_lo, band_hi):
            continue
        while j < band_count and band[j].rank < kept.rank:
            out[count] = band[j]
            count += 1
            j += 1
        if GroupItem is Group:
            out[count] = kept[0]
        else:
            out[count] = kept
        count += 1
    while j < band_count:
        out[count] = band[j]
        count += 1
        j += 1
    return count


cdef inline const uint32_t *group_masks(const GroupList *groups, const Group *group) noexcept nogil:
    """The masks of columns group.lo..group.hi."""
    return &groups.pool[group.mask_at]

# Room for `plies` lists of `room` groups each in `lists` (zeroed before its first use; the
# room must be the same on every call); False when the memory is not there (nothing lost).
cdef bint reserve_lists(PlyLists *lists, int plies, int room) noexcept nogil
# realloc `block[0]` to `size` bytes; False (the block left as it was) when the memory is
# not there. For the other per-ply buffers of a search.
cdef bint grow_block(void **block, size_t size) noexcept nogil
cdef void free_lists(PlyLists *lists) noexcept nogil
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
# A child's summary from its parent's, around the walk of its move's band in the child:
# begin_child_summary copies the parent's less the band's groups of one fruit (the walk
# counts them back into child.singles) and with no largest groups; keep_largest_beside
# takes the largest from the parent's groups of `by_size` (size descending) that lie
# beside the band; add_band_groups adds the walk's groups: `band_singles` of one fruit,
# those of `band` (two or more) kept if among the largest, or only counted when below
# `floor` (no unlisted group of the parent is larger).
cdef void begin_child_summary(GroupSummary *child, const GroupSummary *parent, int band_lo,
                              int band_hi) noexcept nogil
cdef void keep_largest_beside(GroupSummary *child, const Group *const *by_size, int count, int band_lo,
                              int band_hi) noexcept nogil
cdef void add_band_groups(GroupSummary *child, const GroupList *band, int band_singles,
                          int floor) noexcept nogil
# The two largest groups (seen.first, seen.second) of `child`, the position `move` leaves,
# from the summary of the groups of the position it was played in; with `first_only`, the
# largest alone (seen.second may then be too small). With `enough` > 0 the census may stop
# at the first group of that size or more (seen.first is then one of them).
cdef void child_census(const Position *child, const Group *move, const GroupSummary *summary,
                       GroupCensus *seen, int enough, bint first_only) noexcept nogil
# Its first part: into `seen`, the two largest (the largest, `first_only`) of the groups
# `move` leaves beside its band (of n columns), read from `summary`; False when the summary
# cannot tell them.
cdef bint kept_census(const Group *move, int n, const GroupSummary *summary,
                      GroupCensus *seen, bint first_only) noexcept nogil
# How many groups `child`, the position `move` leaves, has (no masks are built).
cdef int32_t count_child_groups(const Position *child, const Group *move,
                                const ColumnCounts *parent) noexcept nogil
# Every group with fruit in columns first..last once: appended to `out` and counted in
# `seen`, each unless NULL; returns how many. Over the whole board they come in rank order.
# With `enough` > 0 (and `seen`) the walk stops after the first group of that size or more.
# `reach` (unless NULL) widens to the columns of every group the walk floods.
# `single_counts` (unless NULL) gets the groups of one fruit counted by column instead of
# appended to `out` (list_singles appends them later, if ever needed).
cdef int walk_columns(const Position *pos, int first, int last, GroupList *out,
                      GroupCensus *seen, int enough, int *reach, int32_t *single_counts) noexcept nogil
# Append the groups of one fruit in columns first..last to `out`, in rank order.
cdef void list_singles(const Position *pos, int first, int last, GroupList *out) noexcept nogil
# Count a group of two or more fruit in `summary`, and keep it if it is among the largest.
cdef void keep_if_largest(GroupSummary *summary, const Group *g) noexcept nogil
# ColumnCounts of the groups of at least `min_size` fruit.
cdef void count_columns(const GroupList *groups, int n, int min_size, ColumnCounts *counts) noexcept nogil
# Into `order`, the groups of min_size..max_size fruit, in rank order; returns how many.
cdef int groups_of_size(const GroupList *groups, int min_size, int max_size, const Group **order) noexcept nogil
