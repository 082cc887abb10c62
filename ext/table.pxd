# Contract of the table unit (table.pyx): the transposition table, depth-preferred with
# aging, one entry per slot.
from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint64_t

cdef enum:
    SOLVED_DEPTH = 127       # the stored subtree reached the end of the game everywhere
    NO_MOVE = 0xFFFF
    BOUND_EXACT = 0
    BOUND_LOWER = 1
    BOUND_UPPER = 2

# 16 bytes. A `depth` of SOLVED_DEPTH marks a value usable at any depth.
ctypedef struct TTEntry:
    uint64_t key
    int32_t value
    uint16_t move         # Group.key of the best or refuting move
    int8_t depth
    uint8_t bound_age     # bound in bits 0-1, search generation in bits 2-7

ctypedef struct Table:
    TTEntry *entries      # NULL: no table
    void *block           # the mapping that holds them, and its length
    size_t length
    uint64_t mask
    uint8_t age           # the current search generation, 0..63

# 2^bits zeroed entries; False when the memory is not there.
cdef bint table_allocate(Table *table, int bits) noexcept nogil
cdef void table_free(Table *table) noexcept nogil
# The slot `key` maps to; NULL when there is no table.
cdef TTEntry *table_slot(const Table *table, uint64_t key) noexcept nogil
# Whether the entry's stored bound settles a node searched to `depth` in (alpha, beta).
cdef bint entry_settles(const TTEntry *entry, int depth, int32_t alpha, int32_t beta) noexcept nogil
# Store a result in `slot` unless it holds a deeper entry of this generation for another key.
cdef void table_store(const Table *table, TTEntry *slot, uint64_t key, int32_t value,
                      uint16_t move, int depth, int bound) noexcept nogil
cdef void table_next_generation(Table *table) noexcept nogil
