"""The thinking pool's workers end with the server, even one killed outright (SIGKILL):
they are not left running, re-parented to PID 1."""

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


def test_a_killed_server_s_pool_workers_end_with_it():
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER], cwd=PROJECT_ROOT, stdout=subprocess.PIPE, text=True, stderr=subprocess.DEVNULL
    )
    workers = []
    try:
        assert server.stdout.readline() == "ready\n"
        workers = children(server.pid)  # the two workers and the resource tracker
        assert len(workers) >= 2
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
