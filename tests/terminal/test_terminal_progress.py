"""The match's progress line: tallies, elapsed time, rate and ETA worked out by hand, and
every line within the width, in place (rich) or one per game."""

from __future__ import annotations

import io
import re

from agent.arena.terminal.progress import GamesProgress
from agent.arena.terminal.tables import clock_time, crop

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def finished(game: int, winner, reason: str = "score 30 to 20") -> dict:
    return {"game": game, "winner": winner, "reason": reason}


def test_clock_time_and_crop():
    assert [clock_time(s) for s in (0, 7.4, 59.6, 754, 3723, 360000)] == [
        "0:00",
        "0:07",
        "1:00",
        "12:34",
        "1:02:03",
        "100:00:00",
    ]
    assert crop("abcdef", 6) == "abcdef" and crop("abcdefg", 6) == "abc..."


def test_elapsed_rate_and_eta_are_the_games_played_here_over_the_time_taken():
    clock = Clock()
    progress = GamesProgress(20, None, clock=clock)
    progress.won["A"] = 2  # two games of a resumed match: not timed in this run
    assert progress.line(80) == "[2/20] A 2 - B 0 - draws 0  0:00 elapsed"
    clock.now += 130
    for game, winner in ((3, "A"), (4, "B"), (5, None), (6, "B")):
        progress.update(finished(game, winner))
    # 4 games in 130 s: 32.5 s a game, 14 games left: 455 s
    assert progress.line(80) == "[6/20] A 3 - B 2 - draws 1  2:10 elapsed, 32 s a game, ETA 7:35"
    progress.note = "LLR +1.23 (-2.94, 2.94)"
    progress.sequential = True
    assert progress.line(80) == "[6/20] A 3 - B 2 - draws 1  2:10 elapsed, ETA <= 7:35  LLR +1.23 (-2.94, 2.94)"
    assert progress.line(66) == "[6/20] A 3 - B 2 - draws 1  ETA <= 7:35  LLR +1.23 (-2.94, 2.94)"
    assert progress.line(40) == "[6/20] A 3 - B 2 - draws 1  LLR +1.23..."


def test_a_review_s_line_counts_the_games_done_without_sides():
    clock = Clock()
    progress = GamesProgress(10, None, clock=clock, sides=False)
    clock.now += 30
    for game in (1, 2, 3):
        progress.update(finished(game, "A"))
    assert progress.line(80) == "[3/10]  0:30 elapsed, 10 s a game, ETA 1:10"


def test_a_fast_match_gives_its_rate_in_fractions_of_a_second():
    clock = Clock()
    progress = GamesProgress(1000, None, clock=clock)
    clock.now += 2.6
    for game in range(10):
        progress.update(finished(game, "A"))
    assert "0.26 s a game" in progress.line(80)


def test_the_biggest_figures_still_fit_80_columns():
    clock = Clock()
    progress = GamesProgress(2000, None, sequential=True, clock=clock)
    progress.won = {"A": 999, "B": 999, None: 1}
    progress.played = 1
    clock.now += 400_000
    progress.note = "LLR -12.34 (-2.94, 2.94)"
    for result in ("", "game 1999: B, ran out of time: used 301.234 s with 0.123 s left" * 3):
        line = progress.line(80, result)
        assert len(line) <= 80 and line.startswith("[1999/2000] A 999 - B 999 - draws 1")
        assert line.endswith("LLR -12.34 (-2.94, 2.94)")


class LogStream(io.StringIO):
    def isatty(self):
        return False


class TerminalStream(io.StringIO):
    def isatty(self):
        return True


def test_not_at_a_terminal_every_game_is_a_line_with_its_result(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    stream = LogStream()
    progress = GamesProgress(3, stream, clock=Clock())
    progress.update(finished(2, "B", "ran out of time: " + "x" * 200))
    progress.update(finished(1, None, "tied at 20 with equal time left"))
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("[1/3] A 0 - B 1 - draws 0  game 2: B, ran out of time: xxx")
    assert lines[1].startswith("[2/3] A 0 - B 1 - draws 1  game 1: draw, tied at 20 with equal time left")
    assert all(len(line) <= 80 for line in lines)


def test_at_a_terminal_the_line_is_redrawn_in_place_within_the_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    stream = TerminalStream()
    clock = Clock()
    progress = GamesProgress(2000, stream, sequential=True, clock=clock)
    progress.note = "LLR +0.00 (-2.94, 2.94)"
    for game in range(1, 1001):
        clock.now += 61
        progress.update(finished(game, "A" if game % 3 else "B"))
    progress.close()
    shown = [ESCAPE.sub("", part) for part in re.split(r"[\r\n]", stream.getvalue())]
    shown = [part for part in shown if part.strip()]
    assert shown[-1].startswith("[1000/2000] A 667 - B 333 - draws 0")
    assert all(len(part) <= 80 for part in shown)
    assert stream.getvalue().count("\n") == 1  # one line, redrawn, ended when the match is
