# Table unit (contract: table.pxd).
from posix.mman cimport MAP_ANONYMOUS, MAP_FAILED, MAP_PRIVATE, PROT_READ, PROT_WRITE, mmap, munmap


cdef extern from "<sys/mman.h>" nogil:
    int madvise(void *addr, size_t length, int advice)
    enum: MADV_HUGEPAGE

cdef enum:
    HUGE_PAGE = 2 * 1024 * 1024


cdef bint table_allocate(Table *table, int bits) noexcept nogil:
    # Probes land anywhere in the table: on 4 KiB pages nearly every one misses the TLB, so
    # the entries sit in 2 MiB pages where the kernel has them (zeroed, as mmap's are).
    cdef size_t size = (<size_t>1 << bits) * sizeof(TTEntry)
    cdef size_t length = size + HUGE_PAGE
    cdef char *block = <char *> mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    table.entries = NULL
    if <void *> block == MAP_FAILED:
        return False
    table.block = block
    table.length = length
    table.entries = <TTEntry *> (block + (HUGE_PAGE - <size_t>block % HUGE_PAGE) % HUGE_PAGE)
    table.mask = (<uint64_t>1 << bits) - 1
    madvise(table.entries, size, MADV_HUGEPAGE)   # advice only: 4 KiB pages where refused
    return True


cdef void table_free(Table *table) noexcept nogil:
    if table.entries != NULL:
        munmap(table.block, table.length)
    table.entries = NULL


cdef TTEntry *table_slot(const Table *table, uint64_t key) noexcept nogil:
    if table.entries == NULL:
        return NULL
    return &table.entries[key & table.mask]


cdef bint entry_holds(const TTEntry *entry, uint64_t key) noexcept nogil:
    return entry.check == <uint32_t>(key >> 32) and entry.depth != 0


cdef bint entry_settles(const TTEntry *entry, int depth, int32_t alpha, int32_t beta,
                        int32_t *value) noexcept nogil:
    if entry.depth < depth:
        return False
    if entry.lower >= beta or entry.lower == entry.upper:
        value[0] = entry.lower
        return True
    if entry.upper <= alpha:
        value[0] = entry.upper
        return True
    return False


cdef void table_store(TTEntry *slot, uint64_t key, int32_t value,
                      uint16_t move, int depth, int bound) noexcept nogil:
    cdef int32_t lower = value if bound != BOUND_UPPER else -UNBOUNDED
    cdef int32_t upper = value if bound != BOUND_LOWER else UNBOUNDED
    if entry_holds(slot, key) and slot.depth >= depth:
        if slot.depth > depth:
            return                          # a deeper search's bounds are worth more
        if lower < slot.lower:              # the same search: both proofs hold
            lower = slot.lower
        if upper > slot.upper:
            upper = slot.upper
        if lower > upper:                   # they disagree (a collision): the newer wins
            lower = value if bound != BOUND_UPPER else -UNBOUNDED
            upper = value if bound != BOUND_LOWER else UNBOUNDED
        if move == NO_MOVE:
            move = slot.move
    elif not entry_holds(slot, key) and slot.depth > depth:
        return                              # another node's deeper entry stays
    slot.check = <uint32_t>(key >> 32)
    slot.lower = lower
    slot.upper = upper
    slot.move = move
    slot.depth = depth

