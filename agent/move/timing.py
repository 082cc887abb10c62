"""Time policy: how much of the remaining CPU clock one move may spend.

The agent is a fresh process per move and every CPU second it burns, start-up included, is
charged. All times here are process CPU seconds counted from process start (the clock the
search polls), so "maximum = 0.8" means "stop the search when this process has used 0.8 s".

The policy, in the manner of Ethereal's time manager:
- plan(): reserve the start-up and exit cost of every own move that may still come plus a
  safety margin, spread the rest over the expected own moves (at most HORIZON of them, so early,
  decisive moves get more), and cap the move at MAX_STRETCH times its share and at
  MAX_FRACTION of all that is spendable (the estimate of moves left can be wrong);
- keep_searching(): after each iteration, stop early when the best move has been stable,
  stretch when it keeps changing, and never start an iteration predicted to overrun;
- the endgame: ENDGAME_RESERVE is kept back until a search to the end is predicted to fit
  in SOLVE_REACH of what can be spent; that move then spends what the search needs.
"""

INFINITY = float("inf")  # not math.inf: a move loads no module it can do without

SAFETY_FLOOR = 0.02  # s never planned on: clock granularity, scheduler noise
SAFETY_FRACTION = 0.03  # of the remaining time, never planned on
EXIT_COST = 0.015  # s to write output.txt and leave after the search stops (measured <1 ms; margin for a slow disk)
MIN_THINK = 0.005  # s: below this share a move answers at once
HORIZON = 40  # own moves the spendable time is spread over, at most
MAX_STRETCH = 4.0  # a move may use this many times its share when unstable
MAX_FRACTION = 0.5  # and never more than this part of the spendable time
DEFAULT_GROWTH = 10.0  # next iteration / last, before two are measured
FIRST_COSTLY_DEPTH = 4  # the first depth whose tree is ~root_moves squared (a full reply to every root move)
COSTLY_DEPTH_NODES_PER_ROOT_MOVE_SQUARED = 2.0  # measured 1.5-1.9 (see predict_next_iteration)
EXPECTED_OWN_MOVES_PER_GROUP = 0.35  # 26x26 p9 games last ~0.63 moves per initial group
MOST_OWN_MOVES_PER_GROUP = 0.5  # late in a game nearly every group is a move
SOLVE_SHARE = 0.5  # of a node limit (or a clock's nodes), the most a search to the end may take
# predicted_solve_nodes: nodes = SOLVE_NODES_AT_ZERO * SOLVE_GROWTH ** (groups that may still
# merge), the upper quartile of 60 of the agent's own 26x26 p9 endgames of 20-31 groups
# (docs/research/2026-12-07-free-singles.md)
SOLVE_NODES_AT_ZERO = 74.0
SOLVE_GROWTH = 1.65
# A search to the end visits nodes faster than the full-board search the calibration times:
# its positions are small (0.55-0.9 M nodes/s on those endgames against 0.39-0.5 M on full
# 26x26 p9 boards, the same machine).
SOLVE_SPEEDUP = 1.5
# Kept back for the endgame's searches to the end (each later move searches its smaller
# position to the end again, about 0.6 times the first solve's cost in all), at most
# ENDGAME_RESERVE_SHARE of what can be spent (a short clock keeps its moves: 2 s of 10 s on
# 26x26 p9 lost every pair); a solve is started when twice its predicted cost is within
# SOLVE_REACH of what can be spent, the reserve included.
ENDGAME_RESERVE = 2.0
ENDGAME_RESERVE_SHARE = 0.5
SOLVE_REACH = 0.5
LONGEST_CLOCK = 1e6  # s planned with at most (a clock of 1e303 s overflowed the planning)


def predicted_solve_nodes(groups: int) -> float:
    """About the nodes a search to the end of a position with `groups` groups that may still
    merge (Board.group_count() less Board.never_merging_count(): fruit that can never merge
    cost the search little, free singles nearly nothing) visits: they grow by SOLVE_GROWTH a
    group, an upper quantile, so that most solves attempted succeed."""
    return SOLVE_NODES_AT_ZERO * SOLVE_GROWTH**groups


def solve_seconds(groups: "int | None", nodes_per_second: float) -> float:
    """The predicted CPU of a search to the end of a position with `groups` groups that may
    still merge, at this machine's speed (inf for None)."""
    if groups is None:
        return INFINITY
    return predicted_solve_nodes(groups) / (nodes_per_second * SOLVE_SPEEDUP)


def endgame_reserve(spendable: float) -> float:
    """The time kept back for the endgame's searches to the end until one is in reach, of
    `spendable` (what the move's other reserves leave)."""
    return min(ENDGAME_RESERVE, ENDGAME_RESERVE_SHARE * spendable)


