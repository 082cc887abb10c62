"""Stop signals met in a block that defers them: handed on at its end to the handler they
would have met, in this process, with real signals."""

import os
import signal

import pytest

from agent.arena.processes.stop_signals import stop_signals_deferred, stop_signals_interrupt


def test_a_signal_in_a_deferred_block_is_acted_on_at_its_end_only():
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with stop_signals_interrupt():
            with stop_signals_deferred():
                os.kill(os.getpid(), signal.SIGTERM)
                steps.append("finished")
            steps.append("after")
    # The work finished before stop_signals_interrupt's handler raised; leaving its block
    # put the default back.
    assert steps == ["finished"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_with_no_handler_set_a_deferred_stop_is_a_keyboard_interrupt():
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    with pytest.raises(KeyboardInterrupt):
        with stop_signals_deferred():
            os.kill(os.getpid(), signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_a_deferred_block_without_a_signal_changes_nothing():
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    with stop_signals_deferred():
        pass
    assert {number: signal.getsignal(number) for number in before} == before
