# Contract of the evaluation unit (evaluation.pyx): what the horizon guesses is still to
# come in a position, from its mover's view. Every kind is >= 0 (the mover takes a group
# at least as large as the opponent's next one): the search's frontier pruning relies on
# it. agent/evaluations.py pairs each kind with its plain-Python oracle and says how to
# add one.
# Uses position: play_group_unhashed
# Uses groups: GroupCensus, GroupSummary, add_band_groups, band_of, begin_child_summary
# Uses groups: child_census, count_groups, group_masks, in_band, keep_largest_beside
# Uses groups: list_groups, start_list_after, summarize, walk_columns
from libc.stdint cimport int32_t

from core_types cimport Group, GroupList, Position

# Visible from Python as agent._core.EVAL_NONE etc.
cpdef enum:
    EVAL_NONE = 0            # the bare margin: nothing is guessed
    EVAL_GREEDY_PAIR = 1     # the mover takes the largest group, the opponent the next
    EVAL_PAIR_EXCHANGE = 2   # a fitted blend of the greedy pair and the greedy exchange
    EVAL_LARGEST_EXCHANGE = 3  # the pair exchange and the largest group's square

cdef enum:
    EVAL_KINDS = 4           # the kinds above are 0 .. EVAL_KINDS - 1

# The weights of the fitted kinds, written only here: agent/evaluations.py reads them
# (agent._core.BLEND_PAIR etc.) for the oracles and the tuning tools.
cpdef enum:
    # EVAL_PAIR_EXCHANGE's weights in thousandths: (PAIR * greedy pair + EXCHANGE * greedy
    # exchange + CONSTANT) / 1000, rounded, never below 0 (the 12x12 p4 fit of
    # docs/research/2026-12-horizon-evaluation-log.md).
    BLEND_PAIR = 465
    BLEND_EXCHANGE = 325
    BLEND_CONSTANT = 4222
    # EVAL_LARGEST_EXCHANGE: the pair exchange's two terms and the square of the largest
    # group, weighted LARGEST_* (a least-squares fit to labels from deeper searches on 26x26
    # p9, agent/tuning/labels.py; docs/research/2026-12-strength-log.md, "Past the search ceiling"): the three
    # squares g1^2, g2^2 and the reply's weighed apart instead of in the pair's differences.
    LARGEST_PAIR = 273
    LARGEST_EXCHANGE = 273
    LARGEST_SQUARE = 151
    LARGEST_CONSTANT = 3622

# The value of `pos`, the position `move` leaves; `parent` is the list of the position
# the move was played in, `summary` its summary when needs_summary(kind) (else unread),
# and `scratch` a list the evaluation may overwrite, of the ply after `parent`.
cdef int32_t evaluate(int kind, const Position *pos, const Group *move, const GroupList *parent,
                      const GroupSummary *summary, GroupList *scratch) noexcept nogil
# Whether `kind` reads the parent's GroupSummary.
cdef bint needs_summary(int kind) noexcept nogil
cdef int32_t pair_value(const GroupCensus *seen) noexcept nogil
