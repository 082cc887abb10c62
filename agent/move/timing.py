"""Time policy: every decision about a move's CPU clock, in one place (as Ethereal's
timeman.c): how much a move may spend, when the deepening stops, and when the position is
searched to its end. The deepening (deepening.py) runs the iterations it is told to.

The agent is a fresh process per move and every CPU second it burns, start-up included, is
charged. All times here are process CPU seconds counted from process start (the clock the
search polls), so "maximum = 0.8" means "stop the search when this process has used 0.8 s".

The policy:
- plan(): keep back the start-up and exit of every own move that may still come, at the
  rate this move's own start-up cost (read at entry: a loaded machine shows there), plus a
  floor below which the quick move answers (launch.py) and a safety margin; keep back the
  endgame, what the searches to the end will cost once the position is small enough; and
  spread the rest over the own moves until then (at most HORIZON of them), capped at
  max_stretch() times a move's share and MAX_FRACTION of all that is spendable. The moves after
  the first search to the end need little: each searches a smaller position to its end.
- the endgame: a search to the end is predicted from the groups that may still merge
  (predicted_solve_nodes). It begins when the endgame's searches to the end are predicted
  to fit in SOLVE_REACH of what can be spent: that move's search may take twice its
  prediction. Until then what the endgame from ENDGAME_GROUPS needs is kept (at most
  ENDGAME_SHARE of what can be spent), and the rest shared over the moves until the
  position is small enough for it. A move also searches to the end whenever that is
  predicted to take SOLVE_SHARE of the nodes its maximum leaves (TimeManager.solve_cap).
- keep_searching(): after each iteration, stop early when the best move has been stable,
  stretch when it keeps changing, and never start an iteration predicted to overrun.
"""

INFINITY = float("inf")  # not math.inf: a move loads no module it can do without
LONGEST_CLOCK = 1e6  # s planned with at most (a clock of 1e303 s overflowed the planning)

# --- What every move costs besides its search -------------------------------------------
# Below this much clock the quick move (ext/quick_move.c, in front of the lean launch line)
# answers with a largest group in ~1 ms of CPU: a Python move costs 19-25 ms of CPU at its
# least (python -S alone 11 ms; measured on a quiet AMD EPYC host and beside five CPU
# burners in sessions of their own), and under heavier load the cost was seen up to 60 ms.
# The plan keeps it in the clock, so that the moves before the last few are Python's.
QUICK_ANSWER_BELOW = 0.08
EXIT_COST = 0.01  # s to write output.txt and leave after the search stops (measured 1-5 ms; margin for a slow disk)
SAFETY_FRACTION = 0.01  # of the remaining time, never planned on: a start-up dearer than this one's
MIN_THINK = 0.005  # s: below this to spend a move answers at once (the one-ply search)

# --- Spreading the clock over the moves -------------------------------------------------
# Own moves to come for each group on the board, in the middle game (measured in self-play:
# 0.32 on 12x12 p4 at 10 s, 0.45 on 26x26 p9 at 60 s, where most groups are lone fruit);
# the lower spends the clock a little sooner. Late in a game every group is a move: the
# start-up reserve counts half of them (most_own_moves).
OWN_MOVES_PER_GROUP = 0.35
HORIZON = 40  # own moves the spendable time is spread over, at most: early, decisive moves get more
# A move may use this many times its share when unstable: its next iteration is started
# only if predicted to end by then. On boards under LARGE_BOARD columns 4 let single moves
# of 12x12 p4 at 10 s take a quarter of the clock (an iteration there is 10-50 times the
# last). Paired against the agent before this policy, 20 boards each: 12x12 p4 10 s, 2 gave
# +1.3 +/- 1.8 a pair and 4 gave -1.1 +/- 2.0; 26x26 p9 10 s, 4 gave +6.0 +/- 5.3 and
# 2 gave -3.5 +/- 7.4; both 12x12 seeds, 40 pairs: +1.6 +/- 1.4 with 2.
MAX_STRETCH = 2.0
MAX_STRETCH_LARGE = 4.0
MAX_FRACTION = 0.5  # and never more than this part of the spendable time

# --- The stop rules (keep_searching) ----------------------------------------------------
UNSTABLE_STRETCH = 1.5  # the share, when the last iteration changed the best move
STABLE_ITERATIONS = 3  # iterations in a row with the same best move: it is settled
STABLE_CUT = 0.7  # the share, once settled
DEFAULT_GROWTH = 10.0  # next iteration / last, before two are measured
FIRST_COSTLY_DEPTH = 4  # the first depth whose tree is ~root_moves squared (a full reply to every root move)
COSTLY_DEPTH_NODES_PER_ROOT_MOVE_SQUARED = 2.0  # measured 1.5-1.9 (see predict_next_iteration)

