"""The rules of Expanding Nim: the growing limit, resets, time budgets and every way to lose."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX = 3
DEFAULT_TIME = 120.0
# Sane maxima: beyond them a game could not be played out, or its clock would overflow the
# timeouts and timestamps built from it.
MAX_STONES = 1_000_000  # also the most resets and the largest initial maximum
MIN_TIME, MAX_TIME = 0.01, 86400.0  # seconds per player

# The rules as both command lines' --help tell them, one paragraph their help wraps.
RULES_TOLD = (
    "How it is won: the players take turns removing stones from one heap, and whoever"
    " takes the last stone wins (a move may ask for more than are left: it takes them"
    " all). The first move takes 1 to the initial maximum m; every later move up to "
    "the larger of m and 1 + the largest take so far. With a move a player may use "
    "one of its resets: the opponent's next move may then take at most m. A player "
    "who runs out of its time, moves out of turn or breaks a rule loses."
)


def grown_limit(init_max: int, largest_take: int) -> int:
    """Limit for a move not restricted by a reset: it grows past the largest take so far."""
    return max(init_max, largest_take + 1)


@dataclass(frozen=True)
class GameConfig:
    stones: int
    resets: int
    init_max: int = DEFAULT_MAX
    time_budget: float = DEFAULT_TIME

    def __post_init__(self) -> None:
        for what, value, low in (
            ("number of stones", self.stones, 1),
            ("number of resets", self.resets, 0),
            ("initial maximum", self.init_max, 1),
        ):
            if not low <= value <= MAX_STONES:
                raise ValueError(f"the {what} must be {low}..{MAX_STONES}, not {value}")
        if not 0 < self.time_budget <= MAX_TIME:  # NaN fails too
            raise ValueError(f"the time budget must be above 0 and at most {MAX_TIME:g} s, not {self.time_budget}")


@dataclass(frozen=True)
class Move:
    stones: int
    reset: bool = False


@dataclass
class PlayerRecord:
    name: str
    resets_left: int
    time_taken: float = 0.0


class Game:
    """One game between player 0 (moves first) and player 1, as the manager sees it."""

    def __init__(self, config: GameConfig, names: tuple[str, str]):
        self.config = config
        self.players = [PlayerRecord(name, config.resets) for name in names]
        self.turn = 0
        self.stones_left = config.stones
        self.largest_take = 0
        self.reset_pending = False
        self.last_removed = 0
        self.last_reset = False
        self.winner: int | None = None
        self.reason = ""

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def current_max(self) -> int:
        """The most the player on move may take."""
        if self.reset_pending:
            return self.config.init_max
        return grown_limit(self.config.init_max, self.largest_take)

    def illegal_reason(self, move: Move) -> str | None:
        """Why the player on move may not make this move, or None if it may."""
        if move.stones < 1:
            return f"took {move.stones} stones; a move takes at least 1"
        if move.stones > self.current_max:
            return f"took {move.stones} stones, more than the limit of {self.current_max}"
        if move.reset and self.players[self.turn].resets_left == 0:
            return "used a reset with none left"
        return None

    def play(self, move: Move, elapsed: float) -> None:
        """The player on move makes `move` after thinking `elapsed` seconds."""
        mover = self.turn
        record = self.players[mover]
        record.time_taken += elapsed
        if record.time_taken > self.config.time_budget:
            self.time_out(mover)
            return
        why = self.illegal_reason(move)
        if why is not None:
            self.forfeit(mover, why)
            return
        removed = min(move.stones, self.stones_left)  # taking more than remain takes them all
        self.stones_left -= removed
        self.largest_take = max(self.largest_take, removed)
        self.reset_pending = move.reset
        record.resets_left -= int(move.reset)
        self.last_removed, self.last_reset = removed, move.reset
        if self.stones_left == 0:
            self.winner = mover
            self.reason = f"{record.name} took the last stone"
        else:
            self.turn = 1 - mover

    def time_out(self, player: int) -> None:
        self.players[player].time_taken = max(self.players[player].time_taken, self.config.time_budget)
        self.forfeit(player, f"ran out of time ({self.config.time_budget:g} s budget)")

    def forfeit(self, loser: int, why: str) -> None:
        """End the game against `loser`; `why` completes a sentence starting with its name."""
        self.winner = 1 - loser
        self.reason = f"{self.players[loser].name} {why}"
        self.last_removed, self.last_reset = 0, False

    def state(self) -> dict:
        """The state message sent to both players after every move (wire format)."""
        message: dict[str, object] = {
            "finished": self.finished,
            "current_max": self.current_max,
            "stones_left": self.stones_left,
            "stones_removed": self.last_removed,
            "reset_used": self.last_reset,
        }
        if self.winner is not None:  # finished
            message["winner"] = self.players[self.winner].name
            message["reason"] = self.reason
        for index, record in enumerate(self.players):
            message[f"player_{index}"] = {
                "name": record.name,
                "resets_left": record.resets_left,
                "time_taken": round(record.time_taken, 3),
            }
        return message

    def init_message(self) -> dict:
        return {
            "init_stones": self.config.stones,
            "init_resets": self.config.resets,
            "game_time": self.config.time_budget,
            "init_max": self.config.init_max,
        }
