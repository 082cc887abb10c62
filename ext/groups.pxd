# Contract of the groups unit (groups.pyx): the walks that find a position's groups, the
# census of their sizes, and their column spans.
from libc.stdint cimport int16_t, int32_t, uint8_t, uint32_t

from core_types cimport MAX_GROUPS, MAX_N, Group, MoveList, Position

ctypedef struct GroupCensus:
    int32_t first        # the two largest sizes of all groups, listed or not (0 when absent)
    int32_t second
    int32_t unlisted     # groups too small for the list
    int32_t largest_unlisted  # the largest of them (0 when none)

ctypedef struct GroupSpans:
    # Every group of a position as the columns it spans, so that the census of a child
    # can reuse the groups its move left alone (see child_census).
    int32_t count                   # groups of two or more fruit
    int16_t size[MAX_GROUPS]
    uint8_t lo[MAX_GROUPS]
    uint8_t hi[MAX_GROUPS]
    int32_t singles[MAX_N]          # groups of one fruit, per column
    int32_t all_singles

# Every group once: the ones of at least `min_size` fruit go into `moves` (which may be
# NULL to list none), the rest are only counted in `seen`; all of them go into `spans`
# unless it is NULL.
cdef void walk_groups(const Position *pos, MoveList *moves, int min_size,
                      GroupCensus *seen, GroupSpans *spans) noexcept nogil
# Every group once, into `moves`.
cdef void enumerate_groups(const Position *pos, MoveList *moves) noexcept nogil
# The census of the position `child` that `move` leaves, from `parent`, the spans of the
# groups of the position it was played in, walking only near the move.
cdef void child_census(const Position *child, const Group *move, const GroupSpans *parent,
                       GroupCensus *seen) noexcept nogil
