# Contract of the position unit (position.pyx): Zobrist hashing and playing a group.
from libc.stdint cimport int32_t, uint32_t, uint64_t

from core_types cimport Group, Position

cdef uint64_t hash_from_scratch(const Position *pos) noexcept nogil
# Copy `pos` into `child` with `group` (whose column masks are `masks`) removed and gravity
# applied, the hash updated; returns the points. Only the planes in use (below pos.types)
# are written: the others of `child` are left as they were.
cdef int32_t play_group(Position *child, const Position *pos, const Group *group,
                        const uint32_t *masks) noexcept nogil
# The same without the hash, where no table is probed: child.hash is left stale.
cdef int32_t play_group_unhashed(Position *child, const Position *pos, const Group *group,
                                 const uint32_t *masks) noexcept nogil
