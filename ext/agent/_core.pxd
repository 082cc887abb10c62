# The contracts of the units agent._core is built from, in dependency order: each unit uses
# only those above it. Cython checks every unit's functions against them when it compiles
# _core.pyx.
include "position.pxd"
include "free_singles.pxd"
include "groups.pxd"
include "frontier.pxd"
include "evaluation.pxd"
include "table.pxd"
include "ordering.pxd"
include "search_state.pxd"
include "last_plies.pxd"
include "search.pxd"
include "perft.pxd"
