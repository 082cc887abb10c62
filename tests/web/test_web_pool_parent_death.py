"""The page's workers (the thinking pool's, and an analysis's process of its own) end
with the server, even one killed outright (SIGKILL): they are not left running,
re-parented to PID 1."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest
from paths import PROJECT_ROOT
from web_helpers import alive, children

pytestmark = pytest.mark.slow

# A server's pool, both its workers started; says so, then waits to be killed.
SERVER = textwrap.dedent(
    """
    import asyncio, time
    from agent.web.thinking import WorkerPool

    async def main():
        pool = WorkerPool(workers=2)
        await asyncio.gather(*(pool.run(30, time.sleep, 0.5) for _ in range(2)))
        print("ready", flush=True)
        await asyncio.sleep(120)

    asyncio.run(main())
    """
)


# A server's analysis in a process of its own: says so once it runs, then waits to be killed.
ANALYSING_SERVER = textwrap.dedent(
    """
    import asyncio, time
    from agent.web.jobs import run_in_own_process

    def analysis(send):
        send("ready")
        time.sleep(120)

    if __name__ == "__main__":
        asyncio.run(run_in_own_process(analysis, (), on_message=lambda message: print(message, flush=True)))
    """
)


def assert_its_workers_end_with_it(server: subprocess.Popen, least: int) -> None:
    """Once the server says "ready": it is killed, and every process it started ends."""
    workers = []
    try:
        assert server.stdout.readline() == "ready\n"
        workers = children(server.pid)  # the workers, and the resource tracker
        assert len(workers) >= least
        server.kill()
        server.wait()
        for _ in range(100):
            if not any(alive(pid) for pid in workers):
                break
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers)
    finally:
        server.kill()
        server.wait()
        for pid in workers:
            if alive(pid):
                os.kill(pid, 9)


def test_a_killed_server_s_pool_workers_end_with_it():
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER], cwd=PROJECT_ROOT, stdout=subprocess.PIPE, text=True, stderr=subprocess.DEVNULL
    )
    assert_its_workers_end_with_it(server, 2)


def test_a_killed_server_s_analysis_process_ends_with_it(tmp_path):
    script = tmp_path / "analysing_server.py"
    script.write_text(ANALYSING_SERVER)
    server = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        stdout=subprocess.PIPE,
        text=True,
        stderr=subprocess.DEVNULL,
    )
    assert_its_workers_end_with_it(server, 1)
