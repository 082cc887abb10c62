"""Red-Blue Nim: values against the rules, played-out games, and the CLI end to end."""

from __future__ import annotations

import builtins
import subprocess
import sys
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nim_helpers import CountingGame, plain_minimax, run_cli

from nim_games.console import EXIT_CODES
from nim_games.minimax import search
from nim_games.red_blue import RULES_TOLD, WIN, NimState, RedBlueNim, Take, main

RULE_SETS = [(rules, version) for rules in ("free", "classic") for version in ("standard", "misere")]
# The classic computer's move order, as the original assignment gives it.
DOCUMENTED_ORDER = {
    "standard": [(2, 0), (0, 2), (1, 0), (0, 1)],
    "misere": [(0, 1), (1, 0), (0, 2), (2, 0)],
}


@lru_cache(maxsize=None)
def rules_value(rules, version, red, blue, moves_made=0):
    """The value for the player to move, straight from the rules in red_blue's docstring."""
    misere = version == "misere"
    if rules == "classic":
        if red == 0 or blue == 0:
            # The player facing an empty pile loses these points (wins them, misère).
            points = 2 * red + 3 * blue
            return points if misere else -points
        takes = [(1, 0), (2, 0), (0, 1), (0, 2)]
    else:
        if red == 0 and blue == 0:
            stake = WIN - moves_made  # the opponent took the last marble
            return stake if misere else -stake
        takes = [(r, b) for r in range(red + 1) for b in range(blue + 1) if r + b]
    return max(
        -rules_value(rules, version, red - r, blue - b, moves_made + 1) for r, b in takes if r <= red and b <= blue
    )


# ------------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    "version, red, blue, value, move",
    [
        ("standard", 1, 1, 3, Take(1, 0)),
        ("standard", 2, 2, 6, Take(2, 0)),
        ("standard", 3, 5, 6, Take(0, 2)),
        ("standard", 5, 7, 6, Take(0, 2)),
        ("standard", 10, 10, -6, None),
        ("misere", 1, 1, -2, None),
        ("misere", 3, 5, 2, Take(1, 0)),
        ("misere", 5, 3, 2, Take(0, 1)),
        ("misere", 10, 10, -2, None),
    ],
)
@pytest.mark.parametrize("use_tt", [False, True])
def test_classic_reference_values(version, red, blue, value, move, use_tt):
    game = RedBlueNim("classic", version)
    result = search(game, game.initial_state(red, blue), tt={} if use_tt else None)
    assert result.value == value
    if move is not None:
        assert result.move == move


@pytest.mark.parametrize("rules, version", RULE_SETS)
@pytest.mark.parametrize("use_tt", [False, True])
def test_alpha_beta_equals_plain_minimax_up_to_8_by_8(rules, version, use_tt):
    game = RedBlueNim(rules, version)
    for red in range(9):
        for blue in range(9):
            state = game.initial_state(red, blue)
            result = search(game, state, tt={} if use_tt else None)
            assert (result.value, result.move) == plain_minimax(game, state)
            assert result.value == rules_value(rules, version, red, blue)
            if rules == "classic" and not game.is_terminal(state):
                expected = next(
                    m
                    for m in DOCUMENTED_ORDER[version]
                    if m[0] <= red
                    and m[1] <= blue
                    and -rules_value(rules, version, red - m[0], blue - m[1]) == result.value
                )
                assert result.move == expected


@pytest.mark.parametrize("version", ["standard", "misere"])
def test_free_rules_win_fast(version):
    """Standard: take everything at once; misère: leave exactly one marble."""
    game = RedBlueNim("free", version)
    for red, blue in [(1, 2), (4, 4), (7, 3)]:
        result = search(game, game.initial_state(red, blue))
        moves_to_win = 1 if version == "standard" else 2
        assert result.value == WIN - moves_to_win
        assert result.move.red + result.move.blue == red + blue - (moves_to_win - 1)


