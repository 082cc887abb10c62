# Last plies unit (contract: last_plies.pxd). With the horizon worth 0 the last ply is the
# largest group's square, so a move two plies above it is worth its points minus the square
# of the largest group it leaves: one walk of the move's band (child_census), no node below
# it. Before that walk the move is bounded by the largest group it leaves untouched (one
# whose columns it does not meet keeps every fruit and can only grow): most moves of a node
# are settled by that bound alone.
from libc.math cimport sqrt
from libc.string cimport memset


cdef bint reads_last_plies(const SearchState *s) noexcept nogil:
    return s.config.eval_kind == EVAL_NONE and s.config.alpha_beta and s.config.opponent_model == MODEL_NONE


cdef inline int32_t largest_kept(const GroupSummary *summary, const Group *move) noexcept nogil:
    """A lower bound of the largest group left by `move` (which leaves fruit): the largest
    of the summary's groups that lies wholly beside the move's columns, else 1."""
    cdef int i
    cdef const Group *g
    for i in range(summary.largest_count):
        g = summary.largest[i]
        if g.hi < move.lo or g.lo > move.hi:
            return g.size
    return 1


cdef inline int least_size_at(int32_t points) noexcept nogil:
    """The least group size whose square is at least `points` (> 0)."""
    cdef int size = <int>sqrt(<double>points)
    while size * size < points:
        size += 1
    return size


cdef inline bint reply_census(const Position *pos, const GroupList *groups, const GroupSummary *summary,
                              const FrontierView *view, const Group *g, GroupCensus *seen) noexcept nogil:
    """The census of the position `g` leaves, with its band's part taken from (or stored
    in) the parent's index when `g` is one of the parent's groups: a node's siblings mostly
    try the same large groups first. False when the summary cannot tell it this way."""
    cdef ReplyCensus *memo = <ReplyCensus *> &view.index.replies[g.key]
    cdef Position child
    cdef GroupCensus band
    cdef int reach[2]
    if not (view.parent.groups <= g < view.parent.groups + view.parent.count):
        return False
    if not kept_census(g, pos.n, summary, seen, True):
        return False
    if memo.stamp != view.index.stamp or not (view.band_hi < memo.reach_lo or view.band_lo > memo.reach_hi):
        play_group_unhashed(&child, pos, g, group_masks(groups, g))
        band_of(g, pos.n, &reach[0], &reach[1])
        memset(&band, 0, sizeof(GroupCensus))
        walk_columns(&child, reach[0], reach[1], NULL, &band, 0, reach, NULL)
        if view.band_hi < reach[0] or view.band_lo > reach[1]:
            # the walk saw none of this node's move's columns: the parent's G leaves the same
            memo.stamp = view.index.stamp
            memo.first, memo.second = band.first, band.second
            memo.reach_lo, memo.reach_hi = reach[0], reach[1]
    else:
        band.first, band.second = memo.first, memo.second
    if band.first:
        count_groups(seen, band.first, 1)
    if band.second:
        count_groups(seen, band.second, 1)
    return True


cdef inline int32_t move_value_from_sizes(SearchState *s, const Position *pos, const GroupList *groups,
                                          const GroupSummary *summary, const FrontierView *view,
                                          const Group *g, int32_t alpha, bint bounded) noexcept nogil:
    """The value of move `g`: exact, or (`bounded`) an upper bound when that is <= alpha."""
    cdef int32_t points = <int32_t>g.size * g.size
    cdef int kept
    cdef Position child
    cdef GroupCensus census
    if g.size == pos.fruit:
        return points                           # the move ends the game
    if bounded:
        kept = largest_kept(summary, g)
        if points - kept * kept <= alpha:
            s.stats.horizon_hits += 1           # the reply's size was guessed
            return points - kept * kept
    if enter_node(s):
        return 0
    if view == NULL or not reply_census(pos, groups, summary, view, g, &census):
        play_group_unhashed(&child, pos, g, group_masks(groups, g))
        # once the walk meets a reply large enough to keep the move at or below alpha, the
        # rest of it cannot raise the move's value above alpha
        child_census(&child, g, summary, &census, least_size_at(points - alpha) if bounded else 0, True)
    if census.first < pos.fruit - g.size:
        s.stats.horizon_hits += 1               # the reply does not end the game
    return points - census.first * census.first


cdef int32_t two_plies_left(SearchState *s, const Position *pos, MovePicker *picker,
                            int32_t alpha, int32_t beta, int ply, uint16_t *best_move) noexcept nogil:
    cdef const GroupList *groups = &s.buffers.groups.lists[ply]
    cdef GroupSummary *summary = &s.buffers.summaries[ply]
    cdef const Group *g
    cdef int32_t best = -INFINITE, value
    # with two groups or fewer every move is played: a reply may end the game, and its
    # value is then exact
    cdef bint bounded = picker.count > 2
    best_move[0] = NO_MOVE
    if not summary.ready:
        summarize(groups, summary)
    pick_largest_first(picker, summary, bounded, ply)
    while True:
        if ahead_done(picker) and summary.largest_count == summary.multi_count and alpha >= 0:
            # only groups of one fruit are left, each worth at most 1 - 1
            s.stats.horizon_hits += 1
            return best if best >= 0 else 0
        g = next_move(picker)
        if g == NULL:
            break
        if bounded and <int32_t>g.size * g.size - 1 <= alpha and none_larger_after(picker):
            # none of the moves after this one can raise alpha either
            s.stats.horizon_hits += 1
            if <int32_t>g.size * g.size - 1 > best:
                best = <int32_t>g.size * g.size - 1
            break
        value = move_value_from_sizes(s, pos, groups, summary, picker.view, g, alpha, bounded)
        if s.clock.stop:
            return 0
        # the reward of a cutoff here is that of a search two plies deep
        if fold_move_value(s, g, value, 2, ply, beta, &best, best_move, &alpha):
            break
    return best
