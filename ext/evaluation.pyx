# Evaluation unit (contract: evaluation.pxd). The agent searches with the largest exchange
# from 12x12 up and the greedy pair below (agent/move/deepening.py, OWN_EVALUATION): the
# pair is the cheapest evaluation that looks past the horizon and damps the odd/even swing
# of a bare margin (docs/research/2026-12-core-speed-log.md, "Evaluation choice"); the
# fitted blends won their gates on the larger boards (docs/research/2026-12-strength-log.md).
from libc.stdint cimport int64_t
from libc.string cimport memset

from core_types cimport MAX_GROUPS, MAX_N


cdef bint needs_summary(int kind) noexcept nogil:
    return kind == EVAL_GREEDY_PAIR or kind == EVAL_PAIR_EXCHANGE or kind == EVAL_LARGEST_EXCHANGE


cdef inline int32_t from_thousandths(int64_t blend) noexcept nogil:
    """A blend in thousandths, rounded (halves up) and never below 0, which the search's
    frontier pruning needs of every evaluation."""
    blend += 500
    return <int32_t>(blend // 1000) if blend > 0 else 0


cdef int32_t pair_value(const GroupCensus *seen) noexcept nogil:
    return seen.first * seen.first - seen.second * seen.second


cdef void summarize_child(const Position *pos, const Group *move, const GroupSummary *parent,
                          GroupList *band, GroupSummary *child) noexcept nogil:
    """The summary of `pos`, the position `move` leaves, from `parent` (of the groups of the
    position it was played in) and a walk of the move's band, whose groups of two or more
    fruit go into `band`. What child_census needs holds: every listed group is at least as
    large as every unlisted one, and multi_count > largest_count whenever some are unlisted
    (it is exact only when the parent's list was whole, else an upper bound)."""
    cdef int band_lo, band_hi, singles, floor = 0
    band_of(move, pos.n, &band_lo, &band_hi)
    begin_child_summary(child, parent, band_lo, band_hi)
    singles = walk_columns(pos, band_lo, band_hi, band, NULL, 0, NULL, child.singles) - band.count
    keep_largest_beside(child, parent.largest, parent.largest_count, band_lo, band_hi)
    if parent.largest_count == parent.multi_count:
        child.multi_count = child.largest_count
    else:
        floor = parent.largest[parent.largest_count - 1].size   # no unlisted group is larger
    add_band_groups(child, band, singles, floor)


cdef bint census_of_summary(const GroupSummary *summary, GroupCensus *seen) noexcept nogil:
    """The two largest groups from a summary; False when it cannot tell them."""
    cdef int i
    memset(seen, 0, sizeof(GroupCensus))
    for i in range(summary.largest_count if summary.largest_count < 2 else 2):
        count_groups(seen, summary.largest[i].size, 1)
    if summary.largest_count < 2:
        if summary.largest_count < summary.multi_count:
            return False
        if summary.all_singles:
            count_groups(seen, 1, 2 if summary.all_singles > 1 else 1)
    return True


cdef bint spread_wider(const Group **groups, int count, int width) noexcept nogil:
    """Whether no band `width` columns wide (plus one) meets all of `groups`: the highest
    first column lies more than `width` columns right of the lowest last column."""
    cdef int i, lowest_hi = MAX_N, highest_lo = 0
    for i in range(count):
        if groups[i].hi < lowest_hi:
            lowest_hi = groups[i].hi
        if groups[i].lo > highest_lo:
            highest_lo = groups[i].lo
    return highest_lo - lowest_hi > width


cdef inline int32_t largest_reply(const Position *pos, const Group *g, const GroupList *groups,
                                  const GroupSummary *summary) noexcept nogil:
    """The largest group of the position taking `g` leaves (`summary`: of pos's groups)."""
    cdef Position after
    cdef GroupCensus seen
    play_group_unhashed(&after, pos, g, group_masks(groups, g))
    child_census(&after, g, summary, &seen, 0, True)
    return seen.first


cdef bint another_outside(const Group **largest, int count, const Group *g, int n) noexcept nogil:
    """Whether one of the `largest` groups other than `g` lies away from g's band: it then
    stands unchanged once g is taken, so the reply is at least as large as g."""
    cdef int i, band_lo, band_hi
    band_of(g, n, &band_lo, &band_hi)
    for i in range(count):
        if largest[i] != g and not in_band(largest[i], band_lo, band_hi):
            return True
    return False


cdef int least_reply(const Position *pos, const Group **largest, int count, int least,
                     const GroupList *groups, const GroupSummary *summary) noexcept nogil:
    """The least of `least` and the largest replies to taking each of the `largest` groups
    (all of one size), skipping those whose reply cannot be below `least`."""
    cdef int i, reply
    for i in range(count):
        if least <= largest[i].size and another_outside(largest, count, largest[i], pos.n):
            continue
        reply = largest_reply(pos, largest[i], groups, summary)
        if reply < least:
            least = reply
    return least


cdef void exchange_terms(const Position *pos, const Group *move, const GroupList *parent,
                         const GroupSummary *summary, GroupList *scratch, int32_t *pair,
                         int32_t *exchange, int32_t *first) noexcept nogil:
    """Into `pair` the greedy pair and into `exchange` the greedy exchange of `pos` (not
    empty): the mover takes a largest group (of several, the one that leaves the opponent
    the least), the opponent the largest group of what is left. Into `first` unless NULL,
    the largest group's size. Only the move's band is walked, and each largest group's
    band once it is taken; where the summary cannot tell (its list of the largest groups
    runs out, all groups are single), the position is listed whole."""
    cdef GroupSummary own
    cdef GroupCensus seen
    cdef const Group *largest[MAX_GROUPS]
    cdef int i, count = 0, least = MAX_GROUPS     # above any reply
    cdef bint whole
    start_list_after(scratch, parent)
    summarize_child(pos, move, summary, scratch, &own)
    whole = not census_of_summary(&own, &seen) or own.largest_count == 0
    if not whole:
        while count < own.largest_count and own.largest[count].size == seen.first:
            count += 1
        least = least_reply(pos, own.largest, count, least, scratch, &own)
        if count == own.largest_count and own.largest_count < own.multi_count:
            # More groups of the largest size may be unlisted. Each spans at most
            # seen.first columns, so when the listed ones are spread wider than its band,
            # one of them stands beside it: its reply is no smaller than seen.first.
            whole = least > seen.first or not spread_wider(own.largest, count, seen.first + 1)
    if whole:
        list_groups(pos, scratch)
        summarize(scratch, &own)
        census_of_summary(&own, &seen)
        count = 0
        for i in range(scratch.count):
            if scratch.groups[i].size == seen.first:
                largest[count] = &scratch.groups[i]
                count += 1
        least = least_reply(pos, largest, count, least, scratch, &own)
    pair[0] = pair_value(&seen)
    exchange[0] = seen.first * seen.first - least * least
    if first != NULL:
        first[0] = seen.first


cdef int32_t pair_exchange_value(const Position *pos, const Group *move, const GroupList *parent,
                                 const GroupSummary *summary, GroupList *scratch) noexcept nogil:
    """(BLEND_PAIR * greedy pair + BLEND_EXCHANGE * greedy exchange + BLEND_CONSTANT) / 1000,
    rounded, >= 0."""
    cdef int32_t pair, exchange
    cdef int64_t blend
    if pos.fruit == 0:
        return 0
    exchange_terms(pos, move, parent, summary, scratch, &pair, &exchange, NULL)
    blend = <int64_t>BLEND_PAIR * pair + <int64_t>BLEND_EXCHANGE * exchange + BLEND_CONSTANT
    return from_thousandths(blend)


cdef int32_t largest_exchange_value(const Position *pos, const Group *move, const GroupList *parent,
                                    const GroupSummary *summary, GroupList *scratch) noexcept nogil:
    """(LARGEST_PAIR * greedy pair + LARGEST_EXCHANGE * greedy exchange + LARGEST_SQUARE *
    g1^2 + LARGEST_CONSTANT) / 1000, rounded, >= 0, g1 the largest group's size."""
    cdef int32_t pair, exchange, first
    cdef int64_t blend
    if pos.fruit == 0:
        return 0
    exchange_terms(pos, move, parent, summary, scratch, &pair, &exchange, &first)
    blend = (<int64_t>LARGEST_PAIR * pair + <int64_t>LARGEST_EXCHANGE * exchange
             + <int64_t>LARGEST_SQUARE * first * first + LARGEST_CONSTANT)
    return from_thousandths(blend)


cdef int32_t evaluate(int kind, const Position *pos, const Group *move, const GroupList *parent,
                      const GroupSummary *summary, GroupList *scratch) noexcept nogil:
    cdef GroupCensus seen
    if kind == EVAL_GREEDY_PAIR:
        child_census(pos, move, summary, &seen, 0, False)
        return pair_value(&seen)
    if kind == EVAL_PAIR_EXCHANGE:
        return pair_exchange_value(pos, move, parent, summary, scratch)
    if kind == EVAL_LARGEST_EXCHANGE:
        return largest_exchange_value(pos, move, parent, summary, scratch)
    return 0
