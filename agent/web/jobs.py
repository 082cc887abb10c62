"""A long task in a process of its own, for work that must stop the moment nobody wants it
any more (an analysis the page cancelled): a pool's worker cannot be stopped one task at a
time, but a process of its own is killed at once, whatever the core is doing. It ends with
the server too, even one killed outright."""

from __future__ import annotations

import asyncio
import os
import signal

from agent.arena.processes.workers import begin_page_worker, ended_how, process_context, stop_processes

END_WAIT = 5.0  # seconds to wait for the exit code of a process whose pipe closed


class TaskFailed(Exception):
    """The task raised (its message says what), or its process died."""


async def run_in_own_process(function, args: tuple, on_message=None, niceness: int = 0):
    """function(send, *args) in a fresh process at `niceness`; every send(message) there
    calls on_message(message) here. Returns what the function returns. Cancelling the task
    awaiting this kills the process."""
    context = process_context(spawn=True)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, os.getpid(), niceness, function, args), daemon=True)
    process.start()
    sender.close()  # the child's copy is the only one left: its end (or death) ends the reading
    loop = asyncio.get_running_loop()
    reading = None
    try:
        while True:
            reading = loop.run_in_executor(None, receiver.recv)
            try:
                kind, payload = await reading
            except EOFError:
                await loop.run_in_executor(None, process.join, END_WAIT)
                how = "" if process.exitcode is None else f" ({ended_how(process.exitcode)})"
                raise TaskFailed(f"its process ended{how}") from None
            reading = None
            if kind == "message":
                if on_message is not None:
                    on_message(payload)
            elif kind == "result":
                return payload
            else:
                raise TaskFailed(payload)
    finally:
        await loop.run_in_executor(None, stop_processes, [process], 0.0)
        # A read given up on still runs in its thread until the pipe's end wakes it; that
        # thread holds the connection, and closes it when done.
        if reading is None or not reading.cancelled():
            receiver.close()


def _child(sender, server: int, niceness: int, function, args: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, and the server this
    begin_page_worker(server, niceness)
    try:
        result = function(lambda message: sender.send(("message", message)), *args)
    except Exception as error:  # noqa: BLE001 - whatever it was, the server says so and goes on
        sender.send(("error", f"{type(error).__name__}: {error}"))
    else:
        sender.send(("result", result))
