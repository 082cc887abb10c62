"""Red-Blue Nim: two piles of marbles, a human against a minimax computer player.

Rule sets (as the original assignment states them):

- classic (default): a move takes 1 or 2 marbles from one pile. A player who starts a turn
  with a pile empty loses (standard) or wins (misère) 2 points per red and 3 per blue left.
- free: a move takes r >= 0 red and b >= 0 blue marbles, r + b >= 1. The game ends when
  both piles are empty; standard: whoever took the last marble wins, misère: whoever took
  it loses. Standard free is won at once by taking everything, which is why it is not
  the default.

Values, always for the player to move:

- classic: the points won (+) or lost (-) at the end of the game.
- free: a win is worth WIN minus the number of moves the whole game took, a loss the
  negative of that, so the computer wins as fast and loses as slowly as it can. The
  terminal value is computed for the player to move there, i.e. relative to who made the
  last move (the original program scored every terminal the same way).
- With a depth limit, cut-off positions get a guess of +-1, smaller than any real result.

Who moves first is said as everywhere in the project: you, computer or random; the taught
command line's positional `computer`/`human` stays. Exit codes: 0 after a game or at end of
input, 1 when the output cannot be written, 2 for bad command-line arguments, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import random
import sys
import textwrap
from typing import Iterator, NamedTuple, Optional

from nim_games.console import EXIT_CODES, play_to_the_end, plural
from nim_games.help_format import LineWrappingHelpFormatter
from nim_games.minimax import search

RULES = ("classic", "free")
DEFAULT_RULES = "classic"
VERSIONS = ("standard", "misere")
FIRST_PLAYERS = ("you", "computer", "random")
FIRST_ALIASES = {"human": "you"}  # the taught command line's word
MAX_PILE = 100
WIN = 1000  # above the longest possible game (2 * MAX_PILE moves)
POINTS_PER_RED, POINTS_PER_BLUE = 2, 3
WIDTH = 80  # the columns of the game's own lines, as a log or a pipe takes them


class NimState(NamedTuple):
    red: int
    blue: int
    player: int  # 0 moves first
    # Counted under the free rules only, where it sets what a win is worth; a classic
    # position is worth the same however it was reached, and counting would only split
    # transpositions in the search's table.
    moves_made: int


class Take(NamedTuple):
    red: int
    blue: int

    def __str__(self) -> str:
        parts = [f"{n} {colour}" for n, colour in ((self.red, "red"), (self.blue, "blue")) if n]
        return " and ".join(parts)


# The classic computer tries moves in this order; ties keep the earlier move.
CLASSIC_MOVE_ORDER = {
    "standard": (Take(2, 0), Take(0, 2), Take(1, 0), Take(0, 1)),
    "misere": (Take(0, 1), Take(1, 0), Take(0, 2), Take(2, 0)),
}


class RedBlueNim:
    """The game, following the `nim_games.minimax.Game` protocol."""

    def __init__(self, rules: str = DEFAULT_RULES, version: str = "standard"):
        if rules not in RULES or version not in VERSIONS:
            raise ValueError(f"unknown rules {rules!r} or version {version!r}")
        self.rules = rules
        self.version = version

    def initial_state(self, red: int, blue: int) -> NimState:
        return NimState(red, blue, 0, 0)

    def to_move(self, state: NimState) -> int:
        return state.player

    def is_terminal(self, state: NimState) -> bool:
        if self.rules == "classic":
            return state.red == 0 or state.blue == 0
        return state.red == 0 and state.blue == 0

    def legal_moves(self, state: NimState) -> Iterator[Take]:
        if self.rules == "classic":
            return (m for m in CLASSIC_MOVE_ORDER[self.version] if self.fits(state, m))
        return self._free_moves(state)

    @staticmethod
    def _free_moves(state: NimState) -> Iterator[Take]:
        # Biggest takes first: taking all (standard) or all but one (misère) wins, so
        # alpha-beta finds the win at once. Lazy, as a search usually stops early.
        for total in range(state.red + state.blue, 0, -1):
            for red in range(min(total, state.red), max(0, total - state.blue) - 1, -1):
                yield Take(red, total - red)

    @staticmethod
    def fits(state: NimState, move: Take) -> bool:
        return move.red <= state.red and move.blue <= state.blue

    def illegal_reason(self, state: NimState, move: Take) -> Optional[str]:
        """Why `move` is not legal in `state`, or None if it is."""
        if move.red < 0 or move.blue < 0:
            return "you cannot take a negative number of marbles"
        if move.red + move.blue == 0:
            return "you must take at least one marble"
        # The rule first: `5 0` breaks it whatever the piles hold.
        if self.rules == "classic" and move not in CLASSIC_MOVE_ORDER[self.version]:
            return "classic rules: take 1 or 2 marbles from one pile only"
        if not self.fits(state, move):
            return f"there are only {state.red} red and {state.blue} blue marbles"
        return None

    def apply(self, state: NimState, move: Take) -> NimState:
        moves_made = state.moves_made + (self.rules == "free")
        return NimState(state.red - move.red, state.blue - move.blue, 1 - state.player, moves_made)

    def mover_wins(self, state: NimState) -> bool:
        """At a terminal state: whether the player to move there has won."""
        # classic: the player facing an empty pile; free: the one after the last taker.
        return self.version == "misere"

    def winner(self, state: NimState) -> int:
        return state.player if self.mover_wins(state) else 1 - state.player

    def points(self, state: NimState) -> int:
        """Classic: what the game is worth at a terminal state."""
        return POINTS_PER_RED * state.red + POINTS_PER_BLUE * state.blue

    def utility(self, state: NimState) -> int:
        stake = self.points(state) if self.rules == "classic" else WIN - state.moves_made
        return stake if self.mover_wins(state) else -stake

    def evaluate(self, state: NimState) -> int:
        """A guess for a cut-off state, for the player to move: +1 good, -1 bad."""
        if self.rules == "classic":
            # Taking 1 or 2 at a time, a difference of piles divisible by 3 can be kept so
            # by the opponent, who then decides which pile runs out first.
            return -1 if (state.red - state.blue) % 3 == 0 else 1
        if self.version == "standard":
            return 1  # the mover can take everything
        return 1 if state.red + state.blue >= 2 else -1  # leave exactly one marble

    def describe_value(self, value: float) -> str:
        if abs(value) == 1:
            return "looks winning" if value > 0 else "looks losing"
        if self.rules == "classic":
            return f"expects {value:+d} points"
        return "sure win" if value > 0 else "sure loss"


# ----------------------------------------------------------------------------------------
# Parsing, shared by the command line and the interactive prompts: each raises ValueError
# with a reason a player can act on.


def parse_pile(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None
    if not 1 <= count <= MAX_PILE:
        raise ValueError(f"a pile must hold 1 to {MAX_PILE} marbles, not {count}")
    return count


def parse_depth(text: str) -> Optional[int]:
    """A depth limit, or None for "full" (perfect play)."""
    if text.strip().lower() == "full":
        return None
    try:
        depth = int(text)
    except ValueError:
        raise ValueError(f"depth {text!r} is neither a whole number nor full") from None
    if depth < 1:
        raise ValueError(f"depth must be at least 1, not {depth}")
    return depth


def parse_choice(text: str, choices: tuple, what: str) -> str:
    word = text.strip().lower().replace("è", "e")
    if word not in choices:
        raise ValueError(f"unknown {what} {text!r}: choose {' or '.join(choices)}")
    return word


def parse_first(text: str) -> str:
    """you, computer or random; `human` is read as you."""
    word = text.strip().lower()
    return parse_choice(FIRST_ALIASES.get(word, word), FIRST_PLAYERS, "first player")


def parse_take(text: str) -> Take:
    words = text.split()
    if len(words) != 2:
        raise ValueError("type two numbers: red then blue, e.g. '1 0'")
    try:
        return Take(int(words[0]), int(words[1]))
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not two whole numbers") from None


# ----------------------------------------------------------------------------------------
# Playing


class Settings(NamedTuple):
    rules: str
    red: int
    blue: int
    version: str
    first: str  # you, computer or random
    depth: Optional[int]  # None = full depth, perfect play
    demo: bool  # computer against computer


def ask(prompt: str, parse, default: Optional[str] = None):
    """Re-prompt until `parse` accepts the line; an empty line means `default`."""
    while True:
        line = input(prompt).strip()
        if not line and default is not None:
            line = default
        try:
            return parse(line)
        except ValueError as reason:
            print(f"  Not accepted: {reason}.")


def ask_settings(rules: Optional[str], first: Optional[str], demo: bool) -> Settings:
    if rules is None:
        rules = ask(
            "Rules, classic or free [classic]: ",
            lambda t: parse_choice(t, RULES, "rules"),
            DEFAULT_RULES,
        )
    red = ask("Red marbles: ", parse_pile)
    blue = ask("Blue marbles: ", parse_pile)
    version = ask(
        "Version, standard or misere [standard]: ",
        lambda t: parse_choice(t, VERSIONS, "version"),
        "standard",
    )
    if first is None:
        first = (
            "computer"
            if demo
            else ask(  # a demonstration has no human to move first
                "Who moves first, you, computer or random [computer]: ", parse_first, "computer"
            )
        )
    depth = ask("Search depth [full]: ", parse_depth, "full")
    return Settings(rules, red, blue, version, first, depth, demo)


RULES_TOLD = {
    "classic": "Take 1 or 2 marbles from one pile. Whoever faces an empty pile at the start\n"
    "of a turn loses (misere: wins) 2 points per red and 3 per blue marble left.",
    "free": "Take any red and blue, at least one marble. Standard: the last marble wins,\n"
    "so the first mover can take everything at once; misere: the last marble loses.",
}


def ask_move(game: RedBlueNim, state: NimState) -> Take:
    while True:
        try:
            move = parse_take(input("Your move (red blue): "))
            reason = game.illegal_reason(state, move)
        except ValueError as error:
            reason = str(error)
        if reason is None:
            return move
        print(f"  Not accepted: {reason}.")


def human_player(demo: bool, first: str) -> Optional[int]:
    """The human's player number (0 moves first), or None in a demonstration; `first` is
    you or computer."""
    if demo:
        return None
    return 1 if first == "computer" else 0


def player_names(human: Optional[int]) -> tuple:
    if human is None:
        return ("Computer A", "Computer B")
    return ("You", "Computer") if human == 0 else ("Computer", "You")


def play(settings: Settings) -> None:
    game = RedBlueNim(settings.rules, settings.version)
    evaluate = game.evaluate if settings.depth is not None else None
    tt: dict = {}  # shared by the computer's searches during this game
    first = random.choice(("you", "computer")) if settings.first == "random" else settings.first
    human = human_player(settings.demo, first)
    names = player_names(human)
    takes: tuple = ([], [])
    state = game.initial_state(settings.red, settings.blue)
    drawn = " (drawn at random)" if settings.first == "random" else ""
    print(f"Red-Blue Nim, {settings.rules} rules, {settings.version}. First to move: {names[0]}{drawn}.")
    print(RULES_TOLD[settings.rules])
    while not game.is_terminal(state):
        name = names[state.player]
        print(f"\nPiles: {state.red} red, {state.blue} blue. To move: {name}.")
        if state.player == human:
            move = ask_move(game, state)
        else:
            result = search(game, state, settings.depth, evaluate, tt)
            assert result.move is not None  # the state is not terminal
            move = result.move
            print(f"{name} takes {move} ({game.describe_value(result.value)}).")
        takes[state.player].append(move)
        state = game.apply(state, move)
    print(f"\nPiles: {state.red} red, {state.blue} blue. Game over.")
    print_scoreboard(names, takes)
    print(announcement(game, state, names))


def print_scoreboard(names: tuple, takes: tuple) -> None:
    print("Scoreboard:")
    for name, moves in zip(names, takes):
        red = sum(m.red for m in moves)
        blue = sum(m.blue for m in moves)
        listed = ", ".join(str(m) for m in moves) or "-"
        line = f"{name}: {plural(len(moves), 'move')}, took {red} red and {blue} blue ({listed})"
        print(textwrap.fill(line, WIDTH, initial_indent="  ", subsequent_indent="    "))


def announcement(game: RedBlueNim, state: NimState, names: tuple) -> str:
    winner = names[game.winner(state)]
    verb = "win" if winner == "You" else "wins"  # "You win", "Computer wins"
    if game.rules == "classic":
        return (
            f"{winner} {verb} {game.points(state)} points "
            f"({state.red} red x {POINTS_PER_RED} + {state.blue} blue x {POINTS_PER_BLUE})."
        )
    return f"{winner} {verb}."


# ----------------------------------------------------------------------------------------
# Command line


def argument_type(parse):
    """Adapt a parse function to argparse, which reports ArgumentTypeError messages."""

    def convert(text: str):
        try:
            return parse(text)
        except ValueError as reason:
            raise argparse.ArgumentTypeError(str(reason)) from None

    return convert


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="red-blue-nim",
        description="Play Red-Blue Nim against a minimax computer player. With no arguments, asks for each setting.",
        epilog="Moves are typed as two numbers, red then blue: '2 0' takes two red.\n"
        f"Classic rules (the default):\n{textwrap.indent(RULES_TOLD['classic'], '  ')}\n"
        f"Free rules:\n{textwrap.indent(RULES_TOLD['free'], '  ')}\n"
        "Who moves first: you, computer or random, as the positional word or --first says.\n" + EXIT_CODES,
        formatter_class=LineWrappingHelpFormatter,
    )
    parser.add_argument("num_red", nargs="?", type=argument_type(parse_pile), help=f"red marbles, 1..{MAX_PILE}")
    parser.add_argument("num_blue", nargs="?", type=argument_type(parse_pile), help=f"blue marbles, 1..{MAX_PILE}")
    parser.add_argument(
        "version",
        nargs="?",
        default="standard",
        type=argument_type(lambda t: parse_choice(t, VERSIONS, "version")),
        help="standard (default) or misere",
    )
    parser.add_argument(
        "first_player",
        nargs="?",
        metavar="first",
        type=argument_type(parse_first),
        help="who moves first: you, computer (default) or random; human also means you",
    )
    parser.add_argument(
        "depth",
        nargs="?",
        type=argument_type(parse_depth),
        help="search depth in plies, 1.., or full (default: full depth, perfect play)",
    )
    parser.add_argument("--rules", type=str.lower, choices=RULES, help="rule set (default: classic)")
    parser.add_argument(
        "--first",
        type=argument_type(parse_first),
        help="who moves first: you, computer (default) or random",
    )
    parser.add_argument("--demo", action="store_true", help="let the computer play both sides")
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # exits with 2 on bad arguments
    if args.num_red is not None and args.num_blue is None:
        parser.error("num_blue is required when num_red is given")
    if args.first and args.first_player and args.first != args.first_player:
        parser.error(f"who moves first is given twice: {args.first_player} and --first {args.first}")
    first = args.first or args.first_player
    if args.demo and first not in (None, "computer"):
        parser.error("--demo has no human player: the computer plays both sides")
    if args.num_red is None:
        return play_to_the_end("red-blue-nim", lambda: play(ask_settings(args.rules, first, args.demo)))
    settings = Settings(
        args.rules or DEFAULT_RULES,
        args.num_red,
        args.num_blue,
        args.version,
        first or "computer",
        args.depth,
        args.demo,
    )
    return play_to_the_end("red-blue-nim", play, settings)


if __name__ == "__main__":
    sys.exit(main())
