# Frontier unit (contract: frontier.pxd): the moves of a node one ply above the horizon
# (two for a horizon worth 0, see last_plies.pyx) read from its parent's list instead of
# listed. Such nodes are almost all of a search, have hundreds of groups and are mostly
# settled by their first move, so only short stretches of the parent's list, largest
# first, are read for them.
from libc.string cimport memset

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


cdef inline void count_unlisted(const ParentIndex *index, const GroupList *parent, const FrontierView *view,
                           GroupCensus *seen) noexcept nogil:
    """Into `seen`, the view's groups below its min_size: how many (up to 2, the most that
    matters) and the largest of them."""
    cdef int i, kept = 0
    cdef const Group *g
    memset(seen, 0, sizeof(GroupCensus))
    for i in range(groups_from_size(index, view.min_size), parent.count):
        g = index.by_size[i]
        if not in_band(g, view.band_lo, view.band_hi):
            if kept == 0:
                seen.largest_unlisted = g.size
            kept += 1
            if kept == 2:
                break
    seen.unlisted = kept
    if view.min_size > 1 and view.unlisted_singles:
        seen.unlisted += view.unlisted_singles
        if seen.largest_unlisted < 1:
            seen.largest_unlisted = 1
    for i in range(view.band.count):
        g = &view.band.groups[i]
        if g.size < view.min_size:
            seen.unlisted += 1
            if g.size > seen.largest_unlisted:
                seen.largest_unlisted = g.size
    if seen.unlisted > 2:
        seen.unlisted = 2


cdef void frontier_view(const GroupList *parent, const ParentIndex *index, const Group *move,
                        const Position *child, int min_size, GroupList *band, FrontierView *view,
                        GroupCensus *seen, GroupSummary *summary) noexcept nogil:
    # The child's groups are the parent's away from the band and the band's. Of the kept
    # ones only short stretches of the parent's, largest first, are read: the largest few
    # for the summary, and the largest two below min_size; the rest are counts.
    view.parent = parent
    view.index = index
    view.band = band
    view.child = child
    view.min_size = min_size
    band_of(move, child.n, &view.band_lo, &view.band_hi)
    begin_child_summary(summary, &index.summary, view.band_lo, view.band_hi)
    summary.multi_count = index.multi.ends_before[view.band_lo] + index.multi.starts_after[view.band_hi]
    start_list_after(band, parent)
    # the band's single fruit are most of its groups when there are many types, and seldom
    # played this near the horizon: counted by column, not listed
    view.unlisted_singles = walk_columns(child, view.band_lo, view.band_hi, band, NULL, 0, NULL,
                                         summary.singles) - band.count
    keep_largest_beside(summary, index.by_size, parent.count, view.band_lo, view.band_hi)
    add_band_groups(summary, band, view.unlisted_singles, 0)
    count_unlisted(index, parent, view, seen)


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
    """The parent's kept groups merged with the band's, both in rank order."""
    cdef const Group *band[MAX_GROUPS]
    cdef int i, count = 0
    list_band_singles(view)
    for i in range(view.band.count):
        if view.band.groups[i].size >= view.min_size:
            band[count] = &view.band.groups[i]
            count += 1
    sort_by_rank(band, count)
    return merge_by_rank(view.parent, view.min_size, view.band_lo, view.band_hi, band, count, out)


cdef int view_count(const FrontierView *view) noexcept nogil:
    # the parent's groups wholly beside the band, and the band's
    return (view.index.all.ends_before[view.band_lo] + view.index.all.starts_after[view.band_hi]
            + view.band.count + view.unlisted_singles)
