# Frontier unit (contract: frontier.pxd): the moves of a node one ply above the horizon
# (two for a horizon worth 0, see last_plies.pyx) read from its parent's list instead of
# listed. Such nodes are almost all of a search, have hundreds of groups and are mostly
# settled by their first move, so only short stretches of the parent's list, largest
# first, are read for them.
from libc.string cimport memcpy, memset

from core_types cimport MAX_GROUPS


cdef void index_children(const GroupList *groups, int n, ParentIndex *index) noexcept nogil:
    # a counting sort: sizes are small integers
    cdef int32_t *at_size = index.at_least
    cdef int i, size, largest = 0, place = 0
    for i in range(groups.count):
        if groups.groups[i].size > largest:
            largest = groups.groups[i].size
    memset(at_size, 0, (largest + 2) * sizeof(int32_t))
    for i in range(groups.count):
        at_size[groups.groups[i].size] += 1
    for size in range(largest, 0, -1):      # at_size[size] becomes where that size starts
        at_size[size], place = place, place + at_size[size]
    for i in range(groups.count):           # each size's start moves on to the next size's:
        size = groups.groups[i].size        # at_size[s] ends as the count of groups >= s
        index.by_size[at_size[size]] = &groups.groups[i]
        at_size[size] += 1
    index.largest_size = largest
    memset(index.by_key, 0xFF, sizeof(index.by_key))
    for i in range(groups.count):
        index.by_key[groups.groups[i].key] = i
    count_columns(groups, n, 1, &index.all)
    count_columns(groups, n, 2, &index.multi)
    summarize(groups, &index.summary)
    index.stamp += 1
    if index.stamp == 0:                    # wrapped: every census stored is stale
        memset(index.replies, 0, sizeof(index.replies))
        index.stamp = 1
    index.ready = 1


cdef inline int groups_from_size(const ParentIndex *index, int size) noexcept nogil:
    """How many of the index's groups have at least `size` fruit."""
    return index.at_least[size if size <= index.largest_size + 1 else index.largest_size + 1]


cdef void frontier_view(const GroupList *parent, const ParentIndex *index, const Group *move,
                        const Position *child, int min_size, GroupList *band, FrontierView *view,
                        GroupCensus *seen, GroupSummary *summary) noexcept nogil:
    # The child's groups are the parent's away from the band and the band's. Of the kept
    # ones only short stretches of the parent's, largest first, are read: the largest few
    # for the summary, and the largest two below min_size; the rest are counts.
    cdef int i, c, kept = 0
    cdef const Group *g
    view.parent = parent
    view.index = index
    view.band = band
    view.child = child
    view.min_size = min_size
    band_of(move, child.n, &view.band_lo, &view.band_hi)
    memcpy(summary, &index.summary, sizeof(GroupSummary))
    summary.multi_count = index.multi.ends_before[view.band_lo] + index.multi.starts_after[view.band_hi]
    summary.largest_count = 0
    for c in range(view.band_lo, view.band_hi + 1):
        summary.all_singles -= summary.singles[c]
        summary.singles[c] = 0
    band.count = 0
    band.pool = parent.pool
    band.mask_start = band.mask_end = parent.mask_end
    # the band's single fruit are most of its groups when there are many types, and seldom
    # played this near the horizon: counted by column, not listed
    view.unlisted_singles = walk_columns(child, view.band_lo, view.band_hi, band, NULL, 0, NULL,
                                         summary.singles) - band.count
    summary.all_singles += view.unlisted_singles
    for i in range(parent.count):
        g = index.by_size[i]
        if g.size == 1 or summary.largest_count == SUMMARY_LARGEST:
            break
        if not in_band(g, view.band_lo, view.band_hi):
            summary.largest[summary.largest_count] = g
            summary.largest_count += 1
    memset(seen, 0, sizeof(GroupCensus))
    for i in range(groups_from_size(index, min_size), parent.count):
        g = index.by_size[i]
        if not in_band(g, view.band_lo, view.band_hi):
            if kept == 0:
                seen.largest_unlisted = g.size
            kept += 1
            if kept == 2:
                break
    seen.unlisted = kept
    if min_size > 1 and view.unlisted_singles:
        seen.unlisted += view.unlisted_singles
        if seen.largest_unlisted < 1:
            seen.largest_unlisted = 1
    for i in range(band.count):
        g = &band.groups[i]
        if g.size < min_size:
            seen.unlisted += 1
            if g.size > seen.largest_unlisted:
                seen.largest_unlisted = g.size
        keep_if_largest(summary, g)
    if seen.unlisted > 2:
        seen.unlisted = 2
    summary.ready = 1


