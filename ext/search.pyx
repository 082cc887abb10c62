# Search unit (contract: search.pxd). Negamax over the score difference: a node's value is
# the mover's points minus the opponent's from here to the horizon. Alpha-beta with
# principal-variation search, the table, move ordering (ordering.pyx) and an evaluation at
# the horizon. Iterative deepening, aspiration windows and the time policy are the Python
# driver's (agent/move/deepening.py, agent/move/timing.py); this unit searches one depth and
# stops at the hard CPU deadline, or the node cap, it is given.
from libc.math cimport sqrt
from libc.stdlib cimport free
from libc.string cimport memset

from core_types cimport MAX_GROUPS

# Told apart in the table when the opponent is modelled: the same board is worth something
# else with us to move than with the modelled opponent to move.
cdef uint64_t MODELLED_SIDE_KEY = 0x9E3779B97F4A7C15ULL


cdef bint reserve_plies(PlyBuffers *buffers, int plies, int room) noexcept nogil:
    cdef int p
    if plies <= buffers.plies:
        return True
    if not (reserve_lists(&buffers.groups, plies, room)
            and grow_block(<void **> &buffers.order, plies * room * sizeof(Group *))
            and grow_block(<void **> &buffers.scores, plies * room * sizeof(int32_t))
            and grow_block(<void **> &buffers.summaries, plies * sizeof(GroupSummary))
            and grow_block(<void **> &buffers.indexes, plies * sizeof(ParentIndex))
            and grow_block(<void **> &buffers.by_size, plies * room * sizeof(Group *))
            and grow_block(<void **> &buffers.played, plies * sizeof(Group *))
            and grow_block(<void **> &buffers.columns, plies * sizeof(ColumnTypes))):
        return False
    # the stamps of the new plies' reply censuses start at 0 (never taken)
    memset(buffers.indexes + buffers.plies, 0, (plies - buffers.plies) * sizeof(ParentIndex))
    for p in range(plies):      # the block may have moved
        buffers.indexes[p].by_size = buffers.by_size + p * room
    buffers.plies = plies
    return True


cdef void free_plies(PlyBuffers *buffers) noexcept nogil:
    free_lists(&buffers.groups)
    free(buffers.order)
    free(buffers.scores)
    free(buffers.summaries)
    free(buffers.indexes)
    free(buffers.by_size)
    free(buffers.played)
    free(buffers.columns)
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


cdef inline bint drops_free_singles(const SearchState *s, const Position *pos, int depth) noexcept nogil:
    """Whether the node is searched to the end with free singles dropped in pairs: both
    sides play their best, and no horizon is met below (else the plies the dropped moves
    would take count)."""
    return (s.config.free_singles and s.config.alpha_beta and s.config.opponent_model == MODEL_NONE
            and depth >= pos.fruit)


cdef inline int32_t horizon_value(SearchState *s, const Position *pos, int ply) noexcept nogil:
    """The value of `pos`, a horizon node at `ply`: its evaluation, a guess. The ply's
    list is the evaluation's scratch."""
    cdef GroupSummary *summary = &s.buffers.summaries[ply - 1]
    cdef GroupList *parent = &s.buffers.groups.lists[ply - 1]
    s.stats.horizon_hits += 1
    if needs_summary(s.config.eval_kind) and not summary.ready:
        summarize(parent, summary)
    return evaluate(s.config.eval_kind, pos, s.buffers.played[ply - 1], parent, summary,
                    &s.buffers.groups.lists[ply])


cdef inline bint table_settles(SearchState *s, const TTEntry *entry, uint64_t key, int depth,
                               int32_t alpha, int32_t beta, int ply, uint16_t *tt_move,
                               int32_t *value) noexcept nogil:
    """Probe `entry` for the node: its move into `tt_move`; True (its value in `value`)
    when its bounds settle the node. Never at the root, which must name a move."""
    if entry == NULL:
        return False
    s.stats.tt_probes += 1
    if not entry_holds(entry, key):
        return False
    s.stats.tt_hits += 1
    tt_move[0] = entry.move
    if ply > 0 and entry_settles(entry, depth, alpha, beta, value):
        if entry.depth != SOLVED_DEPTH:
            s.stats.horizon_hits += 1
        return True
    return False

