"""Fruit Rage as a library: positions, search, players, games and matches.

>>> from agent import Board, Limit, search
>>> board = Board.random(seed=1, size=6, types=3)
>>> result = search(board, Limit(depth=3))
>>> result.depth, board.normalize(result.move) == result.move
(3, True)

The names below are loaded when first used (PEP 562), so the competition move, which
imports this package, pays nothing for them.
"""

__version__ = "0.2.0.dev0"

_EXPORTS = {
    "Board": "agent.board",
    "Move": "agent.board",
    "Group": "agent.board",
    "Limit": "agent.engine",
    "SearchResult": "agent.engine",
    "IterationInfo": "agent.engine",
    "search": "agent.engine",
    "Player": "agent.players",
    "SearchPlayer": "agent.players",
    "GreedyPlayer": "agent.players",
    "RandomPlayer": "agent.players",
    "Minimax3Player": "agent.players",
    "CommandPlayer": "agent.arena.command_player",
    "play_game": "agent.arena.referee",
    "GameRecord": "agent.arena.referee",
    "Turn": "agent.arena.referee",
    "run_match": "agent.arena.matches.match",
    "MatchSettings": "agent.arena.matches.games",
    "MatchResult": "agent.arena.matches.match",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'agent' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
