"""Progress at the terminal, on stderr: `GamesProgress`, the games of a match or of a review
of recorded ones (tallies, elapsed time, ETA; one line per game in a log). The positions
of one piece of work (`bench`, `regret`) have agent.cli_support.LineProgress, which needs
none of the tables this module loads."""

from __future__ import annotations

import sys
import time

from agent.arena.terminal.tables import clock_time, crop, terminal_width
from agent.cli_support import printable


class GamesProgress:
    """`[12/20] A 7 - B 4 - draws 1  5:12 elapsed, 26 s a game, ETA 3:28`, then a running
    test's note: redrawn in place at a terminal (by rich: the clock ticks between games),
    one line per game otherwise, with the game's result, for logs. Every line fits the
    terminal (80 columns, or COLUMNS, when it is not one). Without `sides` (a review of
    recorded games: analyse, audit) the tallies are the games done, `[12/20]`."""

    def __init__(self, total: int, stream, sequential: bool = False, clock=time.monotonic, sides: bool = True):
        self.total = total
        self.stream = stream  # None (stderr closed): no progress, the match goes on
        self.in_place = stream is not None and stream.isatty()
        self.won = {"A": 0, "B": 0, None: 0}  # games won by each side; None: drawn
        self.note = ""  # shown after the tallies (a running test)
        self.sequential = sequential  # the test may stop it early: the ETA is at most
        self.sides = sides
        self.clock, self.started = clock, clock()
        self.played = 0  # games finished in this run (not resumed ones)
        self.live = None
        if self.in_place:
            from rich.console import Console
            from rich.live import Live
            from rich.text import Text

            console = Console(file=stream)
            self.live = Live(
                get_renderable=lambda: Text(self.line(console.width - 1), no_wrap=True),
                console=console,
                refresh_per_second=1,
                # what a review prints meanwhile goes above the line when stdout is this
                # terminal too, and straight to stdout when that is a file
                redirect_stdout=sys.stdout is not None and sys.stdout.isatty(),
            )
            self.live.start()

    def line(self, width: int, result: str = "") -> str:
        """The progress so far, with a game's `result` if given, in at most `width`
        columns: what does not fit is left out, the rate first, then the elapsed time,
        then the ETA; then the result is cut short."""
        done = sum(self.won.values())
        tallies = f"[{done}/{self.total}]"
        if self.sides:
            tallies += f" A {self.won['A']} - B {self.won['B']} - draws {self.won[None]}"
        elapsed = self.clock() - self.started
        times = [f"{clock_time(elapsed)} elapsed"]
        if self.played:
            per_game = elapsed / self.played
            times += [
                f"{_seconds(per_game)} s a game",
                f"ETA {'<= ' if self.sequential else ''}{clock_time(per_game * (self.total - done))}",
            ]
        note = f"  {self.note}" if self.note else ""
        result = f"  {result}" if result else ""
        for drop in ((), (1,), (0, 1), (0, 1, 2)):
            kept = [part for i, part in enumerate(times) if i not in drop]
            line = tallies + result + (f"  {', '.join(kept)}" if kept else "") + note
            if len(line) <= width:
                return line
        room = width - len(tallies) - len(note)
        return crop(tallies + (crop(result, room) if room > 10 else "") + note, width)

    def update(self, record: dict) -> None:
        self.won[record["winner"]] += 1
        self.played += 1
        if self.stream is None:
            return
        if self.live is not None:
            self.live.refresh()
            return
        winner = record["winner"] or "draw"
        self.stream.write(
            self.line(terminal_width(), f"game {record['game']}: {winner}, {printable(record['reason'])}") + "\n"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()


def _seconds(value: float) -> str:
    """`26`, `2.6`, `0.26`: two significant digits, whole seconds from 10 s on."""
    return f"{value:.0f}" if value >= 10 else f"{value:.2g}"


def review_progress(games: int) -> GamesProgress:
    """The progress of a review of recorded games (analyse, audit): games done and the time
    they take, on stderr when it is a terminal (nothing otherwise: the output is the same
    whatever --jobs is)."""
    terminal = sys.stderr is not None and sys.stderr.isatty()
    return GamesProgress(games, sys.stderr if terminal else None, sides=False)
