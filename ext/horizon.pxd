# Contract of the horizon unit (horizon.pyx; needs search.pxd before it): the nodes two
# plies above a horizon worth 0, whose value is read from group sizes, not searched.
from libc.stdint cimport int32_t, uint16_t

from core_types cimport Group, GroupList, Position

# Whether the nodes two plies above the horizon can be valued by two_plies_left: the horizon
# is worth 0 (evaluation none, no quiescence) and both sides play their best.
cdef bint reads_last_plies(const SearchState *s) noexcept nogil
# The value of `pos`, a node at `ply` two plies above the horizon whose `count` moves are in
# `groups`, or when `view` is not NULL read through it (its summary filled); put in order
# in `order`, scored in `scores`, `tt_move` first: fail-soft in (alpha, beta), the best
# move's key into `best_move` (NO_MOVE when every move was bounded without being played).
cdef int32_t two_plies_left(SearchState *s, const Position *pos, const GroupList *groups,
                            FrontierView *view, const Group **order, int32_t *scores, int count,
                            uint16_t tt_move, int32_t alpha, int32_t beta, int ply,
                            uint16_t *best_move) noexcept nogil
# The most points either side can still take from `pos` (each type's fruit squared): in a
# search to the end, a bound of the node's value on both sides.
cdef int32_t squares_bound(const Position *pos) noexcept nogil
