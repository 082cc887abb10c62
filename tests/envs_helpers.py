"""Helpers of the environment tests (tests/envs): a player that replays given moves, so
the project's referee can score a game an environment played."""

from agent import Board, GreedyPlayer, Move, play_game


class Replayer:
    """Plays `moves` in order, one a turn."""

    name = "replayer"

    def __init__(self, moves):
        self.moves = iter(moves)

    def choose(self, board, clock_left):
        return next(self.moves)


def referee_margin(board: Board, moves: list[Move]) -> int:
    """The margin of the first mover, as the referee records it, when the two sides
    alternate `moves` on `board`."""
    record = play_game(Replayer(moves[0::2]), Replayer(moves[1::2]), board)
    assert not record.fault and len(record.turns) == len(moves)
    return record.margin


def referee_margin_against_greedy(board: Board, learner_moves: list[Move], learner_first: bool) -> int:
    """The learner's margin, as the referee records it, when it plays `learner_moves`
    against the project's GreedyPlayer."""
    learner, greedy = Replayer(learner_moves), GreedyPlayer()
    record = play_game(learner, greedy, board, first="A" if learner_first else "B")
    assert not record.fault
    return record.margin
