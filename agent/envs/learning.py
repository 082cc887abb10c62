"""A learning example: a small convolutional policy, trained on 5x5 boards against the
regret oracle (agent.envs.regret), that ends with a lower regret against perfect play than
random play and than OpenSpiel's MCTS with 100 simulations a move.

Each round the policy plays games against itself on new random boards, sampling its
moves; every position met is scored by the oracle, every legal move's regret, and the
policy is trained to lower its expected regret (the sum over moves of the move's
probability times its regret) on batches of the positions of the latest rounds: an
exact, dense signal, where a game's outcome would credit a whole game to each of its
moves. Every few rounds the policy, playing its most probable
move, is scored on the same held-out boards as the baselines, and the curve is drawn.

    python3 -m agent.envs.learning --out docs/images/learning-curve.png

It needs the ``learn`` extra (PyTorch, matplotlib) and the ``rl`` extra (OpenSpiel, for
MCTS): ``python3 -m pip install '.[rl,learn]'``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

from agent.board import Board, Move
from agent.envs import encoding, regret

LEARN_EXTRA = "python3 -m pip install '.[rl,learn]'"
try:
    import torch
except ImportError as error:
    raise ImportError(
        f"PyTorch is not installed: the learning example needs the learn extra ({LEARN_EXTRA})"
    ) from error

SIZE, TYPES = 5, 3
CHANNELS = 32
KEPT_POSITIONS = 20_000  # the positions of the latest rounds that batches are drawn from
BATCH, STEPS = 128, 40  # a round's training: STEPS batches of BATCH positions


class PolicyNet(torch.nn.Module):
    """Convolutions over the observation planes give each cell a score; a group's logit is
    the sum of its cells' scores, so a move is judged by its whole group. The last layer
    starts at zero: every cell scores 0, every legal group has the same logit, and the
    untrained policy plays at random (a sum of random scores would favour larger groups
    before any training, as the greedy player does)."""

    def __init__(self, types: int = TYPES, channels: int = CHANNELS) -> None:
        super().__init__()
        planes = encoding.observation_shape(1, types)[0]
        layers: list[torch.nn.Module] = []
        for inputs in (planes, channels, channels):
            layers += [torch.nn.Conv2d(inputs, channels, 3, padding=1), torch.nn.ReLU()]
        last = torch.nn.Conv2d(channels, 1, 1)
        for parameter in last.parameters():
            torch.nn.init.zeros_(parameter)
        self.cells = torch.nn.Sequential(*layers, last)

    def forward(self, planes: torch.Tensor, membership: torch.Tensor) -> torch.Tensor:
        """Group logits (batch, groups) from observations (batch, planes, n, n) and each
        group's cells, 1 where it lies (batch, groups, n * n); a padded group has no cells
        and the logit -inf."""
        scores = self.cells(planes).flatten(1)
        logits = torch.einsum("bgc,bc->bg", membership, scores)
        return logits.masked_fill(membership.sum(-1) == 0, float("-inf"))


@dataclass
class Position:
    """A position met in training, its groups (as Board.legal_moves names them) and each
    one's regret."""

    planes: np.ndarray
    membership: np.ndarray
    regrets: np.ndarray


def groups_of(board: Board) -> tuple[list[Move], np.ndarray]:
    """The legal moves and each group's cells, a row each, 1 where it lies."""
    moves, rows = [], []
    for group in board.groups():
        row = np.zeros(board.size * board.size, dtype=np.float32)
        for cell_row, cell_col in group.cells:
            row[cell_row * board.size + cell_col] = 1.0
        moves.append(group.move)
        rows.append(row)
    return moves, np.stack(rows)


class NetPlayer:
    """The policy as a player (agent.Player): one drawn from its probabilities with
    `sample`, or else its most probable group, ties broken at random by `ties` (seeded 0
    unless given), so that the untrained policy, whose groups all tie, plays at random."""

    name = "learned policy"

    def __init__(
        self,
        net: PolicyNet,
        sample: Optional[np.random.Generator] = None,
        ties: Optional[np.random.Generator] = None,
    ) -> None:
        self.net, self.sample = net, sample
        self.ties = np.random.default_rng(0) if ties is None else ties

    def choose(self, board: Board, clock_left: float) -> Move:
        moves, membership = groups_of(board)
        planes = encoding.observation(board, TYPES, 0, (0, 0), 1)
        with torch.no_grad():
            logits = self.net(torch.from_numpy(planes)[None], torch.from_numpy(membership)[None])[0]
        if self.sample is None:
            best = np.flatnonzero((logits == logits.max()).numpy())
            return moves[int(best[0] if len(best) == 1 else self.ties.choice(best))]
        chances = torch.softmax(logits, 0).numpy().astype(np.float64)
        return moves[int(self.sample.choice(len(moves), p=chances / chances.sum()))]


def self_play_positions(net: PolicyNet, boards: list[Board], sample: np.random.Generator) -> list[Position]:
    """Every position of a game the policy plays against itself, sampling, on each board,
    with every move's regret."""
    player = NetPlayer(net, sample)
    positions = []
    for board in boards:
        while not board.is_over:
            moves, membership = groups_of(board)
            table = regret.regrets(board)
            planes = encoding.observation(board, TYPES, 0, (0, 0), 1)
            positions.append(Position(planes, membership, np.array([table[move] for move in moves], np.float32)))
            board, _ = board.play(player.choose(board, 0.0))
    return positions


