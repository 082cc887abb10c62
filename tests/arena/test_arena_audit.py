"""`fruit-rage audit`: the endgame audit against plain minimax over the reference rules."""

from __future__ import annotations

import functools
import random

from arena_helpers import assert_refused, bad_move_file, fruit_rage, random_game_record
from fruit_helpers import random_grid

from agent.arena.review.audit import GameAudit, audit_game, solve_exactly
from agent.arena.review.replayed import game_positions
from agent.commands.audit import summary
from agent.rules import groups, negamax_value, parse_move_name, play, remove_and_fall


@functools.lru_cache(maxsize=None)
def exact(grid) -> int:
    """Plain minimax to the end (rules.negamax_value), remembering positions already seen."""
    return max((len(g) ** 2 - exact(remove_and_fall(grid, g)) for g in groups(grid)), default=0)


def expected_audit(record: dict, first_solved: int = 0):
    """The audit worked out by brute force over the reference rules, from position
    `first_solved` on: what every move gave away, and A's margin with best play."""
    positions = game_positions(record)
    given = {"A": 0, "B": 0}
    slips = []
    for number, (side, board, name, points) in enumerate(positions[:-1], 1):
        if number - 1 < first_solved:
            continue
        grid = board.rows
        child = play(grid, parse_move_name(name))[0]
        lost = exact(grid) - (points - exact(child))
        given[side] += lost
        if lost:
            slips.append((number, side, name, lost))
    score = {"A": 0, "B": 0}
    for side, _, _, points in positions[:first_solved]:
        score[side] += points
    side, grid = positions[first_solved].side, positions[first_solved].board.rows
    margin = score["A"] - score["B"] + (exact(grid) if side == "A" else -exact(grid))
    return given, slips, margin


def test_the_memoised_oracle_is_plain_minimax():
    rng = random.Random(5)
    for _ in range(5):
        grid = random_grid(rng, 3, 2)
        assert exact(grid) == negamax_value(grid, 99)


def test_the_audit_of_whole_games_equals_brute_force():
    slipped = 0
    for seed in range(12):
        record = random_game_record(seed, 4, 3)
        audit = audit_game(record, seconds=10.0)
        given, slips, margin = expected_audit(record)
        assert audit.solved_from == 0 and audit.moves == len(record["moves"])
        assert audit.given_away == given
        assert [(s.number, s.side, s.move, s.given_away) for s in audit.slips] == slips
        assert audit.best_play_margin == margin
        # the move named as the best really keeps the exact value
        positions = game_positions(record)
        for slip in audit.slips:
            grid = positions[slip.number - 1].board.rows
            child, points = play(grid, parse_move_name(slip.best))
            assert points - exact(child) == exact(grid)
        slipped += len(slips)
    assert slipped > 10  # random play gives points away: the test saw real slips


def test_the_walk_back_stops_at_the_first_position_it_cannot_solve():
    limit = 9  # a stand-in solver that gives up on more fruit than this

    def solve(board, seconds):
        return solve_exactly(board, seconds) if board.fruit <= limit else None

    for seed in range(6):
        record = random_game_record(100 + seed, 5, 3)
        positions = game_positions(record)
        audit = audit_game(record, 10.0, solve)
        first = max(i for i, p in enumerate(positions) if p.board.fruit > limit) + 1
        assert audit.solved_from == first and audit.fruit_left == positions[first].board.fruit
        given, slips, margin = expected_audit(record, first)
        assert audit.given_away == given and audit.best_play_margin == margin
        assert [s.number for s in audit.slips] == [s[0] for s in slips]
        assert sum(audit.moves_audited.values()) == len(positions) - 1 - first


def test_a_faulted_move_is_not_audited_and_the_game_ends_before_it():
    record = random_game_record(7, 4, 3, fault_at=3)
    positions = game_positions(record)
    assert len(positions) == 4  # three moves, then the position the fault left unplayed
    assert positions[-1][0] == record["moves"][3]["player"]
    audit = audit_game(record, 10.0)
    given, slips, margin = expected_audit(record)
    assert audit.moves == 3 and audit.given_away == given and audit.best_play_margin == margin


