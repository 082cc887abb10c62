"""Search speed: nodes per second, the depth completed within 1 s of CPU, the table's hit
rate; and the share of a move's CPU spent on start-up at a typical budget."""
import subprocess
import time

from agent import launch, timing
from agent._core import Board
from agent.gamefile import format_input
from agent.rules import random_board
from agent.calibration import DEFAULT_NODES_PER_SECOND
from agent.deepening import search_options, think


def test_search_one_second(benchmark, board_case, machine_load):
    name, grid = board_case
    decisions = []

    def search_one_second():
        now = time.process_time()
        board = Board(grid)
        manager = timing.TimeManager.until(now, now + 1.0, board.group_count(), DEFAULT_NODES_PER_SECOND,
                                           search_options(board.n).get("reduction", 0))
        decisions.append(think(board, manager, tt_bits=22))

    benchmark.pedantic(search_one_second, rounds=1, iterations=1)
    decision = decisions[-1]
    completed = [i for i in decision.iterations if i.completed]
    seconds = sum(i.cpu for i in decision.iterations)
    rate = decision.nodes / seconds
    benchmark.extra_info.update(board=name, load=machine_load, nodes_per_second=round(rate),
                                depth_completed=completed[-1].depth, tt_hit_rate=decision.tt_hit_rate)
    print(f"\n{name:18s} {machine_load:5s} {rate:10,.0f} nodes/s  depth {completed[-1].depth} in 1 s"
          f"  TT hit rate {decision.tt_hit_rate:.1%}")


def test_startup_share_of_a_move(benchmark, tmp_path):
    """A move on a full 26x26 p9 board with 60 s left, as in a match: how much of its CPU
    is start-up (the process's CPU when the search starts, read from --verbose)."""
    (tmp_path / "input.txt").write_text(format_input(random_board(8, 26, 9), 9, 60.0))
    shares = []

    def one_move():
        done = subprocess.run(launch.move_command() + ["move", "--verbose"],
                              env=launch.move_environment(), cwd=tmp_path,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, check=True)
        summary = next(line for line in done.stderr.splitlines() if line.startswith("Budget"))
        start = float(summary.split("start=")[1].split(",")[0])
        total = float(summary.split("CPU ")[1].split(" s")[0])
        shares.append(start / total)

    benchmark.pedantic(one_move, rounds=3, iterations=1)
    share = sorted(shares)[len(shares) // 2]
    benchmark.extra_info.update(startup_share=share)
    print(f"\nstart-up share of a 60 s-budget move: {share:.1%}")
