"""calibration.txt: this machine's search speed and per-move start-up cost, measured once
by `fruit-rage calibrate` and read by every move. A missing or insane file means defaults:
the agent must play correctly and in time without it."""

import time

from agent.cli_support import is_regular_file, without_bom
from agent.oscalls import stat

# Without a calibration: about what `calibrate` measures on the 2-core machines we test on
# (about 500k). It only steers which iterations are started and the table size; a wrong
# guess costs depth, never the clock (the search stops at the hard maximum whatever it is).
DEFAULT_NODES_PER_SECOND = 500_000.0
SANE_NODES_PER_SECOND = (1e3, 1e9)
SANE_STARTUP = (0.001, 2.0)


class Calibration:
    __slots__ = ("nodes_per_second", "startup")

    def __init__(self, nodes_per_second: float = DEFAULT_NODES_PER_SECOND, startup: float = 0.0):
        self.nodes_per_second = nodes_per_second
        self.startup = startup  # CPU s of a whole move process that does no search; 0 = unknown


def load(path: str) -> Calibration:
    """The calibration at `path`, or defaults for anything missing, unreadable or insane."""
    if not _plain_file(path):
        return Calibration()
    values = {}
    try:
        with open(path, "rb") as handle:
            text = without_bom(handle.read(4096)).decode("utf-8", errors="replace")
        for line in text.splitlines():
            key, sep, value = line.partition("=")
            if sep:
                values[key.strip()] = value.strip()
    except OSError:
        return Calibration()
    return Calibration(
        _sane_float(values.get("nodes_per_second"), SANE_NODES_PER_SECOND, DEFAULT_NODES_PER_SECOND),
        _sane_float(values.get("startup_seconds"), SANE_STARTUP, 0.0),
    )


def _plain_file(path: str) -> bool:
    """Only a regular file is read: opening a FIFO would wait for a writer, and a device
    may never end, while the move's clock runs."""
    try:
        return is_regular_file(stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _sane_float(text, bounds, default: float) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return default
    return value if bounds[0] <= value <= bounds[1] else default


def measure_nodes_per_second(seconds: float) -> float:
    """Search a fixed full 26x26 board with 9 fruit types for about `seconds` of CPU."""
    from agent._core import Bitboard, Searcher
    from agent.rules import random_board

    board = Bitboard(random_board(2017, 26, 9))
    searcher = Searcher(board, tt_bits=20)
    start = time.process_time()
    nodes = 0
    depth = 1
    while time.process_time() - start < seconds:
        result = searcher.search(depth, deadline=start + seconds)
        nodes += result.nodes
        depth += 1
    return nodes / max(time.process_time() - start, 1e-6)


def measure_startup(runs: int = 7) -> float:
    """Median CPU time of a complete move process on a one-cell board: start-up, reading,
    a trivial search, writing and exit."""
    import os
    import subprocess
    import tempfile

    from agent.move import launch

    costs = []
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "input.txt"), "w") as handle:
            handle.write("1\n1\n300\n0\n")
        for _ in range(runs):
            process = subprocess.Popen(
                launch.move_command(),
                env=launch.move_environment(),
                cwd=folder,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
            _, status, usage = os.wait4(process.pid, 0)
            if status != 0:
                raise RuntimeError("the agent failed on a one-cell board")
            costs.append(usage.ru_utime + usage.ru_stime)
    return sorted(costs)[len(costs) // 2]