def expected_regret(net: PolicyNet, positions: list[Position]) -> torch.Tensor:
    """The mean over `positions` of the policy's expected regret."""
    groups = max(len(position.regrets) for position in positions)
    planes = torch.from_numpy(np.stack([position.planes for position in positions]))
    membership = torch.zeros(len(positions), groups, SIZE * SIZE)
    regrets = torch.zeros(len(positions), groups)
    for i, position in enumerate(positions):
        membership[i, : len(position.regrets)] = torch.from_numpy(position.membership)
        regrets[i, : len(position.regrets)] = torch.from_numpy(position.regrets)
    chances = torch.softmax(net(planes, membership), dim=1)
    return (chances * regrets).sum(1).mean()


def train(rounds: int, games: int, seed: int, evaluate: Callable[[int, PolicyNet], None], every: int) -> PolicyNet:
    """The policy after `rounds` rounds of `games` self-play games each; `evaluate(round,
    net)` before the first round and after every `every` rounds."""
    torch.manual_seed(seed)
    net = PolicyNet()
    optimiser = torch.optim.Adam(net.parameters(), lr=2e-3)
    sample = np.random.default_rng(seed)
    kept: list[Position] = []
    evaluate(0, net)
    for done in range(1, rounds + 1):
        boards = [Board.random(int(sample.integers(2**31)), SIZE, TYPES) for _ in range(games)]
        kept = (kept + self_play_positions(net, boards, sample))[-KEPT_POSITIONS:]
        for _ in range(STEPS):
            batch = [kept[i] for i in sample.integers(len(kept), size=BATCH)]
            optimiser.zero_grad()
            expected_regret(net, batch).backward()
            optimiser.step()
        if done % every == 0:
            evaluate(done, net)
    return net


def baseline_regrets(boards: list[Board]) -> dict[str, float]:
    """Mean regret a move of random play, of OpenSpiel's MCTS (100 simulations a move) and
    of the greedy player on `boards`."""
    from agent.envs.openspiel_players import mcts_player
    from agent.players import GreedyPlayer, RandomPlayer

    players: dict[str, Any] = {
        "random": RandomPlayer(),
        "MCTS, 100 simulations": mcts_player(simulations=100),
        "greedy (largest group)": GreedyPlayer(),
    }
    return {name: regret.score_policy(player, boards).mean_regret for name, player in players.items()}


def draw(curve: list[tuple[int, float]], baselines: dict[str, float], games: int, out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(6.4, 3.6), dpi=100)
    rounds, values = zip(*curve)
    axes.plot([done * games for done in rounds], values, marker="o", label="learned policy (most probable move)")
    for (name, value), style in zip(baselines.items(), ("--", ":", "-.")):
        axes.axhline(value, linestyle=style, color="grey", label=f"{name}: {value:.2f}")
    axes.set_yscale("log")
    axes.set_xlabel("self-play games trained on")
    axes.set_ylabel("mean regret a move (points)")
    axes.set_title(f"Regret against perfect play, {SIZE}x{SIZE} boards of {TYPES} types")
    axes.legend()
    figure.tight_layout()
    figure.savefig(out)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m agent.envs.learning",
        description=(
            f"Train a small policy on {SIZE}x{SIZE} boards of {TYPES} fruit types to lower its regret against "
            "perfect play, score it on held-out boards beside random play, MCTS-100 and greedy, and draw the curve. "
            "Progress goes to stderr."
        ),
    )
    parser.add_argument("--rounds", type=int, default=60, help="training rounds (default: 60)")
    parser.add_argument("--games", type=int, default=16, help="self-play games a round (default: 16)")
    parser.add_argument("--every", type=int, default=5, help="score the policy every this many rounds (default: 5)")
    parser.add_argument("--boards", type=int, default=30, help="held-out boards it is scored on (default: 30)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the training (default: 0)")
    parser.add_argument("--out", default="learning-curve.png", help="the picture (default: learning-curve.png)")
    args = parser.parse_args(argv)
    for name in ("rounds", "games", "every", "boards"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    torch.set_num_threads(1)
    start = time.process_time()
    held_out = [Board.random(10_000 + i, SIZE, TYPES) for i in range(args.boards)]
    baselines = baseline_regrets(held_out)
    print(", ".join(f"{name} {value:.2f}" for name, value in baselines.items()), file=sys.stderr, flush=True)
    curve: list[tuple[int, float]] = []

    def evaluate(done: int, net: PolicyNet) -> None:
        curve.append((done, regret.score_policy(NetPlayer(net), held_out).mean_regret))
        cpu = time.process_time() - start
        print(f"round {done}: mean regret {curve[-1][1]:.2f} ({cpu:.0f} s of CPU)", file=sys.stderr, flush=True)

    train(args.rounds, args.games, args.seed, evaluate, args.every)
    draw(curve, baselines, args.games, args.out)
    final = curve[-1][1]
    print(f"final mean regret {final:.2f} a move; " + ", ".join(f"{k} {v:.2f}" for k, v in baselines.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