class Budget:
    """CPU clock readings (seconds since process start) for one move."""

    __slots__ = ("start", "optimum", "maximum", "instant")

    def __init__(self, start: float, optimum: float, maximum: float, instant: bool):
        self.start = start  # when the move's thinking began
        self.optimum = optimum  # aim to stop around here
        self.maximum = maximum  # the search is cut off here, whatever it is doing
        self.instant = instant  # too little time: play the shallowest search's move

    def shifted(self, offset: float) -> "Budget":
        """The same budget on a clock that reads `offset` more (a player that is not its
        own process plans from zero and runs at the process's current reading)."""
        return Budget(self.start + offset, self.optimum + offset, self.maximum + offset, self.instant)

    def __repr__(self) -> str:
        return (
            f"Budget(start={self.start:.4f}, optimum={self.optimum:.4f}, "
            f"maximum={self.maximum:.4f}, instant={self.instant})"
        )


def own_moves_left(groups: int) -> tuple:
    """(expected, at most) moves this player still makes, from the groups on the board.
    Groups merge as the game goes, so a game takes fewer moves than it has groups; the
    time is shared out over the expected number, but the start-up reserve must cover the
    most there can be, since each of those moves pays its start-up."""
    return (max(1.0, groups * EXPECTED_OWN_MOVES_PER_GROUP), max(1.0, groups * MOST_OWN_MOVES_PER_GROUP))


def reserve(remaining: float, moves_left: float, overhead: float) -> float:
    """Time kept back: every own move to come, this one included, pays `overhead` (start-up
    and exit), plus a safety margin."""
    return SAFETY_FLOOR + SAFETY_FRACTION * remaining + overhead * moves_left


def plan(remaining: float, groups: int, startup: float, spent: float, solve_seconds: float = INFINITY) -> Budget:
    """Budget for this move. `remaining` is the clock in input.txt, `groups` the groups on
    the board, `startup` the start-up cost expected of each later move, `spent` what this
    process has used so far, `solve_seconds` the predicted CPU of a search of the position
    to its end (inf: none is to be tried)."""
    remaining = min(remaining, LONGEST_CLOCK)
    expected_moves, most_moves = own_moves_left(groups)
    overhead = max(startup, spent) + EXIT_COST
    spendable = remaining - reserve(remaining, most_moves, overhead)
    if spendable < MIN_THINK:
        return Budget(spent, spent, spent + MIN_THINK, instant=True)
    solve = solve_seconds / SOLVE_SHARE  # what the deepening needs to try it (see solve_cap)
    if solve > SOLVE_REACH * spendable:
        # out of reach: the endgame reserve waits for it (in reach, it is this move's)
        solve = 0.0
        spendable -= endgame_reserve(spendable)
        if spendable < MIN_THINK:
            return Budget(spent, spent, spent + MIN_THINK, instant=True)
    share = spendable / min(expected_moves, HORIZON)
    cap = max(min(MAX_FRACTION * spendable, MAX_STRETCH * share), solve)
    return Budget(spent, spent + max(min(share, cap), solve), spent + cap, instant=False)


def keep_searching(
    budget: Budget, now: float, next_iteration: float, stable_iterations: int, best_changed: bool
) -> bool:
    """Whether to start another iteration, expected to cost `next_iteration` CPU seconds,
    at CPU reading `now`."""
    share = budget.optimum - budget.start
    if best_changed:
        share *= 1.5
    elif stable_iterations >= 3:
        share *= 0.7
    target = min(budget.start + share, budget.maximum)
    if now >= target:
        return False
    return now + next_iteration <= budget.maximum


def predict_next_iteration(
    costs: list, root_moves: int, nodes_per_second: float, first_costly_depth: int = FIRST_COSTLY_DEPTH
) -> float:
    """Cost of the next depth from the costs of the finished ones (costs[0] is depth 1).
    The search's frontier pruning makes odd depths cheap and even depths costly: an even
    depth's tree ends in about root_moves times more frontier nodes. So the growth from
    depth d to d+1 is taken from the step of the same parity, d-2 to d-1. The shallower
    depths are too cheap to show the pattern (a few milliseconds, mostly fixed costs), so
    the first costly depth is predicted in nodes: every root move meets one refutation whose
    replies are all searched, about root_moves squared nodes. That depth is 4 for a
    full-width search (measured 1.5-1.9 x root_moves ** 2 on 36 positions from 12x12 p4
    to 26x26 p9) and 6 when late moves are reduced by two plies (1.6-1.8 x on 12 positions
    of 20x20 p7 and 26x26 p5/p9, at the start and after 60-150 plies)."""
    if not costs:
        return 0.0
    if len(costs) == first_costly_depth - 1:
        nodes = COSTLY_DEPTH_NODES_PER_ROOT_MOVE_SQUARED * root_moves**2
        return max(nodes / nodes_per_second, 2.0 * costs[-1])
    ratios = [later / max(earlier, 1e-4) for earlier, later in zip(costs, costs[1:])]
    growth = ratios[-2] if len(ratios) >= 2 else DEFAULT_GROWTH
    return costs[-1] * min(max(growth, 2.0), 1000.0)


