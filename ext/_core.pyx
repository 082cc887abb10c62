# agent._core, the Fruit Rage hot core: one extension module built from the units below
# (each a .pyx with its contract in a .pxd, see agent/_core.pxd), then its Python edge.
# Every unit works on C data in nogil functions; the edge's classes only convert at the
# boundary. agent/rules.py is the oracle for all of it. One module rather than one per
# unit: it starts faster (docs/core-speed.md has the figures). What each unit uses of
# another is declared in its header and checked by tests/core/test_unit_uses.py.
include "position.pyx"
include "free_singles.pyx"
include "groups.pyx"
include "frontier.pyx"
include "evaluation.pyx"
include "table.pyx"
include "ordering.pyx"
include "last_plies.pyx"
include "search.pyx"
include "perft.pyx"
include "edge_scratch.pyx"
include "edge_views.pyx"
include "edge_board.pyx"
include "edge_search.pyx"
