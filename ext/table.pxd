# Contract of the table unit (table.pyx): the transposition table, depth-preferred, one
# entry per slot. It uses no other unit.
from libc.stdint cimport int8_t, int32_t, uint16_t, uint32_t, uint64_t

cdef enum:
    SOLVED_DEPTH = 127       # the stored subtree reached the end of the game everywhere
    NO_MOVE = 0xFFFF
    BOUND_EXACT = 0
    BOUND_LOWER = 1
    BOUND_UPPER = 2
    UNBOUNDED = 0x7FFFFFFF   # a side with no bound known

# 16 bytes: both bounds of a node's value, so that a node searched again in another window
# (a null window, then a wider one) finds what either search proved. A `depth` of
# SOLVED_DEPTH marks bounds usable at any depth. The slot's index is the key's low bits,
# `check` its high half.
ctypedef struct TTEntry:
    uint32_t check
    int32_t lower
    int32_t upper
    uint16_t move         # Group.key of the best or refuting move
    int8_t depth

ctypedef struct Table:
    TTEntry *entries      # NULL: no table
    void *block           # the mapping that holds them, and its length
    size_t length
    uint64_t mask

# 2^bits zeroed entries; False when the memory is not there.
cdef bint table_allocate(Table *table, int bits) noexcept nogil
cdef void table_free(Table *table) noexcept nogil
# The slot `key` maps to; NULL when there is no table.
cdef TTEntry *table_slot(const Table *table, uint64_t key) noexcept nogil
# Whether the slot holds an entry for `key`.
cdef bint entry_holds(const TTEntry *entry, uint64_t key) noexcept nogil
# Whether the entry's bounds settle a node searched to `depth` in (alpha, beta); the value
# (fail-soft) into `value` when they do.
cdef bint entry_settles(const TTEntry *entry, int depth, int32_t alpha, int32_t beta,
                        int32_t *value) noexcept nogil
# Store a result (`bound` says which side of the value it proves) in `slot`: the bounds of
# the same node at the same depth are merged; another node's entry gives way unless it is
# deeper.
cdef void table_store(TTEntry *slot, uint64_t key, int32_t value,
                      uint16_t move, int depth, int bound) noexcept nogil
