"""The games of a match, or of a review, run on a Dask cluster (dask.distributed):
`fruit-rage match --cluster tcp://HOST:8786`, `analyse` and `audit` likewise. A game is a
task: a call of a module-level function (play_match_game, analyse_game...) for one game.

The client keeps as many games in flight as the cluster has worker threads, starts one
more as each finishes, and hands every result on once. Dask runs the games of a worker
that dies again elsewhere.

On a worker, each game is run in a game process that belongs to that worker thread
(started on its first game, then reused, one game at a time): an in-process player is
charged time.process_time(), which is exact only in a process that plays nothing else,
and a process of its own can be stopped, with the moves it runs, when the match is
cancelled or the worker dies. A match's game tells its worker thread how it stands after
every turn, and is watched from there as a local match's worker process is (the
referee's clock rule, agent.arena.matches.game_processes.WatchedGames).

distributed is imported only where the cluster is talked to: a game process imports this
module too and need not pay for that."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import uuid
import warnings
from concurrent.futures import CancelledError
from dataclasses import dataclass
from pathlib import Path

CONNECT_TIMEOUT = 5.0  # seconds to reach the scheduler, and for it to have a worker


class ClusterError(Exception):
    """The cluster cannot play the match; the message says why and names the address."""


class ClusterUnreachable(ClusterError):
    """No scheduler answers at the address, or it has no workers."""


class ClusterMismatch(ClusterError):
    """A worker runs other versions of the software than the client."""


class ClusterLost(ClusterError):
    """The cluster failed during the match: its scheduler went away, or a game's workers
    kept dying."""


@dataclass(frozen=True)
class ClusterInfo:
    address: str
    workers: int
    threads: int  # games played at once


def software_versions() -> dict:
    """What must be the same on the client and on every worker. Python by major.minor:
    that is what pickled code and data depend on."""
    import cloudpickle
    import dask
    import distributed

    from agent._version import __version__

    return {
        "fruit-rage": f"{__version__} (source {source_digest()})",
        "Python": "{}.{}".format(*sys.version_info[:2]),
        "dask": dask.__version__,
        "distributed": distributed.__version__,
        "cloudpickle": cloudpickle.__version__,
    }


def source_digest() -> str:
    """A digest of the agent package's Python sources: two installs whose version numbers
    agree may still hold different code."""
    root = Path(__file__).resolve().parents[2]  # agent/, from agent/arena/matches/
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def version_differences(here: dict, there: dict) -> list:
    """'name X there, Y here' for each entry of `here` that `there` does not match."""
    return [
        f"{name} {there.get(name, 'missing')} there, {value} here"
        for name, value in here.items()
        if there.get(name) != value
    ]


def check_cluster(address: str, timeout: float = CONNECT_TIMEOUT) -> ClusterInfo:
    """Connect to the scheduler at `address`, wait for a worker and check every worker's
    versions; ClusterUnreachable or ClusterMismatch saying what is wrong."""
    _require_distributed()
    client = connect(address, software_versions(), timeout)
    try:
        threads = client.nthreads()
        return ClusterInfo(address, len(threads), sum(threads.values()))
    finally:
        client.close()


def _require_distributed() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError as error:
        raise ClusterError(
            f"a Dask cluster needs the cluster extra: python3 -m pip install '.[cluster]' "
            f"({error.name or error} is missing)"
        ) from None


def connect(address: str, versions: dict, timeout: float = CONNECT_TIMEOUT):
    """A distributed.Client of the scheduler at `address` with at least one worker, every
    worker checked to run `versions` (the client's software_versions())."""
    from distributed import Client

    _reach(address, timeout)
    with warnings.catch_warnings():
        # dask's own version warning: check_workers below names what differs, and where.
        warnings.filterwarnings("ignore", message="Mismatched versions")
        client = Client(address, timeout=timeout, set_as_default=False)
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterUnreachable(
                f"the Dask scheduler at {address} has no workers (waited {timeout:g} s): "
                f"start some with `dask worker {address}`"
            ) from None
        check_workers(client, address, versions)
    except BaseException:
        client.close()
        raise
    return client


def _reach(address: str, timeout: float) -> None:
    """ClusterUnreachable unless a scheduler answers at `address` within `timeout` seconds,
    its handshake included: Dask waits for that without end, on a port that took the
    connection and says nothing. Tried before a Client is made: a Client that fails to
    connect spends seconds more closing itself when it is collected, and prints a
    traceback."""
    import asyncio

    from distributed.comm import connect as open_comm

    connection = _connection_args(address)

    async def knock():
        comm = await open_comm(address, timeout=timeout, **connection)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(knock(), timeout))
    except ValueError as error:
        raise ClusterUnreachable(f"{address!r} is not a Dask scheduler address: {error}") from None
    except OSError as error:  # a TimeoutError too
        why = str(error)
        if isinstance(error, TimeoutError) or why.startswith("Timed out"):
            why = "is `dask scheduler` running there, with its port open to this machine?"
        raise ClusterUnreachable(f"no Dask scheduler answers at {address} within {timeout:g} s: {why}") from None
    except Exception as error:  # noqa: BLE001 - Dask read the answer as its own: any failure is the answer's
        raise ClusterUnreachable(
            f"what answers at {address} is not a Dask scheduler ({type(error).__name__} reading its answer)"
        ) from None


