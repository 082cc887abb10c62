# Search unit (contract: search.pxd). Negamax over the score difference: a node's value is
# the mover's points minus the opponent's from here to the horizon. Alpha-beta with
# principal-variation search, the table, move ordering (table move, then group size, then
# history) and an evaluation at the horizon. Iterative deepening, aspiration windows and
# the clock policy are the Python driver's (agent/search.py); this unit searches one depth
# and stops at the hard CPU deadline, or the node cap, it is given.
from libc.math cimport sqrt
from libc.stdlib cimport free, realloc
from libc.string cimport memset
from posix.time cimport CLOCK_PROCESS_CPUTIME_ID, clock_gettime, timespec

from core_types cimport MAX_GROUPS

cdef enum:
    CLOCK_POLL_NODES = 256       # ~1 ms of search on the largest boards

# Told apart in the table when the opponent is modelled: the same board is worth something
# else with us to move than with the modelled opponent to move.
cdef uint64_t MODELLED_SIDE_KEY = 0x9E3779B97F4A7C15ULL


cdef bint grow(void **block, size_t size) noexcept nogil:
    cdef void *grown = realloc(block[0], size)
    if grown == NULL:
        return False
    block[0] = grown
    return True


cdef bint reserve_plies(PlyBuffers *buffers, int plies, int room) noexcept nogil:
    cdef int p
    if plies <= buffers.plies:
        return True
    if not (grow(<void **> &buffers.lists, plies * sizeof(GroupList))
            and grow(<void **> &buffers.groups, plies * room * sizeof(Group))
            and grow(<void **> &buffers.pool, plies * room * sizeof(uint32_t))
            and grow(<void **> &buffers.order, plies * room * sizeof(Group *))
            and grow(<void **> &buffers.scores, plies * room * sizeof(int32_t))
            and grow(<void **> &buffers.summaries, plies * sizeof(GroupSummary))
            and grow(<void **> &buffers.indexes, plies * sizeof(ParentIndex))
            and grow(<void **> &buffers.by_size, plies * room * sizeof(Group *))
            and grow(<void **> &buffers.played, plies * sizeof(Group *))):
        return False
    # the stamps of the new plies' reply censuses start at 0 (never taken)
    memset(buffers.indexes + buffers.plies, 0, (plies - buffers.plies) * sizeof(ParentIndex))
    for p in range(plies):      # the blocks may have moved
        buffers.lists[p].groups = buffers.groups + p * room
        buffers.lists[p].pool = buffers.pool
        buffers.indexes[p].by_size = buffers.by_size + p * room
    buffers.lists[0].mask_start = 0
    buffers.plies = plies
    buffers.room = room
    return True


cdef void free_plies(PlyBuffers *buffers) noexcept nogil:
    free(buffers.lists)
    free(buffers.groups)
    free(buffers.pool)
    free(buffers.order)
    free(buffers.scores)
    free(buffers.summaries)
    free(buffers.indexes)
    free(buffers.by_size)
    free(buffers.played)
    memset(buffers, 0, sizeof(PlyBuffers))


cdef void start_search(SearchState *s, double deadline, int64_t node_limit) noexcept nogil:
    memset(&s.stats, 0, sizeof(SearchStats))
    s.clock.deadline = deadline
    s.clock.node_limit = node_limit
    s.clock.stop = False
    s.root.moves_done = 0


cdef uint64_t node_key(const SearchState *s, const Position *pos, int ply) noexcept nogil:
    if s.config.opponent_model != MODEL_NONE and ply & 1:
        return pos.hash ^ MODELLED_SIDE_KEY
    return pos.hash


cdef inline double cpu_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint enter_node(SearchState *s) noexcept nogil:
    """Count a node and look at the clock and the node cap now and then; True when the
    search must stop."""
    s.stats.nodes += 1
    if s.stats.nodes % CLOCK_POLL_NODES == 0 and (
        s.stats.nodes >= s.clock.node_limit or cpu_seconds() >= s.clock.deadline
    ):
        s.clock.stop = True
    return s.clock.stop


cdef inline int32_t evaluate_child(SearchState *s, const Position *child, int parent_ply) noexcept nogil:
    """The evaluation of `child`, the position the move s.buffers.played[parent_ply] leaves."""
    cdef GroupSummary *summary = &s.buffers.summaries[parent_ply]
    cdef GroupList *parent = &s.buffers.lists[parent_ply]
    if needs_summary(s.config.eval_kind) and not summary.ready:
        summarize(parent, summary)
    return evaluate(s.config.eval_kind, child, s.buffers.played[parent_ply], parent, summary,
                    &s.buffers.lists[parent_ply + 1])

