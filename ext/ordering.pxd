# Contract of the ordering unit (ordering.pyx): the order a node's moves are tried in.
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

# A move's history score, below the step between two group sizes' scores.
cdef int32_t capped_history(const MoveOrdering *ordering, int key) noexcept nogil
# Into scores[i], the score of order[i] (higher: tried sooner).
cdef void score_moves(const MoveOrdering *ordering, const Group **order, int count,
                      int32_t *scores, uint16_t tt_move) noexcept nogil
# Bring the best-scored remaining move to place i; called for i = 0, 1, 2... in turn.
cdef void pick_next(const Group **order, int32_t *scores, int count, int i) noexcept nogil
