"""Iterative deepening over the core's one-depth search: aspiration windows, and always a
best move in hand (a one-ply search comes first). It runs the iterations the time policy
(timing.TimeManager) tells it to: when to stop, and when to search to the end."""

import time

from agent._core import (
    EVAL_GREEDY_PAIR,
    EVAL_LARGEST_EXCHANGE,
    EVAL_NONE,
    EVAL_PAIR_EXCHANGE,
    INFINITE_VALUE,
    MODEL_GREEDY,
    Searcher,
)
from agent.move import IterationInfo, SearchResult, timing

ASPIRATION = 50  # first half-width of the window; margins are sums of squares
ASPIRATION_GROWTH = 4  # the half-width after each fail: a few fails reach any margin of a 26x26 game

# Late move reduction, on large boards only. There a full-width search reaches depth 4 in
# about a second at the start (26x26 p9, ~530 groups) and the reduced one depth 6.
# Measured in-process against minimax3 at 60 s, moving second, 26x26 p9, the same 20
# boards (seeds 501 and 601): reduced by 2 plies 15-5 (+22 a game), and 14-6 (+24) once
# the time policy predicted depth 6 right, none 12-8 (+14); by 1 ply, on the 10 seed-501
# boards, 4-6 (+6) like none. On 12x12 p4 at 20 s (~80 groups at the start) it gained
# nothing, 40 boards: 2 plies 14-26 (-15 a game), 1 ply 15-25 (-12), none 19-21 (-13).
REDUCE_FROM_BOARD_SIZE = 20
LATE_MOVE_REDUCTION = 2
FULL_DEPTH_MOVES = 4

# From this size up the horizon is judged by OWN_EVALUATION, a blend fitted to labels
# (agent/evaluations.py): the pair exchange won its gates on 12x12 and 26x26 despite fewer
# nodes/s, and the largest exchange won against it on 26x26 and was not worse on 12x12
# (docs/research/2026-12-strength-log.md, "Gated changes", "The fourth candidate"); smaller boards, not
# measured there, keep the greedy pair.
FITTED_EVALUATION_FROM_BOARD_SIZE = 12
OWN_EVALUATION = "largest-exchange"

# The core's evaluations by the names agent/evaluations.py registers them under, for a
# player told which one to search with (SearchPlayer(evaluation=...)).
EVALUATION_KINDS = {
    "none": EVAL_NONE,
    "greedy-pair": EVAL_GREEDY_PAIR,
    "pair-exchange": EVAL_PAIR_EXCHANGE,
    "largest-exchange": EVAL_LARGEST_EXCHANGE,
}


def think(
    board,
    manager: timing.TimeManager,
    tt_bits: int = 20,
    clock=time.process_time,
    report=None,
    searcher_options=None,
    max_depth: "int | None" = None,  # as strings: the move loads no typing module
    max_nodes: "int | None" = None,
    principal_variation: bool = False,
) -> "SearchResult[tuple[int, int]]":
    """The best move for `board` within what `manager` (the time policy) allows, each move
    of the result a cell; `report(iteration, searcher)` is called after every iteration
    (for --verbose). `max_depth` stops after that depth, `max_nodes` after the iteration
    whose nodes reach that count (a limit that replays the same search on any machine).
    After the one-ply search, a position that can be solved within the budget (the node
    limit, or the nodes the clock leaves at `manager`'s rate) is searched once to its end,
    and a depth limit alone is searched once at that depth (see one_search).
    `principal_variation`: read the best line from the table into the result's pv (a
    move does not: it costs a board a ply); else pv holds the move alone."""
    if searcher_options is None:
        searcher_options = search_options(board.n)
    searcher = new_searcher(board, tt_bits, searcher_options)
    counts = [0, 0, 0]  # nodes, table probes, table hits
    iterations: "list[IterationInfo]" = []
    depth = 0
    while True:
        depth += 1
        start = clock()
        found = None  # (the core's last DepthResult of this depth, its nodes, whether its move improved)
        if depth == 2:
            once = one_search(board, manager, start, searcher_options, max_depth, max_nodes)
            if once is not None:
                target, cap = once
                found = _search_once(searcher, target, manager.deadline, cap, counts)
                if found is not None and (found[0].completed or clock() >= manager.deadline):
                    depth = target
                else:  # its node cap stopped it: deepen with a move's share, the table kept
                    manager.solve_cut()
                    found = None
                    start = clock()
        if found is None:
            # The one-ply search has no deadline: it is a single enumeration, and it guarantees a move.
            try:
                found = _aspiration_search(
                    searcher,
                    depth,
                    iterations[-1].value if iterations else None,
                    manager.deadline if depth > 1 else 1e300,
                    counts,
                )
            except MemoryError:  # no room for a deeper iteration's move lists (a memory cap)
                if not iterations:
                    raise
                break
        last, nodes, improved = found
        cost = clock() - start
        if not last.completed:
            if last.moves_done and improved:
                iterations.append(IterationInfo(depth, last.value, last.move, False, nodes, cost, False))
                if report:
                    report(iterations[-1], searcher)
            break
        manager.update(cost, bool(iterations) and last.move != iterations[-1].move)
        iterations.append(IterationInfo(depth, last.value, last.move, last.exact, nodes, cost, True))
        if report:
            report(iterations[-1], searcher)
        if last.exact or depth == max_depth or (max_nodes and counts[0] >= max_nodes) or manager.should_stop(clock()):
            break
    return _result(iterations, counts, searcher, principal_variation)


