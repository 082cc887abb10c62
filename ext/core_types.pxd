# C types every unit of the Fruit Rage core (agent._core) shares: the position and its
# groups. Cimported, never included, so that all units see one definition of each.
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    MAX_N = 26            # largest board side
    MAX_TYPES = 10        # fruit digits 0..9 (a file may declare p = 10)
    MAX_GROUPS = 676      # at most one group per cell
    MASK_POOL = 676       # sum of group column spans <= fruit on the board

# Column-major bitboards: plane[t][c] bit r = a fruit of type t in column c, r rows above
# the bottom. Gravity keeps every column's fruit contiguous from bit 0 up.
ctypedef struct Position:
    uint32_t plane[MAX_TYPES][MAX_N]
    uint64_t hash
    int32_t n
    int32_t types         # planes in use: highest fruit digit + 1
    int32_t fruit         # fruit left on the board

# A group is stored as its per-column masks (columns lo..hi) in the move list's mask pool.
ctypedef struct Group:
    int32_t first_mask    # index of column lo's mask in MoveList.masks
    uint16_t size
    uint16_t key          # lo * 32 + lowest row of column lo: names the group in a position
    uint8_t lo
    uint8_t hi
    uint8_t fruit_type

ctypedef struct MoveList:
    int32_t count
    int32_t mask_count
    Group groups[MAX_GROUPS]
    uint32_t masks[MASK_POOL]
