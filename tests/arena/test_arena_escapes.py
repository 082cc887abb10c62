"""Text from outside reaches the terminal with its control characters escaped: an agent's
stderr or answer in match's progress lines and forfeit summary and in play's final
message; a record's agent names and reasons in replay, audit and phases; agent names in
a tournament's table."""

from __future__ import annotations

import json

import pytest
from arena_helpers import fruit_rage, random_game_record

from agent.cli_support import printable

ATTACK = "\x1b[2J\x1b[31mFAKE: A wins 100-0\x1b]0;pwned\x07"
SHOWN = "\\x1b[2J\\x1b[31mFAKE: A wins 100-0\\x1b]0;pwned\\x07"
PRINTF_ATTACK = r"printf '\033[2J\033[31mFAKE: A wins 100-0\033]0;pwned\007\n'"
TINY = ("--games", "2", "--size", "5", "--types", "3", "--time", "3")


def assert_escaped(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b[2J" in text  # lines are cut to 80 columns: the start of it


def test_printable_escapes_control_and_bidirectional_characters_only():
    assert printable(ATTACK) == SHOWN
    assert printable("line\nbreak\ttab\r\x00\x7f\x9b \u202eevil\u2066") == (
        "line\\nbreak\\ttab\\r\\x00\\x7f\\x9b \\u202eevil\\u2066"
    )
    assert printable("plain text, é, 漢字, C:\\path") == "plain text, é, 漢字, C:\\path"


@pytest.mark.parametrize(
    "agent",
    [f"{PRINTF_ATTACK} >&2; exit 1", f"{PRINTF_ATTACK[:-3]}\\n1\\n2\\n3\\n4\\n5\\n' > output.txt"],  # stderr; answer
)
def test_a_match_shows_an_agent_s_escape_sequences_escaped(agent):
    done = fruit_rage("match", agent, "greedy", *TINY)
    assert done.returncode == 0, done.stderr
    assert_escaped(done.stderr)  # the progress lines
    assert_escaped(done.stdout)  # the forfeit summary
    assert "A lost 2 games on invalid answers (1, 2)" in done.stdout


def test_play_shows_the_agent_s_escape_sequences_escaped():
    agent = f"{PRINTF_ATTACK} >&2; exit 1"
    done = fruit_rage("play", "--size", 3, "--types", 2, "--seed", 1, "--first", "computer", "--agent", agent)
    assert done.returncode == 0, done.stderr
    assert "You win: the agent's move lost, no output.txt (exit code 1: \\x1b[2J" in done.stdout
    assert_escaped(done.stdout)


@pytest.fixture
def hostile_record(tmp_path):
    """A results file whose game's agents are named, and whose losing move is explained,
    with escape sequences."""
    record = random_game_record(1, 4, 3, fault_at=2)
    record["agents"] = {"A": ATTACK, "B": "beta" + ATTACK}
    record["reason"] = record["moves"][-1]["reason"] = ATTACK
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return path


@pytest.mark.parametrize("command", [("replay", "--delay", 0), ("audit",)])
def test_replay_and_audit_show_a_record_s_text_escaped(hostile_record, command):
    done = fruit_rage(command[0], hostile_record, *command[1:])
    assert done.returncode == 0, done.stderr
    assert_escaped(done.stdout)


def test_phases_shows_a_record_s_agent_names_escaped(tmp_path):
    record = random_game_record(1, 4, 3)
    record["agents"] = {"A": ATTACK, "B": "beta"}
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(record) + "\n")
    done = fruit_rage("phases", path, "--parts", 2)
    assert done.returncode == 0, done.stderr
    assert_escaped(done.stdout)


@pytest.mark.slow
def test_a_tournament_shows_agent_names_escaped():
    named = f"echo '{ATTACK}' >&2; exit 1"  # a command holding the bytes themselves
    done = fruit_rage("tournament", named, "greedy", *TINY)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout + done.stderr and "\\x1b[2J" in done.stdout


def test_gate_shows_agent_names_escaped():
    named = f"echo '{ATTACK}' >&2; exit 1"
    done = fruit_rage("gate", named, "greedy", "--games", "2", "--size", "3", "--types", "2", "--time", "3")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout + done.stderr and done.stdout.startswith(f"gate echo '{SHOWN}'")