@pytest.mark.parametrize("rules, version", RULE_SETS)
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("use_tt", [False, True])
def test_depth_limited_search_never_looks_deeper(rules, version, depth, use_tt):
    game = RedBlueNim(rules, version)
    for red, blue in [(3, 4), (5, 7), (8, 8)]:
        counting = CountingGame(game)
        root = counting.root(game.initial_state(red, blue))
        result = search(counting, root, depth, counting.evaluator(game.evaluate), {} if use_tt else None)
        assert max(counting.visits) <= depth
        assert set(counting.evaluated_plies) <= {depth}
        assert result.nodes == len(counting.visits)
        assert result.move in list(game.legal_moves(root.inner))
        expected = plain_minimax(game, root.inner, depth, game.evaluate)
        assert (result.value, result.move) == expected


# ------------------------------------------------------------------------ played games


def perfect_game(game, red, blue):
    """Both sides play full-depth search; returns the moves and the final state."""
    tt, state, moves = {}, game.initial_state(red, blue), []
    while not game.is_terminal(state):
        moves.append(search(game, state, tt=tt).move)
        state = game.apply(state, moves[-1])
    return moves, state


def expected_winner(rules, version, state):
    """Who won, from the rules: classic, judged on the player facing an empty pile;
    free, on the player who took the last marble (the one not to move)."""
    judged = state.player if rules == "classic" else 1 - state.player
    loses_in_standard = rules == "classic"
    judged_wins = (version == "misere") == loses_in_standard
    return judged if judged_wins else 1 - judged


@pytest.mark.parametrize("rules, version", RULE_SETS)
def test_perfect_play_realises_the_root_value(rules, version):
    game = RedBlueNim(rules, version)
    for red in range(1, 7):
        for blue in range(1, 7):
            moves, end = perfect_game(game, red, blue)
            assert end.moves_made == (len(moves) if rules == "free" else 0)
            value_for_first = game.utility(end) * (1 if end.player == 0 else -1)
            assert value_for_first == rules_value(rules, version, red, blue)
            assert game.winner(end) == expected_winner(rules, version, end)
            assert game.winner(end) == (0 if value_for_first > 0 else 1)


@settings(max_examples=200, deadline=None)
@given(
    rule_set=st.sampled_from(RULE_SETS),
    red=st.integers(1, 8),
    blue=st.integers(1, 8),
    choices=st.lists(st.integers(0, 10**6), min_size=40, max_size=40),
)
def test_random_games_have_the_right_winner_and_points(rule_set, red, blue, choices):
    rules, version = rule_set
    game = RedBlueNim(rules, version)
    state = game.initial_state(red, blue)
    for choice in choices:
        if game.is_terminal(state):
            break
        legal = list(game.legal_moves(state))
        move = legal[choice % len(legal)]
        assert game.illegal_reason(state, move) is None
        state = game.apply(state, move)
    assert game.is_terminal(state)
    assert game.winner(state) == expected_winner(rules, version, state)
    if rules == "classic":
        assert game.points(state) == 2 * state.red + 3 * state.blue > 0


@pytest.mark.parametrize(
    "rules, move, reason",
    [
        ("free", Take(0, 0), "at least one marble"),
        ("free", Take(-1, 2), "negative"),
        ("free", Take(6, 0), "only 5 red and 7 blue"),
        ("free", Take(0, 8), "only 5 red and 7 blue"),
        ("classic", Take(1, 1), "from one pile only"),
        ("classic", Take(3, 0), "from one pile only"),
    ],
)
def test_illegal_moves_are_explained(rules, move, reason):
    game = RedBlueNim(rules)
    assert reason in game.illegal_reason(game.initial_state(5, 7), move)


# ---------------------------------------------------------------------------------- CLI


def run(monkeypatch, capsys, argv, stdin=""):
    return run_cli(main, monkeypatch, capsys, argv, stdin)


