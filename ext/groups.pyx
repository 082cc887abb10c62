# Groups unit: flood fills, the walks over a position's groups, lists built from a parent's,
# census and summaries (contract: groups.pxd).
#
# Gravity moves fruit only in a move's own columns, so a group with no fruit in them or
# beside them (in the move's band, one column wider on each side) stands unchanged after
# the move; every other group of the new position has fruit in the band and is found by
# flood fills started there. A child's groups are the parent's away from the band plus a
# walk of the band: a few columns instead of the board.
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memset

from bits cimport ctz, popcount
from core_types cimport MAX_GROUPS, MAX_N


cdef bint grow_block(void **block, size_t size) noexcept nogil:
    """realloc into `block[0]`, which is left as it was when the memory is not there."""
    cdef void *grown = realloc(block[0], size)
    if grown == NULL:
        return False
    block[0] = grown
    return True


cdef bint reserve_lists(PlyLists *lists, int plies, int room) noexcept nogil:
    cdef int p
    if plies <= lists.plies:
        return True
    if not (grow_block(<void **> &lists.lists, plies * sizeof(GroupList))
            and grow_block(<void **> &lists.storage, plies * room * sizeof(Group))
            and grow_block(<void **> &lists.pool, plies * room * sizeof(uint32_t))):
        return False
    for p in range(plies):      # the blocks may have moved
        lists.lists[p].groups = lists.storage + p * room
        lists.lists[p].pool = lists.pool
    lists.lists[0].mask_start = 0
    lists.plies = plies
    lists.room = room
    return True


cdef void free_lists(PlyLists *lists) noexcept nogil:
    free(lists.lists)
    free(lists.storage)
    free(lists.pool)
    memset(lists, 0, sizeof(PlyLists))


cdef inline uint32_t fill_column(uint32_t seeds, uint32_t fruit) noexcept nogil:
    """The runs of `fruit` that contain a seed bit."""
    cdef uint32_t grown
    while True:
        grown = (seeds | (seeds << 1) | (seeds >> 1)) & fruit
        if grown == seeds:
            return seeds
        seeds = grown


cdef inline uint32_t spread(uint32_t x, const uint32_t *fruit, uint32_t *marks, int c, int *stack,
                            int *top) noexcept nogil:
    """Mark the fruit of column c beside the bits `x` of a neighbouring column that are not
    marked yet, and queue the column when there are any; returns them."""
    cdef uint32_t added = x & fruit[c] & ~marks[c]
    if added:
        marks[c] |= added
        stack[top[0]] = c
        top[0] += 1
    return added


cdef inline void flood(const uint32_t *fruit, int n, int col, uint32_t seed,
                       uint32_t *group, int *lo, int *hi) noexcept nogil:
    """Grow `seed` (in column `col`) over one type's plane; `group` must be zero on entry.
    A column is re-queued whenever a neighbour adds bits to it, so each pop closes it."""
    cdef int stack[MAX_N * 32]
    cdef int top = 1, c
    cdef uint32_t x
    group[col] = seed
    stack[0] = col
    lo[0] = col
    hi[0] = col
    while top:
        top -= 1
        c = stack[top]
        x = fill_column(group[c], fruit[c])
        group[c] = x
        if c > 0 and spread(x, fruit, group, c - 1, stack, &top) and c - 1 < lo[0]:
            lo[0] = c - 1
        if c + 1 < n and spread(x, fruit, group, c + 1, stack, &top) and c + 1 > hi[0]:
            hi[0] = c + 1