cdef inline ColumnTypes *read_node_columns(SearchState *s, const Position *pos, int ply) noexcept nogil:
    """The columns of `pos`, the node at `ply`, read in its move's band alone when its
    parent's are read (a move changes only its own columns; read whole without the
    frontier shortcut, the plain twin for tests)."""
    cdef ColumnTypes *columns = &s.buffers.columns[ply]
    cdef const Group *move
    if ply > 0 and s.config.frontier_shortcut and s.buffers.columns[ply - 1].ready:
        move = s.buffers.played[ply - 1]
        read_band(pos, columns, &s.buffers.columns[ply - 1], move.lo, move.hi)
    else:
        read_columns(pos, columns)
    columns.ready = True
    return columns


# ---------------------------------------------------------------- listing the moves
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


cdef inline bint reads_parent_list(SearchState *s, int ply, bint frontier, bint last_plies) noexcept nogil:
    """Whether the node at `ply` reads its moves through its parent's list (frontier_view)
    instead of listing them: one ply above the horizon and at the last plies. Not the
    parent's first child: at a cut node it is the only one, and the parent's index would
    cost more than its list."""
    cdef ParentIndex *index
    if not (ply > 0 and s.config.frontier_shortcut and (frontier or last_plies)):
        return False
    index = &s.buffers.indexes[ply - 1]
    index.children += 1
    return index.ready or index.children > 1


cdef int32_t view_moves(SearchState *s, const Position *pos, int32_t alpha, int ply, uint16_t tt_move,
                        NodeMoves *moves) noexcept nogil:
    """The moves of `pos`, the node at `ply`, read through its parent's list; returns the
    bound of the moves dropped as unable to raise alpha."""
    cdef ParentIndex *index = &s.buffers.indexes[ply - 1]
    cdef GroupList *parent = &s.buffers.groups.lists[ply - 1]
    cdef GroupCensus census
    if not index.ready:
        index_children(parent, pos.n, index)
    frontier_view(parent, index, s.buffers.played[ply - 1], pos,
                  1 if moves.last_plies else frontier_min_size(alpha), &s.buffers.groups.lists[ply],
                  &moves.view, &census, &s.buffers.summaries[ply])
    # the last plies take the summary's largest groups before any of the view's
    start_picking(&moves.picker, &s.ordering, s.buffers.order + ply * s.buffers.groups.room,
                  s.buffers.scores + ply * s.buffers.groups.room, view_count(&moves.view), &moves.view,
                  tt_move, not moves.last_plies)
    if moves.last_plies:
        return -INFINITE
    return dropped_bound(s, pos, &census)


cdef int32_t list_whole(SearchState *s, const Position *pos, int32_t alpha, int ply, uint16_t tt_move,
                        bint frontier, bint modelled, bint walked, NodeMoves *moves) noexcept nogil:
    """The moves of `pos`, the node at `ply`, from its list, built whole (`walked`: from a
    walk of the whole board, not its parent's list): one ply above the horizon those that
    can raise alpha, at a modelled node the largest groups, else all. Returns the bound of
    the moves dropped as unable to raise alpha."""
    cdef GroupList *groups = &s.buffers.groups.lists[ply]
    cdef const Group **order = s.buffers.order + ply * s.buffers.groups.room
    cdef GroupCensus census
    cdef int32_t dropped = -INFINITE
    cdef int min_size, count
    if walked:
        if ply > 0:
            start_list_after(groups, &s.buffers.groups.lists[ply - 1])
        list_groups(pos, groups)
    else:
        list_child_groups(&s.buffers.groups.lists[ply - 1], s.buffers.played[ply - 1], pos, groups)
    s.buffers.summaries[ply].ready = 0
    if frontier:
        min_size = frontier_min_size(alpha)
        take_census(groups, min_size, &census)
        count = groups_of_size(groups, min_size, MAX_GROUPS, order)
        dropped = dropped_bound(s, pos, &census)
    elif modelled:
        take_census(groups, 1, &census)
        count = groups_of_size(groups, census.first, census.first, order)
    else:
        count = groups_of_size(groups, 1, MAX_GROUPS, order)
    start_picking(&moves.picker, &s.ordering, order, s.buffers.scores + ply * s.buffers.groups.room,
                  count, NULL, tt_move, False)
    return dropped


