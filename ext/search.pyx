# Search unit (contract: search.pxd). Negamax over the score difference: a node's value is
# the mover's points minus the opponent's from here to the horizon. Alpha-beta with
# principal-variation search, the table, move ordering (table move, then group size, then
# history) and an evaluation at the horizon. Iterative deepening, aspiration windows and
# the clock policy are the Python driver's (agent/search.py); this unit searches one depth
# and stops at the hard CPU deadline it is given.
from libc.math cimport sqrt
from libc.stdlib cimport free, realloc
from libc.string cimport memset
from posix.time cimport CLOCK_PROCESS_CPUTIME_ID, clock_gettime, timespec

cdef enum:
    CLOCK_POLL_NODES = 256       # ~1 ms of search on the largest boards

# Told apart in the table when the opponent is modelled: the same board is worth something
# else with us to move than with the modelled opponent to move.
cdef uint64_t MODELLED_SIDE_KEY = 0x9E3779B97F4A7C15ULL


cdef bint reserve_plies(PlyBuffers *buffers, int plies) noexcept nogil:
    cdef void *grown
    if plies <= buffers.plies:
        return True
    grown = realloc(buffers.moves, plies * sizeof(MoveList))
    if grown == NULL:
        return False
    buffers.moves = <MoveList *> grown
    grown = realloc(buffers.scores, plies * sizeof(int32_t[MAX_GROUPS]))
    if grown == NULL:
        return False
    buffers.scores = <int32_t (*)[MAX_GROUPS]> grown
    grown = realloc(buffers.spans, plies * sizeof(GroupSpans))
    if grown == NULL:
        return False
    buffers.spans = <GroupSpans *> grown
    grown = realloc(buffers.played, plies * sizeof(Group *))
    if grown == NULL:
        return False
    buffers.played = <Group **> grown
    buffers.plies = plies
    return True


cdef void free_plies(PlyBuffers *buffers) noexcept nogil:
    free(buffers.moves)
    free(buffers.scores)
    free(buffers.spans)
    free(buffers.played)
    memset(buffers, 0, sizeof(PlyBuffers))


cdef void start_search(SearchState *s, double deadline) noexcept nogil:
    memset(&s.stats, 0, sizeof(SearchStats))
    s.clock.deadline = deadline
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
    """Count a node and look at the clock now and then; True when the search must stop."""
    s.stats.nodes += 1
    if s.stats.nodes % CLOCK_POLL_NODES == 0 and cpu_seconds() >= s.clock.deadline:
        s.clock.stop = True
    return s.clock.stop


cdef inline GroupSpans *spans_to_fill(SearchState *s, int ply) noexcept nogil:
    """Where a node's walk records its groups: only when the evaluation reads them."""
    return &s.buffers.spans[ply] if needs_parent_spans(s.config.eval_kind) else NULL


cdef inline int32_t evaluate_child(SearchState *s, const Position *child, int parent_ply) noexcept nogil:
    """The evaluation of `child`, the position the move s.buffers.played[parent_ply] leaves."""
    return evaluate(s.config.eval_kind, child, s.buffers.played[parent_ply],
                    &s.buffers.spans[parent_ply], &s.buffers.moves[parent_ply + 1])

# ---------------------------------------------------------------- move ordering


cdef void score_moves(const MoveOrdering *ordering, const MoveList *moves, int32_t *scores,
                      uint16_t tt_move) noexcept nogil:
    cdef int i
    cdef const Group *g
    for i in range(moves.count):
        g = &moves.groups[i]
        scores[i] = 0
        if ordering.flags & ORDER_SIZE:
            scores[i] = <int32_t>g.size * g.size * 1024
        if ordering.flags & ORDER_HISTORY:
            scores[i] += ordering.history[g.key] if ordering.history[g.key] < 1023 else 1023
        if ordering.flags & ORDER_TT and g.key == tt_move:
            scores[i] = INFINITE * 1024


cdef inline void pick_next(MoveList *moves, int32_t *scores, int i) noexcept nogil:
    """Selection sort one step: bring the best-scored remaining move to index i. Lazy, so
    a cutoff after a few moves does not pay for sorting all of them."""
    cdef int j, best = i
    cdef Group tmp
    cdef int32_t tmp_score
    for j in range(i + 1, moves.count):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        tmp = moves.groups[i]
        moves.groups[i] = moves.groups[best]
        moves.groups[best] = tmp
        tmp_score = scores[i]
        scores[i] = scores[best]
        scores[best] = tmp_score

