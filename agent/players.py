"""Players: anything with `name` and `choose(board, clock_left) -> Move`.

The built-ins are the agent (`SearchPlayer`), the three baselines (`GreedyPlayer`,
`RandomPlayer`, `Minimax3Player`) and `CommandPlayer`, any program that speaks the
input.txt/output.txt protocol. A player of your own needs nothing more than the two
names:

>>> from agent import Board, Move
>>> class FirstGroupPlayer:
...     name = "first-group"
...     def choose(self, board, clock_left):
...         return board.legal_moves()[0]
>>> FirstGroupPlayer().choose(Board(["01", "21"]), 10.0).name
'A1'

`play_game` and `run_match` charge an in-process player the process CPU time its
`choose` uses, as a referee charges a program, and take the game from a player that
raises, overruns its clock or answers with something that is not a move.
"""

from __future__ import annotations

import signal
import time
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol

from agent._version import __version__
from agent.board import Board, Move

if TYPE_CHECKING:
    from agent.engine import Limit, SearchResult


class Player(Protocol):
    """The player protocol: a `name` for records and tables, and a move for a board given
    the CPU seconds left on the player's clock."""

    name: str

    def choose(self, board: Board, clock_left: float) -> Move: ...


class SearchPlayer:
    """The agent: iterative-deepening alpha-beta under the time policy, as `fruit-rage
    move` plays. `limit` (an agent.Limit, or its fields `depth`, `nodes`, `cpu` given
    here) replaces the time policy with a fixed depth, node count or CPU time per move;
    `opponent="greedy"` models a greedy opponent; `evaluation` names the evaluation at the
    search's horizon (agent.move.deepening.EVALUATION_KINDS; None: the agent's own);
    `core_options`, more agent._core.Searcher options for research (e.g. reduction).
    After each move, `last_result` holds the SearchResult (depth, value, ...)."""

    def __init__(
        self,
        limit: Optional[Limit] = None,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        cpu: Optional[float] = None,
        opponent: str = "best",
        evaluation: Optional[str] = None,
        core_options: Optional[dict[str, Any]] = None,
        name: Optional[str] = None,
    ) -> None:
        if opponent not in ("best", "greedy"):
            raise ValueError(f"opponent must be 'best' or 'greedy', not {opponent!r}")
        if evaluation is not None:
            from agent.move.deepening import EVALUATION_KINDS

            if evaluation not in EVALUATION_KINDS:
                raise ValueError(f"evaluation must be one of {', '.join(EVALUATION_KINDS)}, not {evaluation!r}")
        if limit is None and (depth, nodes, cpu) != (None, None, None):
            from agent.engine import Limit

            limit = Limit(cpu=cpu, depth=depth, nodes=nodes)
        self.limit = limit
        self.opponent = opponent
        self.evaluation = evaluation
        self.core_options = dict(core_options or {})
        plain = limit is None and opponent == "best" and evaluation is None and not self.core_options
        self.name = name or ("ours" if plain else _limit_name(limit, opponent, evaluation, self.core_options))
        self.last_result: Optional[SearchResult[Move]] = None
        self.version = __version__

    def choose(self, board: Board, clock_left: float) -> Move:
        from agent.engine import run_search, search

        if self.limit is not None:
            result = search(
                board, self.limit, opponent=self.opponent, evaluation=self.evaluation, core_options=self.core_options
            )
        else:
            from agent.move.deepening import mergeable_groups
            from agent.move.timing import TimeManager

            now = time.process_time()
            mergeable = mergeable_groups(board.core())
            result = run_search(
                board,
                lambda root_moves, speed, reduction: TimeManager.in_process(
                    clock_left, root_moves, now, speed, reduction, mergeable, board.size
                ),
                opponent=self.opponent,
                evaluation=self.evaluation,
                core_options=self.core_options,
            )
        self.last_result = result
        return result.move

    def __repr__(self) -> str:
        return (
            f"SearchPlayer(limit={self.limit!r}, opponent={self.opponent!r}, evaluation={self.evaluation!r}, "
            f"core_options={self.core_options!r})"
        )


def _limit_name(
    limit: Optional[Limit],
    opponent: str,
    evaluation: Optional[str] = None,
    core_options: Optional[dict[str, Any]] = None,
) -> str:
    parts = (
        []
        if limit is None
        else [
            f"{key}={value:g}"
            for key, value in (("cpu", limit.cpu), ("depth", limit.depth), ("nodes", limit.nodes))
            if value is not None
        ]
    )
    if opponent != "best":
        parts.append(f"opponent={opponent}")
    if evaluation is not None:
        parts.append(f"eval={evaluation}")
    parts.extend(f"{key}={value}" for key, value in sorted((core_options or {}).items()))
    return "ours(" + ",".join(parts) + ")"