class TimeManager:
    """The whole time policy of one search, consulted at one spot of the deepening loop
    (as Ethereal's tm_init / tm_update / tm_finished): created with the move's Budget,
    told about every finished iteration (update), asked whether to start the next one
    (should_stop), and asked how large a table the search can fill (table_bits).

    `root_moves`: the groups at the root; `nodes_per_second`: this machine's search
    speed; `reduction`: plies late moves are reduced by (it moves the first costly depth)."""

    def __init__(self, budget: Budget, root_moves: int, nodes_per_second: float, reduction: int = 0):
        self.budget = budget
        self.root_moves = root_moves
        self.nodes_per_second = nodes_per_second
        self.first_costly_depth = FIRST_COSTLY_DEPTH + reduction  # measured for reductions 0 and 2
        self.costs: list[float] = []  # CPU seconds of each completed depth, from depth 1
        self.stable = 0  # iterations in a row that kept the best move
        self.changed = False  # the last iteration changed it

    @classmethod
    def for_move_process(
        cls,
        remaining: float,
        root_moves: int,
        startup: float,
        spent: float,
        nodes_per_second: float,
        reduction: int = 0,
        solve_groups: "int | None" = None,
    ) -> "TimeManager":
        """A fresh process's move: `spent` is its CPU so far, `startup` what each later
        move's process start will cost (see plan); `solve_groups`: the groups that may still
        merge, for the endgame's search to the end (None: none is to be tried)."""
        solve = solve_seconds(solve_groups, nodes_per_second)
        return cls(plan(remaining, root_moves, startup, spent, solve), root_moves, nodes_per_second, reduction)

    @classmethod
    def in_process(
        cls,
        clock_left: float,
        root_moves: int,
        now: float,
        nodes_per_second: float,
        reduction: int = 0,
        solve_groups: "int | None" = None,
    ) -> "TimeManager":
        """A player inside a longer-lived process: no start-up per move, and the process
        clock reads `now` as the move begins."""
        budget = plan(clock_left, root_moves, 0.0, 0.0, solve_seconds(solve_groups, nodes_per_second))
        return cls(budget.shifted(now), root_moves, nodes_per_second, reduction)

    @classmethod
    def until(
        cls, start: float, end: float, root_moves: int, nodes_per_second: float, reduction: int = 0
    ) -> "TimeManager":
        """Search from `start` to at most `end` on the CPU clock (inf: no time limit)."""
        return cls(Budget(start, end, end, False), root_moves, nodes_per_second, reduction)

    @property
    def deadline(self) -> float:
        """The hard maximum: the search is cut off here, whatever it is doing."""
        return self.budget.maximum

    def update(self, cost: float, best_changed: bool) -> None:
        """A depth completed in `cost` CPU seconds, changing the best move or not."""
        self.costs.append(cost)
        self.changed = best_changed
        self.stable = 0 if best_changed else self.stable + 1

    def should_stop(self, now: float) -> bool:
        """Whether to start no further depth at CPU reading `now`."""
        if self.budget.instant:
            return True
        next_cost = predict_next_iteration(self.costs, self.root_moves, self.nodes_per_second, self.first_costly_depth)
        return not keep_searching(self.budget, now, next_cost, self.stable, self.changed)

    def solve_nodes(self, now: float) -> float:
        """The nodes a search to the end can still visit by the hard maximum, at this
        machine's speed; 0 when the move is to be instant or its clock is unbounded."""
        if self.budget.instant or self.budget.maximum >= LONGEST_CLOCK:
            return 0.0
        return self.nodes_per_second * SOLVE_SPEEDUP * max(self.budget.maximum - now, 0.0)

    def table_bits(self, now: float) -> int:
        """log2 of a table about as large as the nodes the search can still visit: a fresh
        process pays for every page of it that gets touched."""
        expected = self.nodes_per_second * max(min(self.budget.maximum, LONGEST_CLOCK) - now, 0.0)
        bits = max(int(expected), 1).bit_length()
        return min(max(bits, TT_BITS_RANGE[0]), TT_BITS_RANGE[1])


TT_BITS_RANGE = (12, 22)  # 2^22 entries of 16 bytes = 64 MiB, the memory ceiling
