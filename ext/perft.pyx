# Perft unit (contract: perft.pxd): the move tree's leaf count, the core's check against
# the rules and its speed yardstick.
from libc.stdlib cimport free, malloc


cdef int64_t perft_with(const Position *pos, int depth, MoveList *stack) noexcept nogil:
    cdef Position child
    cdef int64_t leaves = 0
    cdef int i
    if depth == 0 or pos.fruit == 0:
        return 1
    enumerate_groups(pos, stack)
    if depth == 1:
        return stack.count
    for i in range(stack.count):
        play_group(&child, pos, &stack.groups[i], &stack.masks[stack.groups[i].first_mask])
        leaves += perft_with(&child, depth - 1, stack + 1)
    return leaves


cdef int64_t perft(const Position *pos, int depth) noexcept nogil:
    cdef MoveList *stack = <MoveList *> malloc((depth + 1) * sizeof(MoveList))
    cdef int64_t leaves
    if stack == NULL:
        return -1
    leaves = perft_with(pos, depth, stack)
    free(stack)
    return leaves