def test_classic_game_human_wins_the_points(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["2", "2", "standard", "human", "--rules", "classic"], "2 0\n")
    assert code == 0
    assert "You win 6 points (0 red x 2 + 2 blue x 3)." in out
    assert "You: 1 move, took 2 red and 0 blue (2 red)" in out
    assert "Computer: 0 moves, took 0 red and 0 blue (-)" in out


def test_classic_game_computer_wins_the_points(monkeypatch, capsys):
    # After the human's 1 red from (3, 3) the computer is on (2, 3), worth +9 to it.
    assert rules_value("classic", "standard", 2, 3) == 9
    code, out, _ = run(monkeypatch, capsys, ["3", "3", "standard", "human", "--rules", "classic"], "1 0\n")
    assert code == 0
    assert "Computer takes 2 red (expects +9 points)." in out
    assert out.rstrip().endswith("Computer wins 9 points (0 red x 2 + 3 blue x 3).")


def test_free_game_computer_takes_everything(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["3", "5", "standard", "human", "--rules", "free"], "1 2\n")
    assert code == 0
    assert "Computer takes 2 red and 3 blue (sure win)." in out
    assert "You: 1 move, took 1 red and 2 blue (1 red and 2 blue)" in out
    assert out.rstrip().endswith("Computer wins.")


def test_free_misere_last_marble_loses(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["1", "1", "misere", "human", "--rules", "free"], "1 0\n")
    assert code == 0
    assert "Computer takes 1 blue (sure loss)." in out
    assert out.rstrip().endswith("You win.")


@pytest.mark.parametrize("rules", ["free", "classic", "Classic"])
def test_computer_against_computer(monkeypatch, capsys, rules):
    code, out, _ = run(monkeypatch, capsys, ["5", "7", "--rules", rules, "--demo"])
    assert code == 0
    expected = "Computer A wins 6 points" if rules.lower() == "classic" else "Computer A wins."
    assert expected in out  # (5, 7) is a first-player win under both rule sets


def test_an_asked_demonstration_does_not_ask_who_moves_first(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["--demo"], "free\n5\n7\nstandard\n\n")
    assert code == 0 and "Who moves first" not in out
    assert "Computer A wins." in out


def test_depth_limited_computer_plays_a_legal_game(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["9", "8", "misere", "computer", "2", "--rules", "classic", "--demo"])
    assert code == 0
    assert "Game over." in out and "points (" in out


@pytest.mark.parametrize(
    "rules, bad_lines, reasons",
    [
        (
            "free",
            ["", "abc", "1", "1 x", "-1 2", "0 0", "9 0", "0 9"],
            [
                "type two numbers",
                "type two numbers",
                "type two numbers",
                "'1 x' is not two whole numbers",
                "negative",
                "at least one marble",
                "only 5 red and 7 blue",
                "only 5 red and 7 blue",
            ],
        ),
        (
            "classic",
            ["1 1", "3 0", "0 0", "0 8"],
            ["one pile only", "one pile only", "at least one", "take 1 or 2 marbles from one pile only"],
        ),
    ],
)
def test_bad_moves_are_refused_with_the_reason(monkeypatch, capsys, rules, bad_lines, reasons):
    stdin = "\n".join(bad_lines + ["1 0"]) + "\n"
    code, out, _ = run(monkeypatch, capsys, ["5", "7", "standard", "human", "--rules", rules], stdin)
    assert code == 0
    refusals = [line for line in out.splitlines() if "Not accepted:" in line]
    assert len(refusals) == len(bad_lines)
    for refusal, reason in zip(refusals, reasons):
        assert reason in refusal
    assert "Piles: 4 red, 7 blue. To move: Computer." in out  # the valid move was played


