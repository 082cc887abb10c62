"""A program at a real terminal: `fruit-rage ARGS` on a pseudo-terminal of 24 rows and 80
columns, reading and writing it as it would a person's."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time

from paths import PROJECT_ROOT

ROWS, COLUMNS = 24, 80
WAIT = 60  # seconds any step may take at most on a busy machine


class Terminal:
    """`fruit-rage ARGS` on a pseudo-terminal of ROWS x COLUMNS (NO_COLOR set when
    `no_color`)."""

    def __init__(self, *args, no_color: bool = False):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = {**os.environ, "COLUMNS": str(COLUMNS), "LINES": str(ROWS), "TERM": "xterm-256color"}
        env.pop("NO_COLOR", None)
        if no_color:
            env["NO_COLOR"] = "1"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agent", *map(str, args)],
            cwd=PROJECT_ROOT,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.output = b""

    def read_until(self, text: str) -> str:
        """Everything shown so far, once `text` has been shown after what was read before."""
        start = len(self.output)
        deadline = time.monotonic() + WAIT
        while text.encode() not in self.output[start:]:
            if not self._read(deadline - time.monotonic()):
                raise AssertionError(f"{text!r} never shown; the screen had:\n{self.text()[-2000:]}")
        return self.text()

    def type(self, line: str) -> None:
        os.write(self.master, line.encode())

    def finish(self) -> tuple:
        """(everything shown, exit code) once the program ends by itself."""
        deadline = time.monotonic() + WAIT
        while self._read(deadline - time.monotonic()):
            pass
        try:
            code = self.process.wait(timeout=max(1.0, deadline - time.monotonic()))
        finally:
            self.close()
        return self.text(), code

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)

    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace").replace("\r\n", "\n")

    def _read(self, wait: float) -> bool:
        """False once the program has closed the terminal (or `wait` passed)."""
        if wait <= 0 or not select.select([self.master], [], [], wait)[0]:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: no process has the terminal open any more
            return False
        self.output += chunk
        return bool(chunk)
