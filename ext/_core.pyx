# The Fruit Rage hot core: bitboard positions, group enumeration, moves with gravity,
# Zobrist hashing, perft and the alpha-beta search of one depth. Everything per node is C
# data in nogil functions; the Python classes at the bottom only convert at the edges.
# agent/rules.py is the oracle for it.
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.math cimport sqrt
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_PROCESS_CPUTIME_ID, clock_gettime, timespec

from core_types cimport MAX_GROUPS, MAX_N, MAX_TYPES, Group, MoveList, Position, TTEntry

cdef extern from *:
    int popcount "__builtin_popcount"(unsigned int x) nogil
    int ctz "__builtin_ctz"(unsigned int x) nogil
    int clz "__builtin_clz"(unsigned int x) nogil

# ---------------------------------------------------------------- Zobrist keys

cdef uint64_t ZOBRIST[MAX_TYPES][MAX_N][32]


cdef uint64_t splitmix64(uint64_t *state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void init_zobrist() noexcept nogil:
    cdef uint64_t state = 20171029  # fixed: hashes are reproducible across runs
    cdef int t, c, r
    for t in range(MAX_TYPES):
        for c in range(MAX_N):
            for r in range(32):
                ZOBRIST[t][c][r] = splitmix64(&state)


init_zobrist()


cdef inline uint64_t hash_bits(int t, int c, uint32_t bits) noexcept nogil:
    cdef uint64_t h = 0
    while bits:
        h ^= ZOBRIST[t][c][ctz(bits)]
        bits &= bits - 1
    return h


cdef uint64_t hash_from_scratch(const Position *pos) noexcept nogil:
    cdef uint64_t h = 0
    cdef int t, c
    for t in range(pos.types):
        for c in range(pos.n):
            h ^= hash_bits(t, c, pos.plane[t][c])
    return h

# ---------------------------------------------------------------- groups


cdef inline uint32_t fill_column(uint32_t seeds, uint32_t fruit) noexcept nogil:
    """The runs of `fruit` that contain a seed bit."""
    cdef uint32_t grown
    while True:
        grown = (seeds | (seeds << 1) | (seeds >> 1)) & fruit
        if grown == seeds:
            return seeds
        seeds = grown


cdef inline void flood(const uint32_t *fruit, int n, int col, uint32_t seed,
                       uint32_t *group, int *lo, int *hi) noexcept nogil:
    """Grow `seed` (in column `col`) over one type's plane; `group` must be zero on entry.
    A column is re-queued whenever a neighbour adds bits to it, so each pop closes it."""
    cdef int stack[MAX_N * 32]
    cdef int top = 1, c
    cdef uint32_t x, added
    group[col] = seed
    stack[0] = col
    lo[0] = col
    hi[0] = col
    while top:
        top -= 1
        c = stack[top]
        x = fill_column(group[c], fruit[c])
        group[c] = x
        if c > 0:
            added = x & fruit[c - 1] & ~group[c - 1]
            if added:
                group[c - 1] |= added
                stack[top] = c - 1
                top += 1
                if c - 1 < lo[0]:
                    lo[0] = c - 1
        if c + 1 < n:
            added = x & fruit[c + 1] & ~group[c + 1]
            if added:
                group[c + 1] |= added
                stack[top] = c + 1
                top += 1
                if c + 1 > hi[0]:
                    hi[0] = c + 1


cdef inline void add_group(MoveList *moves, int t, int lo, int hi, const uint32_t *masks,
                           int size) noexcept nogil:
    cdef Group *g = &moves.groups[moves.count]
    g.fruit_type = t
    g.lo = lo
    g.hi = hi
    g.size = size
    g.key = lo * 32 + ctz(masks[0])
    g.first_mask = moves.mask_count
    memcpy(&moves.masks[moves.mask_count], masks, (hi - lo + 1) * sizeof(uint32_t))
    moves.mask_count += hi - lo + 1
    moves.count += 1


ctypedef struct GroupCensus:
    int32_t first        # the two largest sizes of all groups, listed or not (0 when absent)
    int32_t second
    int32_t unlisted     # groups too small for the list
    int32_t largest_unlisted  # the largest of them (0 when none)


ctypedef struct GroupSpans:
    # Every group of a position as the columns it spans, so that the census of a child
    # can reuse the groups its move left alone (see child_census).
    int32_t count                   # groups of two or more fruit
    int16_t size[MAX_GROUPS]
    uint8_t lo[MAX_GROUPS]
    uint8_t hi[MAX_GROUPS]
    int32_t singles[MAX_N]          # groups of one fruit, per column
    int32_t all_singles


cdef inline void count_groups(GroupCensus *seen, int size, int count, bint listed) noexcept nogil:
    """Record `count` groups of `size` fruit."""
    if not listed:
        seen.unlisted += count
        if size > seen.largest_unlisted:
            seen.largest_unlisted = size
    if size > seen.first:
        seen.second = seen.first
        seen.first = size
        count -= 1
    if count > 0 and size > seen.second:
        seen.second = size


cdef void walk_columns(const Position *pos, int first, int last, MoveList *moves, int min_size,
                       GroupCensus *seen, GroupSpans *spans) noexcept nogil:
    """Every group with fruit in columns first..last once, added to what `seen`, `spans`
    (unless NULL) and `moves` (the groups of at least `min_size` fruit; may be NULL when
    min_size is above any group) hold. Groups of one fruit (most of them when p is large)
    are found in bulk with bit operations; only the rest pay for a flood fill, which may
    reach beyond the columns."""
    cdef uint32_t visited[MAX_N]
    cdef uint32_t group[MAX_N]
    cdef const uint32_t *fruit
    cdef uint32_t x, singles, neighbours, bit
    cdef int t, c, cc, lo, hi, size, n = pos.n
    memset(visited, 0, sizeof(visited))
    memset(group, 0, sizeof(group))
    for t in range(pos.types):
        fruit = pos.plane[t]
        for c in range(first, last + 1):
            x = fruit[c] & ~visited[c]
            if not x:
                continue
            neighbours = (fruit[c] << 1) | (fruit[c] >> 1)
            if c > 0:
                neighbours |= fruit[c - 1]
            if c + 1 < n:
                neighbours |= fruit[c + 1]
            singles = x & ~neighbours
            x &= ~singles
            if singles:
                count_groups(seen, 1, popcount(singles), min_size <= 1)
                if spans != NULL:
                    spans.singles[c] += popcount(singles)
                    spans.all_singles += popcount(singles)
                if min_size <= 1:
                    while singles:
                        bit = singles & (~singles + 1)
                        add_group(moves, t, c, c, &bit, 1)
                        singles ^= bit
            while x:
                flood(fruit, n, c, x & (~x + 1), group, &lo, &hi)
                size = 0
                for cc in range(lo, hi + 1):
                    size += popcount(group[cc])
                    visited[cc] |= group[cc]
                count_groups(seen, size, 1, size >= min_size)
                if spans != NULL:
                    spans.size[spans.count] = size
                    spans.lo[spans.count] = lo
                    spans.hi[spans.count] = hi
                    spans.count += 1
                if size >= min_size:
                    add_group(moves, t, lo, hi, &group[lo], size)
                for cc in range(lo, hi + 1):
                    group[cc] = 0
                x &= ~visited[c]


cdef void walk_groups(const Position *pos, MoveList *moves, int min_size,
                      GroupCensus *seen, GroupSpans *spans) noexcept nogil:
    """Every group once: the ones of at least `min_size` fruit go into `moves` (which may
    be NULL to list none), the rest are only counted in `seen`; all of them go into `spans`
    unless it is NULL."""
    memset(seen, 0, sizeof(GroupCensus))
    if spans != NULL:
        spans.count = 0
        spans.all_singles = 0
        memset(spans.singles, 0, sizeof(spans.singles))
    if moves == NULL:
        min_size = MAX_GROUPS + 1
    else:
        moves.count = 0
        moves.mask_count = 0
    walk_columns(pos, 0, pos.n - 1, moves, min_size, seen, spans)


cdef inline void enumerate_groups(const Position *pos, MoveList *moves) noexcept nogil:
    """Every group once, into `moves`."""
    cdef GroupCensus seen
    walk_groups(pos, moves, 1, &seen, NULL)


cdef void child_census(const Position *child, const Group *move, const GroupSpans *parent,
                       GroupCensus *seen) noexcept nogil:
    """The two largest groups (seen.first and seen.second) of the position `move` leaves,
    given `parent`, the spans of every group of the position it was played in, without
    walking the whole board. Gravity moves fruit only in the move's own columns, so a
    group with no fruit in them or beside them (in the move's band, one column wider on
    each side) stands unchanged after the move; every other group of the new position
    has fruit in the band, and is found by flood fills started there."""
    cdef int i, c, outside_singles
    cdef int band_lo = move.lo - 1 if move.lo > 0 else 0
    cdef int band_hi = move.hi + 1 if move.hi + 1 < child.n else child.n - 1
    memset(seen, 0, sizeof(GroupCensus))
    for i in range(parent.count):
        if parent.hi[i] < band_lo or parent.lo[i] > band_hi:
            count_groups(seen, parent.size[i], 1, True)
    if seen.second < 1:
        outside_singles = parent.all_singles
        for c in range(band_lo, band_hi + 1):
            outside_singles -= parent.singles[c]
        if outside_singles:
            count_groups(seen, 1, 2 if outside_singles > 1 else 1, True)
    walk_columns(child, band_lo, band_hi, NULL, MAX_GROUPS + 1, seen, NULL)

# ---------------------------------------------------------------- moves


cdef inline uint32_t squeeze_out(uint32_t bits, uint32_t removed) noexcept nogil:
    """`bits` with the rows in `removed` deleted and everything above them shifted down."""
    cdef int k
    cdef uint32_t below
    while removed:
        k = 31 - clz(removed)           # highest first, so lower positions stay valid
        below = (1u << k) - 1
        bits = (bits & below) | ((bits >> 1) & ~below)
        removed &= below
    return bits


cdef int32_t play_group(Position *child, const Position *pos, const Group *group,
                        const uint32_t *masks) noexcept nogil:
    """Copy `pos` into `child` with `group` removed and gravity applied; returns the points."""
    cdef int t, c, low
    cdef uint32_t removed, before, after
    cdef uint64_t h
    memcpy(child, pos, sizeof(Position))
    h = child.hash
    for c in range(group.lo, group.hi + 1):
        removed = masks[c - group.lo]
        if not removed:
            continue
        low = ctz(removed)             # rows below the lowest hole do not move
        for t in range(pos.types):
            before = pos.plane[t][c] >> low
            if not before:
                continue
            after = squeeze_out(before, removed >> low)
            child.plane[t][c] = (pos.plane[t][c] & ((1u << low) - 1)) | (after << low)
            h ^= hash_bits(t, c, before << low) ^ hash_bits(t, c, after << low)
    child.hash = h
    child.fruit = pos.fruit - group.size
    return <int32_t>group.size * group.size

# ---------------------------------------------------------------- perft


cdef int64_t perft_with(const Position *pos, int depth, MoveList *stack) noexcept nogil:
    cdef Position child
    cdef int64_t leaves = 0
    cdef int i
    if depth == 0 or pos.fruit == 0:
        return 1
    enumerate_groups(pos, stack)
    if depth == 1:
        return stack.count
    for i in range(stack.count):
        play_group(&child, pos, &stack.groups[i], &stack.masks[stack.groups[i].first_mask])
        leaves += perft_with(&child, depth - 1, stack + 1)
    return leaves


cdef int64_t perft(const Position *pos, int depth) noexcept nogil:
    """Leaves of the move tree to `depth`; an emptied board is a leaf at any depth."""
    cdef MoveList *stack = <MoveList *> malloc((depth + 1) * sizeof(MoveList))
    cdef int64_t leaves
    if stack == NULL:
        return -1
    leaves = perft_with(pos, depth, stack)
    free(stack)
    return leaves

# ---------------------------------------------------------------- search
#
# Negamax over the score difference: a node's value is the mover's points minus the
# opponent's from here to the horizon. Alpha-beta with principal-variation search, a
# transposition table, move ordering (TT move, then group size, then history) and an
# evaluation at the horizon. Iterative deepening, aspiration windows and the clock policy
# are the Python driver's (agent/search.py); this part only searches one depth and stops
# at the hard CPU deadline it is given.

cdef enum:
    INFINITE = 1000000          # above any reachable margin (26 * 26) ** 2
    SOLVED_DEPTH = 127
    NO_MOVE = 0xFFFF
    BOUND_EXACT = 0
    BOUND_LOWER = 1
    BOUND_UPPER = 2
    CLOCK_POLL_NODES = 256       # ~1 ms of search on the largest boards

# Search options, visible from Python as agent._core.ORDER_TT etc.
cpdef enum:
    ORDER_TT = 1
    ORDER_SIZE = 2
    ORDER_HISTORY = 4
    ORDER_ALL = 7
    EVAL_NONE = 0
    EVAL_GREEDY_PAIR = 1
    EVAL_ALTERNATING = 2
    MODEL_NONE = 0
    MODEL_GREEDY = 1

# Told apart in the table when the opponent is modelled: the same board is worth something
# else with us to move than with the modelled opponent to move.
cdef uint64_t MODELLED_SIDE_KEY = 0x9E3779B97F4A7C15ULL


ctypedef struct SearchState:
    TTEntry *tt
    uint64_t tt_mask
    MoveList *moves             # one list per ply
    int32_t (*scores)[MAX_GROUPS]
    int plies                   # lists allocated
    int32_t history[MAX_N * 32]
    int64_t nodes
    int64_t horizon_hits        # evaluations at the horizon (the value is then not exact)
    int64_t tt_probes
    int64_t tt_hits
    double deadline             # process CPU seconds
    bint stop
    bint alpha_beta
    int ordering
    int eval_kind
    int reduction               # plies a late move's first search is cut by (0: none)
    int full_moves              # moves of a node searched at full depth before reducing
    int opponent_model          # MODEL_GREEDY: at odd plies only the largest groups are played
    uint8_t age
    uint16_t root_move          # best move of the root search so far
    int32_t root_value
    int root_moves_done
    GroupSpans *spans           # per ply: the node's groups, when the evaluation can use them
    Group **played              # per ply: the move being searched (a group in its move list)


cdef inline double cpu_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline GroupSpans *spans_to_fill(SearchState *s, int ply) noexcept nogil:
    """Where a node's walk records its groups: only the pair evaluation reads them."""
    return &s.spans[ply] if s.eval_kind == EVAL_GREEDY_PAIR else NULL


cdef inline int32_t pair_value(const GroupCensus *seen) noexcept nogil:
    return seen.first * seen.first - seen.second * seen.second


cdef int32_t evaluate(SearchState *s, const Position *pos, int parent_ply) noexcept nogil:
    """The horizon's guess at what is still to come in `pos`, the position that the move
    s.played[parent_ply] leaves.
    EVAL_GREEDY_PAIR: the mover takes the largest group, the opponent the next largest,
    like two extra plies of greedy play; it damps the odd/even swing of a bare margin.
    Counted from the parent's recorded groups (child_census), not a walk of the board.
    EVAL_ALTERNATING: the players take turns taking the groups largest first, as if the
    groups never merged: a whole greedy game on the current groups.
    Tuned by self-play (20 games each, 12x12 p4, 0.2 s a move, against greedy): pair 19-1,
    none 18-2, alternating 18-1-1, all within noise of each other; the pair is the default,
    the cheapest of the two that look past the horizon. Against minimax3 on 26x26 p9 at
    60 s, moving second (the hard side), in-process: pair 7-1, alternating 4-4. Against
    minimax3 on 12x12 p4 at 20 s, moving second, 40 boards: pair 19-21 (-13 a game),
    alternating 14-26 (-20), none 11-29 (-33), and the top four groups taken in turn
    (g1^2 - g2^2 + g3^2 - g4^2) 18-22 (-18).
    Every kind returns a value >= 0 (the mover takes a group at least as large as the
    opponent's next one); frontier_moves relies on it."""
    cdef MoveList *moves = &s.moves[parent_ply + 1]
    cdef int32_t sizes[MAX_GROUPS]
    cdef int i, j, size, big = 0, singles = 0
    cdef int32_t total = 0
    cdef GroupCensus seen
    if s.eval_kind == EVAL_NONE:
        return 0
    if s.eval_kind == EVAL_GREEDY_PAIR:
        child_census(pos, s.played[parent_ply], &s.spans[parent_ply], &seen)
        return pair_value(&seen)
    enumerate_groups(pos, moves)
    for i in range(moves.count):            # insertion sort of the groups larger than one
        size = moves.groups[i].size
        if size == 1:
            singles += 1
            continue
        j = big
        while j > 0 and sizes[j - 1] < size:
            sizes[j] = sizes[j - 1]
            j -= 1
        sizes[j] = size
        big += 1
    for i in range(big):
        total += sizes[i] * sizes[i] if i % 2 == 0 else -sizes[i] * sizes[i]
    # the singles come last, one point each, alternately
    if singles % 2:
        total += 1 if big % 2 == 0 else -1
    return total


cdef void score_moves(SearchState *s, MoveList *moves, int32_t *scores, uint16_t tt_move) noexcept nogil:
    cdef int i
    cdef Group *g
    for i in range(moves.count):
        g = &moves.groups[i]
        scores[i] = 0
        if s.ordering & ORDER_SIZE:
            scores[i] = <int32_t>g.size * g.size * 1024
        if s.ordering & ORDER_HISTORY:
            scores[i] += s.history[g.key] if s.history[g.key] < 1023 else 1023
        if s.ordering & ORDER_TT and g.key == tt_move:
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
        s.horizon_hits += 1   # their values were guessed, not searched (a last group's is exact)
    return seen.largest_unlisted * seen.largest_unlisted


cdef void keep_largest(MoveList *moves, int size) noexcept nogil:
    """Drop every group smaller than `size` from the list (a greedy player's choices)."""
    cdef int i, kept = 0
    for i in range(moves.count):
        if moves.groups[i].size == size:
            moves.groups[kept] = moves.groups[i]
            kept += 1
    moves.count = kept


cdef inline bint enter_node(SearchState *s) noexcept nogil:
    """Count a node and look at the clock now and then; True when the search must stop."""
    s.nodes += 1
    if s.nodes % CLOCK_POLL_NODES == 0 and cpu_seconds() >= s.deadline:
        s.stop = True
    return s.stop


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
    cdef int64_t horizon_before = s.horizon_hits
    cdef GroupCensus census
    # the opponent's nodes when it is modelled: its move is the model's, not its best
    cdef bint modelled = s.opponent_model != MODEL_NONE and ply & 1
    cdef uint64_t key = pos.hash ^ MODELLED_SIDE_KEY if modelled else pos.hash
    # the root too: a depth-1 search (every instant move) then plays only what can raise alpha
    cdef bint frontier = depth == 1 and s.alpha_beta and not modelled
    if pos.fruit == 0 or enter_node(s):
        return 0
    if depth == 0:
        # No table probe here: a stored value from a deeper search may be negative, and
        # the frontier's pruning below relies on the horizon value being the evaluation.
        s.horizon_hits += 1
        return evaluate(s, pos, ply - 1)
    if s.tt != NULL:
        entry = &s.tt[key & s.tt_mask]
        s.tt_probes += 1
        if entry.key == key:
            s.tt_hits += 1
            tt_move = entry.move
            if entry.depth >= depth and ply > 0:
                bound = entry.bound_age & 3
                if (bound == BOUND_EXACT or (bound == BOUND_LOWER and entry.value >= beta)
                        or (bound == BOUND_UPPER and entry.value <= alpha)):
                    if entry.depth != SOLVED_DEPTH:
                        s.horizon_hits += 1
                    return entry.value

    moves = &s.moves[ply]
    scores = s.scores[ply]
    if frontier:
        best = frontier_moves(s, pos, moves, alpha, ply)
    else:
        walk_groups(pos, moves, 1, &census, spans_to_fill(s, ply))
        if modelled:
            keep_largest(moves, census.first)
    if ply == 0:
        tt_move = s.root_move if s.root_move != NO_MOVE else tt_move
    score_moves(s, moves, scores, tt_move)
    for i in range(moves.count):
        pick_next(moves, scores, i)
        g = &moves.groups[i]
        if frontier and <int32_t>g.size * g.size <= alpha:
            # alpha rose to best since frontier_moves: this move cannot raise it either
            if g.size < pos.fruit:
                s.horizon_hits += 1
            continue
        points = play_group(&child, pos, g, &moves.masks[g.first_mask])
        s.played[ply] = g
        if frontier:
            # the child is a horizon node, whose value does not depend on the window:
            # evaluate it once rather than in a null window and again in the full one
            value = points
            if child.fruit:
                if enter_node(s):
                    return 0
                s.horizon_hits += 1
                value -= evaluate(s, &child, ply)
        elif not s.alpha_beta:
            value = points - negamax(s, &child, depth - 1, -INFINITE, INFINITE, ply + 1)
        elif i == 0:
            value = points - negamax(s, &child, depth - 1, points - beta, points - alpha, ply + 1)
        else:
            # Late move reduction: a move ordered late (a small group) is first searched
            # shallower, and again at full depth only if it beats alpha there. Never where
            # the full depth would reach the end of the game, so exact solving stays exact.
            reduce = 0
            if s.reduction and i >= s.full_moves and depth >= 3 and depth - 1 < child.fruit:
                reduce = s.reduction if s.reduction < depth - 1 else depth - 1
            value = points - negamax(s, &child, depth - 1 - reduce, points - alpha - 1, points - alpha, ply + 1)
            if reduce and value > alpha and not s.stop:
                value = points - negamax(s, &child, depth - 1, points - alpha - 1, points - alpha, ply + 1)
            if alpha < value < beta:
                value = points - negamax(s, &child, depth - 1, points - beta, points - alpha, ply + 1)
        if s.stop:
            return 0
        if value > best:
            best = value
            best_move = g.key
            if ply == 0:
                s.root_move = best_move
                s.root_value = best
            if value > alpha:
                alpha = value
                if s.alpha_beta and alpha >= beta:
                    s.history[g.key] += depth * depth
                    break
        if ply == 0:
            s.root_moves_done += 1

    if entry != NULL:
        bound = BOUND_UPPER if best <= alpha_in else (BOUND_LOWER if best >= beta else BOUND_EXACT)
        if s.horizon_hits == horizon_before:
            depth = SOLVED_DEPTH
        if entry.key != key or (entry.bound_age >> 2) != s.age or depth >= entry.depth:
            entry.key = key
            entry.value = best
            entry.move = best_move
            entry.depth = depth
            entry.bound_age = bound | (s.age << 2)
    return best


# ---------------------------------------------------------------- Python edge

cdef tuple group_cells(const Position *pos, const Group *group, const uint32_t *masks):
    cdef int c, n = pos.n
    cdef uint32_t bits
    cells = []
    for c in range(group.lo, group.hi + 1):
        bits = masks[c - group.lo]
        while bits:
            cells.append((n - 1 - ctz(bits), c))
            bits &= bits - 1
    return tuple(cells)


cdef class Board:
    """A position of the core, built from and shown as rules-style rows (top row first)."""
    cdef Position pos

    def __init__(self, rows):
        rows = tuple(rows)
        cdef int n = len(rows), row, col, t
        if not 1 <= n <= MAX_N or any(len(r) != n for r in rows):
            raise ValueError(f"need 1..{MAX_N} rows of equal length n")
        memset(&self.pos, 0, sizeof(Position))
        self.pos.n = n
        for row in range(n):
            for col in range(n):
                ch = rows[row][col]
                if ch == "*":
                    continue
                if ch not in "0123456789":
                    raise ValueError(f"bad cell {ch!r}")
                t = ord(ch) - 48
                self.pos.plane[t][col] |= 1u << (n - 1 - row)
                self.pos.types = max(self.pos.types, t + 1)
                self.pos.fruit += 1
        self.pos.hash = hash_from_scratch(&self.pos)

    @property
    def n(self):
        return self.pos.n

    @property
    def fruit(self):
        return self.pos.fruit

    @property
    def hash(self):
        return self.pos.hash

    def hash_from_scratch(self):
        return hash_from_scratch(&self.pos)

    def rows(self):
        cdef int n = self.pos.n, row, col, t
        grid = [["*"] * n for _ in range(n)]
        for t in range(self.pos.types):
            for col in range(n):
                for row in range(n):
                    if self.pos.plane[t][col] >> (n - 1 - row) & 1:
                        grid[row][col] = chr(48 + t)
        return tuple("".join(r) for r in grid)

    def groups(self):
        """Every group as a tuple of (row, col) cells, in the core's enumeration order."""
        cdef MoveList *moves = <MoveList *> malloc(sizeof(MoveList))
        cdef int i
        if moves == NULL:
            raise MemoryError()
        try:
            enumerate_groups(&self.pos, moves)
            return [group_cells(&self.pos, &moves.groups[i], &moves.masks[moves.groups[i].first_mask])
                    for i in range(moves.count)]
        finally:
            free(moves)

    def pair_values_after_moves(self):
        """{cell: EVAL_GREEDY_PAIR of the position the move there leaves}, one cell per
        group, computed as the search does: from this position's group spans and flood
        fills near the move only (child_census). For tests against the rules."""
        cdef MoveList *moves = <MoveList *> malloc(sizeof(MoveList))
        cdef GroupSpans *spans = <GroupSpans *> malloc(sizeof(GroupSpans))
        cdef GroupCensus seen
        cdef Position child
        cdef Group *g
        cdef int i
        try:
            if moves == NULL or spans == NULL:
                raise MemoryError()
            walk_groups(&self.pos, moves, 1, &seen, spans)
            values = {}
            for i in range(moves.count):
                g = &moves.groups[i]
                play_group(&child, &self.pos, g, &moves.masks[g.first_mask])
                child_census(&child, g, spans, &seen)
                cell = group_cells(&self.pos, g, &moves.masks[g.first_mask])[0]
                values[cell] = pair_value(&seen)
            return values
        finally:
            free(moves)
            free(spans)

    def group_count(self):
        cdef MoveList *moves = <MoveList *> malloc(sizeof(MoveList))
        if moves == NULL:
            raise MemoryError()
        enumerate_groups(&self.pos, moves)
        count = moves.count
        free(moves)
        return count

    def play(self, cell):
        """(next Board, points) for the move at (row, col); ValueError on an empty cell."""
        cdef int row = cell[0], col = cell[1], i, n = self.pos.n
        cdef uint32_t bit
        cdef Group *g
        cdef Board child
        cdef MoveList *moves
        if not (0 <= row < n and 0 <= col < n):
            raise ValueError(f"cell {cell} is off the board")
        bit = 1u << (n - 1 - row)
        moves = <MoveList *> malloc(sizeof(MoveList))
        if moves == NULL:
            raise MemoryError()
        try:
            enumerate_groups(&self.pos, moves)
            for i in range(moves.count):
                g = &moves.groups[i]
                if g.lo <= col <= g.hi and moves.masks[g.first_mask + col - g.lo] & bit:
                    child = Board.__new__(Board)
                    points = play_group(&child.pos, &self.pos, g, &moves.masks[g.first_mask])
                    return child, points
        finally:
            free(moves)
        raise ValueError(f"cell {cell} is empty")

    def perft(self, int depth):
        if depth < 0:
            raise ValueError("depth must be >= 0")
        cdef int64_t leaves
        with nogil:
            leaves = perft(&self.pos, depth)
        if leaves < 0:
            raise MemoryError("perft stack")
        return leaves

    def bench_play_enumerate(self, long count):
        """Plays `count` root moves in turn, enumerating the groups of each resulting
        position; returns how many positions were enumerated (the benchmark's unit)."""
        cdef MoveList *moves = <MoveList *> malloc(2 * sizeof(MoveList))
        cdef Position child
        cdef long i, done = 0
        cdef Group *g
        if moves == NULL:
            raise MemoryError()
        with nogil:
            enumerate_groups(&self.pos, moves)
            if moves.count:
                for i in range(count):
                    g = &moves.groups[i % moves.count]
                    play_group(&child, &self.pos, g, &moves.masks[g.first_mask])
                    enumerate_groups(&child, moves + 1)
                    done += 1
        free(moves)
        return done


cdef class DepthResult:
    """What one Searcher.search call found."""
    cdef readonly int value         # the root's value, mover's view (best so far when cut off)
    cdef readonly object move       # (row, col) naming the best group; None before any root move completed
    cdef readonly bint completed    # False: the deadline cut the search off
    cdef readonly int moves_done    # root moves searched to the end
    cdef readonly bint exact        # no horizon was reached: the value is the true final margin
    cdef readonly long long nodes
    cdef readonly long long tt_hits
    cdef readonly long long tt_probes

    def __repr__(self):
        return (f"DepthResult(value={self.value}, move={self.move}, completed={self.completed}, "
                f"exact={self.exact}, nodes={self.nodes})")


cdef class Searcher:
    """One search of one position: a transposition table and the per-ply move lists that
    survive across the iterations of iterative deepening.

    tt_bits: log2 of the table's entries (16 bytes each; 0 turns the table off).
    ordering: ORDER_* flags. eval_kind: EVAL_GREEDY_PAIR (the agent's), EVAL_ALTERNATING
    (an alternative kept for tuning, see evaluate) or EVAL_NONE (the bare margin).
    alpha_beta: False gives plain minimax (no pruning, no table), the oracle and baseline.
    reduction, full_moves: the first `full_moves` moves of a node are searched at full
    depth, later ones first `reduction` plies shallower (0: no reduction).
    opponent_model: MODEL_NONE (the opponent replies its best) or MODEL_GREEDY (it takes a
    largest group; of several, the one worst for us): values are then margins against
    that opponent, not against the best one.
    """
    cdef SearchState s
    cdef Board board

    def __cinit__(self, Board board, int tt_bits=20, int ordering=ORDER_ALL,
                  int eval_kind=EVAL_GREEDY_PAIR, bint alpha_beta=True, int reduction=0,
                  int full_moves=4, int opponent_model=MODEL_NONE):
        if not 0 <= tt_bits <= 28:
            raise ValueError("tt_bits must be 0..28")
        if not (0 <= reduction <= 8 and full_moves >= 0):
            raise ValueError("reduction must be 0..8 and full_moves >= 0")
        if opponent_model not in (MODEL_NONE, MODEL_GREEDY):
            raise ValueError("opponent_model must be MODEL_NONE or MODEL_GREEDY")
        if eval_kind not in (EVAL_NONE, EVAL_GREEDY_PAIR, EVAL_ALTERNATING):
            raise ValueError("eval_kind must be EVAL_NONE, EVAL_GREEDY_PAIR or EVAL_ALTERNATING")
        if not 0 <= ordering <= ORDER_ALL:
            raise ValueError("ordering must be a combination of ORDER_* flags")
        memset(&self.s, 0, sizeof(SearchState))
        self.board = board
        self.s.alpha_beta = alpha_beta
        self.s.ordering = ordering
        self.s.eval_kind = eval_kind
        self.s.reduction = reduction
        self.s.full_moves = full_moves
        self.s.opponent_model = opponent_model
        self.s.root_move = NO_MOVE
        if tt_bits and alpha_beta:
            self.s.tt = <TTEntry *> calloc(1 << tt_bits, sizeof(TTEntry))
            if self.s.tt == NULL:
                raise MemoryError("transposition table")
            self.s.tt_mask = (1 << tt_bits) - 1

    def __dealloc__(self):
        free(self.s.tt)
        free(self.s.moves)
        free(self.s.scores)
        free(self.s.spans)
        free(self.s.played)

    cdef void reserve_plies(self, int plies) except *:
        if plies <= self.s.plies:
            return
        moves = <MoveList *> realloc(self.s.moves, plies * sizeof(MoveList))
        if moves == NULL:
            raise MemoryError("move lists")
        self.s.moves = moves
        scores = <int32_t (*)[MAX_GROUPS]> realloc(self.s.scores, plies * sizeof(int32_t[MAX_GROUPS]))
        if scores == NULL:
            raise MemoryError("move scores")
        self.s.scores = scores
        spans = <GroupSpans *> realloc(self.s.spans, plies * sizeof(GroupSpans))
        if spans == NULL:
            raise MemoryError("group spans")
        self.s.spans = spans
        played = <Group **> realloc(self.s.played, plies * sizeof(Group *))
        if played == NULL:
            raise MemoryError("played moves")
        self.s.played = played
        self.s.plies = plies

    def search(self, int depth, int alpha=-INFINITE, int beta=INFINITE, double deadline=1e300):
        """Search the root to `depth` within (alpha, beta), stopping when the process CPU
        clock passes `deadline`; a DepthResult says what it found."""
        if depth < 1:
            raise ValueError("depth must be >= 1")
        depth = min(depth, self.board.pos.fruit)
        self.reserve_plies(depth + 1)
        self.s.stop = False
        self.s.deadline = deadline
        self.s.nodes = 0
        self.s.horizon_hits = 0
        self.s.tt_hits = 0
        self.s.tt_probes = 0
        self.s.root_moves_done = 0
        cdef int32_t value
        with nogil:
            value = negamax(&self.s, &self.board.pos, depth, alpha, beta, 0)
        cdef DepthResult result = DepthResult.__new__(DepthResult)
        result.completed = not self.s.stop
        result.value = value if result.completed else self.s.root_value
        result.move = self.move_cell(self.s.root_move)
        result.moves_done = self.s.root_moves_done
        result.exact = result.completed and self.s.horizon_hits == 0 and alpha < value < beta
        result.nodes = self.s.nodes
        result.tt_hits = self.s.tt_hits
        result.tt_probes = self.s.tt_probes
        return result

    def next_generation(self):
        """Age the table so entries of earlier searches give way (for reuse across moves)."""
        self.s.age = (self.s.age + 1) & 63

    def move_cell(self, key):
        """The (row, col) cell a group key names: the group's lowest cell in its leftmost column."""
        if key == NO_MOVE:
            return None
        return self.board.pos.n - 1 - key % 32, key // 32

    def principal_variation(self, int limit):
        """Moves (as cells) read from the table along the best line, at most `limit`."""
        cdef Board board = self.board
        cdef TTEntry *entry
        cdef uint64_t key
        line = []
        if self.s.tt == NULL:
            return line
        while len(line) < limit and board.pos.fruit:
            key = board.pos.hash
            if self.s.opponent_model != MODEL_NONE and len(line) % 2:
                key ^= MODELLED_SIDE_KEY
            entry = &self.s.tt[key & self.s.tt_mask]
            if entry.key != key or entry.move == NO_MOVE:
                break
            cell = self.move_cell(entry.move)
            try:
                board = board.play(cell)[0]
            except ValueError:      # a hash collision left a move of another position
                break
            line.append(cell)
        return line
INFINITE_VALUE = INFINITE