def test_the_command_reports_every_game_and_a_summary(tmp_path):
    out = tmp_path / "results.jsonl"
    done = fruit_rage(
        "match", "greedy", "random", "--games", 3, "--size", 5, "--types", 3, "--time", 10, "--seed", 8, "--out", out
    )
    assert done.returncode == 0, done.stderr
    done = fruit_rage("audit", out)
    assert done.returncode == 0, done.stderr
    for game in (1, 2, 3):
        assert f"game {game}: A greedy, B random; final" in done.stdout
    assert done.stdout.count("solved exactly from move 1 of") == 3  # 5x5 boards: all of it
    assert "Over 3 games, in the solved ends:\n  greedy: " in done.stdout
    one = fruit_rage("audit", out, "--game", 2)
    assert one.returncode == 0 and "game 2:" in one.stdout and "game 1:" not in one.stdout
    assert "Over" not in one.stdout


def test_the_command_refuses_bad_input_plainly(tmp_path):
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"game": 1}\nnot json\n')
    one_game = tmp_path / "one.jsonl"
    one_game.write_text('{"game": 1}\n')
    bad_move = bad_move_file(tmp_path)
    assert_refused(
        "audit",
        (
            ((junk,), "line 2 is not a game record"),
            ((tmp_path / "missing.jsonl",), "missing.jsonl: no such file"),
            ((one_game, "--game", 5), "has no game 5"),
            ((junk, "--seconds", 0), "argument --seconds: must be 0.01..600"),
            ((one_game,), "game 1: the record names no agents A and B"),
            ((bad_move,), "game 3: move 2: not a cell name: 'XYZ'"),
        ),
    )


def test_the_summary_counts_a_game_once_for_an_agent_playing_itself():
    audits = []
    for game in (1, 2):
        record = {"game": game, "agents": {"A": "ours", "B": "ours"}, "scores": {"A": 9, "B": 4}}
        audit = GameAudit(
            moves=4, solved_from=0, best_play_margin=5, moves_audited={"A": 2, "B": 2}, given_away={"A": 3, "B": 1}
        )
        audits.append((record, audit))
    assert "  ours: 8 moves, 8 points given away, in 2 games\n" in summary(audits)


def test_the_summary_names_the_games_whose_result_the_solved_end_changed():
    def audited(game, best_play_margin):
        record = {"game": game, "agents": {"A": "x", "B": "y"}, "scores": {"A": 9, "B": 4}}
        return record, GameAudit(moves=4, solved_from=0, best_play_margin=best_play_margin)

    kept = [audited(1, 5), audited(2, 3)]
    assert summary(kept).endswith("games whose result the solved end changed: none")
    assert summary(kept + [audited(4, -2)]).endswith("games whose result the solved end changed: 1 (game 4)")
    assert summary(kept + [audited(4, -2), audited(7, -1)]).endswith(
        "games whose result the solved end changed: 2 (games 4, 7)"
    )


def test_a_record_replays_on_the_library_board_as_under_the_rules():
    """The reviews walk a record on agent.board.Board (the core underneath); the plain
    rules, replayed beside it, see the same positions, points and sides."""
    for seed, fault_at in ((0, None), (1, None), (2, 3), (3, 5)):
        record = random_game_record(seed, 5, 3, fault_at=fault_at)
        positions = game_positions(record)
        grid = tuple(record["board"])
        for position, move in zip(positions[:-1], record["moves"]):
            assert position.board.rows == grid and position.side == move["player"]
            grid, points = play(grid, parse_move_name(move["move"]))
            assert (position.move, position.points) == (move["move"], points)
        assert positions[-1].board.rows == grid and positions[-1][2:] == (None, 0)
        assert len(positions) - 1 == (len(record["moves"]) if fault_at is None else fault_at)
