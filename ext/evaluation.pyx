# Evaluation unit (contract: evaluation.pxd). The pair is the agent's default: the
# cheapest evaluation that looks past the horizon and damps the odd/even swing of a bare
# margin; the self-play figures behind the choice are in docs/core-speed.md.
from libc.stdint cimport int64_t
from libc.string cimport memcpy, memset

from core_types cimport MAX_GROUPS, MAX_N


cdef bint needs_summary(int kind) noexcept nogil:
    return (kind == EVAL_GREEDY_PAIR or kind == EVAL_PAIR_EXCHANGE or kind == EVAL_HOT_EXCHANGE
            or kind == EVAL_LARGEST_EXCHANGE or kind == EVAL_LARGE_GROUPS or kind == EVAL_BEST_EXCHANGE
            or kind == EVAL_SIBLING_EXCHANGE or kind == EVAL_SIBLING_BEST)


cdef bint needs_parent_list(int kind) noexcept nogil:
    return kind == EVAL_ALTERNATING


cdef inline int32_t from_thousandths(int64_t blend) noexcept nogil:
    """A blend in thousandths, rounded (halves up) and never below 0, which the search's
    frontier pruning needs of every evaluation."""
    blend += 500
    return <int32_t>(blend // 1000) if blend > 0 else 0


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


cdef void child_summary(const GroupSummary *parent, const GroupList *band, int band_lo, int band_hi,
                        GroupSummary *child) noexcept nogil:
    """The summary of a child from its parent's and the groups of its move's band (`band`,
    walked in the child). What child_census needs holds: every listed group is at least as
    large as every unlisted one, and multi_count > largest_count whenever some are unlisted
    (it is exact only when the parent's list was whole, else an upper bound)."""
    cdef int i, c, floor = 0
    cdef bint whole = parent.largest_count == parent.multi_count
    cdef const Group *g
    memcpy(child, parent, sizeof(GroupSummary))
    child.largest_count = 0
    for i in range(parent.largest_count):
        g = parent.largest[i]
        if not in_band(g, band_lo, band_hi):
            child.largest[child.largest_count] = g
            child.largest_count += 1
    if whole:
        child.multi_count = child.largest_count
    else:
        floor = parent.largest[parent.largest_count - 1].size   # no unlisted group is larger
    for c in range(band_lo, band_hi + 1):
        child.all_singles -= child.singles[c]
        child.singles[c] = 0
    for i in range(band.count):
        g = &band.groups[i]
        if g.size == 1:
            child.singles[g.lo] += 1
            child.all_singles += 1
        elif g.size >= floor:
            keep_if_largest(child, g)
        else:
            child.multi_count += 1
    child.ready = 1


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
    child_census(&after, g, summary, &seen)
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


cdef bint largest_sizes(const GroupSummary *summary, int32_t *sizes, int count) noexcept nogil:
    """Into `sizes`, the `count` largest group sizes, 0 where there are fewer groups; False
    when the summary's list of the largest runs out before them."""
    cdef int i, known = summary.largest_count
    if known < count and known < summary.multi_count:
        return False
    for i in range(count):
        if i < known:
            sizes[i] = summary.largest[i].size
        else:
            sizes[i] = 1 if i < known + summary.all_singles else 0
    return True


cdef int32_t largest_outside(const GroupSummary *summary, const Group *g, int band_lo,
                             int band_hi) noexcept nogil:
    """The largest of the summary's listed groups other than `g` that lie wholly outside
    columns band_lo..band_hi (0 when none): it stands unchanged once a group of that band
    is taken, so the reply is at least as large."""
    cdef int i
    cdef int32_t out = 0
    cdef const Group *h
    for i in range(summary.largest_count):
        h = summary.largest[i]
        if h != g and h.size > out and not in_band(h, band_lo, band_hi):
            out = h.size
    return out


cdef int32_t best_of_groups(const Position *pos, const Group **candidates, int count, int32_t best,
                            const GroupList *groups, const GroupSummary *summary) noexcept nogil:
    """The most of `best` and g^2 - r^2 over the `candidates` g, r the largest group taking g
    leaves; a reply is computed only where the bound g^2 - (the largest listed group left
    alone)^2 can beat what is found."""
    cdef int i, band_lo, band_hi
    cdef int32_t square, out, reply
    for i in range(count):
        square = candidates[i].size * candidates[i].size
        band_of(candidates[i], pos.n, &band_lo, &band_hi)
        out = largest_outside(summary, candidates[i], band_lo, band_hi)
        if square - out * out <= best:
            continue
        reply = largest_reply(pos, candidates[i], groups, summary)
        if square - reply * reply > best:
            best = square - reply * reply
    return best


cdef bint unlisted_may_beat(const GroupSummary *summary, int n, int32_t best) noexcept nogil:
    """Whether a group the summary does not list could make an exchange above `best`. Each
    is at most as large as the least listed one (singles: 1), so its band fits a window
    that many columns wide plus two; the listed groups away from that window stand
    unchanged, and the largest of them bounds its reply from below."""
    cdef int start, lo, hi
    cdef int32_t size, out, least_out = MAX_GROUPS
    if summary.largest_count < summary.multi_count:
        size = summary.largest[summary.largest_count - 1].size
    elif summary.all_singles:
        size = 1
    else:
        return False
    if size * size <= best:
        return False
    for start in range(-1, n):
        lo = start if start > 0 else 0
        hi = start + size + 1 if start + size + 1 < n else n - 1
        out = largest_outside(summary, NULL, lo, hi)
        if out < least_out:
            least_out = out
    return size * size - least_out * least_out > best


cdef void exchange_terms(const Position *pos, const Group *move, const GroupList *parent,
                         const GroupSummary *summary, GroupList *scratch, int32_t *pair,
                         int32_t *exchange, int32_t *hot, int32_t *first, int32_t *large,
                         int32_t *best) noexcept nogil:
    """Into `pair` the greedy pair and into `exchange` the greedy exchange of `pos` (not
    empty): the mover takes a largest group (of several, the one that leaves the opponent
    the least), the opponent the largest group of what is left. Into `first` unless NULL,
    the largest group's size. Into `large` unless NULL, how many groups have at least
    LARGE_SIZE fruit. Into `best` unless NULL, the best exchange: the most of g^2 - r^2
    over every group g, r the largest group taking g leaves. Into `hot` unless NULL,
    g1^2 - g2^2 + g3^2 - ... over the HOT_GROUPS largest groups, as independent hot
    switches. Only the move's band is walked, and each largest group's band once it is
    taken; where the summary cannot tell (its list of the largest groups runs out, all
    groups are single), the position is listed whole (HOT_GROUPS <= SUMMARY_LARGEST, so
    a whole list always tells)."""
    cdef GroupSummary own
    cdef GroupCensus seen
    cdef const Group *largest[MAX_GROUPS]
    cdef int32_t sizes[HOT_GROUPS]
    cdef int i, count = 0, band_lo, band_hi, least = MAX_GROUPS     # above any reply
    cdef bint whole
    band_of(move, pos.n, &band_lo, &band_hi)
    scratch.count = 0
    scratch.pool = parent.pool
    scratch.mask_start = scratch.mask_end = parent.mask_end
    walk_columns(pos, band_lo, band_hi, scratch, NULL)
    child_summary(summary, scratch, band_lo, band_hi, &own)
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
        # the hot switches need more of the largest groups than the summary kept
        whole = whole or (hot != NULL and not largest_sizes(&own, sizes, HOT_GROUPS))
        # and the count of large groups, the ones it left out when all it kept are large
        whole = whole or (large != NULL and own.largest_count < own.multi_count
                          and own.largest[own.largest_count - 1].size >= LARGE_SIZE)
        if not whole and best != NULL:
            best[0] = best_of_groups(pos, own.largest, own.largest_count,
                                     seen.first * seen.first - least * least, scratch, &own)
            # and the groups it does not list, when one of them might do better
            whole = unlisted_may_beat(&own, pos.n, best[0])
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
        if best != NULL:
            for i in range(scratch.count):
                largest[i] = &scratch.groups[i]
            best[0] = best_of_groups(pos, largest, scratch.count, seen.first * seen.first - least * least,
                                     scratch, &own)
    pair[0] = pair_value(&seen)
    exchange[0] = seen.first * seen.first - least * least
    if first != NULL:
        first[0] = seen.first
    if large != NULL:
        large[0] = 0
        if whole:
            for i in range(scratch.count):
                large[0] += scratch.groups[i].size >= LARGE_SIZE
        else:
            for i in range(own.largest_count):
                large[0] += own.largest[i].size >= LARGE_SIZE
    if hot != NULL:
        largest_sizes(&own, sizes, HOT_GROUPS)
        hot[0] = 0
        for i in range(HOT_GROUPS):
            hot[0] += sizes[i] * sizes[i] if i % 2 == 0 else -sizes[i] * sizes[i]


cdef int32_t pair_exchange_value(const Position *pos, const Group *move, const GroupList *parent,
                                 const GroupSummary *summary, GroupList *scratch) noexcept nogil:
    """(BLEND_PAIR * greedy pair + BLEND_EXCHANGE * greedy exchange + BLEND_CONSTANT) / 1000,
    rounded, >= 0."""
    cdef int32_t pair, exchange
    cdef int64_t blend
    if pos.fruit == 0:
        return 0
    exchange_terms(pos, move, parent, summary, scratch, &pair, &exchange, NULL, NULL, NULL, NULL)
    blend = <int64_t>BLEND_PAIR * pair + <int64_t>BLEND_EXCHANGE * exchange + BLEND_CONSTANT
    return from_thousandths(blend)


cdef int32_t hot_exchange_value(const Position *pos, const Group *move, const GroupList *parent,
                                const GroupSummary *summary, GroupList *scratch) noexcept nogil:
    """(HOT_PAIR * greedy pair + HOT_EXCHANGE * greedy exchange + HOT_SWITCHES * hot sum
    + HOT_CONSTANT) / 1000, rounded, >= 0: the pair exchange and what the largest groups
    are worth as independent hot switches."""
    cdef int32_t pair, exchange, hot
    cdef int64_t blend
    if pos.fruit == 0:
        return 0
    exchange_terms(pos, move, parent, summary, scratch, &pair, &exchange, &hot, NULL, NULL, NULL)
    blend = (<int64_t>HOT_PAIR * pair + <int64_t>HOT_EXCHANGE * exchange + <int64_t>HOT_SWITCHES * hot
             + HOT_CONSTANT)
    return from_thousandths(blend)


cdef int32_t squares_blend(const Position *pos, const Group *move, const GroupList *parent,
                           const GroupSummary *summary, GroupList *scratch, int32_t weight_pair,
                           int32_t weight_exchange, int32_t weight_square, int32_t constant) noexcept nogil:
    """(weight_pair * greedy pair + weight_exchange * greedy exchange + weight_square *
    g1^2 + constant) / 1000, rounded, >= 0, g1 the largest group's size."""
    cdef int32_t pair, exchange, first
    cdef int64_t blend
    if pos.fruit == 0:
        return 0
    exchange_terms(pos, move, parent, summary, scratch, &pair, &exchange, NULL, &first, NULL, NULL)
    blend = (<int64_t>weight_pair * pair + <int64_t>weight_exchange * exchange
             + <int64_t>weight_square * first * first + constant)
    return from_thousandths(blend)


cdef int32_t large_groups_value(const Position *pos, const Group *move, const GroupList *parent,
                                const GroupSummary *summary, GroupList *scratch) noexcept nogil:
    """(LARGE_PAIR * greedy pair + LARGE_EXCHANGE * greedy exchange + LARGE_SQUARE * g1^2
    + LARGE_COUNT * the groups of at least LARGE_SIZE fruit + LARGE_CONSTANT) / 1000,
    rounded, >= 0."""
    cdef int32_t pair, exchange, first, large
    cdef int64_t blend
    if pos.fruit == 0:
        return 0
    exchange_terms(pos, move, parent, summary, scratch, &pair, &exchange, NULL, &first, &large, NULL)
    blend = (<int64_t>LARGE_PAIR * pair + <int64_t>LARGE_EXCHANGE * exchange
             + <int64_t>LARGE_SQUARE * first * first + <int64_t>LARGE_COUNT * large
             + LARGE_CONSTANT)
    return from_thousandths(blend)


cdef int32_t best_blend(const Position *pos, const Group *move, const GroupList *parent,
                        const GroupSummary *summary, GroupList *scratch, int32_t weight_pair,
                        int32_t weight_exchange, int32_t weight_square, int32_t weight_best,
                        int32_t constant) noexcept nogil:
    """(weight_pair * greedy pair + weight_exchange * greedy exchange + weight_square * g1^2
    + weight_best * best exchange + constant) / 1000, rounded, >= 0."""
    cdef int32_t pair, exchange, first, best
    cdef int64_t blend
    if pos.fruit == 0:
        return 0
    exchange_terms(pos, move, parent, summary, scratch, &pair, &exchange, NULL, &first, NULL, &best)
    blend = (<int64_t>weight_pair * pair + <int64_t>weight_exchange * exchange
             + <int64_t>weight_square * first * first + <int64_t>weight_best * best + constant)
    return from_thousandths(blend)


cdef const Group *greedy_largest(const GroupList *groups) noexcept nogil:
    """A largest group; of several, the one of least key (a name independent of the list's
    order, which the oracle computes too)."""
    cdef const Group *best = NULL
    cdef const Group *g
    cdef int i
    for i in range(groups.count):
        g = &groups.groups[i]
        if best == NULL or g.size > best.size or (g.size == best.size and g.key < best.key):
            best = g
    return best


cdef int32_t greedy_line_value(const Position *pos) noexcept nogil:
    """(LINE_PAIR * greedy pair + LINE_WEIGHT * greedy line + LINE_CONSTANT) / 1000, rounded,
    >= 0. The greedy line: LINE_PLIES moves, the sides in turn taking greedy_largest, with
    gravity and the merges it makes, then the greedy pair of what is left, signed squares
    from the mover's view. The first position is listed whole (one ply above the horizon
    its parent's list is only the band's), the line's next ones from it by their moves'
    bands, in lists of its own."""
    cdef Group storage[2][MAX_GROUPS]
    cdef uint32_t pool[(LINE_PLIES + 1) * MAX_GROUPS]     # each list's own masks: <= its fruit
    cdef GroupList lists[2]
    cdef GroupList *here
    cdef GroupCensus seen
    cdef Position line[2]
    cdef const Group *g
    cdef int ply
    cdef int32_t pair, total = 0, sign = 1
    cdef int64_t blend
    if pos.fruit == 0:
        return 0
    lists[0].groups = storage[0]
    lists[1].groups = storage[1]
    lists[0].pool = pool
    lists[0].mask_start = 0
    list_groups(pos, &lists[0])
    take_census(&lists[0], 1, &seen)
    pair = seen.first * seen.first - seen.second * seen.second
    line[0] = pos[0]
    for ply in range(LINE_PLIES):
        here = &lists[ply & 1]
        g = greedy_largest(here)
        total += sign * g.size * g.size
        sign = -sign
        play_group_unhashed(&line[(ply + 1) & 1], &line[ply & 1], g, group_masks(here, g))
        if line[(ply + 1) & 1].fruit == 0:
            break
        list_child_groups(here, g, &line[(ply + 1) & 1], &lists[(ply + 1) & 1])
    else:
        take_census(&lists[LINE_PLIES & 1], 1, &seen)
        total += sign * (seen.first * seen.first - seen.second * seen.second)
    blend = <int64_t>LINE_PAIR * pair + <int64_t>LINE_WEIGHT * total + LINE_CONSTANT
    return from_thousandths(blend)


cdef int32_t evaluate(int kind, const Position *pos, const Group *move, const GroupList *parent,
                      const GroupSummary *summary, GroupList *scratch) noexcept nogil:
    cdef GroupCensus seen
    if kind == EVAL_GREEDY_PAIR:
        child_census(pos, move, summary, &seen)
        return pair_value(&seen)
    if kind == EVAL_ALTERNATING:
        list_child_groups(parent, move, pos, scratch)
        return alternating_value(scratch)
    if kind == EVAL_PAIR_EXCHANGE:
        return pair_exchange_value(pos, move, parent, summary, scratch)
    if kind == EVAL_HOT_EXCHANGE:
        return hot_exchange_value(pos, move, parent, summary, scratch)
    if kind == EVAL_GREEDY_LINE:
        return greedy_line_value(pos)
    if kind == EVAL_LARGEST_EXCHANGE:
        return squares_blend(pos, move, parent, summary, scratch, LARGEST_PAIR, LARGEST_EXCHANGE,
                             LARGEST_SQUARE, LARGEST_CONSTANT)
    if kind == EVAL_LARGE_GROUPS:
        return large_groups_value(pos, move, parent, summary, scratch)
    if kind == EVAL_BEST_EXCHANGE:
        return best_blend(pos, move, parent, summary, scratch, BEST_PAIR, BEST_EXCHANGE, BEST_SQUARE,
                          BEST_REPLY, BEST_CONSTANT)
    if kind == EVAL_SIBLING_EXCHANGE:
        return squares_blend(pos, move, parent, summary, scratch, SIBLING_PAIR, SIBLING_EXCHANGE,
                             SIBLING_SQUARE, SIBLING_CONSTANT)
    if kind == EVAL_SIBLING_BEST:
        return best_blend(pos, move, parent, summary, scratch, SIBLING_BEST_PAIR, SIBLING_BEST_EXCHANGE,
                          SIBLING_BEST_SQUARE, SIBLING_BEST_REPLY, SIBLING_BEST_CONSTANT)
    return 0
