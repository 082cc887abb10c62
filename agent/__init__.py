"""Fruit Rage as a library: positions, search, players, games and matches.

>>> from agent import Board, Limit, search
>>> board = Board.random(seed=1, size=6, types=3)
>>> result = search(board, Limit(depth=3))
>>> result.depth, board.normalize(result.move) == result.move
(3, True)

The names below are loaded when first used (PEP 562), so the competition move, which
imports this package, pays nothing for them.
"""

_EXPORTS = {
    "Board": "agent.board",
    "Move": "agent.board",
    "Group": "agent.board",
    "Limit": "agent.engine",
    "SearchResult": "agent.move",
    "IterationInfo": "agent.move",
    "search": "agent.engine",
    "Player": "agent.players",
    "SearchPlayer": "agent.players",
    "GreedyPlayer": "agent.players",
    "RandomPlayer": "agent.players",
    "Minimax3Player": "agent.players",
    "CommandPlayer": "agent.arena.command_player",
    "play_game": "agent.arena.referee",
    "GameRecord": "agent.arena.referee",
    "Turn": "agent.arena.turns",
    "run_match": "agent.arena.matches.match",
    "MatchSettings": "agent.arena.matches.games",
    "MatchResult": "agent.arena.matches.match",
}

__all__ = sorted(_EXPORTS)

# The same names for a type checker, which does not run __getattr__ (tests/library keeps
# these imports and _EXPORTS alike). Checkers take the name for typing.TYPE_CHECKING;
# the move's path then imports nothing more.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agent.arena.command_player import CommandPlayer as CommandPlayer
    from agent.arena.matches.games import MatchSettings as MatchSettings
    from agent.arena.matches.match import MatchResult as MatchResult
    from agent.arena.matches.match import run_match as run_match
    from agent.arena.referee import GameRecord as GameRecord
    from agent.arena.referee import play_game as play_game
    from agent.arena.turns import Turn as Turn
    from agent.board import Board as Board
    from agent.board import Group as Group
    from agent.board import Move as Move
    from agent.engine import Limit as Limit
    from agent.engine import search as search
    from agent.move import IterationInfo as IterationInfo
    from agent.move import SearchResult as SearchResult
    from agent.players import GreedyPlayer as GreedyPlayer
    from agent.players import Minimax3Player as Minimax3Player
    from agent.players import Player as Player
    from agent.players import RandomPlayer as RandomPlayer
    from agent.players import SearchPlayer as SearchPlayer


def __getattr__(name: str) -> "Any":
    if name == "__version__":  # written once, in agent._version, which a move never loads
        from agent._version import __version__

        return __version__
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'agent' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