# ---------------------------------------------------------------- move choice
#
# One ply above the horizon a move is worth its points minus the evaluation of the position
# it leaves, and every evaluation is >= 0 (the opponent moves first in it), so a group of
# size k with k * k <= alpha cannot raise alpha: it is not even tried. The best of the
# dropped moves' upper bounds is a fail-soft bound for the node.


cdef inline int frontier_min_size(int32_t alpha) noexcept nogil:
    """The smallest group that can raise alpha one ply above the horizon."""
    cdef int min_size = 1
    if alpha >= 1:
        min_size = <int>sqrt(alpha)
        while min_size * min_size <= alpha:
            min_size += 1
    return min_size


cdef inline int32_t dropped_bound(SearchState *s, const Position *pos, const GroupCensus *seen) noexcept nogil:
    """The upper bound of the dropped moves (-INFINITE if none was dropped)."""
    if seen.unlisted == 0:
        return -INFINITE
    if seen.unlisted > 1 or seen.largest_unlisted < pos.fruit:
        s.stats.horizon_hits += 1   # their values were guessed, not searched (a last group's is exact)
    return seen.largest_unlisted * seen.largest_unlisted


cdef const Group *first_frontier_move(const MoveOrdering *ordering, FrontierView *view,
                                      uint16_t tt_move, const Group **scratch) noexcept nogil:
    """The move the ordering tries first (scoring by size) among the view's, without
    listing them all: the table's move, else of the largest ones the first in rank order
    with the most history; NULL when there is none."""
    cdef const Group *g
    cdef const Group *best
    cdef int i, count
    if ordering.flags & ORDER_TT and tt_move != NO_MOVE:
        g = move_with_key(view, tt_move)
        if g != NULL:
            return g
    count = largest_moves(view, scratch)
    if count == 0:
        return NULL
    best = scratch[0]
    if ordering.flags & ORDER_HISTORY:
        for i in range(1, count):
            if capped_history(ordering, scratch[i].key) > capped_history(ordering, best.key):
                best = scratch[i]
    return best

# ---------------------------------------------------------------- quiescence
#
# Past the horizon a position whose groups include a hot one (of at least hot_size fruit)
# is not quiet: the side to move may take it, and the evaluation alone misjudges what is
# at stake. So the mover either stands on the evaluation or takes a hot group, for up to
# config.quiescence plies. Standing pat keeps every horizon value >= the evaluation >= 0,
# which the frontier's pruning relies on.


cdef inline bint has_hot_group(SearchState *s, const Position *pos, int ply) noexcept nogil:
    """Whether `pos`, the node at `ply`, has a group of hot_size fruit, from its parent's
    summary and a walk of its move's band (its groups are not listed)."""
    cdef GroupSummary *summary = &s.buffers.summaries[ply - 1]
    cdef GroupCensus census
    if not summary.ready:
        summarize(&s.buffers.lists[ply - 1], summary)
    child_census(pos, s.buffers.played[ply - 1], summary, &census, s.config.hot_size, True)
    return census.first >= s.config.hot_size


cdef void list_hot_node(SearchState *s, const Position *pos, int ply, bint parent_whole) noexcept nogil:
    """The groups of `pos`, the node at `ply`, into its ply's list: from its parent's list
    when that is whole, else (the parent's list holds only its band's groups, see
    frontier_view) by a walk of the whole board, its masks after the parent's."""
    cdef GroupList *groups = &s.buffers.lists[ply]
    if parent_whole:
        list_child_groups(&s.buffers.lists[ply - 1], s.buffers.played[ply - 1], pos, groups)
    else:
        groups.mask_start = s.buffers.lists[ply - 1].mask_end
        list_groups(pos, groups)
    s.buffers.summaries[ply].ready = 0
    s.buffers.indexes[ply].ready = 0


