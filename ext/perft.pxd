# Contract of the perft unit (perft.pyx).
# Uses position: play_group_unhashed
# Uses groups: ColumnCounts, PlyLists, count_child_groups, count_columns, free_lists
# Uses groups: group_masks, list_child_groups, list_groups, reserve_lists
from libc.stdint cimport int64_t

from core_types cimport Position

# The number of move sequences of exactly `depth` moves (perft as chess programs count it):
# a board emptied sooner adds none. -1 when there is no memory for the group lists.
cdef int64_t perft(const Position *pos, int depth) noexcept nogil