# ---------------------------------------------------------------- move generation


cdef int32_t frontier_moves(SearchState *s, const Position *pos, MoveList *moves,
                            int32_t alpha, int ply) noexcept nogil:
    """The moves of a node one ply above the horizon that can raise alpha. There a move
    is worth its points minus the evaluation of the position it leaves, and every
    evaluation is >= 0 (the opponent moves first in it), so a group of size k with
    k * k <= alpha cannot: it is not even listed. Returns the best of the dropped moves'
    upper bounds (-INFINITE if none was dropped), a fail-soft bound for the node."""
    cdef GroupCensus seen
    cdef int min_size = 1
    if alpha >= 1:
        min_size = <int>sqrt(alpha)
        while min_size * min_size <= alpha:
            min_size += 1
    walk_groups(pos, moves, min_size, &seen, spans_to_fill(s, ply))
    if seen.unlisted == 0:
        return -INFINITE
    if seen.unlisted > 1 or seen.largest_unlisted < pos.fruit:
        s.stats.horizon_hits += 1   # their values were guessed, not searched (a last group's is exact)
    return seen.largest_unlisted * seen.largest_unlisted


cdef void keep_largest(MoveList *moves, int size) noexcept nogil:
    """Drop every group smaller than `size` from the list (a greedy player's choices)."""
    cdef int i, kept = 0
    for i in range(moves.count):
        if moves.groups[i].size == size:
            moves.groups[kept] = moves.groups[i]
            kept += 1
    moves.count = kept

# ---------------------------------------------------------------- negamax


cdef int32_t negamax(SearchState *s, const Position *pos, int depth, int32_t alpha, int32_t beta,
                     int ply) noexcept nogil:
    cdef TTEntry *entry = NULL
    cdef MoveList *moves
    cdef int32_t *scores
    cdef Position child
    cdef Group *g
    cdef int i, bound, reduce
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
    if depth == 0:
        # No table probe here: a stored value from a deeper search may be negative, and
        # the frontier's pruning below relies on the horizon value being the evaluation.
        s.stats.horizon_hits += 1
        return evaluate_child(s, pos, ply - 1)
    entry = table_slot(&s.table, key)
    if entry != NULL:
        s.stats.tt_probes += 1
        if entry.key == key:
            s.stats.tt_hits += 1
            tt_move = entry.move
            if ply > 0 and entry_settles(entry, depth, alpha, beta):
                if entry.depth != SOLVED_DEPTH:
                    s.stats.horizon_hits += 1
                return entry.value

    moves = &s.buffers.moves[ply]
    scores = s.buffers.scores[ply]
    if frontier:
        best = frontier_moves(s, pos, moves, alpha, ply)
    else:
        walk_groups(pos, moves, 1, &census, spans_to_fill(s, ply))
        if modelled:
            keep_largest(moves, census.first)
    if ply == 0:
        tt_move = s.root.move if s.root.move != NO_MOVE else tt_move
    score_moves(&s.ordering, moves, scores, tt_move)
    for i in range(moves.count):
        pick_next(moves, scores, i)
        g = &moves.groups[i]
        if frontier and <int32_t>g.size * g.size <= alpha:
            # alpha rose to best since frontier_moves: this move cannot raise it either
            if g.size < pos.fruit:
                s.stats.horizon_hits += 1
            continue
        points = play_group(&child, pos, g, &moves.masks[g.first_mask])
        s.buffers.played[ply] = g
        if frontier:
            # the child is a horizon node, whose value does not depend on the window:
            # evaluate it once rather than in a null window and again in the full one
            value = points
            if child.fruit:
                if enter_node(s):
                    return 0
                s.stats.horizon_hits += 1
                value -= evaluate_child(s, &child, ply)
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

    if entry != NULL:
        bound = BOUND_UPPER if best <= alpha_in else (BOUND_LOWER if best >= beta else BOUND_EXACT)
        if s.stats.horizon_hits == horizon_before:
            depth = SOLVED_DEPTH
        table_store(&s.table, entry, key, best, best_move, depth, bound)
    return best