def test_interactive_settings_reprompt_until_valid(monkeypatch, capsys):
    answers = [
        "chess",
        "classic",
        "abc",
        "0",
        "2",
        "2",
        "sideways",
        "misère",
        "robot",
        "human",
        "0",
        "",
        "1 0",
        "0 1",
    ]
    code, out, _ = run(monkeypatch, capsys, [], "\n".join(answers) + "\n")
    assert code == 0
    for reason in [
        "unknown rules 'chess'",
        "'abc' is not a whole number",
        "not 0",
        "unknown version 'sideways'",
        "unknown first player 'robot'",
        "depth must be at least 1",
    ]:
        assert reason in out
    assert "Red-Blue Nim, classic rules, misere. First to move: You." in out
    # (2, 2) misère: 1 red, the computer leaves (1, 1), 1 blue leaves the computer on (1, 0).
    assert out.rstrip().endswith("Computer wins 2 points (1 red x 2 + 0 blue x 3).")


def test_interactive_defaults_are_the_classic_game(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, [], "\n4\n4\n\n\n\n")
    assert code == 0
    assert "Rules, classic or free [classic]: " in out
    assert "Who moves first, you, computer or random [computer]: " in out
    assert "Red-Blue Nim, classic rules, standard. First to move: Computer." in out
    assert "Take 1 or 2 marbles from one pile." in out  # the rules, told at the start
    assert "End of input: game abandoned." in out  # the human's move was not typed


def test_the_default_game_is_not_won_by_one_move(monkeypatch, capsys):
    """Free standard rules were the default, won by taking every marble at once."""
    code, out, _ = run(monkeypatch, capsys, ["4", "4", "--demo"])
    assert code == 0 and "classic rules" in out
    assert len([line for line in out.splitlines() if " takes " in line]) > 1


def test_free_rules_are_explained_at_the_start(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["4", "4", "--rules", "free", "--demo"])
    assert code == 0
    assert "so the first mover can take everything at once" in out


@pytest.mark.parametrize(
    "argv, first",
    [
        (["3", "3", "standard", "human"], "You"),  # the taught positional words
        (["3", "3", "standard", "computer"], "Computer"),
        (["3", "3", "standard", "you"], "You"),
        (["3", "3", "--first", "you"], "You"),
        (["3", "3", "--first", "computer"], "Computer"),
        (["3", "3", "standard", "human", "--first", "you"], "You"),  # the same, said twice
    ],
)
def test_who_moves_first_in_the_project_words_and_the_taught_ones(monkeypatch, capsys, argv, first):
    code, out, _ = run(monkeypatch, capsys, argv + ["--rules", "classic"])
    assert code == 0
    assert f"First to move: {first}." in out


