"""Search speed: nodes per second and the depth completed within 1 s of CPU (iterative
deepening with the agent's options and full windows, stopped by the search's own
deadline, not by the time policy), the table's hit rate; and the share of a move's CPU
spent on start-up at a typical budget."""

import subprocess
import time

from agent._core import Bitboard, Searcher
from agent.gamefile import format_input
from agent.move import launch
from agent.move.deepening import search_options
from agent.rules import random_board


def deepen_for(grid, seconds):
    """(depth completed, nodes per second, table hit rate) of `seconds` of CPU."""
    searcher = Searcher(Bitboard(grid), tt_bits=22, **search_options(len(grid)))
    start = time.process_time()
    completed = nodes = probes = hits = 0
    while True:
        result = searcher.search(completed + 1, deadline=start + seconds)
        nodes += result.nodes
        probes += result.tt_probes
        hits += result.tt_hits
        if not result.completed:
            break
        completed += 1
        if result.exact:
            break
    return completed, nodes / (time.process_time() - start), hits / max(probes, 1)


def test_search_one_second(benchmark, board_case, machine_load):
    name, grid = board_case
    found = []
    benchmark.pedantic(lambda: found.append(deepen_for(grid, 1.0)), rounds=1, iterations=1)
    depth, rate, hit_rate = found[-1]
    benchmark.extra_info.update(
        board=name, load=machine_load, nodes_per_second=round(rate), depth_completed=depth, tt_hit_rate=hit_rate
    )
    print(f"\n{name:18s} {machine_load:5s} {rate:10,.0f} nodes/s  depth {depth} in 1 s  TT hit rate {hit_rate:.1%}")


def test_startup_share_of_a_move(benchmark, tmp_path):
    """A move on a full 26x26 p9 board with 60 s left, as in a match: how much of its CPU
    is start-up (the process's CPU when the search starts, read from --verbose)."""
    (tmp_path / "input.txt").write_text(format_input(random_board(8, 26, 9), 9, 60.0))
    shares = []

    def one_move():
        done = subprocess.run(
            launch.move_command() + ["move", "--verbose"],
            env=launch.move_environment(),
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=True,
        )
        summary = next(line for line in done.stderr.splitlines() if line.startswith("Budget"))
        start = float(summary.split("start=")[1].split(",")[0])
        total = float(summary.split("CPU ")[1].split(" s")[0])
        shares.append(start / total)

    benchmark.pedantic(one_move, rounds=3, iterations=1)
    share = sorted(shares)[len(shares) // 2]
    benchmark.extra_info.update(startup_share=share)
    print(f"\nstart-up share of a 60 s-budget move: {share:.1%}")