def _connection_args(address: str) -> dict:
    """The arguments of a connection to `address` as a Client makes it (TLS as Dask's
    configuration sets it up); ClusterUnreachable, before any connection, for an address
    not of Dask's, a tls:// address without that configuration, or a scheme whose Dask
    backend cannot run here (ucx:// without its package)."""
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address
    from distributed.security import Security

    try:
        scheme = parse_address(address)[0]
        backend = registry.get_backend(scheme)
    except ValueError as error:
        raise ClusterUnreachable(f"{address!r} is not a Dask scheduler address: {error}") from None
    try:
        backend.get_connector()
    except Exception as error:  # noqa: BLE001 - a backend is a plug-in: any failure means it cannot serve
        reason = str(error).partition("\n")[0]
        raise ClusterUnreachable(
            f"{address}: this installation of Dask cannot connect over {scheme}:// "
            f"({type(error).__name__}: {reason}); use a tcp:// address"
        ) from None
    connection = Security().get_connection_args("client")
    if scheme == "tls" and connection["ssl_context"] is None:
        raise ClusterUnreachable(
            f"{address}: a tls:// scheduler needs this client's certificates in Dask's configuration "
            f"(distributed.comm.tls.ca-file, client.cert and client.key); or use a tcp:// address"
        )
    return connection


def check_workers(client, address: str, here: dict) -> None:
    """ClusterMismatch when a worker cannot run this project or runs versions other than
    `here`."""
    for worker, there in sorted(client.run(software_versions, on_error="return").items()):
        if isinstance(there, BaseException):
            raise ClusterMismatch(
                f"worker {worker} of {address} cannot run this project "
                f"({type(there).__name__}: {there}): install fruit-rage there, "
                f"the same version as here, with python3 -m pip install '.[cluster]'"
            )
        differences = version_differences(here, there)
        if differences:
            raise _mismatch(f"{worker} of {address}", differences)


def _mismatch(worker: str, differences: list) -> ClusterMismatch:
    return ClusterMismatch(
        f"worker {worker} runs other versions than the client: {'; '.join(differences)}. "
        f"Every worker needs the same fruit-rage, Python, dask and distributed"
    )


def run_on_cluster(address, calls, finished, *, timeout: float = CONNECT_TIMEOUT, watched=None) -> None:
    """Run `calls`, (game number, function, arguments) for each game, one a task on the
    cluster at `address`, handing each game's number and result to `finished` in this
    thread as it comes; stop, cancelling the games in flight, when it returns False.
    `watched` (a WatchedGames): the games are a match's, each called with a last argument,
    its note(value), and watched by their workers. Fails before any game with
    ClusterUnreachable or ClusterMismatch; Ctrl-C cancels the games and re-raises."""
    _require_distributed()
    from distributed import as_completed

    versions = software_versions()
    client = connect(address, versions, timeout)
    match = uuid.uuid4().hex
    in_flight: dict[object, int] = {}  # future -> game number
    results = as_completed(loop=client.loop)

    def start_games():
        room = max(1, sum(client.nthreads().values())) - len(in_flight)
        for _ in range(room):
            call = next(calls, None)
            if call is None:
                return
            game, function, arguments = call
            future = client.submit(
                run_on_worker,
                match,
                versions,
                game,
                function,
                arguments,
                watched,
                key=f"fruit-rage-game-{game}-{match}",
                pure=False,
            )
            in_flight[future] = game
            results.add(future)

    completed = False
    try:
        start_games()
        for future in results:
            game = in_flight.pop(future, None)
            if game is None:  # never twice: a future leaves in_flight with its record
                continue
            if not finished(game, _result(future, game, address)):
                return
            start_games()
        completed = True
    finally:
        try:
            if not completed:
                _cancel(client, match, list(in_flight))
        finally:
            client.close()


