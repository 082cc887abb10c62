# Groups unit: flood fills, the walks over a position's groups, their census and spans
# (contract: groups.pxd).
from libc.string cimport memcpy, memset

from bits cimport ctz, popcount
from core_types cimport MAX_GROUPS, MAX_N


cdef inline uint32_t fill_column(uint32_t seeds, uint32_t fruit) noexcept nogil:
    """The runs of `fruit` that contain a seed bit."""
    cdef uint32_t grown
    while True:
        grown = (seeds | (seeds << 1) | (seeds >> 1)) & fruit
        if grown == seeds:
            return seeds
        seeds = grown


cdef inline void flood(const uint32_t *fruit, int n, int col, uint32_t seed,
                       uint32_t *group, int *lo, int *hi) noexcept nogil:
    """Grow `seed` (in column `col`) over one type's plane; `group` must be zero on entry.
    A column is re-queued whenever a neighbour adds bits to it, so each pop closes it."""
    cdef int stack[MAX_N * 32]
    cdef int top = 1, c
    cdef uint32_t x, added
    group[col] = seed
    stack[0] = col
    lo[0] = col
    hi[0] = col
    while top:
        top -= 1
        c = stack[top]
        x = fill_column(group[c], fruit[c])
        group[c] = x
        if c > 0:
            added = x & fruit[c - 1] & ~group[c - 1]
            if added:
                group[c - 1] |= added
                stack[top] = c - 1
                top += 1
                if c - 1 < lo[0]:
                    lo[0] = c - 1
        if c + 1 < n:
            added = x & fruit[c + 1] & ~group[c + 1]
            if added:
                group[c + 1] |= added
                stack[top] = c + 1
                top += 1
                if c + 1 > hi[0]:
                    hi[0] = c + 1


cdef inline void add_group(MoveList *moves, int t, int lo, int hi, const uint32_t *masks,
                           int size) noexcept nogil:
    cdef Group *g = &moves.groups[moves.count]
    g.fruit_type = t
    g.lo = lo
    g.hi = hi
    g.size = size
    g.key = lo * 32 + ctz(masks[0])
    g.first_mask = moves.mask_count
    memcpy(&moves.masks[moves.mask_count], masks, (hi - lo + 1) * sizeof(uint32_t))
    moves.mask_count += hi - lo + 1
    moves.count += 1


cdef inline void count_groups(GroupCensus *seen, int size, int count, bint listed) noexcept nogil:
    """Record `count` groups of `size` fruit."""
    if not listed:
        seen.unlisted += count
        if size > seen.largest_unlisted:
            seen.largest_unlisted = size
    if size > seen.first:
        seen.second = seen.first
        seen.first = size
        count -= 1
    if count > 0 and size > seen.second:
        seen.second = size


cdef void walk_columns(const Position *pos, int first, int last, MoveList *moves, int min_size,
                       GroupCensus *seen, GroupSpans *spans) noexcept nogil:
    """Every group with fruit in columns first..last once, added to what `seen`, `spans`
    (unless NULL) and `moves` (the groups of at least `min_size` fruit; may be NULL when
    min_size is above any group) hold. Groups of one fruit (most of them when p is large)
    are found in bulk with bit operations; only the rest pay for a flood fill, which may
    reach beyond the columns."""
    cdef uint32_t visited[MAX_N]
    cdef uint32_t group[MAX_N]
    cdef const uint32_t *fruit
    cdef uint32_t x, singles, neighbours, bit
    cdef int t, c, cc, lo, hi, size, n = pos.n
    memset(visited, 0, sizeof(visited))
    memset(group, 0, sizeof(group))
    for t in range(pos.types):
        fruit = pos.plane[t]
        for c in range(first, last + 1):
            x = fruit[c] & ~visited[c]
            if not x:
                continue
            neighbours = (fruit[c] << 1) | (fruit[c] >> 1)
            if c > 0:
                neighbours |= fruit[c - 1]
            if c + 1 < n:
                neighbours |= fruit[c + 1]
            singles = x & ~neighbours
            x &= ~singles
            if singles:
                count_groups(seen, 1, popcount(singles), min_size <= 1)
                if spans != NULL:
                    spans.singles[c] += popcount(singles)
                    spans.all_singles += popcount(singles)
                if min_size <= 1:
                    while singles:
                        bit = singles & (~singles + 1)
                        add_group(moves, t, c, c, &bit, 1)
                        singles ^= bit
            while x:
                flood(fruit, n, c, x & (~x + 1), group, &lo, &hi)
                size = 0
                for cc in range(lo, hi + 1):
                    size += popcount(group[cc])
                    visited[cc] |= group[cc]
                count_groups(seen, size, 1, size >= min_size)
                if spans != NULL:
                    spans.size[spans.count] = size
                    spans.lo[spans.count] = lo
                    spans.hi[spans.count] = hi
                    spans.count += 1
                if size >= min_size:
                    add_group(moves, t, lo, hi, &group[lo], size)
                for cc in range(lo, hi + 1):
                    group[cc] = 0
                x &= ~visited[c]


cdef void walk_groups(const Position *pos, MoveList *moves, int min_size,
                      GroupCensus *seen, GroupSpans *spans) noexcept nogil:
    memset(seen, 0, sizeof(GroupCensus))
    if spans != NULL:
        spans.count = 0
        spans.all_singles = 0
        memset(spans.singles, 0, sizeof(spans.singles))
    if moves == NULL:
        min_size = MAX_GROUPS + 1
    else:
        moves.count = 0
        moves.mask_count = 0
    walk_columns(pos, 0, pos.n - 1, moves, min_size, seen, spans)


cdef void enumerate_groups(const Position *pos, MoveList *moves) noexcept nogil:
    cdef GroupCensus seen
    walk_groups(pos, moves, 1, &seen, NULL)


cdef void child_census(const Position *child, const Group *move, const GroupSpans *parent,
                       GroupCensus *seen) noexcept nogil:
    # Gravity moves fruit only in the move's own columns, so a group with no fruit in them
    # or beside them (in the move's band, one column wider on each side) stands unchanged
    # after the move; every other group of the new position has fruit in the band, and is
    # found by flood fills started there.
    cdef int i, c, outside_singles
    cdef int band_lo = move.lo - 1 if move.lo > 0 else 0
    cdef int band_hi = move.hi + 1 if move.hi + 1 < child.n else child.n - 1
    memset(seen, 0, sizeof(GroupCensus))
    for i in range(parent.count):
        if parent.hi[i] < band_lo or parent.lo[i] > band_hi:
            count_groups(seen, parent.size[i], 1, True)
    if seen.second < 1:
        outside_singles = parent.all_singles
        for c in range(band_lo, band_hi + 1):
            outside_singles -= parent.singles[c]
        if outside_singles:
            count_groups(seen, 1, 2 if outside_singles > 1 else 1, True)
    walk_columns(child, band_lo, band_hi, NULL, MAX_GROUPS + 1, seen, NULL)
