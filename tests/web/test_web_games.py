"""The web server's parts on their own: a game's judging, the expiring store, the worker
pool and its guards."""

from __future__ import annotations

import asyncio
import hashlib
import operator
import os
import signal
import time

import pytest
from starlette.exceptions import HTTPException
from starlette.requests import Request

from agent.arena.processes.referee_clock import BACKSTOP_SLACK
from agent.board import Board, Move
from agent.web.bodies import read_body
from agent.web.games import AGENT, HUMAN, Game, GameError, IllegalMove
from agent.web.store import ExpiringStore, OwnerFull, StoreFull
from agent.web.thinking import TaskLost, WorkerPool

# Seconds of CPU a search that would take minutes may use before the page stops it.
SPIN_LIMIT = 0.2


def two_fruit_game(first=HUMAN, clocks=None) -> Game:
    """'01': each side takes one fruit for 1 point, so the score ties."""
    return Game(Board(["*" * 2, "01"]), "greedy", clocks or {HUMAN: 10.0, AGENT: 10.0}, first, 0, now=0.0)


def test_a_tie_on_points_goes_to_the_side_with_more_time_left():
    game = two_fruit_game()
    game.play_human("A2", now=3.0)  # 3 s of the person's wall time
    game.play_agent((1, 1), cpu=1.0, now=3.5)  # 1 s of the agent's CPU
    assert game.over and game.scores == {HUMAN: 1, AGENT: 1}
    assert game.winner == AGENT and game.reason == "tied at 1, more time left: 9.000 s to 7.000 s"


def test_the_agent_loses_when_its_move_takes_its_whole_clock():
    game = two_fruit_game(first=AGENT, clocks={HUMAN: 10.0, AGENT: 0.5})
    assert game.play_agent((1, 0), cpu=0.5, now=1.0) is None
    assert game.winner == HUMAN and game.reason.startswith("the agent ran out of time: used 0.500 s")
    assert game.board.rows == ("**", "01") and game.moves == []


def test_the_agent_loses_when_it_answers_with_an_empty_cell():
    game = two_fruit_game(first=AGENT)
    assert game.play_agent((0, 0), cpu=0.1, now=1.0) is None
    assert game.winner == HUMAN and game.reason == "the agent answered with no move: A1 is an empty cell"


def test_an_agent_stopped_by_the_referees_rule_loses_with_its_reason_and_fault():
    game = two_fruit_game(first=AGENT)
    game.agent_failed("ran out of time: stopped at 11.000 s of CPU, its clock 10.000 s", cpu=11.0, fault="time")
    assert game.winner == HUMAN and game.clocks[AGENT] == -1.0 and game.fault == "time"
    assert game.reason == "the agent ran out of time: stopped at 11.000 s of CPU, its clock 10.000 s"
    stalled = two_fruit_game(first=AGENT)
    stalled.agent_failed("stopped: used 0.1 s of CPU in 21.0 s of wall time, ...", cpu=0.1, fault="stalled")
    assert stalled.winner == HUMAN and stalled.fault == "stalled" and stalled.clocks[AGENT] == pytest.approx(9.9)


def test_an_agent_whose_process_died_loses_its_move_as_invalid():
    game = two_fruit_game(first=AGENT)
    game.agent_failed("lost its process in the middle of the move (killed by signal 9)", cpu=0.5)
    assert game.winner == HUMAN and game.fault == "invalid" and game.clocks[AGENT] == 9.5


def test_the_persons_clock_runs_only_on_their_turn():
    game = two_fruit_game(first=AGENT)
    assert game.clock_left(HUMAN, now=100.0) == 10.0
    game.play_agent((1, 0), cpu=0.2, now=100.0)
    assert game.clock_left(HUMAN, now=104.0) == 6.0
    game.check_human_clock(now=109.0)
    assert not game.over
    game.check_human_clock(now=110.0)
    assert game.winner == AGENT and game.reason == "you ran out of time"


def test_moves_out_of_turn_or_not_on_the_board_raise():
    game = two_fruit_game()
    with pytest.raises(GameError, match="your turn"):
        game.play_agent((1, 0), cpu=0.0, now=0.0)
    for name, message in (("B1", "B1 is an empty cell"), ("C1", "C1 is off the 2x2 board"), ("1A", "not a cell name")):
        with pytest.raises(IllegalMove, match=message):
            game.play_human(name, now=0.0)
    assert game.turn == HUMAN and game.moves == []