def _result(future, game: int, address: str):
    """The finished game's result; the game's own error as it was raised, the cluster's
    as a ClusterLost."""
    from distributed import KilledWorker

    try:
        return future.result()
    except KilledWorker:
        raise ClusterLost(
            f"game {game}: every worker that played it died, and Dask gave up on it "
            f"(distributed.scheduler.allowed-failures)"
        ) from None
    except CancelledError as error:  # not by this client, which stops waiting before it cancels
        raise ClusterLost(
            f"game {game} was lost with the Dask scheduler at {address} ({getattr(error, 'reason', 'cancelled')})"
        ) from None


def _cancel(client, match: str, futures: list) -> None:
    """Stop the match's games running on the workers (Dask cannot stop a running task)
    and refuse those still to start there, then cancel the futures. Each step is tried
    even when the other fails: a cluster already gone has nothing left to stop."""
    with contextlib.suppress(Exception):
        client.run(stop_match_games, match, on_error="ignore")
    with contextlib.suppress(Exception):
        client.cancel(futures)


# The worker's side. Module state of each worker process.
_lock = threading.Lock()
_playing: dict[str, set[GameProcess]] = {}  # match id -> the GameProcesses playing one of its games now
_stopped: set[str] = set()  # ids of matches stopped: their games still queued here must not start
_thread_state = threading.local()  # .process: this worker thread's GameProcess


@functools.lru_cache(maxsize=1)  # the code this worker loaded does not change
def _worker_versions() -> dict:
    return software_versions()


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):  # not in a worker: a test calls the task directly
        return f"process {os.getpid()}"


class GameStopped(ClusterError):
    """A game that will not be finished: its match was stopped, or its game process died."""


def run_on_worker(match: str, versions: dict, game: int, function, arguments: tuple, watched=None):
    """A cluster task: `function(*arguments)` for game `game` of match (or review) `match`,
    in this worker thread's game process, on a worker that runs the client's `versions`
    (one that joined after the match began was not checked by the client); watched as
    run_on_cluster says."""
    differences = version_differences(versions, _worker_versions())
    if differences:
        raise _mismatch(_worker_address(), differences)
    process = getattr(_thread_state, "process", None)
    if process is None or not process.usable:
        process = _thread_state.process = GameProcess()
    with _lock:
        if match in _stopped:
            raise GameStopped(f"game {game}: its match was stopped")
        _playing.setdefault(match, set()).add(process)
    try:
        return process.run(game, function, arguments, watched)
    finally:
        with _lock:
            playing = _playing.get(match, set())
            playing.discard(process)
            if not playing:
                _playing.pop(match, None)


def stop_match_games(match: str) -> None:
    """Run by the client on every worker when it stops match `match`: the games of it
    running here are stopped at once, and those still to come refused."""
    with _lock:
        _stopped.add(match)
        processes = _playing.pop(match, set())
    for process in processes:
        process.stop()


