"""Load made on purpose, for a match that must show how its clocks hold on a busy machine
(`fruit-rage match --burners N`): CPU burners, each in a session of its own, and a count
of the runnable processes while they run.

A session of its own matters: the kernel shares the processors between sessions
(autogroups), so burners started in the referee's own session would share one slice with
it and hardly slow a move, which runs in a session of its own; burners in sessions of
their own take their share each, as a user's other programs do."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from typing import Optional

BURN = "while True: pass"
SAMPLE_EVERY = 1.0  # seconds between counts of the runnable processes


class Burners:
    """`count` CPU burners from entry to exit; `runnable()` is the mean number of runnable
    processes of the whole machine seen meanwhile (None before a count was taken)."""

    def __init__(self, count: int):
        self.count = count
        self._processes: list[subprocess.Popen] = []
        self._samples: list[int] = []
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Burners:
        if not self.count:
            return self
        try:
            for _ in range(self.count):
                self._processes.append(
                    subprocess.Popen(
                        [sys.executable, "-S", "-c", BURN],
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        start_new_session=True,
                    )
                )
        except BaseException:
            self._end()
            raise
        self._sampler.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._end()

    def _end(self) -> None:
        for process in self._processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()

    def _sample(self) -> None:
        while True:
            running = runnable_now()
            if running is not None:
                self._samples.append(running)
            if self._stop.wait(SAMPLE_EVERY):
                return

    def runnable(self) -> Optional[float]:
        return sum(self._samples) / len(self._samples) if self._samples else None


def runnable_now() -> Optional[int]:
    """The processes runnable on this machine now, the reader's included (Linux's
    /proc/loadavg, "running/total"); None where there is none."""
    try:
        with open("/proc/loadavg") as handle:
            return int(handle.read().split()[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return None
