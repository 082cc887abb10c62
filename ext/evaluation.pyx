# Evaluation unit (contract: evaluation.pxd). The pair is the agent's default: the
# cheapest evaluation that looks past the horizon and damps the odd/even swing of a bare
# margin; the self-play figures behind the choice are in docs/core-speed.md.
from core_types cimport MAX_GROUPS


cdef bint needs_summary(int kind) noexcept nogil:
    return kind == EVAL_GREEDY_PAIR


cdef bint needs_parent_list(int kind) noexcept nogil:
    return kind == EVAL_ALTERNATING


cdef int32_t pair_value(const GroupCensus *seen) noexcept nogil:
    return seen.first * seen.first - seen.second * seen.second


cdef int32_t alternating_value(const GroupList *groups) noexcept nogil:
    """A whole greedy game on the current groups, as if they never merged."""
    cdef int32_t sizes[MAX_GROUPS]
    cdef int i, j, size, big = 0, singles = 0
    cdef int32_t total = 0
    for i in range(groups.count):            # insertion sort of the groups larger than one
        size = groups.groups[i].size
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


cdef int32_t evaluate(int kind, const Position *pos, const Group *move, const GroupList *parent,
                      const GroupSummary *summary, GroupList *scratch) noexcept nogil:
    cdef GroupCensus seen
    if kind == EVAL_GREEDY_PAIR:
        child_census(pos, move, summary, &seen)
        return pair_value(&seen)
    if kind == EVAL_ALTERNATING:
        list_child_groups(parent, move, pos, scratch)
        return alternating_value(scratch)
    return 0