def test_a_played_move_names_its_group_as_the_board_does():
    game = Game(Board(["001", "011", "222"]), "greedy", {HUMAN: 10.0, AGENT: 10.0}, HUMAN, 0, now=0.0)
    played = game.play_human("B1", now=1.0)  # any cell of the group is the move
    group = Board(["001", "011", "222"]).group_at(Move.from_name("A1"))
    assert (played.name, played.cells, played.points) == (group.move.name, tuple(sorted(group.cells)), 9)


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_the_store_forgets_what_is_not_asked_for_and_makes_room_past_its_capacity():
    clock = FakeClock()
    store = ExpiringStore(capacity=2, idle_seconds=10, clock=clock)
    first, second = store.add("first"), store.add("second")
    assert first != second and len(first) == 22
    clock.now = 8
    assert store.get(first) == "first"
    third = store.add("third")  # the least recently used makes room
    assert store.get(second) is None and store.get(first) == "first" and len(store) == 2
    clock.now = 15
    assert store.get(third) == "third"
    clock.now = 19
    assert store.get(first) is None and store.get(third) == "third"
    assert store.get("not-an-id") is None and store.get("../" + first) is None


def test_the_store_makes_room_from_the_largest_holder_and_within_each_owners_share():
    clock = FakeClock()
    store = ExpiringStore(capacity=4, idle_seconds=100, clock=clock, budget=100, owner_capacity=3, owner_budget=60)
    with pytest.raises(StoreFull, match="at most"):
        store.add("too much", owner="1.2.3.4", size=61)
    heavy = []
    for number in range(4):  # the fourth pushes out the owner's first: its share is 3
        clock.now += 1
        heavy.append(store.add(f"heavy {number}", owner="1.2.3.4", size=10))
    assert store.get(heavy[0]) is None and len(store) == 3
    clock.now += 1
    light = store.add("light", owner="5.6.7.8", size=30)
    clock.now += 1
    newcomer = store.add("newcomer", owner="9.9.9.9", size=50)  # four kept: the largest holder's oldest goes
    assert [store.get(key) for key in heavy] == [None, None, "heavy 2", "heavy 3"]
    clock.now += 1
    store.add("big", owner="8.8.8.8", size=50)  # four kept, then 140 bytes: heavy 2, then the most bytes go
    assert store.get(newcomer) is None and store.get(light) == "light" and store.get(heavy[3]) == "heavy 3"


def test_an_owner_whose_share_is_all_in_use_is_refused():
    store = ExpiringStore(capacity=10, idle_seconds=100, owner_capacity=2, in_use=lambda item: item.startswith("busy"))
    idle = store.add("idle", owner="a")
    store.add("busy 1", owner="a")
    store.add("busy 2", owner="a")  # the idle one makes room, though older ones are busy
    assert store.get(idle) is None
    with pytest.raises(OwnerFull, match="holds 2 of these, all in use"):
        store.add("busy 3", owner="a")
    assert store.add("elsewhere", owner="b")


def test_the_store_can_give_each_object_its_own_idle_time():
    clock = FakeClock()
    store = ExpiringStore(capacity=10, idle_seconds=lambda item: item, clock=clock)
    short, long = store.add(5), store.add(50)
    clock.now = 6
    assert store.get(short) is None and store.get(long) == 50 and len(store) == 1


def request_with_body(*messages) -> Request:
    """A request whose body arrives as `messages` (http.request or http.disconnect), then
    never any more."""
    queue = list(messages)

    async def receive():
        if queue:
            return queue.pop(0)
        await asyncio.Event().wait()

    return Request({"type": "http", "method": "POST", "headers": []}, receive)


def test_a_body_that_stops_coming_is_given_up_on():
    stalled = request_with_body({"type": "http.request", "body": b"{", "more_body": True})
    with pytest.raises(HTTPException) as refused:
        run(read_body(stalled, 100, seconds=0.2))
    assert (
        refused.value.status_code == 408
        and refused.value.detail == "the request body did not arrive within 0.2 seconds"
    )
    left = request_with_body({"type": "http.request", "body": b"{", "more_body": True}, {"type": "http.disconnect"})
    with pytest.raises(HTTPException) as refused:
        run(read_body(left, 100))
    assert refused.value.status_code == 400 and "the client left" in refused.value.detail


def run(coroutine):
    return asyncio.run(coroutine)


def test_the_pool_runs_functions_in_other_processes():
    async def scenario():
        pool = WorkerPool(workers=2)
        try:
            pids = await asyncio.gather(*(pool.run(30, os.getpid) for _ in range(4)))
            return set(pids), await pool.run(30, operator.add, 2, 3)
        finally:
            pool.close()

    pids, total = run(scenario())
    assert os.getpid() not in pids and total == 5


