# Table unit (contract: table.pxd).
from libc.stdlib cimport calloc, free


cdef bint table_allocate(Table *table, int bits) noexcept nogil:
    table.entries = <TTEntry *> calloc(<size_t>1 << bits, sizeof(TTEntry))
    table.mask = (<uint64_t>1 << bits) - 1
    return table.entries != NULL


cdef void table_free(Table *table) noexcept nogil:
    free(table.entries)
    table.entries = NULL


cdef TTEntry *table_slot(const Table *table, uint64_t key) noexcept nogil:
    if table.entries == NULL:
        return NULL
    return &table.entries[key & table.mask]


cdef bint entry_settles(const TTEntry *entry, int depth, int32_t alpha, int32_t beta) noexcept nogil:
    cdef int bound = entry.bound_age & 3
    return entry.depth >= depth and (bound == BOUND_EXACT or (bound == BOUND_LOWER and entry.value >= beta)
                                     or (bound == BOUND_UPPER and entry.value <= alpha))


cdef void table_store(const Table *table, TTEntry *slot, uint64_t key, int32_t value,
                      uint16_t move, int depth, int bound) noexcept nogil:
    if slot.key != key or (slot.bound_age >> 2) != table.age or depth >= slot.depth:
        slot.key = key
        slot.value = value
        slot.move = move
        slot.depth = depth
        slot.bound_age = bound | (table.age << 2)


cdef void table_next_generation(Table *table) noexcept nogil:
    table.age = (table.age + 1) & 63