cdef int32_t quiesce(SearchState *s, const Position *pos, int plies_left, int32_t alpha, int32_t beta,
                     int ply, bint parent_whole) noexcept nogil:
    """The value of `pos`, a node at or past the horizon at `ply` (`parent_whole`: its
    parent's list at ply - 1 holds all its groups): the larger of its evaluation and its hot
    moves' values, each move searched likewise with one ply fewer left. Fail-soft in
    (alpha, beta). Only a hot node's groups are listed."""
    cdef GroupList *groups
    cdef const Group **order
    cdef int32_t *scores
    cdef const Group *g
    cdef Position child
    cdef int i, count
    cdef int32_t best, value, points
    if pos.fruit == 0:
        return 0
    s.stats.horizon_hits += 1
    best = evaluate_child(s, pos, ply - 1)     # first: it may use this ply's list as scratch
    if plies_left == 0 or (s.config.alpha_beta and best >= beta) or not has_hot_group(s, pos, ply):
        return best
    if best > alpha:
        alpha = best
    groups = &s.buffers.lists[ply]
    order = s.buffers.order + ply * s.buffers.room
    scores = s.buffers.scores + ply * s.buffers.room
    list_hot_node(s, pos, ply, parent_whole)
    count = groups_of_size(groups, s.config.hot_size, MAX_GROUPS, order)
    score_moves(&s.ordering, order, count, scores, NO_MOVE)
    for i in range(count):
        pick_next(order, scores, count, i)
        g = order[i]
        points = play_group(&child, pos, g, group_masks(groups, g))
        s.buffers.played[ply] = g
        value = points
        if child.fruit:
            if enter_node(s):
                return 0
            if s.config.alpha_beta:
                value -= quiesce(s, &child, plies_left - 1, points - beta, points - alpha, ply + 1, True)
            else:
                value -= quiesce(s, &child, plies_left - 1, -INFINITE, INFINITE, ply + 1, True)
            if s.clock.stop:
                return 0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if s.config.alpha_beta and alpha >= beta:
                    break
    return best


cdef inline int32_t horizon_value(SearchState *s, const Position *pos, int32_t alpha, int32_t beta,
                                  int ply, bint parent_whole) noexcept nogil:
    """The value of `pos`, a horizon node at `ply`: its evaluation, or its quiescence
    search when the config asks for one."""
    if s.config.quiescence:
        return quiesce(s, pos, s.config.quiescence, alpha, beta, ply, parent_whole)
    s.stats.horizon_hits += 1
    return evaluate_child(s, pos, ply - 1)

# ---------------------------------------------------------------- negamax