# --- The endgame: searches to the end ---------------------------------------------------
# predicted_solve_nodes: nodes = SOLVE_NODES_AT_ZERO * SOLVE_GROWTH ** (groups that may still
# merge), the median of 262 solves of the agent's own endgames of 18-42 groups in self-play
# (26x26 p9 at 60 s, 16x16 p6 at 30 s, 12x12 p4 at 10 s; the quartiles a factor 3.2-3.7
# apart): a move tries one predicted to take SOLVE_SHARE of what it may visit, so about
# three in four succeed, and one that fails leaves the deepening the rest. Boards of
# LARGE_BOARD columns and more took 3.2 times the nodes of the others for as many groups.
SOLVE_GROWTH = 1.65
SOLVE_NODES_AT_ZERO = 15.0
SOLVE_NODES_AT_ZERO_LARGE = 50.0
LARGE_BOARD = 20
# A search to the end visits nodes faster than the full-board search the calibration times:
# its positions are small. Measured: a median 2.3-2.7 M nodes/s on those endgames against
# 0.65 M for `fruit-rage calibrate`, the same host.
SOLVE_SPEEDUP = 3.5
SOLVE_SHARE = 0.5  # of the nodes a move's maximum leaves, what a search to the end tried is predicted to take
FOLLOW_UP = 0.6  # the later moves' searches to the end, against the first's cost (measured 0.6 in all)
SOLVE_START = 0.01  # s before a search to the end starts: the one-ply search (1-5 ms on 26x26)
SOLVE_REACH = 1.0  # the endgame begins when its searches to the end fit in this part of what can be spent
# Groups that may merge where the endgame should begin, from what is kept for it: on large
# boards about 30 groups (they hold 21-23 that may merge on 26x26 p9), on the others about
# 22 (12x12 p4). Chosen by replaying the clocks of recorded games under the policy, then
# measured in self-play (docs/research/2026-12-07-time-policy.md).
ENDGAME_GROUPS = 18
ENDGAME_GROUPS_LARGE = 23
ENDGAME_SHARE = 0.8  # of what can be spent, the most kept for the endgame until then
MOST_COLUMNS = 26


def predicted_solve_nodes(groups: float, size: int = MOST_COLUMNS) -> float:
    """About the nodes a search to the end of a position of `size` columns with `groups`
    groups that may still merge (Board.group_count() less Board.never_merging_count():
    fruit that can never merge cost the search little, free singles nearly nothing) visits
    (a median): they grow by SOLVE_GROWTH a group."""
    at_zero = SOLVE_NODES_AT_ZERO_LARGE if size >= LARGE_BOARD else SOLVE_NODES_AT_ZERO
    return at_zero * SOLVE_GROWTH**groups


def max_stretch(size: int) -> float:
    """How many times its share a move on a board of `size` columns may use when unstable."""
    return MAX_STRETCH_LARGE if size >= LARGE_BOARD else MAX_STRETCH


def solve_seconds(groups: "float | None", nodes_per_second: float, size: int = MOST_COLUMNS) -> float:
    """The predicted CPU of a search to the end of a position of `size` columns with
    `groups` groups that may still merge, at this machine's speed (inf for None)."""
    if groups is None:
        return INFINITY
    return predicted_solve_nodes(groups, size) / (nodes_per_second * SOLVE_SPEEDUP)


def solvable_groups(seconds: float, nodes_per_second: float, size: int = MOST_COLUMNS) -> int:
    """The most groups that may still merge of a position of `size` columns whose search
    to the end is predicted to take at most `seconds` (-1: none is)."""
    affordable = seconds * nodes_per_second * SOLVE_SPEEDUP
    groups = -1
    while predicted_solve_nodes(groups + 1, size) <= affordable and groups < MOST_GROUPS:
        groups += 1
    return groups


MOST_GROUPS = 26 * 26  # on the largest board


