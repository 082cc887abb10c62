"""`fruit-rage regret [PLAYER ...]`: policies scored against perfect play
(agent.envs.regret.score_policy), a line each."""

from __future__ import annotations

import sys

from agent.cli_support import LineProgress, interrupted, printable
from agent.commands.options import board_size, clock_seconds, fruit_types, positive_int

PROGRAM = "fruit-rage regret"
DEFAULT_PLAYERS = ("random", "greedy", "mcts", "ours")
DESCRIPTION = (
    "Score each PLAYER against perfect play: it plays both sides of a game on each of --boards random "
    "boards (the same boards for every player), and every move is scored by its regret, the points it "
    "gives up against the best move, from exact searches to the end of the game (so keep boards small: "
    "6x6 takes seconds a board). Prints per player its moves, mean regret a move, the share of perfect "
    "moves (regret 0), and of the moves its own search proved exact (the agent's), their count and mean "
    "regret, which must be 0. A PLAYER is ours (the agent on its time policy), greedy, random, "
    "minimax3, perfect (a best move every time), mcts (OpenSpiel's MCTS with random rollouts, "
    "--simulations a move; needs the rl extra) or py:package.module:factory. Progress goes to stderr "
    "on a terminal."
)
HEADER = f"{'player':<24} {'moves':>6} {'mean regret':>11} {'perfect':>8} {'solved':>7} {'its regret':>10}"


def add_arguments(p) -> None:
    p.add_argument(
        "players",
        nargs="*",
        metavar="PLAYER",
        help=f"the players to score (default: {' '.join(DEFAULT_PLAYERS)})",
    )
    p.add_argument("--size", type=board_size, default=6, help="board side n, 1..26 (default: 6)")
    p.add_argument("--types", type=fruit_types, default=3, help="fruit types p, 1..9 (default: 3)")
    p.add_argument("--boards", type=positive_int, default=20, help="boards each player plays, >= 1 (default: 20)")
    p.add_argument("--seed", type=int, default=1, help="seed of the boards: board i is seed + i's (default: 1)")
    p.add_argument(
        "--clock",
        type=clock_seconds,
        default=10.0,
        help="CPU seconds a player is told it has left at every move, above 0 (default: 10)",
    )
    p.add_argument(
        "--simulations", type=positive_int, default=100, help="mcts's simulations a move, >= 1 (default: 100)"
    )


def run(args) -> int:
    from agent.board import Board
    from agent.envs.regret import score_policy

    try:
        players = [make_player(name, args.simulations) for name in args.players or DEFAULT_PLAYERS]
    except (ImportError, ValueError, TypeError) as error:
        print(f"{PROGRAM}: {printable(str(error))}", file=sys.stderr)
        return 2
    progress = LineProgress(sys.stderr)
    print(f"{args.boards} boards {args.size}x{args.size} of {args.types} types, seeds {args.seed}..", flush=True)
    print(HEADER, flush=True)
    try:
        for player in players:
            boards = [Board.random(args.seed + i, args.size, args.types) for i in range(args.boards)]
            show = progress.reporter(f"{PROGRAM}: {player.name}", "board")
            score = score_policy(player, boards, clock=args.clock, progress=_counted(show, args.boards))
            progress.clear()
            print(score_line(score), flush=True)
    except KeyboardInterrupt:
        return interrupted(PROGRAM, mid_line=progress.shown)
    except TimeoutError as error:
        progress.clear()
        print(f"{PROGRAM}: {error}: use smaller boards", file=sys.stderr)
        return 1
    return 0


def _counted(show, total: int):
    """score_policy's progress(done) for LineProgress's `show(done, total)`, or None."""
    return None if show is None else lambda done: show(done, total)


def make_player(name: str, simulations: int):
    """The player `name` stands for (see DESCRIPTION)."""
    if name == "mcts":
        try:
            from agent.envs.openspiel_players import mcts_player
        except ImportError as error:
            raise ImportError(f"mcts: {error}") from None
        return mcts_player(simulations=simulations)
    if name == "perfect":
        from agent.envs.regret import PerfectPlayer

        return PerfectPlayer()
    from agent.players import BUILT_IN_PLAYERS, player_from_name, player_from_python

    if name.startswith("py:"):
        return player_from_python(name)
    if name not in BUILT_IN_PLAYERS:
        raise ValueError(f"no player {name!r}: a PLAYER is {', '.join(BUILT_IN_PLAYERS)}, perfect, mcts or py:...")
    return player_from_name(name)


def score_line(score) -> str:
    solved = f"{score.solved_moves:>7} {score.solved_regret / score.solved_moves:>10.2f}" if score.solved_moves else ""
    name = printable(score.name)[:24]
    return f"{name:<24} {score.moves:>6} {score.mean_regret:>11.2f} {score.perfect_share:>8.0%} {solved}".rstrip()
