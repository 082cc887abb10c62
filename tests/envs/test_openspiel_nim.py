"""The OpenSpiel game python_red_blue_nim, read by OpenSpiel's own random_sim_test and
solved by its alpha_beta_search to nim_games' minimax values."""

import pyspiel
import pytest
from open_spiel.python.algorithms.minimax import alpha_beta_search

import agent.envs.openspiel_nim  # noqa: F401  (registers python_red_blue_nim)
from nim_games.minimax import search
from nim_games.red_blue import RedBlueNim

RULE_SETS = [(rules, version) for rules in ("classic", "free") for version in ("standard", "misere")]
# Every starting position with piles up to these, for each rule set.
LARGEST_PILE = {"classic": 8, "free": 4}


def load(rules, version, red, blue):
    return pyspiel.load_game(f"python_red_blue_nim(rules={rules},version={version},red={red},blue={blue})")


@pytest.mark.parametrize("rules, version", RULE_SETS)
@pytest.mark.parametrize("red, blue", [(0, 3), (1, 1), (5, 4), (9, 7)])
def test_openspiel_random_sim_test_passes(rules, version, red, blue):
    pyspiel.random_sim_test(load(rules, version, red, blue), num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("rules, version", RULE_SETS)
def test_openspiel_alpha_beta_gives_the_nim_games_values_on_every_small_position(rules, version):
    largest = LARGEST_PILE[rules]
    game_rules = RedBlueNim(rules, version)
    wrong = []
    for red in range(largest + 1):
        for blue in range(largest + 1):
            game = load(rules, version, red, blue)
            start = game_rules.initial_state(red, blue)
            if game_rules.is_terminal(start):
                assert game.new_initial_state().returns() == [game_rules.utility(start), -game_rules.utility(start)]
                continue
            value, _ = alpha_beta_search(game)
            if value != search(game_rules, start).value:
                wrong.append((red, blue, value))
    assert wrong == []


def test_the_actions_are_the_takes_of_the_rules():
    state = load("free", "misere", 2, 1).new_initial_state()
    takes = sorted(state.action_to_string(action) for action in state.legal_actions())
    assert takes == ["take 1 blue", "take 1 red", "take 1 red and 1 blue", "take 2 red", "take 2 red and 1 blue"]
    with pytest.raises(ValueError, match="not a legal take"):
        state.apply_action(0)  # takes nothing
    state.apply_action(state.legal_actions()[-1])  # everything: 2 red and 1 blue
    assert state.is_terminal() and state.returns() == [-999.0, 999.0]  # misere: taking the last loses


def test_a_state_string_is_the_takes_and_a_crafted_one_is_refused_without_running(tmp_path):
    import base64
    import pickle

    from test_openspiel_game import RunsACommand

    game = load("classic", "standard", 3, 4)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    witness = tmp_path / "ran"
    payload = base64.b64encode(pickle.dumps({"nim": RunsACommand(f"touch {witness}")})).decode()
    crafted = text.partition("[State]\n")[0] + f"[State]\nhistory=\nmove_number=0\n__dict__={payload}\n"
    with pytest.raises(ValueError, match="a state is its actions"):
        pyspiel.deserialize_game_and_state(crafted)
    assert not witness.exists()
    with pytest.raises(ValueError, match="not a legal take"):
        game.deserialize_state("0")  # takes nothing
    with pytest.raises(ValueError, match="a pile holds"):
        pyspiel.load_game("python_red_blue_nim(red=101)")