cdef inline void sort_by_rank(const Group **groups, int count) noexcept nogil:
    """Insertion sort: for few groups, or groups nearly in rank order already."""
    cdef int i, j
    cdef const Group *g
    for i in range(1, count):
        g = groups[i]
        j = i
        while j > 0 and groups[j - 1].rank > g.rank:
            groups[j] = groups[j - 1]
            j -= 1
        groups[j] = g


cdef inline void list_band_singles(FrontierView *view) noexcept nogil:
    """The band's groups of one fruit into its list, after the others, when they are moves."""
    if view.unlisted_singles and view.min_size <= 1:
        list_singles(view.child, view.band_lo, view.band_hi, view.band)
        view.unlisted_singles = 0


cdef int largest_moves(FrontierView *view, const Group **out) noexcept nogil:
    cdef int i, count = 0
    cdef const Group *g
    list_band_singles(view)
    for i in range(groups_from_size(view.index, view.min_size)):
        g = view.index.by_size[i]
        if in_band(g, view.band_lo, view.band_hi):
            continue
        if count and g.size < out[0].size:
            break
        out[count] = g
        count += 1
    for i in range(view.band.count):
        g = &view.band.groups[i]
        if g.size < view.min_size or (count and g.size < out[0].size):
            continue
        if count and g.size > out[0].size:
            count = 0
        out[count] = g
        count += 1
    sort_by_rank(out, count)
    return count


cdef const Group *move_with_key(FrontierView *view, int key) noexcept nogil:
    cdef int i, at
    cdef const Group *g
    list_band_singles(view)
    for i in range(view.band.count):
        if view.band.groups[i].key == key:
            g = &view.band.groups[i]
            return g if g.size >= view.min_size else NULL
    at = view.index.by_key[key]
    if at < 0:
        return NULL
    g = &view.parent.groups[at]
    if in_band(g, view.band_lo, view.band_hi) or g.size < view.min_size:
        return NULL
    return g


cdef int all_moves(FrontierView *view, const Group **out) noexcept nogil:
    """A merge of the parent's kept groups with the band's, both in rank order."""
    cdef const Group *found[MAX_GROUPS]
    cdef const Group *multi[MAX_GROUPS]
    cdef int i, j = 0, k = 0, count = 0, found_count = 0, multi_count = 0
    cdef const Group *g
    for i in range(view.band.count):    # its groups of two or more fruit come first
        if view.band.groups[i].size > 1 and view.band.groups[i].size >= view.min_size:
            multi[multi_count] = &view.band.groups[i]
            multi_count += 1
    sort_by_rank(multi, multi_count)
    list_band_singles(view)
    for i in range(view.band.count):    # merged with its groups of one, in rank order already
        g = &view.band.groups[i]
        if g.size == 1 and view.min_size <= 1:
            while k < multi_count and multi[k].rank < g.rank:
                found[found_count] = multi[k]
                found_count += 1
                k += 1
            found[found_count] = g
            found_count += 1
    while k < multi_count:
        found[found_count] = multi[k]
        found_count += 1
        k += 1
    for i in range(view.parent.count):
        g = &view.parent.groups[i]
        if g.size < view.min_size or in_band(g, view.band_lo, view.band_hi):
            continue
        while j < found_count and found[j].rank < g.rank:
            out[count] = found[j]
            count += 1
            j += 1
        out[count] = g
        count += 1
    while j < found_count:
        out[count] = found[j]
        count += 1
        j += 1
    return count


cdef int view_count(const FrontierView *view) noexcept nogil:
    # the parent's groups wholly beside the band, and the band's
    return (view.index.all.ends_before[view.band_lo] + view.index.all.starts_after[view.band_hi]
            + view.band.count + view.unlisted_singles)