def spin(limit: float) -> TaskLost:
    """The TaskLost of a task that spins (minutes of a hash in C) on a pool with `limit`."""

    async def scenario():
        pool = WorkerPool(workers=1)
        try:
            with pytest.raises(TaskLost) as lost:
                await pool.run(limit, hashlib.pbkdf2_hmac, "sha256", b"fruit", b"rage", 2**31 - 1)
            return lost.value, await pool.run(30, operator.mul, 6, 7)  # on a fresh worker
        finally:
            pool.close()

    lost, product = run(scenario())
    assert product == 42
    return lost


def test_a_task_past_its_cpu_limit_is_stopped_and_its_worker_replaced():
    lost = spin(SPIN_LIMIT)
    assert lost.end.verdict == "time" and lost.cpu >= SPIN_LIMIT + BACKSTOP_SLACK
    assert str(lost).startswith("ran out of time: stopped at ") and str(lost).endswith("its clock 0.200 s")


def test_a_task_that_sleeps_is_not_stopped_for_the_wall_time_it_takes():
    async def scenario():
        pool = WorkerPool(workers=1)
        try:
            return await pool.run(0.01, time.sleep, 1.0)
        finally:
            pool.close()

    assert run(scenario()) is None


def test_a_task_idle_past_the_grace_is_stopped_as_stalled():
    async def scenario():
        pool = WorkerPool(workers=1)
        try:
            with pytest.raises(TaskLost) as lost:
                await pool.run(None, time.sleep, 3600)
            return lost.value
        finally:
            pool.close()

    lost = run(scenario())
    assert lost.end.verdict == "stalled" and "(asleep, blocked or stopped)" in str(lost)


def test_a_dead_worker_is_reported_and_replaced():
    async def scenario():
        pool = WorkerPool(workers=1)
        try:
            with pytest.raises(TaskLost) as lost:
                await pool.run(30, os._exit, 1)
            return str(lost.value), await pool.run(30, operator.add, 1, 1)
        finally:
            pool.close()

    assert run(scenario()) == ("its worker process died (exit code 1)", 2)


def test_a_worker_killed_while_idle_leaves_the_pool_working():
    async def scenario():
        pool = WorkerPool(workers=2)
        try:
            first = await asyncio.gather(*(pool.run(30, os.getpid) for _ in range(2)))
            for pid in first:
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.5)
            return first, await asyncio.gather(*(pool.run(30, os.getpid) for _ in range(4)))
        finally:
            pool.close()

    first, then = run(scenario())
    assert not set(first) & set(then)


def test_a_worker_killed_mid_task_loses_that_task_alone():
    async def scenario():
        pool = WorkerPool(workers=2)
        try:
            killed = asyncio.ensure_future(pool.run(None, time.sleep, 3600))
            other = asyncio.ensure_future(pool.run(None, time.sleep, 2.0))
            while len(pool._all) < 2 or not all(worker.notes for worker in pool._all):
                await asyncio.sleep(0.05)  # both tasks have begun
            sleeper = next(worker for worker in pool._all if worker.task[1][1] == (3600,))
            os.kill(sleeper.process.pid, signal.SIGKILL)
            with pytest.raises(TaskLost) as lost:
                await killed
            return str(lost.value), await other
        finally:
            pool.close()

    assert run(scenario()) == ("its worker process died (killed by signal 9)", None)


def test_closing_the_pool_ends_a_stopped_worker():
    async def scenario():
        pool = WorkerPool(workers=1)
        pid = await pool.run(30, os.getpid)
        running = asyncio.ensure_future(pool.run(None, time.sleep, 3600))
        await asyncio.sleep(0.5)
        os.kill(pid, signal.SIGSTOP)
        pool.close()
        with pytest.raises(TaskLost):
            await running
        return pid

    pid = run(scenario())
    assert not os.path.exists(f"/proc/{pid}")


def test_thinking_gives_a_legal_move_and_its_cpu_or_why_there_is_none():
    """The CPU charged is the agent's move alone, not the start of its worker."""
    board = Board.random(3, 6, 3)

    async def scenario():
        pool = WorkerPool(workers=1)
        try:
            warm = await pool.think("ours", board.rows, 3, 30.0)
            assert warm.cell is not None, warm.failure
            good = await pool.think("ours", board.rows, 3, 1.0)
            unknown = await pool.think("nobody", board.rows, 3, 1.0)
            return good, unknown
        finally:
            pool.close()

    good, unknown = run(scenario())
    assert not good.failure, good.failure
    assert board.group_at(Move(*good.cell)) and 0 < good.cpu < 1.0
    assert good.cell == board.normalize(Move(*good.cell)).cell
    assert unknown.cell is None and unknown.failure.startswith("failed: ValueError: no built-in player 'nobody'")
