# Contract of the ordering unit (ordering.pyx): every decision on the order a node's moves
# are tried in, and the history bonus a cutoff earns. Uses groups.pxd (GroupSummary),
# frontier.pxd (a FrontierView's moves) and table.pxd (NO_MOVE).
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

# A move's history score, below the step between two group sizes' scores.
cdef int32_t capped_history(const MoveOrdering *ordering, int key) noexcept nogil
# Into scores[i], the score of order[i] (higher: tried sooner).
cdef void score_moves(const MoveOrdering *ordering, const Group **order, int count,
                      int32_t *scores, uint16_t tt_move) noexcept nogil
# Bring the best-scored remaining move to place i; called for i = 0, 1, 2... in turn.
cdef void pick_next(const Group **order, int32_t *scores, int count, int i) noexcept nogil
# The moves of a node read through a FrontierView, into `order` (scored in `scores`);
# returns how many. Ordered by size, only the first is found (`lazy` set: it mostly settles
# the node, and order_rest_of_view brings the others); else all of them, scored.
cdef int order_view_moves(const MoveOrdering *ordering, FrontierView *view, uint16_t tt_move,
                          const Group **order, int32_t *scores, bint *lazy) noexcept nogil
# After a lazy first move that did not settle the node: all the view's moves, scored, with
# the first in its place; returns how many.
cdef int order_rest_of_view(const MoveOrdering *ordering, FrontierView *view, uint16_t tt_move,
                            const Group **order, int32_t *scores) noexcept nogil
# How many moves the last plies try straight from the summary's largest groups, unordered,
# before all moves in order (see two_plies_left).
cdef int summary_moves_first(const MoveOrdering *ordering, const GroupSummary *summary,
                             bint bounded, int ply) noexcept nogil
# Whether no move tried after one is larger (moves ordered by size, `first_scored`: the
# first of the scored moves, which the table's move may take out of size order).
cdef bint none_larger_after(const MoveOrdering *ordering, const int32_t *scores,
                            bint first_scored) noexcept nogil
