# Contract of the free singles unit (free_singles.pyx): fruit that can never merge, and the
# free singles among them that cancel in pairs in a search to the end.
# Uses position: ZOBRIST, splitmix64
from libc.stdint cimport int32_t, uint32_t, uint64_t

from core_types cimport MAX_N, Position

# What a position's columns hold, per column c at index c + 1 (an empty column on each side):
# bit t of `types_in` when it holds fruit of type t, of `single_types` when exactly one,
# and its fruit in `occupied`. A move changes its own columns only (read_band).
ctypedef struct ColumnTypes:
    uint32_t types_in[MAX_N + 2]
    uint32_t single_types[MAX_N + 2]
    uint32_t occupied[MAX_N + 2]
    bint ready                      # (for its owner) filled for the current position

# Every column of `pos`.
cdef void read_columns(const Position *pos, ColumnTypes *columns) noexcept nogil
# The columns of `child`, which differs from the position `parent` describes in columns
# lo..hi only.
cdef void read_band(const Position *child, ColumnTypes *columns, const ColumnTypes *parent, int lo,
                    int hi) noexcept nogil
# How many fruit of `pos` can never merge.
cdef int32_t never_merging_count(const Position *pos) noexcept nogil
# Into `key`, the key of `pos` (whose `columns` are read) as a node of a search to the end:
# fruit that can never merge keyed as one neutral kind, free singles left out but for the
# parity of their count. When `pos` holds two free singles or more, `out` gets `pos`
# without them in pairs (the lowest of the leftmost column's kept when they are odd) and
# `columns` then describe `out`; returns how many were dropped (0: `out` untouched). Its
# value in a search to the end is the value of `pos`.
cdef int32_t drop_free_pairs(Position *out, const Position *pos, ColumnTypes *columns,
                             uint64_t *key) noexcept nogil
# The key drop_free_pairs gives `pos`, its columns read whole.
cdef uint64_t key_to_the_end(const Position *pos) noexcept nogil