def _result(iterations: list, counts: list, searcher, principal_variation: bool) -> "SearchResult[tuple[int, int]]":
    """The search's result: its last iteration's move and value, with every iteration."""
    nodes, probes, hits = counts
    best = iterations[-1]
    line = tuple(searcher.principal_variation(best.depth)) if principal_variation else ()
    return SearchResult(
        best.move,
        best.value,
        best.depth,
        best.exact,
        nodes,
        line or (best.move,),
        tuple(iterations),
        hits / probes if probes else 0.0,
    )


def one_search(
    board, manager: timing.TimeManager, now: float, options: dict, max_depth=None, max_nodes=None
) -> "tuple[int, int] | None":
    """(depth, node cap; 0: none) of one search in the full window that stands for the
    deepening after its first ply, or None when the deepening is the better way. One
    search to the end where the depth limit reaches it, or where the time policy says so
    (TimeManager.solve_cap); one at a depth limit that comes alone, with no late-move
    reductions: its value is that depth's either way, and the shallower iterations only
    cost (11-30% more CPU measured on 10x10 to 26x26 boards). Reductions depend on the move
    order the shallower iterations leave, and a clock or a node limit on having them done."""
    if max_depth is not None:
        if max_depth >= board.fruit:
            return board.fruit, max_nodes or 0
        alone = not max_nodes and manager.deadline >= timing.LONGEST_CLOCK
        return (max_depth, 0) if alone and not options.get("reduction") else None
    cap = manager.solve_cap(mergeable_groups(board), now, max_nodes)
    return None if cap is None else (board.fruit, cap)


def mergeable_groups(board) -> int:
    """The groups of `board` other than fruit that can never merge: what the cost of a
    search to its end grows with (timing.predicted_solve_nodes)."""
    return board.group_count() - board.never_merging_count()


def _search_once(searcher, depth: int, deadline: float, cap: int, counts: list) -> "tuple | None":
    """One search of the root to `depth` in the full window, stopped by `deadline` or at
    `cap` nodes: (its DepthResult, its nodes, whether its move is one to play), or None
    when there is no memory for its move lists."""
    try:
        result = searcher.search(depth, -INFINITE_VALUE, INFINITE_VALUE, deadline, cap)
    except MemoryError:
        return None
    _count(counts, result.nodes, result.tt_probes, result.tt_hits)
    return result, result.nodes, result.completed or result.moves_done > 0


def _count(counts: list, nodes: int, probes: int, hits: int) -> None:
    counts[0] += nodes
    counts[1] += probes
    counts[2] += hits


def new_searcher(board, tt_bits: int, options: dict):
    """A Searcher with a table of 2^tt_bits entries, or a smaller one where memory is capped
    (ulimit -v, a judge's limit): a move that dies for want of its table forfeits the game.
    Then the largest table that fits is found and half of it taken, so that as much again
    is left for the move lists of deeper iterations and for writing the answer."""
    try:
        return Searcher(board, tt_bits=tt_bits, **options)
    except MemoryError:
        pass
    for bits in range(tt_bits - 1, 0, -1):
        try:
            Searcher(board, tt_bits=bits, **options)  # a probe, freed at once
        except MemoryError:
            continue
        return Searcher(board, tt_bits=bits - 1, **options)
    return Searcher(board, tt_bits=0, **options)


def search_options(n: int, greedy_opponent: bool = False, evaluation: "str | None" = None) -> dict:
    """The searcher's options on an n x n board; `greedy_opponent`: model the opponent as
    one that always takes a largest group (see Searcher's opponent_model); `evaluation`:
    the horizon's evaluation by name (EVALUATION_KINDS), None for the agent's own (the
    greedy pair, OWN_EVALUATION from FITTED_EVALUATION_FROM_BOARD_SIZE)."""
    options = {"opponent_model": MODEL_GREEDY} if greedy_opponent else {}
    if evaluation is None and not greedy_opponent and n >= FITTED_EVALUATION_FROM_BOARD_SIZE:
        evaluation = OWN_EVALUATION
    if evaluation is not None:
        if evaluation not in EVALUATION_KINDS:
            raise ValueError(f"no evaluation {evaluation!r} (there are {', '.join(EVALUATION_KINDS)})")
        options["eval_kind"] = EVALUATION_KINDS[evaluation]
    if n >= REDUCE_FROM_BOARD_SIZE:
        options.update(reduction=LATE_MOVE_REDUCTION, full_moves=FULL_DEPTH_MOVES)
    return options


def _aspiration_search(searcher, depth, guess, deadline, counts: list) -> tuple:
    """Search `depth` in a window around the last value, widening on a fail: (the last
    window's DepthResult, the nodes of every window, whether the root move found before a
    cut-off is a real improvement: it beat the last window's floor). Adds what the
    windows visited to `counts` once the depth returns."""
    if guess is None:
        alpha, beta = -INFINITE_VALUE, INFINITE_VALUE
    else:
        alpha, beta = guess - ASPIRATION, guess + ASPIRATION
    width = ASPIRATION
    nodes = probes = hits = 0
    while True:
        result = searcher.search(depth, alpha, beta, deadline)
        nodes += result.nodes
        probes += result.tt_probes
        hits += result.tt_hits
        value = result.value
        if result.completed and value <= alpha and alpha > -INFINITE_VALUE:
            width *= ASPIRATION_GROWTH
            alpha = max(value - width, -INFINITE_VALUE)
        elif result.completed and value >= beta and beta < INFINITE_VALUE:
            width *= ASPIRATION_GROWTH
            beta = min(value + width, INFINITE_VALUE)
        else:
            _count(counts, nodes, probes, hits)
            return result, nodes, value > alpha
