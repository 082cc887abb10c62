"""A task in a process of its own (agent/web/jobs.py): its messages come back as it sends
them, its result at the end, and an error it raises as TaskFailed with its message."""

from __future__ import annotations

import asyncio
import operator

import pytest
from arena_helpers import random_game_record

from agent.arena.review.analysis import analyse_game
from agent.web import library
from agent.web.jobs import TaskFailed, run_in_own_process


def test_the_messages_arrive_in_order_and_the_result_at_the_end():
    record = random_game_record(6, 5, 3)
    messages = []
    result = asyncio.run(run_in_own_process(library.analyse, (record, 5000), on_message=messages.append))
    assert result == analyse_game(record, 5000).to_dict()
    total = len(result["moves"]) + 1
    assert messages == [(done, total) for done in range(total + 1)]


def test_an_error_in_the_task_is_told_as_task_failed():
    with pytest.raises(TaskFailed, match="TypeError: unsupported operand"):
        asyncio.run(run_in_own_process(operator.truediv, (0,)))  # truediv(send, 0)