class Budget:
    """CPU clock readings (seconds since process start) for one move."""

    __slots__ = ("start", "optimum", "maximum", "instant", "unsolved")

    def __init__(self, start: float, optimum: float, maximum: float, instant: bool, unsolved: "float | None" = None):
        self.start = start  # when the move's thinking began
        self.optimum = optimum  # aim to stop around here
        self.maximum = maximum  # the search is cut off here, whatever it is doing
        self.instant = instant  # too little time: play the shallowest search's move
        # the optimum once a search to the end the budget was made for has been cut short:
        # the deepening then has a move's share, not the solve's
        self.unsolved = optimum if unsolved is None else unsolved

    def shifted(self, offset: float) -> "Budget":
        """The same budget on a clock that reads `offset` more (a player that is not its
        own process plans from zero and runs at the process's current reading)."""
        moved = (self.start + offset, self.optimum + offset, self.maximum + offset)
        return Budget(*moved, self.instant, self.unsolved + offset)

    def __str__(self) -> str:
        if self.instant:
            return "answer at once"
        return f"aim {self.optimum - self.start:.3f} s, at most {self.maximum - self.start:.3f} s"

    def __repr__(self) -> str:
        return (
            f"Budget(start={self.start:.4f}, optimum={self.optimum:.4f}, "
            f"maximum={self.maximum:.4f}, instant={self.instant})"
        )


