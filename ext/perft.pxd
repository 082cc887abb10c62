# Contract of the perft unit (perft.pyx; needs position.pxd and groups.pxd before it).
from libc.stdint cimport int64_t

from core_types cimport Position

# Leaves of the move tree to `depth`; an emptied board is a leaf at any depth. -1 when
# there is no memory for the group lists.
cdef int64_t perft(const Position *pos, int depth) noexcept nogil