cdef inline int32_t list_moves(SearchState *s, const Position *pos, int depth, int32_t alpha, int ply,
                               uint16_t tt_move, bint frontier, bint modelled, bint singles_dropped,
                               NodeMoves *moves) noexcept nogil:
    """The one place that decides how the moves of `pos`, the node at `ply`, are had: listed
    whole or read through the parent's list, into the picker that hands them out (a view's
    first move found alone, except at the last plies). The root, and a node whose free
    singles were dropped (not the position its parent's move left), walk the whole board.
    Returns the bound of the moves dropped as unable to raise alpha (-INFINITE: none)."""
    moves.last_plies = depth == 2 and reads_last_plies(s)
    s.buffers.indexes[ply].ready = 0
    s.buffers.indexes[ply].children = 0
    if not singles_dropped and reads_parent_list(s, ply, frontier, moves.last_plies):
        return view_moves(s, pos, alpha, ply, tt_move, moves)
    return list_whole(s, pos, alpha, ply, tt_move, frontier, modelled, ply == 0 or singles_dropped, moves)

# ---------------------------------------------------------------- searching them


cdef inline int32_t late_move_value(SearchState *s, const Position *child, int32_t points, int i, int depth,
                                    int32_t alpha, int32_t beta, int ply) noexcept nogil:
    """Principal-variation search of a move after the first, the child at `ply`: in a null
    window, and again in the full one only if it beats alpha. Late move reduction: a move
    ordered late (a small group) is first searched shallower, and again at full depth only
    if it beats alpha there; never where the full depth would reach the end of the game,
    so exact solving stays exact."""
    cdef int32_t value
    cdef int reduce = 0
    if s.config.reduction and i >= s.config.full_moves and depth >= 3 and depth - 1 < child.fruit:
        reduce = s.config.reduction if s.config.reduction < depth - 1 else depth - 1
    value = points - negamax(s, child, depth - 1 - reduce, points - alpha - 1, points - alpha, ply)
    if reduce and value > alpha and not s.clock.stop:
        value = points - negamax(s, child, depth - 1, points - alpha - 1, points - alpha, ply)
    if alpha < value < beta:
        value = points - negamax(s, child, depth - 1, points - beta, points - alpha, ply)
    return value


cdef inline int32_t move_value(SearchState *s, const Position *pos, const Group *g, int i, int depth,
                               int32_t alpha, int32_t beta, int ply, bint frontier,
                               Position *child) noexcept nogil:
    """The value of `g`, the i-th move tried at the node `pos` at `ply`: its points less
    the value of the position it leaves, played into `child`."""
    cdef int32_t points = play_group(child, pos, g, group_masks(&s.buffers.groups.lists[ply], g))
    s.buffers.played[ply] = g
    if frontier:
        # the child is a horizon node, whose value does not depend on the window: evaluate
        # it once, rather than in a null window and again in the full one
        if child.fruit == 0:
            return points
        if enter_node(s):
            return 0
        return points - horizon_value(s, child, ply + 1)
    if not s.config.alpha_beta:
        return points - negamax(s, child, depth - 1, -INFINITE, INFINITE, ply + 1)
    if i == 0:
        return points - negamax(s, child, depth - 1, points - beta, points - alpha, ply + 1)
    return late_move_value(s, child, points, i, depth, alpha, beta, ply + 1)


cdef inline int32_t search_moves(SearchState *s, const Position *pos, MovePicker *picker, int depth,
                                 int32_t alpha, int32_t beta, int ply, bint frontier, int32_t best,
                                 uint16_t *best_move, Position *child) noexcept nogil:
    """The node's best value, fail-soft, from `best` (the dropped moves' bound) on, over the
    moves `picker` hands out; its move's key into `best_move`. `child` holds the position
    each move leaves."""
    cdef uint16_t move = NO_MOVE
    cdef const Group *g = next_move(picker)
    cdef int32_t value
    cdef int i = 0
    while g != NULL:
        if frontier and <int32_t>g.size * g.size <= alpha:
            # alpha rose to best since the moves were chosen: this one cannot raise it either
            if g.size < pos.fruit:
                s.stats.horizon_hits += 1
        else:
            value = move_value(s, pos, g, i, depth, alpha, beta, ply, frontier, child)
            if s.clock.stop or fold_move_value(s, g, value, depth, ply, beta, &best, &move, &alpha):
                break
        i += 1
        g = next_move(picker)
    best_move[0] = move
    return best

