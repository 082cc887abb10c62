# Contract of the position unit (position.pyx): Zobrist hashing, playing a group, and the
# most points left. It uses no other unit.
from libc.stdint cimport int32_t, uint32_t, uint64_t

from core_types cimport MAX_N, MAX_TYPES, Group, Position

# The Zobrist keys: ZOBRIST[t][c][r] for a fruit of type t at column c, row r (free_singles
# keys fruit that can never merge from them), drawn by splitmix64 from a fixed seed.
cdef uint64_t ZOBRIST[MAX_TYPES][MAX_N][32]
cdef uint64_t splitmix64(uint64_t *state) noexcept nogil
cdef uint64_t hash_from_scratch(const Position *pos) noexcept nogil
# Copy `pos` into `child` with `group` (whose column masks are `masks`) removed and gravity
# applied, the hash updated; returns the points. Only the planes in use (below pos.types)
# are written: the others of `child` are left as they were.
cdef int32_t play_group(Position *child, const Position *pos, const Group *group,
                        const uint32_t *masks) noexcept nogil
# The same without the hash, where no table is probed: child.hash is left stale.
cdef int32_t play_group_unhashed(Position *child, const Position *pos, const Group *group,
                                 const uint32_t *masks) noexcept nogil
# The most points either side can still take from `pos` (each type's fruit squared): in a
# search to the end, a bound of the node's value on both sides.
cdef int32_t squares_bound(const Position *pos) noexcept nogil
