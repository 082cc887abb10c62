"""The learning example's parts, in seconds (the training run itself is docs/rl.md's
command, not a test); skipped without the learn extra."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agent import Board  # noqa: E402
from agent.envs import encoding, regret  # noqa: E402
from agent.envs.learning import NetPlayer, PolicyNet, expected_regret, groups_of, self_play_positions  # noqa: E402


def test_a_group_s_weights_are_its_cells_and_the_moves_are_the_board_s():
    board = Board(["001", "122", "112"])
    moves, membership = groups_of(board)
    assert moves == board.legal_moves()
    assert membership.sum(1).tolist() == [group.size for group in board.groups()]
    assert set(membership.flatten().tolist()) == {0.0, 1.0}


def test_the_untrained_policy_gives_every_legal_move_the_same_probability():
    torch.manual_seed(0)
    net = PolicyNet()
    for seed in range(5):
        board = Board.random(seed, 5, 3)
        moves, membership = groups_of(board)
        planes = encoding.observation(board, 3, 0, (0, 0), 1)
        with torch.no_grad():
            logits = net(torch.from_numpy(planes)[None], torch.from_numpy(membership)[None])[0]
        chances = torch.softmax(logits, 0)
        assert len(moves) > 1 and torch.allclose(chances, torch.full_like(chances, 1 / len(moves)))


def test_the_untrained_policy_s_most_probable_move_is_a_random_one():
    board = Board.random(0, 5, 3)
    player = NetPlayer(PolicyNet(), ties=np.random.default_rng(0))
    chosen = {player.choose(board, 0.0) for _ in range(200)}
    assert chosen == set(board.legal_moves())


def test_training_steps_lower_the_expected_regret_of_the_positions_trained_on():
    torch.manual_seed(0)
    net = PolicyNet()
    boards = [Board.random(seed, 5, 3) for seed in range(4)]
    positions = self_play_positions(net, boards, np.random.default_rng(0))
    assert len(positions) > 20 and all(position.regrets.min() == 0 for position in positions)
    before = expected_regret(net, positions).item()
    optimiser = torch.optim.Adam(net.parameters(), lr=1e-2)
    for _ in range(30):
        optimiser.zero_grad()
        expected_regret(net, positions).backward()
        optimiser.step()
    assert expected_regret(net, positions).item() < before / 2


def test_the_policy_plays_legal_moves_to_the_end_and_is_scored():
    score = regret.score_policy(NetPlayer(PolicyNet()), [Board.random(1, 4, 3)])
    assert score.moves >= 2 and score.total_regret >= 0
