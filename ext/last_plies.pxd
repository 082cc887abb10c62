# Contract of the last plies unit (last_plies.pyx): the nodes two plies above a horizon
# worth 0, whose value is read from group sizes, not searched. Uses search_state.pxd (the
# state, the node count, folding a move's value), groups.pxd, frontier.pxd (the census and
# views), position.pxd, ordering.pxd, evaluation.pxd (EVAL_NONE) and table.pxd (NO_MOVE).
from libc.stdint cimport int32_t, uint16_t

from core_types cimport Position

# Whether the nodes two plies above the horizon can be valued by two_plies_left: the horizon
# is worth 0 (evaluation none) and both sides play their best.
cdef bint reads_last_plies(const SearchState *s) noexcept nogil
# The value of `pos`, a node at `ply` two plies above the horizon whose moves list_moves put
# in `moves` (listed, or read through moves.view): fail-soft in (alpha, beta), `tt_move`
# tried first, the best move's key into `best_move` (NO_MOVE when every move was bounded
# without being played).
cdef int32_t two_plies_left(SearchState *s, const Position *pos, NodeMoves *moves, uint16_t tt_move,
                            int32_t alpha, int32_t beta, int ply, uint16_t *best_move) noexcept nogil