class GameProcess:
    """A child process that runs the games sent to it one at a time (see serve_games).
    Closing its stdin stops it; it also sees that when this process dies."""

    def __init__(self):
        # A session of its own: a Ctrl-C at the worker's terminal stops the worker, and
        # the worker's end (its stdin closing) then stops this process.
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from agent.arena.matches.cluster import serve_games; serve_games()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,
        )
        self.stopping = False
        self._messages: queue.Queue = queue.Queue()  # what it writes, message by message; None at the end
        threading.Thread(target=_read_messages, args=(self.process.stdout, self._messages), daemon=True).start()

    @property
    def usable(self) -> bool:
        return not self.stopping and self.process.poll() is None

    def run(self, game: int, function, arguments: tuple, watched=None):
        """`function(*arguments)` for game `game`, run in the process: its result, or the
        error it raised; GameStopped when the process ended first. `watched` (a
        WatchedGames): the call takes its note(value) last, and the process is watched
        from its notes; stopped on a verdict, the game's record is its `lost` one."""
        import cloudpickle  # what dask shipped by value (a lambda as a player's factory) must travel on

        from agent.arena.processes.workers import POLL, TaskWatch, WorkerEnd, ended_how

        watch = TaskWatch(self.process.pid, watched.watching) if watched is not None else None
        notes: list = []
        try:
            _send(self.process.stdin, cloudpickle.dumps((function, arguments, watched is not None)))
        except (OSError, ValueError):  # its pipes closed by stop()
            pass
        while True:
            try:
                message = self._messages.get(timeout=POLL)
            except queue.Empty:
                verdict = watch.verdict(game, notes) if watch is not None else None
                if watch is not None and verdict is not None:
                    self.stopping = True
                    self._kill()
                    return watched.lost(
                        game, WorkerEnd(ended_how(self.process.returncode), verdict, watch.reason()), notes
                    )
                continue
            if message is None:
                raise GameStopped(f"game {game}: its game process ended ({ended_how(self.process.wait())})")
            kind, value = pickle.loads(message)
            if kind == "done":
                break
            notes.append(value)
        played, value = value
        if not played:
            raise value
        return value

    def stop(self) -> None:
        """Close its stdin, and kill it if it has not exited STOP_GRACE seconds later (the
        idle grace of a local match's workers told to stop, agent.arena.processes.workers)."""
        from agent.arena.processes.referee_clock import STOP_GRACE

        self.stopping = True
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        killer = threading.Timer(STOP_GRACE, self._kill)
        killer.daemon = True
        killer.start()

    def _kill(self) -> None:
        """Kill it with every process below it (a move it runs, a helper its player forked)."""
        from agent.arena.processes.descendants import end_tree

        if self.process.poll() is None:
            end_tree(self.process.pid)
        self.process.wait()


def serve_games() -> None:
    """A game process's main: run each game's call read from stdin and write its result
    (or the error it raised) to stdout. When stdin closes (the match was stopped, or the
    worker died), the game running is interrupted, which kills the move it runs, and the
    process exits."""
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what players print goes to the worker's log, not among the answers
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a worker may ignore SIGINT
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    jobs: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=_read_jobs, args=(sys.stdin.buffer, jobs), daemon=True).start()
    try:
        while True:
            function, arguments, noted = pickle.loads(jobs.get())
            if noted:
                arguments = (*arguments, lambda value: _send(answers, pickle.dumps(("note", value))))
            try:
                answer: tuple[bool, object] = (True, function(*arguments))
            except Exception as error:
                answer = (False, error)
            _send(answers, _pickled_answer(answer))
    except KeyboardInterrupt:
        raise SystemExit(130) from None


def _read_jobs(stream, jobs: queue.Queue) -> None:
    """Queue each job that arrives; at the end of the stream interrupt the main thread."""
    while (job := _receive(stream)) is not None:
        jobs.put(job)
    os.kill(os.getpid(), signal.SIGINT)


def _read_messages(stream, messages: queue.Queue) -> None:
    """Queue each message the game process writes; None at the end of its stream."""
    while True:
        message = _receive(stream)
        messages.put(message)
        if message is None:
            return


def _pickled_answer(answer: tuple) -> bytes:
    """("done", answer) as a message."""
    try:
        return pickle.dumps(("done", answer))
    except Exception:  # an error that cannot be pickled travels as its text
        error = answer[1]
        return pickle.dumps(("done", (False, RuntimeError(f"{type(error).__name__}: {error}"))))


_LENGTH = struct.Struct(">Q")


def _send(stream, data: bytes) -> None:
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def _receive(stream):
    """The next message, or None at the end of the stream."""
    header = _read_exactly(stream, _LENGTH.size)
    return None if header is None else _read_exactly(stream, _LENGTH.unpack(header)[0])


def _read_exactly(stream, size: int):
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data
