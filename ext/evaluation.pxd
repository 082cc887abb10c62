# Contract of the evaluation unit (evaluation.pyx; needs groups.pxd before it): what the
# horizon guesses is still to come in a position, from its mover's view. Every kind is
# >= 0 (the mover takes a group at least as large as the opponent's next one): the
# search's frontier pruning relies on it. agent/evaluations.py pairs each kind with its
# plain-Python oracle and says how to add one.
from libc.stdint cimport int32_t

from core_types cimport Group, GroupList, Position

# Visible from Python as agent._core.EVAL_NONE etc.
cpdef enum:
    EVAL_NONE = 0            # the bare margin: nothing is guessed
    EVAL_GREEDY_PAIR = 1     # the mover takes the largest group, the opponent the next
    EVAL_ALTERNATING = 2     # the players take the groups in turn, largest first
    EVAL_PAIR_EXCHANGE = 3   # a fitted blend of the greedy pair and the greedy exchange
    EVAL_HOT_EXCHANGE = 4    # the pair exchange and the hot switches of the largest groups
    EVAL_GREEDY_LINE = 5     # a fitted blend of the greedy pair and a greedy line of 4 plies
    EVAL_LARGEST_EXCHANGE = 6  # the pair exchange and the largest group's square
    EVAL_LARGE_GROUPS = 7    # the largest exchange and how many groups are large
    EVAL_BEST_EXCHANGE = 8   # the largest exchange and the best exchange of any group
    EVAL_SIBLING_EXCHANGE = 9  # the largest exchange's terms weighted to rank a move's children
    EVAL_SIBLING_BEST = 10   # the best exchange's terms weighted to rank a move's children

cdef enum:
    EVAL_KINDS = 11          # the kinds above are 0 .. EVAL_KINDS - 1
    # EVAL_PAIR_EXCHANGE's weights in thousandths: (PAIR * greedy pair + EXCHANGE * greedy
    # exchange + CONSTANT) / 1000, rounded, never below 0 (the 12x12 p4 fit of
    # docs/strength-eval.md; agent/evaluations.py gives its oracle the same numbers).
    BLEND_PAIR = 465
    BLEND_EXCHANGE = 325
    BLEND_CONSTANT = 4222
    # EVAL_HOT_EXCHANGE: the pair exchange and the HOT_GROUPS largest groups taken in turn
    # as if independent, g1^2 - g2^2 + g3^2 - ..., weighted HOT_* like BLEND_* (a least-
    # squares fit to labels from deeper searches on 26x26 p9, agent/tuning/labels.py;
    # docs/strength.md, "Past the search ceiling"). HOT_GROUPS <= SUMMARY_LARGEST.
    HOT_GROUPS = 4
    HOT_PAIR = 176
    HOT_EXCHANGE = 258
    HOT_SWITCHES = 228
    HOT_CONSTANT = 4361
    # EVAL_GREEDY_LINE: LINE_PLIES moves, the sides in turn taking the largest group (of several,
    # the one of least Group.key), with gravity, then the greedy pair; weighted LINE_* (the
    # 26x26 p9 fit of the same labels).
    LINE_PLIES = 4
    LINE_PAIR = 258
    LINE_WEIGHT = 117
    LINE_CONSTANT = 4096
    # EVAL_LARGEST_EXCHANGE: the pair exchange's two terms and the square of the largest
    # group, weighted LARGEST_* (the 26x26 p9 fit of the same labels): the three squares
    # g1^2, g2^2 and the reply's weighed apart instead of in the pair's fixed differences.
    LARGEST_PAIR = 273
    LARGEST_EXCHANGE = 273
    LARGEST_SQUARE = 151
    LARGEST_CONSTANT = 3622
    # EVAL_LARGE_GROUPS: the largest exchange's three terms and the count of groups of at
    # least LARGE_SIZE fruit, weighted LARGE_* (the 26x26 p9 fit of the same labels). On
    # 26x26 p9 a group of 5 is rare and the greedy exchange misjudges the positions that
    # have one.
    LARGE_SIZE = 5
    LARGE_PAIR = 258
    LARGE_EXCHANGE = 258
    LARGE_SQUARE = 106
    LARGE_COUNT = 1570
    LARGE_CONSTANT = 3859
    # EVAL_BEST_EXCHANGE: the largest exchange's three terms and the best exchange, the most
    # of g^2 - r^2 over every group g (r the largest group taking g leaves), weighted BEST_*
    # (the 26x26 p9 fit of the same labels): the mover may do better than a largest group
    # when taking it sets up a merge, or when a smaller group's removal splits the reply.
    BEST_PAIR = 180
    BEST_EXCHANGE = 130
    BEST_SQUARE = 161
    BEST_REPLY = 298
    BEST_CONSTANT = 3762
    # EVAL_SIBLING_EXCHANGE: the largest exchange's three terms weighted SIBLING_* to rank
    # the children of one position as searches 5 plies deeper do (a fit within each
    # parent, agent/tuning/siblings.py), the constant then fitted to the labels' level.
    SIBLING_PAIR = 50
    SIBLING_EXCHANGE = 369
    SIBLING_SQUARE = 482
    SIBLING_CONSTANT = 1954
    # EVAL_SIBLING_BEST: the best exchange's four terms weighted SIBLING_BEST_* as the
    # sibling exchange's are (a fit within each parent to searches 5 plies deeper, the
    # constant then fitted to the labels' level).
    SIBLING_BEST_PAIR = -163
    SIBLING_BEST_EXCHANGE = -53
    SIBLING_BEST_SQUARE = 427
    SIBLING_BEST_REPLY = 704
    SIBLING_BEST_CONSTANT = 2431

# The value of `pos`, the position `move` leaves; `parent` is the list of the position
# the move was played in, `summary` its summary when needs_summary(kind) (else unread),
# and `scratch` a list the evaluation may overwrite, of the ply after `parent`.
cdef int32_t evaluate(int kind, const Position *pos, const Group *move, const GroupList *parent,
                      const GroupSummary *summary, GroupList *scratch) noexcept nogil
# Whether `kind` reads the parent's GroupSummary.
cdef bint needs_summary(int kind) noexcept nogil
# Whether `kind` lists the evaluated position's groups from the parent's whole list.
cdef bint needs_parent_list(int kind) noexcept nogil
cdef int32_t pair_value(const GroupCensus *seen) noexcept nogil