cdef inline int flood_visited(const uint32_t *fruit, int n, int col, uint32_t seed, uint32_t *visited,
                              int *lo, int *hi) noexcept nogil:
    """Grow `seed` (in column `col`, not yet visited) over one type's plane straight into
    `visited`, and return its size: for walks that count groups but do not list them (one
    flood for both, told which, measured 2% slower). A column's fill may start from other
    groups of the type already visited there; they are closed (their neighbours are
    visited), so only this group's fruit is new."""
    cdef int stack[MAX_N * 32]
    cdef int top = 1, c, size = 1
    cdef uint32_t x, added
    visited[col] |= seed
    stack[0] = col
    lo[0] = col
    hi[0] = col
    while top:
        top -= 1
        c = stack[top]
        x = fill_column(visited[c] & fruit[c], fruit[c])
        size += popcount(x & ~visited[c])
        visited[c] |= x
        if c > 0:
            added = spread(x, fruit, visited, c - 1, stack, &top)
            size += popcount(added)
            if added and c - 1 < lo[0]:
                lo[0] = c - 1
        if c + 1 < n:
            added = spread(x, fruit, visited, c + 1, stack, &top)
            size += popcount(added)
            if added and c + 1 > hi[0]:
                hi[0] = c + 1
    return size


cdef inline void add_group(GroupList *out, int t, int lo, int hi, const uint32_t *masks,
                           int size) noexcept nogil:
    cdef Group *g = &out.groups[out.count]
    cdef int row = ctz(masks[0])
    g.lo = lo
    g.hi = hi
    g.size = size
    g.key = lo * 32 + row
    g.rank = ((t * MAX_N + lo) * 2 + (size > 1)) * 32 + row
    g.mask_at = out.mask_end
    memcpy(&out.pool[out.mask_end], masks, (hi - lo + 1) * sizeof(uint32_t))
    out.mask_end += hi - lo + 1
    out.count += 1


cdef inline uint32_t single_fruit(const uint32_t *fruit, int c, int n) noexcept nogil:
    """The fruit of column `c` of one type's plane with no neighbour of that type."""
    cdef uint32_t neighbours = (fruit[c] << 1) | (fruit[c] >> 1)
    if c > 0:
        neighbours |= fruit[c - 1]
    if c + 1 < n:
        neighbours |= fruit[c + 1]
    return fruit[c] & ~neighbours


cdef inline void add_singles(GroupList *out, int t, int c, uint32_t singles) noexcept nogil:
    """Append a group for each fruit of `singles` (of type t, in column c), lowest first."""
    cdef uint32_t bit
    while singles:
        bit = singles & (~singles + 1)
        add_group(out, t, c, c, &bit, 1)
        singles ^= bit


cdef void list_singles(const Position *pos, int first, int last, GroupList *out) noexcept nogil:
    cdef int t, c
    for t in range(pos.types):
        for c in range(first, last + 1):
            add_singles(out, t, c, single_fruit(pos.plane[t], c, pos.n))


cdef int walk_columns(const Position *pos, int first, int last, GroupList *out,
                      GroupCensus *seen, int enough, int *reach, int32_t *single_counts) noexcept nogil:
    # Groups of one fruit (most of them when p is large) are found in bulk with bit
    # operations; only the rest pay for a flood fill, which may reach beyond the columns.
    cdef uint32_t visited[MAX_N]
    cdef uint32_t group[MAX_N]
    cdef const uint32_t *fruit
    cdef uint32_t x, singles
    cdef int t, c, cc, lo, hi, size, found = 0, n = pos.n, count
    memset(visited, 0, sizeof(visited))
    if out != NULL:
        memset(group, 0, sizeof(group))
    for t in range(pos.types):
        fruit = pos.plane[t]
        for c in range(first, last + 1):
            x = fruit[c] & ~visited[c]
            if not x:
                continue
            singles = x & single_fruit(fruit, c, n)
            x &= ~singles
            if singles:
                count = popcount(singles)
                found += count
                if seen != NULL:
                    count_groups(seen, 1, count)
                if single_counts != NULL:
                    single_counts[c] += count
                elif out != NULL:
                    add_singles(out, t, c, singles)
            while x:
                if out == NULL:
                    size = flood_visited(fruit, n, c, x & (~x + 1), visited, &lo, &hi)
                else:
                    flood(fruit, n, c, x & (~x + 1), group, &lo, &hi)
                    size = 0
                    for cc in range(lo, hi + 1):
                        size += popcount(group[cc])
                        visited[cc] |= group[cc]
                found += 1
                if reach != NULL:
                    if lo < reach[0]:
                        reach[0] = lo
                    if hi > reach[1]:
                        reach[1] = hi
                if seen != NULL:
                    count_groups(seen, size, 1)
                    if enough and size >= enough:
                        return found
                if out != NULL:
                    add_group(out, t, lo, hi, &group[lo], size)
                    for cc in range(lo, hi + 1):
                        group[cc] = 0
                x &= ~visited[c]
    return found


