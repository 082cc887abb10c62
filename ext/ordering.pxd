# Contract of the ordering unit (ordering.pyx): every decision on the order a node's moves
# are tried in, behind one move picker (MovePicker, next_move) that every loop over a
# node's moves takes them from, and the history bonus a cutoff earns.
# Uses groups: GroupSummary
# Uses frontier: FrontierView, all_moves, largest_moves, move_with_key
# Uses table: NO_MOVE
from libc.stdint cimport int32_t, uint16_t

from core_types cimport MAX_N, Group

cdef enum:
    TT_MOVE_SCORE = 1024000000  # the table's move: above any size's and history's score

# Visible from Python as agent._core.ORDER_TT etc.
cpdef enum:
    ORDER_TT = 1
    ORDER_SIZE = 2
    ORDER_HISTORY = 4
    ORDER_ALL = 7

ctypedef struct MoveOrdering:
    int flags                   # ORDER_*
    int32_t history[MAX_N * 32] # by Group.key: depth^2 summed over the cutoffs it caused

cdef inline void reward_cutoff(MoveOrdering *ordering, int key, int depth) noexcept nogil:
    """The move `key` caused a cutoff `depth` plies above the horizon: tried sooner in its
    siblings' nodes, the more so the deeper the cut."""
    ordering.history[key] += depth * depth

# The stages of a MovePicker, in the order it may pass through them.
cdef enum:
    PICK_AHEAD = 0      # the last plies' largest groups, from the node's summary, unordered
    PICK_FIRST = 1      # a view's first move, found alone: it mostly settles the node
    PICK_ALL = 2        # next: list a view's moves, score them all
    PICK_ORDERED = 3    # the best-scored move not yet handed out, each time

ctypedef struct MovePicker:
    # A node's moves, handed out by next_move one at a time in the order they are tried:
    # every loop over a node's moves takes them from one of these.
    const MoveOrdering *ordering
    FrontierView *view          # the moves read through the parent's list (NULL: in `order`)
    const Group **order         # the moves (this ply's buffer), best first once handed out
    int32_t *scores             # their ordering scores, aligned with `order`
    int count                   # moves in `order` (a view's: its group count until listed)
    int next                    # of `order`, the next to hand out
    int stage                   # PICK_*
    uint16_t tt_move            # the table's move: scored first
    const Group **ahead         # PICK_AHEAD's moves
    int ahead_count
    int ahead_next

# A picker of the `count` moves in `order` (`view` NULL), or of the moves of `view`
# (`count` its groups, listed into `order` when first needed); `lazy`: with a view, its
# first move is found alone (only when moves are ordered by size).
cdef void start_picking(MovePicker *picker, const MoveOrdering *ordering, const Group **order,
                        int32_t *scores, int count, FrontierView *view, uint16_t tt_move,
                        bint lazy) noexcept nogil
# At the last plies: the summary's largest groups come first, unordered, before all moves
# in order (see two_plies_left), where they are `bounded` below the root and ordered by
# size: mostly they settle the node, and the moves after them are no larger.
cdef void pick_largest_first(MovePicker *picker, const GroupSummary *summary, bint bounded,
                             int ply) noexcept nogil
# The stages before PICK_ORDERED (next_move's cold path).
cdef const Group *next_unordered(MovePicker *picker) noexcept nogil
# Bring the best-scored remaining move to place i; called for i = 0, 1, 2... in turn.
cdef void pick_next(const Group **order, int32_t *scores, int count, int i) noexcept nogil

cdef inline const Group *next_move(MovePicker *picker) noexcept nogil:
    """The node's next move in the order they are tried; NULL when none is left."""
    if picker.stage != PICK_ORDERED:
        return next_unordered(picker)
    if picker.next >= picker.count:
        return NULL
    pick_next(picker.order, picker.scores, picker.count, picker.next)
    picker.next += 1
    return picker.order[picker.next - 1]

cdef inline bint ahead_done(const MovePicker *picker) noexcept nogil:
    """Whether the summary's largest groups were all handed out and the others come next."""
    return picker.stage == PICK_AHEAD and picker.ahead_next == picker.ahead_count

cdef inline bint none_larger_after(const MovePicker *picker) noexcept nogil:
    """After a move of the PICK_AHEAD or PICK_ORDERED stage: whether no move handed out
    after it is larger. Moves ordered by size come largest first, except the table's move,
    which the first of the scored ones may be."""
    return picker.ordering.flags & ORDER_SIZE and (
        picker.stage != PICK_ORDERED or picker.next != 1 or picker.scores[0] < TT_MOVE_SCORE)
