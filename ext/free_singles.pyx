# Free singles unit (contract: free_singles.pxd).
#
# A fruit alone of its type in its own column and both neighbouring ones can never merge:
# fruit never change column, so it stays a group of one, and its type no longer matters to
# anything (no fruit of that type can ever touch it). Such a fruit with only such fruit
# above it is a free single: taking it moves nothing but them, so it is an independent
# move worth 1 point, and it stays free until taken. Two free singles cancel: with G the
# rest, V(G + a + b) = V(G), since taking one is met by the other (the proof is in
# docs/core-design.md). A search to the end can drop them in pairs at every node; and
# keyed without their place and with fruit that can never merge as one kind, positions
# that differ only there meet in the table.
from libc.string cimport memcpy, memset

from bits cimport clz, ctz, popcount
from core_types cimport MAX_N, MAX_TYPES

cdef uint64_t NEUTRAL_ZOBRIST[MAX_N][32]    # a fruit that can never merge, of any type
cdef uint64_t ODD_FREE_SINGLES_KEY


cdef void init_neutral_zobrist() noexcept nogil:
    global ODD_FREE_SINGLES_KEY
    cdef uint64_t state = 20171030  # fixed and apart from position.pyx's: reproducible keys
    cdef int c, r
    for c in range(MAX_N):
        for r in range(32):
            NEUTRAL_ZOBRIST[c][r] = splitmix64(&state)
    ODD_FREE_SINGLES_KEY = splitmix64(&state)


init_neutral_zobrist()


cdef inline void read_column(const Position *pos, ColumnTypes *columns, int c) noexcept nogil:
    cdef uint32_t bits, occupied = 0, types_in = 0, single_types = 0
    cdef int t
    for t in range(pos.types):
        bits = pos.plane[t][c]
        occupied |= bits
        types_in |= <uint32_t>(bits != 0) << t
        single_types |= <uint32_t>((bits != 0) & ((bits & (bits - 1)) == 0)) << t
    columns.occupied[c + 1] = occupied
    columns.types_in[c + 1] = types_in
    columns.single_types[c + 1] = single_types


cdef void read_columns(const Position *pos, ColumnTypes *columns) noexcept nogil:
    cdef uint32_t bits
    cdef int t, c
    memset(columns, 0, sizeof(ColumnTypes))
    for t in range(pos.types):
        # column by column along a type's plane, branch-free: gcc vectorizes it
        for c in range(pos.n):
            bits = pos.plane[t][c]
            columns.occupied[c + 1] |= bits
            columns.types_in[c + 1] |= <uint32_t>(bits != 0) << t
            columns.single_types[c + 1] |= <uint32_t>((bits != 0) & ((bits & (bits - 1)) == 0)) << t


cdef void read_band(const Position *child, ColumnTypes *columns, const ColumnTypes *parent, int lo,
                    int hi) noexcept nogil:
    cdef int c
    memcpy(columns, parent, sizeof(ColumnTypes))
    for c in range(lo, hi + 1):
        read_column(child, columns, c)


cdef inline uint32_t lone_types_at(const ColumnTypes *columns, int c) noexcept nogil:
    """The types of column c's fruit that can never merge: alone of their type there and
    in both neighbouring columns."""
    return columns.single_types[c + 1] & ~(columns.types_in[c] | columns.types_in[c + 2])


cdef int32_t never_merging_count(const Position *pos) noexcept nogil:
    cdef ColumnTypes columns
    cdef int c
    cdef int32_t count = 0
    read_columns(pos, &columns)
    for c in range(pos.n):
        count += popcount(lone_types_at(&columns, c))
    return count


cdef int32_t drop_free_pairs(Position *out, const Position *pos, ColumnTypes *columns,
                             uint64_t *key) noexcept nogil:
    cdef uint32_t free[MAX_N]               # per column: its free singles
    cdef uint32_t bits, lone, lone_types, drop, below
    cdef uint64_t h = pos.hash
    cdef int t, c, r, count = 0, kept_column = -1
    for c in range(pos.n):
        free[c] = 0
        lone_types = lone_types_at(columns, c)
        if not lone_types:
            continue
        lone = 0
        while lone_types:
            t = ctz(lone_types)
            lone_types &= lone_types - 1
            r = ctz(pos.plane[t][c])
            lone |= <uint32_t>1 << r
            h ^= ZOBRIST[t][c][r] ^ NEUTRAL_ZOBRIST[c][r]
        # the free singles: the lone fruit above the column's highest fruit that may merge
        below = columns.occupied[c + 1] & ~lone
        free[c] = lone & ~((<uint32_t>2 << (31 - clz(below))) - 1) if below else lone
        if free[c]:
            if kept_column < 0:
                kept_column = c
            count += popcount(free[c])
            bits = free[c]
            while bits:
                h ^= NEUTRAL_ZOBRIST[c][ctz(bits)]
                bits &= bits - 1
    if count & 1:
        h ^= ODD_FREE_SINGLES_KEY
    key[0] = h
    if count < 2:
        return 0
    # the free singles are the top of their columns: dropping them moves no other fruit
    if count & 1:
        free[kept_column] &= free[kept_column] - 1     # its lowest free single stays
    memcpy(out.plane, pos.plane, pos.types * sizeof(pos.plane[0]))
    out.n = pos.n
    out.types = pos.types
    out.hash = pos.hash
    for c in range(pos.n):
        drop = free[c]
        if not drop:
            continue
        for t in range(pos.types):
            bits = pos.plane[t][c] & drop
            if bits:
                out.plane[t][c] ^= bits
                out.hash ^= ZOBRIST[t][c][ctz(bits)]   # one fruit: a free single is alone of its type
        read_column(out, columns, c)
    out.fruit = pos.fruit - (count & ~1)
    return count & ~1


cdef uint64_t key_to_the_end(const Position *pos) noexcept nogil:
    cdef Position unused
    cdef ColumnTypes columns
    cdef uint64_t key
    read_columns(pos, &columns)
    drop_free_pairs(&unused, pos, &columns, &key)
    return key