def test_the_help_says_plainly_that_human_means_you(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "who moves first: you, computer (default) or random; human also means you" in shown
    assert "taught" not in shown


@pytest.mark.parametrize("drawn, first", [("you", "You"), ("computer", "Computer")])
def test_random_first_player_is_drawn_and_said(monkeypatch, capsys, drawn, first):
    monkeypatch.setattr("nim_games.red_blue.random.choice", lambda options: drawn)
    code, out, _ = run(monkeypatch, capsys, ["3", "3", "--first", "random"])
    assert code == 0
    assert f"First to move: {first} (drawn at random)." in out


@pytest.mark.parametrize(
    "argv, typed",
    [
        ([], "classic\n3\n5\n\n\nFull\n"),  # asked: any case, as the other answers
        (["3", "5", "standard", "computer", "full", "--rules", "classic"], ""),  # as the prompt offers
    ],
)
def test_full_depth_is_accepted_wherever_a_depth_is_asked(monkeypatch, capsys, argv, typed):
    code, out, _ = run(monkeypatch, capsys, argv, typed)
    assert code == 0 and "Not accepted" not in out
    # (3, 5) classic standard, full depth: +6 by taking 2 blue (the reference value).
    assert "Computer takes 2 blue (expects +6 points)." in out


@pytest.mark.parametrize("argv", [[], ["5", "7", "standard", "human"]])
def test_end_of_input_ends_cleanly(monkeypatch, capsys, argv):
    code, out, err = run(monkeypatch, capsys, argv, "")
    assert code == 0
    assert out.rstrip().endswith("End of input: game abandoned.")
    assert err == ""


def test_ctrl_c_ends_cleanly(monkeypatch, capsys):
    def interrupted(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupted)
    code, out, err = run(monkeypatch, capsys, ["5", "7", "standard", "human"])
    assert code == 130
    assert err == "\nred-blue-nim: interrupted\n"


@pytest.mark.parametrize(
    "argv, reason",
    [
        (["x", "5"], "'x' is not a whole number"),
        (["0", "5"], "a pile must hold 1 to 100 marbles, not 0"),
        (["5", "101"], "not 101"),
        (["5"], "num_blue is required"),
        (["5", "5", "sideways"], "unknown version 'sideways'"),
        (["5", "5", "standard", "robot"], "unknown first player 'robot'"),
        (["5", "5", "--first", "robot"], "unknown first player 'robot': choose you or computer or random"),
        (["5", "5", "standard", "human", "--first", "computer"], "who moves first is given twice"),
        (["5", "5", "--first", "random", "--demo"], "--demo has no human player"),
        (["5", "5", "standard", "human", "0"], "depth must be at least 1"),
        (["5", "5", "standard", "human", "deep"], "depth 'deep' is neither a whole number nor full"),
        (["--rules", "chess", "5", "5"], "invalid choice: 'chess'"),
        (["5", "5", "standard", "human", "3", "extra"], "unrecognized arguments: extra"),
        (["5", "5", "standard", "human", "--demo"], "--demo has no human player"),
    ],
)
def test_bad_arguments_exit_2_with_the_reason(monkeypatch, capsys, argv, reason):
    code, out, err = run(monkeypatch, capsys, argv)
    assert code == 2
    assert reason in err and "usage: red-blue-nim" in err
    assert out == ""


def test_help(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["--help"])
    assert code == 0
    assert "num_red" in out and "--rules" in out and "red marbles, 1..100" in out
    assert out.splitlines()[-1] == EXIT_CODES


def test_help_tells_both_rule_sets_and_one_word_for_each_first_mover(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["--help"])
    text = " ".join(out.split())
    assert code == 0
    for told in RULES_TOLD.values():  # who wins, standard and misere, under each rule set
        assert " ".join(told.split()) in text
    positional = text[text.index(" first who moves first: ") :]
    option = text[text.index("--first FIRST who moves first: ") :]
    assert positional.startswith(" first who moves first: you, computer (default) or random")
    assert option.startswith("--first FIRST who moves first: you, computer (default) or random")


def test_a_classic_move_of_more_than_2_is_refused_for_the_rule_whatever_the_piles_hold(monkeypatch, capsys):
    game = RedBlueNim("classic")
    assert (
        game.illegal_reason(NimState(3, 4, 0, 0), Take(5, 0)) == "classic rules: take 1 or 2 marbles from one pile only"
    )
    assert game.illegal_reason(NimState(1, 4, 0, 0), Take(2, 0)) == "there are only 1 red and 4 blue marbles"
    code, out, _ = run(monkeypatch, capsys, ["3", "4", "standard", "you"], "5 0\n1 0\n")
    assert code == 0 and "Not accepted: classic rules: take 1 or 2 marbles from one pile only." in out


@pytest.mark.parametrize(
    "argv, stdin, code, expected",
    [
        (
            ["3", "3", "standard", "human", "--rules", "classic"],
            "1 0\n",
            0,
            "Computer wins 9 points",
        ),
        (["3", "3", "standard", "human"], "oops\n", 0, "End of input: game abandoned."),
        (["3", "-3"], "", 2, "a pile must hold 1 to 100 marbles"),
    ],
)
def test_as_a_program(argv, stdin, code, expected):
    done = subprocess.run(
        [sys.executable, "-m", "nim_games.red_blue", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == code
    assert expected in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