class GreedyPlayer:
    """A largest group (the first in reading order on ties)."""

    name = "greedy"
    version = __version__

    def choose(self, board: Board, clock_left: float) -> Move:
        from agent.baselines import greedy_move

        return Move(*greedy_move(board.rows))


class RandomPlayer:
    """A random group, seeded by the position (so matches replay exactly), or by `seed`."""

    name = "random"
    version = __version__

    def __init__(self, seed: Optional[int] = None) -> None:
        self.seed = seed

    def choose(self, board: Board, clock_left: float) -> Move:
        from agent.baselines import random_move

        return Move(*random_move(board.rows, clock_left, self.seed))


class Minimax3Player:
    """Plain minimax, no alpha-beta, depth 3, shallower when short of time (the original
    grading opponent)."""

    name = "minimax3"
    version = __version__

    def choose(self, board: Board, clock_left: float) -> Move:
        from agent.baselines import minimax3_move

        return Move(*minimax3_move(board.rows, clock_left, in_process=True))


BUILT_IN_PLAYERS: dict[str, Callable[..., Player]] = {
    "ours": SearchPlayer,
    "greedy": GreedyPlayer,
    "random": RandomPlayer,
    "minimax3": Minimax3Player,
}


def player_from_name(name: str, **params: Any) -> Player:
    """A built-in in-process player by its name (ours, greedy, random or minimax3), made
    with `params` (for ours, SearchPlayer's: depth, nodes, cpu, opponent)."""
    if name not in BUILT_IN_PLAYERS:
        raise ValueError(f"no built-in player {name!r} (there are {', '.join(BUILT_IN_PLAYERS)})")
    try:
        return BUILT_IN_PLAYERS[name](**params)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} with {params}: {error}") from None


def player_from_python(text: str, **params: Any) -> Player:
    """The player that `py:package.module:factory` names: the factory, called with
    `params` (none by default). The module is found as `python -m` finds one: in the
    current folder first, then in the environment. ValueError saying what is wrong when
    it cannot be had."""
    spec = text[len("py:") :] if text.startswith("py:") else text
    module_name, sep, attribute = spec.partition(":")
    if not (module_name and sep and attribute):
        raise ValueError(f"{text!r}: expected py:package.module:factory")
    try:
        module = _import_like_python_m(module_name)
    except ImportError as error:
        raise ValueError(f"{text!r}: cannot import {module_name}: {error}") from None
    except BaseException as error:  # the user's module failed (or exited) while importing
        if _ctrl_c_may_have_raised(error):
            raise
        raise ValueError(f"{text!r}: importing {module_name} raised {what_was_raised(error)}") from None
    factory: Any = module
    for part in attribute.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise ValueError(f"{text!r}: {module_name} has no {attribute}")
    if not callable(factory):
        raise ValueError(f"{text!r}: {attribute} is not callable")
    try:
        player: Player = factory(**params)
    except BaseException as error:
        if _ctrl_c_may_have_raised(error):
            raise
        raise ValueError(f"{text!r}: {attribute}() raised {what_was_raised(error)}") from None
    if not callable(getattr(player, "choose", None)):
        raise ValueError(
            f"{text!r}: {attribute}() gave {type(player).__name__}, which has no choose(board, clock_left)"
        )
    if not isinstance(getattr(player, "name", None), str):
        try:
            player.name = text
        except AttributeError:
            pass
    return player


def _ctrl_c_may_have_raised(error: BaseException) -> bool:
    """Whether `error` is a KeyboardInterrupt that may be the user's Ctrl-C: not where
    Ctrl-C is ignored (a match's worker processes), where only code raises one."""
    return isinstance(error, KeyboardInterrupt) and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN


def what_was_raised(error: BaseException) -> str:
    """Its type and, when it has one, its text: "KeyboardInterrupt", "RuntimeError: boom"."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _import_like_python_m(module_name: str) -> ModuleType:
    """Import with the current folder searched first. Afterwards the folder moves to the
    end of the path: the module's own later imports of its neighbours still resolve, but
    a file of the user's folder never shadows a module of the environment."""
    import importlib
    import os
    import sys

    here = os.getcwd()
    sys.path.insert(0, here)
    try:
        return importlib.import_module(module_name)
    finally:
        sys.path.remove(here)
        if here not in sys.path:
            sys.path.append(here)
