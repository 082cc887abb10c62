"""The OpenSpiel game python_fruit_rage, read by OpenSpiel's own random_sim_test, solved
by its alpha_beta_search to the project's exact values; its observation tensor tells apart
states of different value, and its state strings replay moves, never a pickle."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.minimax import alpha_beta_search

import agent.envs.openspiel  # noqa: F401  (registers python_fruit_rage)
from agent import Board, Limit, search
from agent.envs import encoding


@pytest.mark.parametrize(
    "parameters",
    [
        "size=1,types=1,seed=0",
        "size=3,types=2,seed=4",
        "size=6,types=4,seed=1,reward=outcome",
        "size=10,types=9,seed=2,reward=normalised",
        "size=1,types=1",
        "size=4,types=3",
        "size=7,types=5,reward=outcome",
    ],
)
@pytest.mark.parametrize("serialize", [False, True])
def test_openspiel_random_sim_test_passes(parameters, serialize):
    game = pyspiel.load_game(f"python_fruit_rage({parameters})")
    pyspiel.random_sim_test(game, num_sims=5, serialize=serialize, verbose=False)


def test_the_game_is_the_project_s_board_with_its_encoding():
    game = pyspiel.load_game("python_fruit_rage(size=4,types=3,seed=1)")
    board = Board.random(1, 4, 3)
    most = 4**4  # the box as one group: no margin is larger
    assert (game.num_distinct_actions(), game.max_game_length(), game.max_utility()) == (16, 16, most)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.observation_tensor_shape() == [7, 4, 4]
    state = game.new_initial_state()
    assert state.legal_actions() == encoding.legal_actions(board)
    tensor = np.reshape(state.observation_tensor(0), (7, 4, 4))
    assert np.array_equal(tensor, encoding.observation(board, 3, 0, [0, 0], most))
    assert state.observation_string(1) == "\n".join([*board.rows, "points: 0 0; player 0 to move"])
    move = board.legal_moves()[0]
    after, points = board.play(move)
    state.apply_action(encoding.action_of(move, 4))
    assert state.current_player() == 1 and state.board == after
    assert state.observation_string(0).endswith(f"points: {points} 0; player 1 to move")


def test_an_action_that_is_not_a_naming_cell_is_refused():
    state = pyspiel.load_game("python_fruit_rage(size=4,types=3,seed=1)").new_initial_state()
    assert 0 not in state.legal_actions()  # A1 lies in the group that A2 names
    with pytest.raises(ValueError, match="not the naming cell"):
        state.apply_action(0)
    assert state.board == Board.random(1, 4, 3)


def test_the_default_game_deals_a_new_eight_by_eight_board_of_four_types_by_chance():
    game = pyspiel.load_game("python_fruit_rage")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(fruit, 0.25) for fruit in range(4)]
    board = Board.random(5, 8, 4)
    for fruit in "".join(board.rows):
        state.apply_action(int(fruit))
    assert not state.is_chance_node() and state.board == board
    assert state.legal_actions() == encoding.legal_actions(board)


@pytest.mark.parametrize("parameters", ["size=0", "size=27", "types=10", "seed=-2", "reward=margin"])
def test_parameters_that_make_no_game_are_refused(parameters):
    with pytest.raises(ValueError, match="size|types|seed|reward"):
        pyspiel.load_game(f"python_fruit_rage({parameters})")


def random_states(game, games, seed):
    """Every state of `games` random games (chance outcomes and moves drawn uniformly)."""
    choices = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_initial_state()
        yield state
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(int(choices.choice(outcomes, p=chances)))
            else:
                state.apply_action(int(choices.choice(state.legal_actions())))
            yield state


def test_no_two_states_of_different_mover_or_points_share_an_observation_tensor():
    """Over every state of 1,000 random games on 4x4 boards of 3 types, each dealt anew."""
    game = pyspiel.load_game("python_fruit_rage(size=4,types=3)")
    seen: dict = {}
    collisions = []
    for state in random_states(game, 1000, seed=0):
        tensor = np.asarray(state.observation_tensor(0), dtype=np.float32).tobytes()
        position = (str(state), state.mover, tuple(state.scores))  # the rows, points and mover
        if seen.setdefault(tensor, position) != position:
            collisions.append((seen[tensor], position))
        assert state.observation_tensor(1) == state.observation_tensor(0)  # both players see it all
    assert len(seen) > 5000 and collisions == []


@pytest.mark.parametrize("reward", ["normalised", "outcome"])
def test_the_utility_of_normalised_and_outcome_returns_lies_in_minus_one_to_one(reward):
    game = pyspiel.load_game(f"python_fruit_rage(size=4,types=2,reward={reward})")
    points = pyspiel.load_game("python_fruit_rage(size=4,types=2)")
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    for state in random_states(game, 200, seed=1):
        if state.is_terminal():
            returns = state.returns()
            margin = state.scores[0] - state.scores[1]
            assert -1 <= returns[0] <= 1 and returns[1] == -returns[0]
            expected = margin / 4**4 if reward == "normalised" else encoding.outcome(margin)
            assert returns[0] == pytest.approx(expected)
    assert points.max_utility() == 4**4


def exact_value(board: Board) -> int:
    """The mover's margin over the rest of the game with best play, as the agent's search
    solves it."""
    result = search(board, Limit(depth=board.size * board.size))
    assert result.exact
    return result.value


@pytest.mark.parametrize(
    "size, types, seeds", [(3, 2, range(150)), (3, 3, range(30)), (4, 2, range(20)), (4, 3, range(1))]
)
def test_openspiel_alpha_beta_gives_the_project_s_exact_values(size, types, seeds):
    """201 boards in all."""
    for seed in seeds:
        game = pyspiel.load_game(f"python_fruit_rage(size={size},types={types},seed={seed})")
        value, _ = alpha_beta_search(game)
        assert value == exact_value(Board.random(seed, size, types)), seed


@pytest.mark.parametrize("seed", range(10))
def test_alpha_beta_from_a_position_in_play_counts_the_points_already_scored(seed):
    game = pyspiel.load_game(f"python_fruit_rage(size=4,types=3,seed={seed})")
    state = game.new_initial_state()
    choices = np.random.default_rng(seed)
    for _ in range(3):
        if not state.is_terminal():
            state.apply_action(int(choices.choice(state.legal_actions())))
    if state.is_terminal():
        return
    mover = state.current_player()
    value, _ = alpha_beta_search(game, state=state)
    assert value == state.scores[mover] - state.scores[1 - mover] + exact_value(state.board)


def serialised(game_text, actions):
    game = pyspiel.load_game(game_text)
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return game, state, pyspiel.serialize_game_and_state(game, state)


def test_a_state_string_is_the_moves_and_comes_back_as_the_same_state():
    board = Board.random(3, 4, 3)
    deal = [int(fruit) for fruit in "".join(board.rows)]
    game, state, text = serialised("python_fruit_rage(size=4,types=3)", [*deal, encoding.legal_actions(board)[1]])
    assert text.endswith("[State]\n" + "\n".join(map(str, state.history())) + "\n") and "__dict__" not in text
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again_game) == str(game) and again.history() == state.history()
    assert (again.board, again.scores, again.mover) == (state.board, state.scores, state.mover)
    at_board = game.new_state_at(board)
    assert str(game.deserialize_state(at_board.serialize())) == str(at_board)


class RunsACommand:
    """Unpickled, it runs `command` in a shell: what a crafted state string held."""

    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        import os

        return os.system, (self.command,)


def test_a_state_string_holding_a_pickle_is_refused_without_running_it(tmp_path):
    """OpenSpiel's own strings for a Python game hold a pickle of the state's attributes,
    which its deserialiser loads: this one would create a file."""
    import base64
    import pickle

    witness = tmp_path / "ran"
    payload = base64.b64encode(pickle.dumps({"board": RunsACommand(f"touch {witness}")})).decode()
    state_text = f"history=0:1\nmove_number=1\n__dict__={payload}"
    game, _, text = serialised("python_fruit_rage(size=4,types=3,seed=1)", [])
    crafted = text.partition("[State]\n")[0] + "[State]\n" + state_text + "\n"
    with pytest.raises(ValueError, match="a state is its actions"):
        pyspiel.deserialize_game_and_state(crafted)
    with pytest.raises(ValueError, match="a state is its actions"):
        game.deserialize_state(state_text)
    assert not witness.exists()


@pytest.mark.parametrize(
    "state_text, message",
    [
        ("board=012/120/201", "the game is 4x4, the board 3x3"),  # a 3x3 board in a 4x4 game
        ("board=0123/1201/2012/0120", "fruit type 3"),  # more types than the game's
        ("board=0101/0*01/0101/0101", "board is not one"),  # fruit above a hole
        ("0", "not the naming cell"),  # A1 is in the group A2 names
        ("1\n", "its actions, one a line"),  # B1, then an empty line
        ("99999999999", "its actions, one a line"),
        ("-1", "its actions, one a line"),
    ],
)
def test_a_state_string_the_rules_never_reach_is_refused(state_text, message):
    game = pyspiel.load_game("python_fruit_rage(size=4,types=3,seed=1)")
    with pytest.raises(ValueError, match=message):
        game.deserialize_state(state_text)


def test_a_state_string_with_moves_after_the_end_is_refused():
    board = Board(["0"])
    game = pyspiel.load_game("python_fruit_rage(size=1,types=1,seed=0)")
    assert game.new_initial_state().board == board
    with pytest.raises(ValueError, match="after the end"):
        game.deserialize_state("0\n0")