def most_own_moves(groups: int) -> int:
    """The own moves there may still be, this one included: half the groups, rounded up
    (late in a game every group is a move, and the mover takes every other one)."""
    return max(1, (groups + 1) // 2)


def reserve(remaining: float, moves_left: float, overhead: float) -> float:
    """Time kept back: every own move to come, this one included, pays `overhead` (start-up
    and exit), plus the quick move's floor and a safety margin."""
    return QUICK_ANSWER_BELOW + SAFETY_FRACTION * remaining + overhead * moves_left


def plan(
    remaining: float,
    groups: int,
    startup: float,
    spent: float,
    nodes_per_second: float,
    mergeable: "int | None" = None,
    size: int = MOST_COLUMNS,
) -> Budget:
    """Budget for this move. `remaining` is the clock in input.txt, `groups` the groups on
    the board, `startup` the start-up cost expected of each later move (calibrated; 0:
    unknown), `spent` what this process has used so far (its own start-up), `mergeable`
    the groups that may still merge, for the endgame (None: no search to the end is
    planned), on a board of `size` columns."""
    remaining = min(remaining, LONGEST_CLOCK)
    overhead = max(startup, spent) + EXIT_COST
    spendable = remaining - reserve(remaining, most_own_moves(groups), overhead)
    if spendable < MIN_THINK:
        return Budget(spent, spent, spent + MIN_THINK, instant=True)
    if mergeable is None:  # no search to the end planned: the share is over every move left
        share = spendable / min(max(groups * OWN_MOVES_PER_GROUP, 1.0), HORIZON)
        cap = min(MAX_FRACTION * spendable, max_stretch(size) * share)
        return Budget(spent, spent + min(share, cap), spent + cap, instant=False)
    # The endgame begins where its searches to the end fit in SOLVE_REACH of what can be spent:
    # the first may take twice its prediction, the later ones FOLLOW_UP of it.
    need = 1.0 / SOLVE_SHARE + FOLLOW_UP
    reach = solvable_groups(SOLVE_REACH * spendable / need, nodes_per_second, size)
    if mergeable <= reach:
        solve = solve_seconds(mergeable, nodes_per_second, size) / SOLVE_SHARE + SOLVE_START
        share = spendable / min(groups * OWN_MOVES_PER_GROUP + 1.0, HORIZON)
        cap = min(max(MAX_FRACTION * spendable, solve), spendable)
        optimum = min(max(share, solve), cap)
        return Budget(spent, spent + optimum, spent + cap, False, spent + min(share, optimum))
    # Before it, what the endgame from ENDGAME_GROUPS needs is kept (ENDGAME_SHARE at most), and
    # the rest shared over the moves until the position is small enough for what is kept.
    endgame = ENDGAME_GROUPS_LARGE if size >= LARGE_BOARD else ENDGAME_GROUPS
    kept = min(ENDGAME_SHARE * spendable, need * solve_seconds(endgame, nodes_per_second, size) / SOLVE_REACH)
    target = max(reach, solvable_groups(SOLVE_REACH * kept / need, nodes_per_second, size), 0)
    moves = groups * (1.0 - target / mergeable)
    share = (spendable - kept) / min(max(moves * OWN_MOVES_PER_GROUP, 1.0), HORIZON)
    cap = min(MAX_FRACTION * (spendable - kept), max_stretch(size) * share)
    return Budget(spent, spent + min(share, cap), spent + cap, instant=False)


def keep_searching(
    budget: Budget, now: float, next_iteration: float, stable_iterations: int, best_changed: bool
) -> bool:
    """Whether to start another iteration, expected to cost `next_iteration` CPU seconds,
    at CPU reading `now`."""
    share = budget.optimum - budget.start
    if best_changed:
        share *= UNSTABLE_STRETCH
    elif stable_iterations >= STABLE_ITERATIONS:
        share *= STABLE_CUT
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
    """The whole time policy of one search, consulted by the deepening loop (as Ethereal's
    tm_init / tm_update / tm_finished): created with the move's Budget, told about every
    finished iteration (update), asked whether to start the next one (should_stop), whether
    and how far to search the position to its end (solve_cap), and how large a table the
    search can fill (table_bits).

    `root_moves`: the groups at the root; `nodes_per_second`: this machine's search
    speed; `reduction`: plies late moves are reduced by (it moves the first costly depth);
    `size`: the board's columns (the cost of its endgame depends on it)."""

    def __init__(
        self, budget: Budget, root_moves: int, nodes_per_second: float, reduction: int = 0, size: int = MOST_COLUMNS
    ):
        self.budget = budget
        self.size = size
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
        mergeable: "int | None" = None,
        size: int = MOST_COLUMNS,
    ) -> "TimeManager":
        """A fresh process's move: `spent` is its CPU so far, `startup` what each later
        move's process start will cost (see plan); `mergeable`: the groups that may still
        merge, for the endgame's searches to the end (None: none is planned)."""
        budget = plan(remaining, root_moves, startup, spent, nodes_per_second, mergeable, size)
        return cls(budget, root_moves, nodes_per_second, reduction, size)

    @classmethod
    def in_process(
        cls,
        clock_left: float,
        root_moves: int,
        now: float,
        nodes_per_second: float,
        reduction: int = 0,
        mergeable: "int | None" = None,
        size: int = MOST_COLUMNS,
    ) -> "TimeManager":
        """A player inside a longer-lived process: no start-up per move, and the process
        clock reads `now` as the move begins."""
        budget = plan(clock_left, root_moves, 0.0, 0.0, nodes_per_second, mergeable, size)
        return cls(budget.shifted(now), root_moves, nodes_per_second, reduction, size)

    @classmethod
    def until(
        cls,
        start: float,
        end: float,
        root_moves: int,
        nodes_per_second: float,
        reduction: int = 0,
        size: int = MOST_COLUMNS,
    ) -> "TimeManager":
        """Search from `start` to at most `end` on the CPU clock (inf: no time limit)."""
        return cls(Budget(start, end, end, False), root_moves, nodes_per_second, reduction, size)

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

    def solve_cap(self, mergeable: int, now: float, max_nodes: "int | None" = None) -> "int | None":
        """The node cap of a search of the position to its end, started at CPU reading `now`
        (0: none), or None when deepening is the better way: its prediction from the
        `mergeable` groups is over SOLVE_SHARE of the nodes the move may still visit (by its
        maximum, or `max_nodes` when given: a limit that replays on any machine)."""
        if max_nodes:
            may_visit = float(max_nodes)
        elif self.budget.instant or self.budget.maximum >= LONGEST_CLOCK:
            return None
        else:
            may_visit = self.nodes_per_second * SOLVE_SPEEDUP * max(self.budget.maximum - now, 0.0)
        affordable = may_visit * SOLVE_SHARE
        if affordable < 1 or predicted_solve_nodes(mergeable, self.size) > affordable * (1 + 1e-9):  # rounding
            return None
        return int(affordable)

    def solve_cut(self) -> None:
        """The search to the end its node cap stopped: the deepening that follows has the
        move's share, not what the search to the end was given."""
        budget = self.budget
        self.budget = Budget(budget.start, budget.unsolved, budget.maximum, budget.instant)

    def table_bits(self, now: float) -> int:
        """log2 of a table about as large as the nodes the search can still visit: a fresh
        process pays for every page of it that gets touched."""
        expected = self.nodes_per_second * max(min(self.budget.maximum, LONGEST_CLOCK) - now, 0.0)
        bits = max(int(expected), 1).bit_length()
        return min(max(bits, TT_BITS_RANGE[0]), TT_BITS_RANGE[1])


TT_BITS_RANGE = (12, 22)  # 2^22 entries of 16 bytes = 64 MiB, the memory ceiling
