# Evaluation unit (contract: evaluation.pxd). The pair is the agent's default: the
# cheapest evaluation that looks past the horizon and damps the odd/even swing of a bare
# margin; the self-play figures behind the choice are in docs/core-speed.md.
from core_types cimport MAX_GROUPS


cdef bint needs_parent_spans(int kind) noexcept nogil:
    return kind == EVAL_GREEDY_PAIR


cdef int32_t pair_value(const GroupCensus *seen) noexcept nogil:
    return seen.first * seen.first - seen.second * seen.second


cdef int32_t alternating_value(const Position *pos, MoveList *scratch) noexcept nogil:
    """A whole greedy game on the current groups, as if they never merged."""
    cdef int32_t sizes[MAX_GROUPS]
    cdef int i, j, size, big = 0, singles = 0
    cdef int32_t total = 0
    enumerate_groups(pos, scratch)
    for i in range(scratch.count):            # insertion sort of the groups larger than one
        size = scratch.groups[i].size
        if size == 1:
            singles += 1
            continue
        j = big
        while j > 0 and sizes[j - 1] < size:
            sizes[j] = sizes[j - 1]
            j -= 1
        sizes[j] = size
        big += 1
    for i in range(big):
        total += sizes[i] * sizes[i] if i % 2 == 0 else -sizes[i] * sizes[i]
    # the singles come last, one point each, alternately
    if singles % 2:
        total += 1 if big % 2 == 0 else -1
    return total


cdef int32_t evaluate(int kind, const Position *pos, const Group *move,
                      const GroupSpans *parent_spans, MoveList *scratch) noexcept nogil:
    cdef GroupCensus seen
    if kind == EVAL_GREEDY_PAIR:
        # counted from the parent's recorded groups, not a walk of the whole board
        child_census(pos, move, parent_spans, &seen)
        return pair_value(&seen)
    if kind == EVAL_ALTERNATING:
        return alternating_value(pos, scratch)
    return 0
