"""The candidate evaluations of issue 44 as players for a match: the agent as it plays,
its horizon judged by a candidate, and the same at a fixed depth to compare judgement at
equal depth (docs/strength.md, "Past the search ceiling").

    python3 -m agent match py:agent.tuning.candidates:hot_exchange ours --in-process --paired ...
    python3 -m agent match py:agent.tuning.candidates:hot_exchange_at_depth_4 \\
        py:agent.tuning.candidates:pair_exchange_at_depth_4 --in-process --paired ...
"""

from agent.players import SearchPlayer

EQUAL_DEPTH = 4


def hot_exchange(depth=None) -> SearchPlayer:
    return SearchPlayer(depth=depth, evaluation="hot-exchange")


def greedy_line(depth=None) -> SearchPlayer:
    return SearchPlayer(depth=depth, evaluation="greedy-line")


def hot_exchange_at_depth_4() -> SearchPlayer:
    return hot_exchange(EQUAL_DEPTH)


def greedy_line_at_depth_4() -> SearchPlayer:
    return greedy_line(EQUAL_DEPTH)


def pair_exchange_at_depth_4() -> SearchPlayer:
    """The agent's own evaluation (from 12x12 up) at the candidates' fixed depth."""
    return SearchPlayer(depth=EQUAL_DEPTH, evaluation="pair-exchange")


def speeds(evaluations, *, size: int = 26, types: int = 9, depth: int = 6, boards=(1, 2, 3), plies=(0, 60)) -> dict:
    """{evaluation: nodes per CPU second} of the agent's search to `depth` with each
    evaluation at its horizon, summed over the positions `plies` greedy moves into the
    random boards of seeds `boards`."""
    import time

    from agent import rules
    from agent.board import Board
    from agent.engine import Limit, search

    positions = []
    for seed in boards:
        grid = rules.random_board(seed, size, types)
        for ply in range(max(plies) + 1):
            if ply in plies:
                positions.append(grid)
            grid = rules.remove_and_fall(grid, rules.greedy_largest(grid))
    rates = {}
    for evaluation in evaluations:
        nodes, start = 0, time.process_time()
        for grid in positions:
            nodes += search(Board(grid), Limit(depth=depth), evaluation=evaluation).nodes
        rates[evaluation] = nodes / (time.process_time() - start)
    return rates


if __name__ == "__main__":
    for name, rate in speeds(("pair-exchange", "hot-exchange", "greedy-line", "greedy-pair")).items():
        print(f"{name:<14} {rate / 1e6:5.2f} M nodes/s")
