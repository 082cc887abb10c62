"""A match: games between two players, each on its own seeded board (or, paired, each
board twice), first player alternating, run one or several at a time.

Players come from factories (callables with no arguments), one fresh player per game.
Games whose players are all programs (CommandPlayer) run in threads: each move is its own
process anyway. A game with an in-process player runs in a process of its own, `jobs` at
a time (game_processes), so that the CPU time it is charged is its own and a player that
ends its process loses its game, not the match; where processes are spawned, not forked,
factories must be picklable (classes, module-level functions, functools.partial of
those)."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional

from agent.arena.command_player import stop_shared_runners
from agent.arena.matches.game_processes import WatchedGames, play_noted_game, run_games_in_processes
from agent.arena.matches.games import MatchSettings, play_match_game
from agent.arena.processes.referee_clock import CPU_CLOCK, DEFAULT_GRACE, RefereeClock
from agent.arena.processes.stop_signals import raise_lost_stop
from agent.arena.referee import GameRecord

if TYPE_CHECKING:
    from agent.players import Player

    Factories = tuple[Callable[[], Player], Callable[[], Player]]


@dataclass
class MatchResult:
    """The games of a match, in game order."""

    settings: MatchSettings
    records: list[GameRecord]

    def json_records(self) -> list[dict[str, Any]]:
        return [record.to_dict() for record in self.records]

    def table(self) -> str:
        """The per-agent table of `fruit-rage match`."""
        from agent.arena.stats.summary import report_table

        return report_table(self.json_records())

    def summary(self) -> str:
        """One line: each side's W-L-D and mean margin, and pairs won when paired."""
        from agent.arena.stats.summary import pair_line, summarise

        records = self.json_records()
        parts = []
        for side in ("A", "B"):
            s = summarise(records, side)
            parts.append(f"{side} {s.label} {s.wins}-{s.losses}-{s.draws} ({s.mean_margin:+.1f} a game)")
        line = ", ".join(parts)
        if self.settings.paired:
            line += "; " + pair_line(records)
        return line


def run_match(
    factory_a: Callable[[], Player],
    factory_b: Callable[[], Player],
    settings: MatchSettings,
    *,
    jobs: int = 1,
    on_record: Optional[Callable[[GameRecord], object]] = None,
    grace: float = DEFAULT_GRACE,
    games: Optional[Iterable[int]] = None,
    cluster: Optional[str] = None,
    clock: str = CPU_CLOCK,
) -> MatchResult:
    """Play the games of `settings` (or only the game numbers in `games`), `jobs` at a
    time or on the Dask cluster at address `cluster`, under the referee's clock rule
    (agent.arena.processes.referee_clock: `clock` CPU_CLOCK or WALL_CLOCK, and `grace`, the seconds
    a move may idle past its clock before the watchdog stops it; players made by the
    factories that run programs keep their own), handing each GameRecord to
    on_record as it finishes (in the calling thread). on_record may return False to stop
    the match there (a sequential test that has decided): the games still running are
    abandoned. Games are started as others finish, not queued up front. On Ctrl-C the
    moves running are killed and KeyboardInterrupt is raised."""
    factories = (factory_a, factory_b)
    rule = RefereeClock(clock, grace)
    numbers = iter(range(1, settings.games + 1) if games is None else games)
    records: list[GameRecord] = []

    def finished(record: GameRecord) -> bool:
        records.append(record)
        return on_record is None or on_record(record) is not False

    if cluster is not None:
        from agent.arena.matches.cluster import run_on_cluster

        calls = _game_calls(settings, factories, rule, numbers)
        run_on_cluster(cluster, calls, lambda _, record: finished(record), watched=WatchedGames(settings, rule))
    elif not all(_charges_itself(factory) for factory in factories):
        run_games_in_processes(settings, factories, max(jobs, 1), rule, numbers, finished)
    elif jobs <= 1:
        try:
            for game in numbers:
                raise_lost_stop()
                if not finished(play_match_game(settings, game, factories, rule)):
                    break
        except BaseException:
            stop_shared_runners()
            raise
    else:
        _run_in_threads(settings, factories, jobs, rule, numbers, finished)
    stop_shared_runners(kill=False)  # the match's folders go with it
    records.sort(key=lambda record: record.game or 0)  # every record of a match has its number
    return MatchResult(settings, records)


def _game_calls(
    settings: MatchSettings, factories: Factories, rule: RefereeClock, numbers: Iterator[int]
) -> Iterator[tuple[int, Callable[..., GameRecord], tuple[Any, ...]]]:
    """(game number, function, arguments) of each game of `numbers`, for the cluster: each
    told as it goes, for its watch (WatchedGames)."""
    return ((game, play_noted_game, (settings, factories, rule, game)) for game in numbers)


def _charges_itself(factory: Callable[[], Player]) -> bool:
    """Whether the factory's players are programs run per move (CommandPlayer)."""
    declared = getattr(factory, "charges_itself", None)
    return bool(declared) if declared is not None else hasattr(factory(), "take_turn")


def _run_in_threads(
    settings: MatchSettings,
    factories: Factories,
    jobs: int,
    rule: RefereeClock,
    numbers: Iterator[int],
    finished: Callable[[GameRecord], bool],
) -> None:
    running: set[Future[GameRecord]] = set()
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        while True:
            for game in numbers:
                running.add(pool.submit(play_match_game, settings, game, factories, rule))
                if len(running) == jobs:
                    break
            if not running:
                return
            done: set[Future[GameRecord]] = set()
            while not done:
                done, running = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
                raise_lost_stop()
            for future in done:
                if not finished(future.result()):
                    _stop_games(running)
                    return
    except BaseException:
        _stop_games(running)
        raise
    finally:
        pool.shutdown(wait=True)


def _stop_games(running: set[Future[GameRecord]]) -> None:
    """End the games of these futures: each stops at its move under way, killed. A game
    that was only starting may make a new runner after the others were stopped: it is
    stopped in turn, until every game has ended."""
    for future in running:
        future.cancel()
    while running:
        stop_shared_runners()
        _, running = wait(running, timeout=0.2)