# ---------------------------------------------------------------- negamax


cdef int32_t negamax(SearchState *s, const Position *pos, int depth, int32_t alpha, int32_t beta,
                     int ply) noexcept nogil:
    cdef NodeMoves moves
    # here, not in the helpers that play the moves: gcc inlines no function whose frame
    # holds a Position (the frame would grow tenfold); a call per move cost 1.6% of the
    # instructions of bench --set exact-8x8-endgames
    cdef Position child, without_singles
    cdef TTEntry *entry
    cdef int32_t best, value, alpha_in = alpha
    cdef uint16_t tt_move = NO_MOVE, best_move = NO_MOVE
    cdef int64_t horizon_before = s.stats.horizon_hits
    # the opponent's nodes when it is modelled: its move is the model's, not its best
    cdef bint modelled = s.config.opponent_model != MODEL_NONE and ply & 1
    cdef uint64_t key = node_key(s, pos, ply)
    cdef int32_t dropped = 0
    cdef bint frontier

    # Step 1: the end of the game, and the clock (with the node cap).
    if pos.fruit == 0 or enter_node(s):
        return 0
    # Step 1b: free singles. Searched to the end, a node is worth the same without its free
    # singles in pairs, and is keyed by what can still merge (free_singles.pyx). The root
    # keeps them: it must name a move of its own position.
    if drops_free_singles(s, pos, depth):
        dropped = drop_free_pairs(&without_singles, pos, read_node_columns(s, pos, ply), &key)
        if dropped and ply > 0:
            pos = &without_singles
            depth -= dropped
            if pos.fruit == 0:
                return 0
        elif dropped:
            # the root keeps its free singles: its columns are no longer those read
            dropped = 0
            s.buffers.columns[ply].ready = False
    else:
        s.buffers.columns[ply].ready = False
    # the root too: a depth-1 search (every instant move) then plays only what can raise alpha
    frontier = depth == 1 and s.config.alpha_beta and not modelled
    # Step 2: the squares bound. Searched to the end, the node is worth at most the points
    # left and at least minus them: a window beyond that is settled at once. The bound is
    # at least the fruit left, so only a window within that can be.
    if (depth >= pos.fruit and s.config.alpha_beta and pos.fruit > 2
            and (pos.fruit <= alpha or -pos.fruit >= beta)):
        value = squares_bound(pos)
        if value <= alpha:
            return value
        if -value >= beta:
            return -value
    # Step 3: the horizon. No table probe here: a stored value from a deeper search may be
    # negative, and the frontier's pruning relies on the horizon value being the evaluation.
    if depth == 0:
        return horizon_value(s, pos, ply)
    # Step 4: probe the table. Its move is tried first; at the root, the best move so far.
    entry = table_slot(&s.table, key)
    if table_settles(s, entry, key, depth, alpha, beta, ply, &tt_move, &value):
        return value
    if ply == 0 and s.root.move != NO_MOVE:
        tt_move = s.root.move
    # Step 5: list the moves (or read them through the parent's list), in order.
    best = list_moves(s, pos, depth, alpha, ply, tt_move, frontier, modelled, dropped > 0, &moves)
    # Step 6: search them: at the last plies valued from group sizes, else one by one.
    if moves.last_plies:
        best = two_plies_left(s, pos, &moves.picker, alpha, beta, ply, &best_move)
    else:
        best = search_moves(s, pos, &moves.picker, depth, alpha, beta, ply, frontier, best, &best_move, &child)
    if s.clock.stop:
        return 0
    # Step 7: store the result: solved when no horizon was met below.
    if entry != NULL:
        table_store(entry, key, best, best_move,
                    depth if s.stats.horizon_hits != horizon_before else SOLVED_DEPTH,
                    BOUND_UPPER if best <= alpha_in else (BOUND_LOWER if best >= beta else BOUND_EXACT))
    return best