cdef void list_groups(const Position *pos, GroupList *out) noexcept nogil:
    out.count = 0
    out.mask_end = out.mask_start
    walk_columns(pos, 0, pos.n - 1, out, NULL, 0, NULL, NULL)


cdef void list_child_groups(const GroupList *parent, const Group *move, const Position *child,
                            GroupList *out) noexcept nogil:
    cdef Group found[MAX_GROUPS]
    cdef GroupList band
    cdef int band_lo, band_hi
    band_of(move, child.n, &band_lo, &band_hi)
    start_list_after(&band, parent)
    band.groups = found
    walk_columns(child, band_lo, band_hi, &band, NULL, 0, NULL, NULL)
    sort_by_rank(found, band.count)     # the walk nearly keeps it
    # min_size 0: every group, and gcc drops the size test of the merge
    out.count = merge_by_rank(parent, 0, band_lo, band_hi, <const Group *> found, band.count, out.groups)
    out.pool = parent.pool
    out.mask_start = parent.mask_end
    out.mask_end = band.mask_end


cdef void take_census(const GroupList *groups, int min_size, GroupCensus *seen) noexcept nogil:
    cdef int i, size
    memset(seen, 0, sizeof(GroupCensus))
    for i in range(groups.count):
        size = groups.groups[i].size
        count_groups(seen, size, 1)
        if size < min_size:
            seen.unlisted += 1
            if size > seen.largest_unlisted:
                seen.largest_unlisted = size


cdef inline bint ranks_before(const Group *a, const Group *b) noexcept nogil:
    """Larger first, ties in rank order: the summary's order, however its groups arrive."""
    return a.size > b.size or (a.size == b.size and a.rank < b.rank)


cdef void keep_if_largest(GroupSummary *summary, const Group *g) noexcept nogil:
    cdef int j
    summary.multi_count += 1
    if summary.largest_count < SUMMARY_LARGEST:
        j = summary.largest_count
        summary.largest_count += 1
    elif ranks_before(g, summary.largest[SUMMARY_LARGEST - 1]):
        j = SUMMARY_LARGEST - 1
    else:
        return
    while j > 0 and ranks_before(g, summary.largest[j - 1]):
        summary.largest[j] = summary.largest[j - 1]
        j -= 1
    summary.largest[j] = g


cdef void summarize(const GroupList *groups, GroupSummary *summary) noexcept nogil:
    cdef int i
    cdef const Group *g
    memset(summary, 0, sizeof(GroupSummary))
    for i in range(groups.count):
        g = &groups.groups[i]
        if g.size == 1:
            summary.singles[g.lo] += 1
            summary.all_singles += 1
        else:
            keep_if_largest(summary, g)
    summary.ready = 1


cdef void begin_child_summary(GroupSummary *child, const GroupSummary *parent, int band_lo,
                              int band_hi) noexcept nogil:
    cdef int c
    memcpy(child, parent, sizeof(GroupSummary))
    child.largest_count = 0
    for c in range(band_lo, band_hi + 1):
        child.all_singles -= child.singles[c]
        child.singles[c] = 0


cdef void keep_largest_beside(GroupSummary *child, const Group *const *by_size, int count, int band_lo,
                              int band_hi) noexcept nogil:
    cdef int i
    cdef const Group *g
    for i in range(count):
        g = by_size[i]
        if g.size == 1 or child.largest_count == SUMMARY_LARGEST:
            break
        if not in_band(g, band_lo, band_hi):
            child.largest[child.largest_count] = g
            child.largest_count += 1


