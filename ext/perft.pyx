# Perft unit (contract: perft.pxd): the number of move sequences of a given length, the
# core's check against the rules and its speed yardstick. Each position's groups are
# built from its parent's, the last ply only counts them, and nothing is hashed.
from libc.string cimport memset


cdef int64_t perft_below(const Position *pos, int depth, GroupList *lists) noexcept nogil:
    """Move sequences of `depth` moves from `pos`, whose groups lists[0] holds; depth >= 1."""
    cdef Position child
    cdef ColumnCounts counts
    cdef const Group *g
    cdef int64_t leaves = 0
    cdef int i
    if depth == 1:
        return lists.count
    if depth == 2:
        count_columns(lists, pos.n, 1, &counts)
    for i in range(lists.count):
        g = &lists.groups[i]
        play_group_unhashed(&child, pos, g, group_masks(lists, g))
        if child.fruit == 0:
            continue    # the game ended before `depth` moves: no sequence that long
        if depth == 2:
            leaves += count_child_groups(&child, g, &counts)
        else:
            list_child_groups(lists, g, &child, lists + 1)
            leaves += perft_below(&child, depth - 1, lists + 1)
    return leaves


cdef int64_t perft(const Position *pos, int depth) noexcept nogil:
    cdef PlyLists lists
    cdef int64_t leaves = -1
    if depth == 0:
        return 1    # the empty sequence
    if pos.fruit == 0:
        return 0
    memset(&lists, 0, sizeof(PlyLists))
    # the last ply needs no list
    if reserve_lists(&lists, depth - 1 if depth > 1 else 1, pos.fruit):
        list_groups(pos, lists.lists)
        leaves = perft_below(pos, depth, lists.lists)
    free_lists(&lists)
    return leaves
