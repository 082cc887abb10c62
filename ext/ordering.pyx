# Ordering unit (contract: ordering.pxd): a node's moves scored (the table's move, then
# group size, then history) and brought forward best first as the search takes them.

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
