# Contract of the free singles unit (free_singles.pyx): fruit that can never merge, and the
# free singles among them that cancel in pairs in a search to the end. Uses position.pxd
# (its Zobrist keys).
from libc.stdint cimport int32_t, uint64_t

from core_types cimport Position

# Into `key`, the key of `pos` as a node of a search to the end: fruit that can never merge
# keyed as one neutral kind, free singles left out but for the parity of their count. When
# `pos` holds two free singles or more, `out` gets `pos` without them in pairs (the lowest
# of the leftmost column's kept when they are odd); returns how many were dropped (0: `out`
# untouched). Its value in a search to the end is the value of `pos`.
# How many fruit of `pos` can never merge.
cdef int32_t never_merging_count(const Position *pos) noexcept nogil
cdef int32_t drop_free_pairs(Position *out, const Position *pos, uint64_t *key) noexcept nogil
