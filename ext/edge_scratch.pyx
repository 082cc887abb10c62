# Python edge: C scratch memory owned by Python objects, and the conversions every edge
# class shares (a group as cells, an evaluation kind checked).
# Uses groups: PlyLists, free_lists, group_masks, reserve_lists
# Uses evaluation: EVAL_KINDS
from libc.stdint cimport uint32_t
from libc.stdlib cimport free, malloc

from bits cimport ctz
from core_types cimport Group, GroupList, Position


cdef class _Block:
    """`size` bytes of C memory, freed with this object: scratch for the edge."""
    cdef void *data

    def __cinit__(self, size_t size, str what):
        self.data = malloc(size if size else 1)
        if self.data == NULL:
            raise MemoryError(what)

    def __dealloc__(self):
        free(self.data)


cdef class _GroupLists:
    """`count` group lists for plies of one position, with room for `room` groups each."""
    cdef PlyLists plies
    cdef GroupList *lists

    def __cinit__(self, int count, int room):
        if not reserve_lists(&self.plies, count, max(room, 1)):
            raise MemoryError("group lists")
        self.lists = self.plies.lists

    def __dealloc__(self):
        free_lists(&self.plies)


cdef check_eval_kind(int kind):
    if not 0 <= kind < EVAL_KINDS:
        raise ValueError(f"eval_kind must be one of the EVAL_* constants (0..{EVAL_KINDS - 1}), not {kind}")


cdef tuple group_cells(const Position *pos, const GroupList *groups, const Group *group):
    cdef int c, n = pos.n
    cdef uint32_t bits
    cdef const uint32_t *masks = group_masks(groups, group)
    cells = []
    for c in range(group.lo, group.hi + 1):
        bits = masks[c - group.lo]
        while bits:
            cells.append((n - 1 - ctz(bits), c))
            bits &= bits - 1
    return tuple(cells)