cdef int32_t negamax(SearchState *s, const Position *pos, int depth, int32_t alpha, int32_t beta,
                     int ply) noexcept nogil:
    cdef TTEntry *entry = NULL
    cdef GroupList *groups
    cdef ParentIndex *index
    cdef const Group **order
    cdef int32_t *scores
    cdef Position child
    cdef const Group *g
    cdef int i, bound, reduce, count
    cdef bint lazy = False, shortcut, last_plies
    cdef FrontierView view
    cdef int32_t best = -INFINITE, value, points, alpha_in = alpha
    cdef uint16_t tt_move = NO_MOVE, best_move = NO_MOVE
    cdef int64_t horizon_before = s.stats.horizon_hits
    cdef GroupCensus census
    # the opponent's nodes when it is modelled: its move is the model's, not its best
    cdef bint modelled = s.config.opponent_model != MODEL_NONE and ply & 1
    cdef uint64_t key = node_key(s, pos, ply)
    # the root too: a depth-1 search (every instant move) then plays only what can raise alpha
    cdef bint frontier = depth == 1 and s.config.alpha_beta and not modelled
    if pos.fruit == 0 or enter_node(s):
        return 0
    if depth >= pos.fruit and s.config.alpha_beta and pos.fruit > 2:
        bound = squares_bound(pos)
        if bound <= alpha or -bound >= beta:
            return bound if bound <= alpha else -bound
    if depth == 0:
        # No table probe here: a stored value from a deeper search may be negative, and
        # the frontier's pruning below relies on the horizon value being the evaluation.
        return horizon_value(s, pos, alpha, beta, ply, True)
    entry = table_slot(&s.table, key)
    if entry != NULL:
        s.stats.tt_probes += 1
        if entry_holds(entry, key):
            s.stats.tt_hits += 1
            tt_move = entry.move
            if ply > 0 and entry_settles(entry, depth, alpha, beta, &value):
                if entry.depth != SOLVED_DEPTH:
                    s.stats.horizon_hits += 1
                return value

    groups = &s.buffers.lists[ply]
    order = s.buffers.order + ply * s.buffers.room
    scores = s.buffers.scores + ply * s.buffers.room
    s.buffers.indexes[ply].ready = 0
    s.buffers.indexes[ply].children = 0
    last_plies = depth == 2 and reads_last_plies(s)
    shortcut = ply > 0 and s.config.frontier_shortcut and (
        (frontier and not needs_parent_list(s.config.eval_kind)) or last_plies)
    if shortcut:
        # The parent's first child is listed whole: at a cut node it is the only one, and
        # the index would cost more than the list.
        index = &s.buffers.indexes[ply - 1]
        index.children += 1
        shortcut = index.ready or index.children > 1
    if shortcut:
        # Read from the parent's list, not listed: the children are valued from the
        # summary. The first move is found alone, for it mostly settles the node.
        if not index.ready:
            index_children(&s.buffers.lists[ply - 1], pos.n, index)
        frontier_view(&s.buffers.lists[ply - 1], index, s.buffers.played[ply - 1], pos,
                      1 if last_plies else frontier_min_size(alpha), groups, &view, &census,
                      &s.buffers.summaries[ply])
        if last_plies:
            count = view_count(&view)
        elif s.ordering.flags & ORDER_SIZE:
            best = dropped_bound(s, pos, &census)
            order[0] = first_frontier_move(&s.ordering, &view, tt_move, order)
            count = order[0] != NULL
            lazy = count == 1
        else:
            best = dropped_bound(s, pos, &census)
            count = all_moves(&view, order)
    else:
        if ply == 0:
            list_groups(pos, groups)
        else:
            list_child_groups(&s.buffers.lists[ply - 1], s.buffers.played[ply - 1], pos, groups)
        s.buffers.summaries[ply].ready = 0
        if frontier:
            take_census(groups, frontier_min_size(alpha), &census)
            count = groups_of_size(groups, frontier_min_size(alpha), MAX_GROUPS, order)
            best = dropped_bound(s, pos, &census)
        elif modelled:
            take_census(groups, 1, &census)
            count = groups_of_size(groups, census.first, census.first, order)
        else:
            count = groups_of_size(groups, 1, MAX_GROUPS, order)
    if ply == 0:
        tt_move = s.root.move if s.root.move != NO_MOVE else tt_move
    if last_plies:
        best = two_plies_left(s, pos, groups, &view if shortcut else NULL, order, scores, count, tt_move,
                              alpha, beta, ply, &best_move)
        if s.clock.stop:
            return 0
        count = 0
    elif not lazy:
        score_moves(&s.ordering, order, count, scores, tt_move)
    i = 0
    while i < count:
        if not lazy:
            pick_next(order, scores, count, i)
        g = order[i]
        if frontier and <int32_t>g.size * g.size <= alpha:
            # alpha rose to best since the moves were chosen: this one cannot raise it either
            if g.size < pos.fruit:
                s.stats.horizon_hits += 1
        else:
            points = play_group(&child, pos, g, group_masks(groups, g))
            s.buffers.played[ply] = g
            if frontier:
                # the child is a horizon node, whose value does not depend on the window (a
                # quiescence search's barely does): search it once, in the full window,
                # rather than in a null window and again in the full one
                value = points
                if child.fruit:
                    if enter_node(s):
                        return 0
                    value -= horizon_value(s, &child, points - beta, points - alpha, ply + 1, not shortcut)
            elif not s.config.alpha_beta:
                value = points - negamax(s, &child, depth - 1, -INFINITE, INFINITE, ply + 1)
            elif i == 0:
                value = points - negamax(s, &child, depth - 1, points - beta, points - alpha, ply + 1)
            else:
                # Late move reduction: a move ordered late (a small group) is first searched
                # shallower, and again at full depth only if it beats alpha there. Never where
                # the full depth would reach the end of the game, so exact solving stays exact.
                reduce = 0
                if s.config.reduction and i >= s.config.full_moves and depth >= 3 and depth - 1 < child.fruit:
                    reduce = s.config.reduction if s.config.reduction < depth - 1 else depth - 1
                value = points - negamax(s, &child, depth - 1 - reduce, points - alpha - 1, points - alpha, ply + 1)
                if reduce and value > alpha and not s.clock.stop:
                    value = points - negamax(s, &child, depth - 1, points - alpha - 1, points - alpha, ply + 1)
                if alpha < value < beta:
                    value = points - negamax(s, &child, depth - 1, points - beta, points - alpha, ply + 1)
            if s.clock.stop:
                return 0
            if value > best:
                best = value
                best_move = g.key
                if ply == 0:
                    s.root.move = best_move
                    s.root.value = best
                if value > alpha:
                    alpha = value
                    if s.config.alpha_beta and alpha >= beta:
                        s.ordering.history[g.key] += depth * depth
                        break
            if ply == 0:
                s.root.moves_done += 1
        i += 1
        if lazy:
            # The first move did not settle the node: all of them now, in the order the
            # selection gives them, with the first already in its place.
            lazy = False
            count = all_moves(&view, order)
            score_moves(&s.ordering, order, count, scores, tt_move)
            pick_next(order, scores, count, 0)

    if entry != NULL:
        bound = BOUND_UPPER if best <= alpha_in else (BOUND_LOWER if best >= beta else BOUND_EXACT)
        if s.stats.horizon_hits == horizon_before:
            depth = SOLVED_DEPTH
        table_store(&s.table, entry, key, best, best_move, depth, bound)
    return best
