# Ordering unit (contract: ordering.pxd): the move picker that hands out a node's moves, for
# every loop over them. Moves are scored (the table's move, then group size, then history)
# and brought forward best first as the search takes them; the first move of a node read
# through its parent's list is found alone; the last plies' largest groups come first.

cdef enum:
    SELECTED_MOVES = 3           # moves of a node picked one at a time before the rest are sorted

cdef int SHELL_GAPS[7]
SHELL_GAPS[:] = [301, 132, 57, 23, 10, 4, 1]


cdef int32_t capped_history(const MoveOrdering *ordering, int key) noexcept nogil:
    """A move's history score, below the step between two group sizes' scores."""
    return ordering.history[key] if ordering.history[key] < 1023 else 1023


cdef void score_moves(const MoveOrdering *ordering, const Group **order, int count,
                      int32_t *scores, uint16_t tt_move) noexcept nogil:
    """Into scores[i], the score of order[i] (higher: tried sooner)."""
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


cdef void start_picking(MovePicker *picker, const MoveOrdering *ordering, const Group **order,
                        int32_t *scores, int count, FrontierView *view, uint16_t tt_move,
                        bint lazy) noexcept nogil:
    picker.ordering = ordering
    picker.view = view
    picker.order = order
    picker.scores = scores
    picker.count = count
    picker.next = 0
    picker.tt_move = tt_move
    picker.ahead_count = 0
    picker.ahead_next = 0
    picker.stage = PICK_FIRST if lazy and view != NULL and ordering.flags & ORDER_SIZE else PICK_ALL


cdef void pick_largest_first(MovePicker *picker, const GroupSummary *summary, bint bounded,
                             int ply) noexcept nogil:
    # The root orders all its moves.
    if bounded and picker.ordering.flags & ORDER_SIZE and ply > 0 and summary.largest_count:
        picker.ahead = <const Group **> summary.largest
        picker.ahead_count = summary.largest_count
        picker.stage = PICK_AHEAD


cdef const Group *next_unordered(MovePicker *picker) noexcept nogil:
    cdef const Group *g
    if picker.stage == PICK_AHEAD:
        if picker.ahead_next < picker.ahead_count:
            picker.ahead_next += 1
            return picker.ahead[picker.ahead_next - 1]
        picker.stage = PICK_ALL
    elif picker.stage == PICK_FIRST:
        g = first_view_move(picker.ordering, picker.view, picker.tt_move, picker.order)
        if g == NULL:               # the view has no moves
            picker.count = 0
            picker.stage = PICK_ORDERED
            return NULL
        picker.order[0] = g
        picker.next = 1
        picker.stage = PICK_ALL
        return g
    # PICK_ALL: every move, scored; a first move handed out alone is the best scored, and
    # comes back to its place first
    if picker.view != NULL:
        picker.count = all_moves(picker.view, picker.order)
    score_moves(picker.ordering, picker.order, picker.count, picker.scores, picker.tt_move)
    picker.stage = PICK_ORDERED
    if picker.next:
        pick_next(picker.order, picker.scores, picker.count, 0)
    return next_move(picker)
