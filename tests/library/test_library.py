"""The public Python API (`import agent`): boards, moves, search, players, games and
matches, held to the reference rules and to the command-line programs."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import random
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import library_players
import pytest
from fruit_helpers import random_grid
from paths import PROJECT_ROOT, TESTS

import agent
from agent import (
    Board,
    CommandPlayer,
    GreedyPlayer,
    Limit,
    MatchSettings,
    Minimax3Player,
    Move,
    RandomPlayer,
    SearchPlayer,
    play_game,
    rules,
    run_match,
    search,
)
from agent._core import Bitboard, Searcher
from agent.arena.player_specs import PlayerSpec
from agent.arena.referee import FAULT_INVALID, FAULT_TIME
from agent.arena.turns import FAULT_STALLED
from agent.move.deepening import search_options


def test_every_public_name_is_exported_and_documented():
    for name in agent.__all__:
        value = getattr(agent, name)
        assert value.__doc__, name
    with pytest.raises(AttributeError):
        _ = agent.no_such_name
    importlib.import_module("agent.move.deepening")  # a submodule of the move path shadows no public name
    assert agent.search.__module__ == "agent.engine"


def test_board_groups_and_play_agree_with_the_rules():
    rng = random.Random(1)
    for _ in range(60):
        grid = random_grid(rng, rng.randint(1, 8), rng.randint(1, 4))
        board = Board(grid)
        assert {group.cells for group in board.groups()} == set(rules.groups(grid))
        for group in board.groups():
            assert group.move.cell in group.cells and group.points == group.size**2
            assert board.group_at(group.move) == group
            after, points = board.play(group.move)
            assert (after.rows, points) == rules.play(grid, group.move.cell)
        assert board.is_over == rules.is_empty(grid) and board.fruit == rules.fruit_count(grid)


def test_every_cell_of_a_group_is_the_same_move():
    board = Board.random(3, 7, 3)
    for group in board.groups():
        names = {board.normalize(Move(*cell)) for cell in group.cells}
        assert names == {group.move}
        assert {board.play(Move(*cell))[0] for cell in group.cells} == {board.play(group.move)[0]}


def test_boards_from_text_and_at_random():
    text = open(os.path.join(PROJECT_ROOT, "io_samples", "05-worked-10x10", "input.txt")).read()
    board = Board.from_text(text)
    assert board.size == 10 and board.types == 4 and str(board).splitlines()[0] == "3102322310"
    assert Board.random(12, 5, 3).rows == rules.random_board(12, 5, 3)
    assert Board.random(12, 5, 3) == Board.random(12, 5, 3) != Board.random(13, 5, 3)


def test_random_boards_take_the_fruit_types_the_command_line_takes():
    """One range, 1..9, for Board.random and every --types."""
    assert Board.random(1, 4, 9).types == 9
    for types in (0, 10):
        with pytest.raises(ValueError, match=r"1\.\.9 fruit types"):
            Board.random(1, 4, types)
        done = subprocess.run(
            [sys.executable, "-m", "agent", "play", "--types", str(types)],
            capture_output=True,
            text=True,
            cwd=PROJECT_ROOT,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 2 and f"argument --types: must be 1..9, got {types}" in done.stderr


def test_a_game_record_is_a_dict_by_the_name_to_dict_and_its_old_name():
    record = play_game(GreedyPlayer(), RandomPlayer(seed=1), Board.random(2, 4, 3), clocks=(10, 10))
    as_dict = record.to_dict()
    assert isinstance(as_dict, dict) and as_dict == record.to_json() and as_dict["board"] == list(record.board)
    assert "clock" not in as_dict  # two programs: both clocks are CPU


@pytest.mark.parametrize(
    "rows, message",
    [
        ([], "1..26 rows"),
        (["01", "2"], "row 2"),
        (["0x", "11"], "'x'"),
        ([1], "row 1"),
        (["0*", "*1"], "floats"),
    ],
)
def test_a_board_that_is_no_position_is_refused(rows, message):
    with pytest.raises(ValueError, match=message):
        Board(rows)


def test_moves_are_values_with_names():
    move = Move.from_name("g8")
    assert (move.row, move.col, move.name, move.cell, str(move)) == (7, 6, "G8", (7, 6), "G8")
    assert move == Move(7, 6) and hash(move) == hash(Move(7, 6))
    with pytest.raises(AttributeError):
        move.row = 1
    for bad in ("8G", "", "A0x"):
        with pytest.raises(ValueError):
            Move.from_name(bad)
    with pytest.raises(ValueError):
        Move(-1, 0)
    board = Board(["0*", "01"])
    with pytest.raises(ValueError, match="empty cell"):
        board.play(Move.from_name("B1"))
    with pytest.raises(ValueError, match="off the 2x2 board"):
        board.play(Move.from_name("C1"))


def test_search_at_fixed_depth_is_the_core_search():
    rng = random.Random(2)
    for _ in range(12):
        grid = random_grid(rng, rng.randint(4, 9), rng.randint(2, 4))
        board = Board(grid)
        for depth in (1, 2, 3):
            result = search(board, Limit(depth=depth))
            core = Searcher(Bitboard(grid), **search_options(board.size)).search(depth)
            assert result.depth == min(depth, result.depth) and result.value == core.value
            assert result.move.cell == core.move


def test_search_to_the_end_is_the_exact_solution():
    rng = random.Random(3)
    for _ in range(15):
        grid = random_grid(rng, rng.randint(2, 3), rng.randint(2, 3))
        result = search(Board(grid), Limit(depth=99))
        assert result.exact and result.value == rules.negamax_value(grid, 99)
        board = Board(grid)  # the principal variation is a legal line
        for move in result.pv:
            board, _ = board.play(move)


def test_a_solve_is_the_exact_solution_and_gives_up_at_its_caps():
    """agent.engine.solve, the reviews' and the regret oracle's search to the end, against
    the rules' plain negamax (the oracle); None past a cap, ValueError on an empty board."""
    from agent.engine import solve

    rng = random.Random(5)
    for _ in range(20):
        grid = random_grid(rng, rng.randint(2, 4), rng.randint(2, 3))
        if not any(cell != "*" for row in grid for cell in row):
            continue
        solved = solve(Board(grid))
        assert solved is not None and solved.exact and solved.value == rules.negamax_value(grid, 99)
        after, points = Board(grid).play(solved.move)  # its move reaches that value
        assert points - (0 if after.is_over else rules.negamax_value(after.rows, 99)) == solved.value
        assert solved.pv == (solved.move,) and solved.iterations[0].nodes == solved.nodes
    assert solve(Board.random(1, 8, 4), max_nodes=50) is None
    assert solve(Board.random(1, 26, 9), cpu=1e-9) is None
    with pytest.raises(ValueError, match="empty"):
        solve(Board(["**", "**"]))


