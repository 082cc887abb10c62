# Python edge: what the search reads of the positions a position's moves leave, built as
# the search builds it, for the tests against the oracles (Bitboard.evaluations_after_moves,
# groups_after_moves and frontier_views).
# Uses position: play_group
# Uses groups: GroupCensus, GroupSummary, group_masks, list_child_groups, list_groups
# Uses groups: summarize
# Uses frontier: FrontierView, ParentIndex, all_moves, frontier_view, index_children
# Uses frontier: largest_moves, move_with_key
# Uses evaluation: evaluate
# Uses edge_scratch: _Block, _GroupLists, check_eval_kind, group_cells
from core_types cimport Group, GroupList, Position


cdef dict evaluations_after(const Position *pos, int kind):
    cdef _GroupLists scratch = _GroupLists(2, pos.fruit)
    cdef GroupList *groups = scratch.lists
    cdef GroupSummary summary
    cdef Position child
    cdef Group *g
    cdef int i
    check_eval_kind(kind)
    list_groups(pos, groups)
    summarize(groups, &summary)
    values = {}
    for i in range(groups.count):
        g = &groups.groups[i]
        play_group(&child, pos, g, group_masks(groups, g))
        values[group_cells(pos, groups, g)[0]] = evaluate(kind, &child, g, groups, &summary, groups + 1)
    return values


cdef dict groups_after(const Position *pos):
    cdef _GroupLists scratch = _GroupLists(2, pos.fruit)
    cdef GroupList *groups = scratch.lists
    cdef Position child
    cdef Group *g
    cdef int i, j
    list_groups(pos, groups)
    found = {}
    for i in range(groups.count):
        g = &groups.groups[i]
        play_group(&child, pos, g, group_masks(groups, g))
        list_child_groups(groups, g, &child, groups + 1)
        found[group_cells(pos, groups, g)[0]] = [
            group_cells(&child, groups + 1, &groups[1].groups[j]) for j in range(groups[1].count)]
    return found


cdef dict frontier_views_after(const Position *pos, int min_size):
    cdef _GroupLists scratch = _GroupLists(2, pos.fruit)
    cdef GroupList *groups = scratch.lists
    cdef _Block moves_block = _Block(max(pos.fruit, 1) * sizeof(Group *), "frontier views")
    cdef _Block index_block = _Block(sizeof(ParentIndex), "frontier views")
    cdef _Block by_size_block = _Block(max(pos.fruit, 1) * sizeof(Group *), "frontier views")
    cdef const Group **moves = <const Group **> moves_block.data
    cdef ParentIndex *index = <ParentIndex *> index_block.data
    cdef FrontierView view
    cdef GroupCensus seen
    cdef GroupSummary summary
    cdef Position child
    cdef Group *g
    cdef int i, j, count
    list_groups(pos, groups)
    index.by_size = <const Group **> by_size_block.data
    index_children(groups, pos.n, index)
    found = {}
    for i in range(groups.count):
        g = &groups.groups[i]
        play_group(&child, pos, g, group_masks(groups, g))
        frontier_view(groups, index, g, &child, min_size, groups + 1, &view, &seen, &summary)
        count = all_moves(&view, moves)
        listed = [group_cells(&child, groups, moves[j]) for j in range(count)]
        keyed = [group_cells(&child, groups, move_with_key(&view, moves[j].key)) for j in range(count)]
        count = largest_moves(&view, moves)
        found[group_cells(pos, groups, g)[0]] = {
            "moves": listed, "keyed": keyed,
            "largest": [group_cells(&child, groups, moves[j]) for j in range(count)],
            "unlisted": seen.unlisted, "largest_unlisted": seen.largest_unlisted,
            "multi": summary.multi_count,
            "largest_sizes": [summary.largest[j].size for j in range(summary.largest_count)],
            "singles": [summary.singles[j] for j in range(pos.n)],
        }
    return found
