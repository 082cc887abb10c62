# Contract of the perft unit (perft.pyx). Uses position.pxd and groups.pxd.
from libc.stdint cimport int64_t

from core_types cimport Position

# The number of move sequences of exactly `depth` moves (perft as chess programs count it):
# a board emptied sooner adds none. -1 when there is no memory for the group lists.
cdef int64_t perft(const Position *pos, int depth) noexcept nogil