cdef void add_band_groups(GroupSummary *child, const GroupList *band, int band_singles,
                          int floor) noexcept nogil:
    cdef int i
    child.all_singles += band_singles
    for i in range(band.count):
        if band.groups[i].size >= floor:
            keep_if_largest(child, &band.groups[i])
        else:
            child.multi_count += 1
    child.ready = 1


cdef bint kept_census(const Group *move, int n, const GroupSummary *summary,
                      GroupCensus *seen, bint first_only) noexcept nogil:
    # Of the parent's groups away from the band only the two largest count (the largest,
    # `first_only`), found among the largest few; when those are all in the band, False.
    cdef int i, c, kept = 0, outside_singles, band_lo, band_hi
    cdef int wanted = 1 if first_only else 2
    cdef const Group *g
    band_of(move, n, &band_lo, &band_hi)
    memset(seen, 0, sizeof(GroupCensus))
    for i in range(summary.largest_count):
        g = summary.largest[i]
        if not in_band(g, band_lo, band_hi):
            count_groups(seen, g.size, 1)
            kept += 1
            if kept == wanted:
                break
    if kept < wanted and summary.largest_count < summary.multi_count:
        return False
    if seen.first < 1 or (seen.second < 1 and not first_only):
        outside_singles = summary.all_singles
        for c in range(band_lo, band_hi + 1):
            outside_singles -= summary.singles[c]
        if outside_singles:
            count_groups(seen, 1, 2 if outside_singles > 1 else 1)
    return True


cdef void child_census(const Position *child, const Group *move, const GroupSummary *summary,
                       GroupCensus *seen, int enough, bint first_only) noexcept nogil:
    cdef int band_lo, band_hi
    band_of(move, child.n, &band_lo, &band_hi)
    if not kept_census(move, child.n, summary, seen, first_only):
        memset(seen, 0, sizeof(GroupCensus))
        if first_only:
            # every group the move leaves beside its band is no larger than the summary's
            # smallest, all of whose groups are in the band: a band group that large is first
            walk_columns(child, band_lo, band_hi, NULL, seen, enough, NULL, NULL)
            if seen.first >= summary.largest[summary.largest_count - 1].size:
                return
            memset(seen, 0, sizeof(GroupCensus))
        walk_columns(child, 0, child.n - 1, NULL, seen, enough, NULL, NULL)
        return
    if enough and seen.first >= enough:
        return
    walk_columns(child, band_lo, band_hi, NULL, seen, enough, NULL, NULL)


cdef void count_columns(const GroupList *groups, int n, int min_size, ColumnCounts *counts) noexcept nogil:
    cdef int32_t ending[MAX_N]
    cdef int32_t starting[MAX_N]
    cdef int i, c
    memset(ending, 0, sizeof(ending))
    memset(starting, 0, sizeof(starting))
    for i in range(groups.count):
        if groups.groups[i].size >= min_size:
            ending[groups.groups[i].hi] += 1
            starting[groups.groups[i].lo] += 1
    counts.ends_before[0] = 0
    for c in range(n):
        counts.ends_before[c + 1] = counts.ends_before[c] + ending[c]
    counts.starts_after[n - 1] = 0
    for c in range(n - 1, 0, -1):
        counts.starts_after[c - 1] = counts.starts_after[c] + starting[c]


cdef int32_t count_child_groups(const Position *child, const Group *move,
                                const ColumnCounts *parent) noexcept nogil:
    cdef int band_lo, band_hi
    band_of(move, child.n, &band_lo, &band_hi)
    return (parent.ends_before[band_lo] + parent.starts_after[band_hi]
            + walk_columns(child, band_lo, band_hi, NULL, NULL, 0, NULL, NULL))


cdef int groups_of_size(const GroupList *groups, int min_size, int max_size, const Group **order) noexcept nogil:
    """Into `order`, the groups of min_size..max_size fruit; returns how many."""
    cdef int i, count = 0
    for i in range(groups.count):
        if min_size <= groups.groups[i].size <= max_size:
            order[count] = &groups.groups[i]
            count += 1
    return count