def test_limits():
    board = Board.random(4, 12, 4)
    by_nodes = search(board, Limit(nodes=5000))
    again = search(board, Limit(nodes=5000))
    assert by_nodes.nodes >= 5000 and (by_nodes.move, by_nodes.value, by_nodes.nodes, by_nodes.pv) == (
        again.move,
        again.value,
        again.nodes,
        again.pv,
    )
    assert len(by_nodes.iterations) == by_nodes.depth
    assert search(board, Limit(cpu=0.05)).depth >= 1
    for bad in ({}, {"cpu": 0}, {"cpu": float("nan")}, {"depth": 0}, {"nodes": 2.5}):
        with pytest.raises(ValueError):
            Limit(**bad)


def test_in_process_players_answer_as_their_programs():
    """Each built-in player gives the move its command-line program writes."""
    board = Board.random(5, 8, 3)
    for player, program in (
        (GreedyPlayer(), "greedy"),
        (RandomPlayer(), "random"),
        (Minimax3Player(), "minimax3"),
        (SearchPlayer(Limit(depth=3)), None),
    ):
        move = player.choose(board, 100.0)
        assert board.play(move)  # legal
        if program:
            turn = CommandPlayer(program).take_turn(board, 100.0)
            assert turn.name == move.name, program


def test_an_in_process_player_is_charged_the_cpu_it_uses():
    board = Board.random(6, 4, 2)
    record = play_game(library_players.CpuBurner(0.3), GreedyPlayer(), board, (10.0, 10.0))
    burner_turns = [turn for side, turn in record.turns if side == "A"]
    assert burner_turns and all(turn.seconds >= 0.3 for turn in burner_turns)
    assert record.clocks["A"] <= 10.0 - 0.3 * len(burner_turns)
    short = play_game(library_players.CpuBurner(0.3), GreedyPlayer(), board, (0.2, 10.0))
    assert short.winner == "B" and short.fault == FAULT_TIME and len(short.turns) == 1


@pytest.mark.parametrize(
    "player, fault, reason",
    [
        (library_players.Raiser(), FAULT_INVALID, "raised RuntimeError: a bug in the player"),
        (library_players.Spinner(), FAULT_TIME, "ran out of time"),
        (library_players.Sleeper(), FAULT_STALLED, "stopped: used 0.0 s of CPU"),
        (library_players.EmptyCell(), FAULT_INVALID, "illegal move"),
        (library_players.NotAMove(), FAULT_INVALID, "not a Move"),
    ],
)
def test_a_misbehaving_player_loses_with_a_reason(player, fault, reason):
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as alone:
        winner, got_fault, got_reason, last_side = alone.submit(library_players.misbehaving_game, player).result()
    assert winner == "B" and got_fault == fault and reason in got_reason, got_reason
    assert last_side == "A"


