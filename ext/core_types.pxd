# C types every unit of the Fruit Rage core (agent._core) shares: the position and its
# groups. Cimported, never included, so that all units see one definition of each.
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    MAX_N = 26            # largest board side
    MAX_TYPES = 10        # fruit digits 0..9 (a file may declare p = 10)
    MAX_GROUPS = 676      # at most one group per cell

# Column-major bitboards: plane[t][c] bit r = a fruit of type t in column c, r rows above
# the bottom. Gravity keeps every column's fruit contiguous from bit 0 up.
ctypedef struct Position:
    uint32_t plane[MAX_TYPES][MAX_N]
    uint64_t hash
    int32_t n
    int32_t types         # planes in use: highest fruit digit + 1
    int32_t fruit         # fruit left on the board

# A group: its cells are its per-column masks for columns lo..hi, in a mask pool.
ctypedef struct Group:
    uint32_t mask_at      # pool index of column lo's mask
    uint16_t size
    uint16_t key          # lo * 32 + lowest row of column lo: names the group in a position
    uint16_t rank         # its place in a position's list: by fruit type, lo, size > 1, row
    uint8_t lo
    uint8_t hi

# A position's groups in rank order. A child's list keeps the parent's groups its move
# left alone, so lists of consecutive plies share one pool: a list's own masks are
# pool[mask_start:mask_end], and the next ply's start at mask_end.
ctypedef struct GroupList:
    Group *groups         # room for one group per fruit of the position
    int32_t count
    uint32_t *pool
    int32_t mask_start
    int32_t mask_end
