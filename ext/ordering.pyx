# Ordering unit (contract: ordering.pxd): a node's moves scored (the table's move, then
# group size, then history) and brought forward best first as the search takes them; the
# moves of a node read through its parent's list found first alone; the last plies' largest
# groups tried first.

cdef enum:
    SELECTED_MOVES = 3           # moves of a node picked one at a time before the rest are sorted

cdef int SHELL_GAPS[7]
SHELL_GAPS[:] = [301, 132, 57, 23, 10, 4, 1]


cdef int32_t capped_history(const MoveOrdering *ordering, int key) noexcept nogil:
    """A move's history score, below the step between two group sizes' scores."""
    return ordering.history[key] if ordering.history[key] < 1023 else 1023


cdef void score_moves(const MoveOrdering *ordering, const Group **order, int count,
                      int32_t *scores, uint16_t tt_move) noexcept nogil:
    cdef int i
    cdef const Group *g
    for i in range(count):
        g = order[i]
        scores[i] = 0
        if ordering.flags & ORDER_SIZE:
            scores[i] = <int32_t>g.size * g.size * 1024
        if ordering.flags & ORDER_HISTORY:
            scores[i] += capped_history(ordering, g.key)
        if ordering.flags & ORDER_TT and g.key == tt_move:
            scores[i] = TT_MOVE_SCORE


cdef inline void sort_moves(const Group **order, int32_t *scores, int first, int count) noexcept nogil:
    """Shell sort of order[first:count], best score first (Ciura's gaps)."""
    cdef int k, gap, i, j
    cdef const Group *g
    cdef int32_t score
    for k in range(7):
        gap = SHELL_GAPS[k]
        for i in range(first + gap, count):
            g = order[i]
            score = scores[i]
            j = i
            while j - gap >= first and scores[j - gap] < score:
                order[j] = order[j - gap]
                scores[j] = scores[j - gap]
                j -= gap
            order[j] = g
            scores[j] = score


cdef void pick_next(const Group **order, int32_t *scores, int count, int i) noexcept nogil:
    """Bring the best-scored remaining move to place i, for i = 0, 1, 2... in turn. The first
    few by a selection step (a cutoff after them does not pay for sorting all); at
    SELECTED_MOVES the rest are sorted at once (a scan per move is quadratic where all of
    hundreds of moves are searched)."""
    cdef int j, best = i
    cdef const Group *tmp
    cdef int32_t tmp_score
    if i > SELECTED_MOVES:
        return
    if i == SELECTED_MOVES:
        sort_moves(order, scores, i, count)
        return
    for j in range(i + 1, count):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        tmp = order[i]
        order[i] = order[best]
        order[best] = tmp
        tmp_score = scores[i]
        scores[i] = scores[best]
        scores[best] = tmp_score


cdef const Group *first_view_move(const MoveOrdering *ordering, FrontierView *view,
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


cdef int order_view_moves(const MoveOrdering *ordering, FrontierView *view, uint16_t tt_move,
                          const Group **order, int32_t *scores, bint *lazy) noexcept nogil:
    cdef int count
    if ordering.flags & ORDER_SIZE:
        order[0] = first_view_move(ordering, view, tt_move, order)
        lazy[0] = order[0] != NULL
        return lazy[0]
    lazy[0] = False
    count = all_moves(view, order)
    score_moves(ordering, order, count, scores, tt_move)
    return count


cdef int order_rest_of_view(const MoveOrdering *ordering, FrontierView *view, uint16_t tt_move,
                            const Group **order, int32_t *scores) noexcept nogil:
    cdef int count = all_moves(view, order)
    score_moves(ordering, order, count, scores, tt_move)
    pick_next(order, scores, count, 0)
    return count


cdef int summary_moves_first(const MoveOrdering *ordering, const GroupSummary *summary,
                             bint bounded, int ply) noexcept nogil:
    # Below the root, when moves are bounded and ordered by size: mostly they settle the
    # node, and the moves after them are no larger. The root orders all its moves.
    if bounded and ordering.flags & ORDER_SIZE and ply > 0:
        return summary.largest_count
    return 0


cdef bint none_larger_after(const MoveOrdering *ordering, const int32_t *scores,
                            bint first_scored) noexcept nogil:
    return ordering.flags & ORDER_SIZE and (not first_scored or scores[0] < TT_MOVE_SCORE)
