"""The move-by-move analysis (agent/arena/review/analysis.py) against the exact solver: on recorded
6x6 games every move's points given away is the exact difference where the analysis says
it is exact, and with a budget that solves the games, everywhere."""

from __future__ import annotations

import subprocess
import sys

import pytest
from arena_helpers import random_game_record
from paths import PROJECT_ROOT

from agent import rules
from agent.arena.records.reading import check_record, read_records
from agent.arena.review import analysis
from agent.arena.review.analysis import AnalysisCancelled, analyse_game, label
from agent.arena.review.audit import solve_exactly
from agent.arena.review.replayed import game_positions
from agent.arena.review.searches import PositionValue
from agent.board import Board, Move

SOLVING_NODES = 2_000_000  # solves (10 times this) reach back to the first move of every 6x6 p3 game here
SMALL_NODES = 20_000  # too few to solve the openings: some moves are judged by the search's estimate


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> list:
    """20 recorded 6x6 games of 3 fruit types, greedy against random: slips of every size."""
    path = tmp_path_factory.mktemp("analysis") / "games.jsonl"
    subprocess.run(
        [sys.executable, "-m", "agent", "match", "greedy", "random", "--games", "20", "--size", "6"]
        + ["--types", "3", "--time", "10", "--seed", "3", "--in-process", "--out", str(path)],
        cwd=PROJECT_ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    records = read_records(str(path))
    assert len(records) == 20
    return records


@pytest.fixture(scope="module")
def exact_losses(games) -> dict:
    """(game, move number) -> the points the move gave away with best play, from the exact
    values of the positions before and after it."""
    losses = {}
    for record in games:
        positions = game_positions(record)
        values = [solve_exactly(board, 600).value for _, board, _, _ in positions]
        for number, (_, _, _, points) in enumerate(positions[:-1], 1):
            losses[record["game"], number] = values[number - 1] - (points - values[number])
    return losses


def test_with_a_budget_that_solves_them_every_move_gives_away_the_exact_difference(games, exact_losses):
    judged = {}
    for record in games:
        for move in analyse_game(record, SOLVING_NODES).moves:
            assert move.exact, (record["game"], move)
            judged[record["game"], move.number] = move.points_lost
    assert judged == exact_losses
    assert max(judged.values()) >= 30 and min(judged.values()) == 0  # blunders and best moves alike


def test_with_a_small_budget_the_moves_said_exact_are_exact_and_the_rest_come_first(games, exact_losses):
    estimated = 0
    for record in games:
        moves = analyse_game(record, SMALL_NODES).moves
        flags = [move.exact for move in moves]
        assert flags == sorted(flags), record["game"]  # solved from the end back: the estimates come first
        for move in moves:
            if move.exact:
                assert move.points_lost == exact_losses[record["game"], move.number], (record["game"], move)
        estimated += flags.count(False)
    assert estimated > 0


def test_a_move_searched_deeper_than_its_position_s_estimate_is_the_best_known():
    """A position's estimate (the search from it) can fall below what one of its moves is
    worth when the search from the move's own position looks a ply deeper: that move is
    then the best known, and it gives nothing away."""
    grid = rules.random_board(11, 4, 3)
    chosen, played = rules.groups(grid)[:2]
    here = PositionValue(Move(*rules.top_left(chosen)), 4, False)
    after = PositionValue(None, -8, False)
    name, points = rules.move_name(rules.top_left(played)), len(played) ** 2
    judged = analysis._judge(1, "A", Board(grid), name, points, here, after)
    assert (judged.best_move, judged.best_value, judged.played_value) == (name, points + 8, points + 8)
    assert (judged.points_lost, judged.label) == (0, "best")
    worse = analysis._judge(1, "A", Board(grid), name, points, here, PositionValue(None, points, False))
    assert (worse.best_move, worse.best_value, worse.points_lost) == (here.move.name, 4, 4)


def test_with_a_small_budget_no_move_is_worth_more_than_the_best(games):
    for record in games:
        for move in analyse_game(record, SMALL_NODES).moves:
            assert move.points_lost == move.best_value - move.played_value >= 0, (record["game"], move)
            if move.points_lost == 0:
                assert move.best_value == move.played_value, (record["game"], move)


def test_the_labels_follow_the_thresholds_stated_once():
    assert [label(points) for points in (0, 1, 2, 3, 9, 10, 29, 30, 400)] == [
        "best",
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    for name, floor in analysis.LABEL_FLOORS:
        assert (
            f"{name} from {floor}" in analysis.THRESHOLDS_TEXT or f"an {name} from {floor}" in analysis.THRESHOLDS_TEXT
        )


def test_each_side_sums_its_moves_and_its_accuracy_is_its_share_of_points(games):
    result = analyse_game(games[0], SMALL_NODES)
    for side in "AB":
        moves = [move for move in result.moves if move.side == side]
        summary = result.sides[side]
        assert summary.agent == games[0]["agents"][side]
        assert summary.moves == len(moves) and summary.points == sum(move.points for move in moves)
        assert summary.points_lost == sum(move.points_lost for move in moves)
        assert summary.accuracy == round(100 * summary.points / (summary.points + summary.points_lost), 1)
        assert sum(summary.labels.values()) == len(moves)
    assert result.sides["B"].accuracy < result.sides["A"].accuracy  # random against greedy


def test_the_json_form_has_every_figure_of_a_move(games):
    shown = analyse_game(games[1], SMALL_NODES).to_dict()
    assert shown["nodes"] == SMALL_NODES and shown["agents"] == games[1]["agents"]
    move = shown["moves"][0]
    for key in ("move", "best_move", "best_value", "played_value", "points_lost", "label", "exact"):
        assert key in move
    assert move["points_lost"] == max(move["best_value"] - move["played_value"], 0)


def test_progress_is_reported_and_a_cancel_stops_before_the_next_search():
    record = random_game_record(4, 5, 3)
    total = len(game_positions(record))
    reported = []
    analyse_game(record, SMALL_NODES, progress=lambda done, of: reported.append((done, of)))
    assert reported == [(done, total) for done in range(total + 1)]

    asked = []
    with pytest.raises(AnalysisCancelled):
        analyse_game(
            record, SMALL_NODES, progress=lambda done, of: asked.append(done), cancelled=lambda: len(asked) >= 3
        )
    assert asked == [0, 1, 2]


def test_a_game_lost_on_time_is_analysed_up_to_the_losing_move_and_hints_are_carried():
    record = random_game_record(3, 5, 3, fault_at=4)
    record["hints"] = {"A": 2}
    result = analyse_game(record, SMALL_NODES)
    assert [move.number for move in result.moves] == [1, 2, 3, 4]
    assert result.hints == {"A": 2}


@pytest.mark.parametrize(
    "hints, fragment",
    [
        ({"A": -1}, "not a count from 0"),
        ({"C": 1}, "not a count from 0"),
        ({"A": True}, "not a whole number"),
        (3, "not a count"),
    ],
)
def test_a_records_hints_are_checked(hints, fragment):
    record = random_game_record(5, 4, 3)
    record["hints"] = hints
    with pytest.raises(ValueError, match=fragment):
        check_record(record)
    record["hints"] = {"A": 2, "B": 0}
    check_record(record)
