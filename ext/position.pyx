# Position unit: Zobrist keys and a move with gravity (contract: position.pxd).
from libc.string cimport memcpy

from bits cimport clz, ctz, popcount
from core_types cimport MAX_N, MAX_TYPES


cdef uint64_t splitmix64(uint64_t *state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void init_zobrist() noexcept nogil:
    cdef uint64_t state = 20171029  # fixed: hashes are reproducible across runs
    cdef int t, c, r
    for t in range(MAX_TYPES):
        for c in range(MAX_N):
            for r in range(32):
                ZOBRIST[t][c][r] = splitmix64(&state)


init_zobrist()


cdef inline uint64_t hash_bits(int t, int c, uint32_t bits) noexcept nogil:
    cdef uint64_t h = 0
    while bits:
        h ^= ZOBRIST[t][c][ctz(bits)]
        bits &= bits - 1
    return h


cdef uint64_t hash_from_scratch(const Position *pos) noexcept nogil:
    cdef uint64_t h = 0
    cdef int t, c
    for t in range(pos.types):
        for c in range(pos.n):
            h ^= hash_bits(t, c, pos.plane[t][c])
    return h


cdef inline uint32_t squeeze_out(uint32_t bits, uint32_t removed) noexcept nogil:
    """`bits` with the rows in `removed` deleted and everything above them shifted down."""
    cdef int k
    cdef uint32_t below
    while removed:
        k = 31 - clz(removed)           # highest first, so lower positions stay valid
        below = (1u << k) - 1
        bits = (bits & below) | ((bits >> 1) & ~below)
        removed &= below
    return bits


cdef inline int32_t apply_group(Position *child, const Position *pos, const Group *group,
                               const uint32_t *masks, bint rehash) noexcept nogil:
    cdef int t, c, low, fall
    cdef uint32_t removed, before, after
    cdef uint64_t h
    # A child is made at every node: with few types only the planes in use are copied (a
    # copy of fixed size is faster where most of them are).
    if pos.types <= MAX_TYPES // 2:
        memcpy(child.plane, pos.plane, pos.types * sizeof(pos.plane[0]))
    else:
        memcpy(child.plane, pos.plane, sizeof(pos.plane))
    child.n = pos.n
    child.types = pos.types
    h = pos.hash
    for c in range(group.lo, group.hi + 1):
        removed = masks[c - group.lo]
        if not removed:
            continue
        low = ctz(removed)             # rows below the lowest hole do not move
        removed >>= low
        # mostly the column loses one run of rows: what is above falls by its length
        fall = 0 if removed & (removed + 1) else popcount(removed)
        for t in range(pos.types):
            before = pos.plane[t][c] >> low
            if not before:
                continue
            after = before >> fall if fall else squeeze_out(before, removed)
            child.plane[t][c] = (pos.plane[t][c] & ((1u << low) - 1)) | (after << low)
            if rehash:
                # a key is the XOR of its fruit's: the fruit that stay in place cancel out
                h ^= hash_bits(t, c, (before ^ after) << low)
    child.hash = h
    child.fruit = pos.fruit - group.size
    return <int32_t>group.size * group.size


cdef int32_t play_group(Position *child, const Position *pos, const Group *group,
                        const uint32_t *masks) noexcept nogil:
    return apply_group(child, pos, group, masks, True)


cdef int32_t play_group_unhashed(Position *child, const Position *pos, const Group *group,
                                 const uint32_t *masks) noexcept nogil:
    return apply_group(child, pos, group, masks, False)


cdef int32_t squares_bound(const Position *pos) noexcept nogil:
    """The most points either side can still take: every fruit of a type in one group."""
    cdef int t, c, count
    cdef int32_t total = 0
    for t in range(pos.types):
        count = 0
        for c in range(pos.n):
            count += popcount(pos.plane[t][c])
        total += count * count
    return total