def test_in_process_and_program_games_agree_at_fixed_depth():
    settings = MatchSettings(games=4, size=7, types=3, time=60.0, seed=11, paired=True)
    in_process = run_match(lambda: SearchPlayer(Limit(depth=2)), GreedyPlayer, settings)
    command = f"PYTHONPATH={PROJECT_ROOT} {sys.executable} -m agent move --depth 2"
    programs = run_match(lambda: CommandPlayer(command), lambda: CommandPlayer("greedy"), settings)
    for mine, theirs in zip(in_process.records, programs.records):
        assert [(side, turn.name, turn.points) for side, turn in mine.turns] == [
            (side, turn.name, turn.points) for side, turn in theirs.turns
        ]
        assert mine.scores == theirs.scores and mine.winner == theirs.winner


@pytest.mark.slow
def test_a_paired_in_process_match_on_two_processes():
    settings = MatchSettings(games=4, size=6, types=3, time=30.0, seed=5, paired=True)
    result = run_match(PlayerSpec("ours", in_process=True), GreedyPlayer, settings, jobs=2)
    assert [record.game for record in result.records] == [1, 2, 3, 4]
    assert [record.pair for record in result.records] == [1, 1, 2, 2]
    for record in result.records:
        assert record.fault is None and sum(turn.points for _, turn in record.turns) == sum(record.scores.values())
        depths = [turn.depth for side, turn in record.turns if side == "A"]
        assert all(depth and depth >= 1 for depth in depths)  # the search reports its depth
    assert "A ours" in result.summary() and "pairs won" in result.summary()


def test_a_misbehaving_user_player_loses_its_games_and_the_match_goes_on(tmp_path):
    env = {**os.environ, "PYTHONPATH": TESTS}
    out = tmp_path / "games.jsonl"
    for name, reason in (
        ("Raiser", "raised RuntimeError"),
        ("Spinner", "ran out of time"),
        ("EmptyCell", "illegal move"),
    ):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "agent",
                "match",
                f"py:library_players:{name}",
                "greedy",
                "--games",
                "2",
                "--size",
                "4",
                "--types",
                "3",
                "--time",
                "0.5",
                "--grace",
                "0.5",
                "--out",
                str(out),
            ],
            cwd=PROJECT_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        lines = out.read_text().splitlines()
        assert len(lines) == 2 and all(reason in line for line in lines), lines
        assert "B: greedy" in done.stdout


@pytest.mark.parametrize(
    "spec, message",
    [
        ("py:no_such_module_here:Player", "cannot import no_such_module_here"),
        ("py:library_players:Nobody", "has no Nobody"),
        ("py:library_players:broken_factory", "broken_factory() raised ValueError: no player today"),
        ("py:library_players", "expected py:package.module:factory"),
    ],
)
def test_a_python_player_that_cannot_be_had_is_refused_before_the_first_game(spec, message):
    done = subprocess.run(
        [sys.executable, "-m", "agent", "match", spec, "greedy", "--games", "2"],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": TESTS},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_match_in_process_from_the_command_line(tmp_path):
    out = tmp_path / "games.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agent",
            "match",
            "ours",
            "minimax3",
            "--in-process",
            "--games",
            "2",
            "--paired",
            "--size",
            "5",
            "--types",
            "3",
            "--time",
            "5",
            "--jobs",
            "2",
            "--seed",
            "3",
            "--out",
            str(out),
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "A: ours" in done.stdout and "B: minimax3" in done.stdout
    assert len(out.read_text().splitlines()) == 2


@pytest.mark.slow
def test_a_match_stopped_early_ends_though_a_player_left_its_worker_deaf_to_sigterm(tmp_path):
    # The first game ends the match; the other worker, deaf to the pool's SIGTERM and
    # stuck in a move, would keep the pool's terminate() waiting forever: it is killed.
    script = (
        "import functools, library_players\n"
        "from agent import GreedyPlayer, MatchSettings, run_match\n"
        f"player = functools.partial(library_players.DeafOnce, {str(tmp_path / 'token')!r})\n"
        "settings = MatchSettings(games=2, size=4, types=3, time=5.0)\n"
        "result = run_match(player, GreedyPlayer, settings, jobs=2, grace=3600.0, on_record=lambda r: False)\n"
        "print(len(result.records), result.records[0].agents[0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": TESTS},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "deaf-once"]


def test_the_two_ply_factories_answer_to_the_names_0_1_published():
    from agent.players import player_from_python
    from agent.tuning.two_ply import TwoPlyPlayer

    for text in ("py:agent.eval_search:greedy_pair_player", "py:agent.tuning.two_ply:greedy_pair_player"):
        player = player_from_python(text)
        assert isinstance(player, TwoPlyPlayer)
        board = Board.random(seed=3, size=6, types=3)
        assert player.choose(board, 10.0) in board.legal_moves()
