"""A small network inside the search: inference against a numpy reference, model files
and their refusals, the raw policy as a player, and ismcts guided by a model (its
policy the prior, its value what a leaf backs up), with threads, reuse and blunders."""
import os
import random
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import core
import search
from search.mcts import MCTS
from search.model import Model, ModelError, default_path, load_model, random_model
from test_search import midgame

CARDARENA = os.path.join(os.path.dirname(sys.executable), "cardarena")


def reference(weights, game, x, legal):
    """The network's outputs computed by numpy in float64, as docs/learning.md writes
    them: each player's return in the game's units, and the policy over ``legal``."""
    h = np.asarray(x, np.float64)
    for w, b in weights["layers"]:
        h = np.maximum(h @ w + b, 0)
    pw, pb = weights["policy"]
    logits = (h @ pw + pb)[legal]
    policy = np.exp(logits - logits.max())
    vw, vb = weights["value"]
    scaled = (np.tanh(h @ vw + vb) + 1) / 2
    return (game.min_utility + scaled * (game.max_utility - game.min_utility),
            policy / policy.sum())


def hand_made(game, policy_bias=None, value=None, value_bias=None, weight=1.0):
    """A model with no hidden layer: the policy's logits are ``policy_bias`` (one per
    action, zeros if None) and each player's value reads the features through
    ``value`` (features x players), plus ``value_bias``."""
    n, actions, players = (game.observation_tensor_size, game.num_distinct_actions,
                           game.num_players)
    pb = np.zeros(actions) if policy_bias is None else policy_bias
    vw = np.zeros((n, players)) if value is None else value
    vb = np.zeros(players) if value_bias is None else value_bias
    return Model(game, [], (np.zeros((n, actions)), pb), (vw, vb), value_weight=weight)


def save(model, tmp_path, name="model.npz"):
    path = tmp_path / name
    model.save(path)
    return str(path)


# --- inference --------------------------------------------------------------------

@pytest.mark.parametrize("game_string, hidden", [
    ("card_duel", ()), ("card_duel", (16,)), ("shrine", (32, 16)),
    ("relinquish(players=3)", (64,)), ("energy_deckbuilder", (8, 8, 8))])
def test_inference_equals_a_numpy_reference(game_string, hidden):
    game = core.load_game(game_string)
    model = random_model(game, hidden, seed=len(hidden))
    weights = model.weights()
    rng = np.random.default_rng(5)
    n = game.observation_tensor_size
    batch = []
    for trial in range(20):
        # Features as games write them: mostly zeros, some ones, a few other values.
        x = (rng.random(n) < 0.2).astype(np.float32)
        other = rng.random(n) < 0.05
        x[other] = rng.standard_normal(other.sum())
        size = rng.integers(1, min(40, game.num_distinct_actions) + 1)
        legal = sorted(rng.choice(game.num_distinct_actions, size, replace=False).tolist())
        values, policy = model.predict(x, legal)
        want_values, want_policy = reference(weights, game, x, legal)
        np.testing.assert_allclose(values, want_values, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(policy, want_policy, rtol=1e-5, atol=1e-6)
        batch.append(x)
    # A batch, one row per feature vector, gives each row's outputs.
    xs = np.array(batch)
    got = model.predict(xs, legal)
    want = [reference(weights, game, x, legal) for x in xs]
    np.testing.assert_allclose(got[0], [v for v, _ in want], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[1], [p for _, p in want], rtol=1e-5, atol=1e-6)


def test_a_state_is_evaluated_on_what_the_player_to_move_knows():
    game, state = midgame("shrine", seed=4, steps=30)
    model = random_model(game, (32,), seed=2)
    values, policy = model.evaluate(state)
    player = state.current_player()
    want_values, want_policy = reference(model.weights(), game,
                                         state.observation_tensor(player),
                                         state.legal_actions())
    np.testing.assert_allclose(values, want_values, rtol=1e-5, atol=1e-5)
    assert list(policy) == state.legal_actions()
    np.testing.assert_allclose(list(policy.values()), want_policy, rtol=1e-5, atol=1e-6)


def test_bad_input_to_a_model_is_refused_in_one_line():
    game = core.load_game("card_duel")
    model = random_model(game, (8,))
    x = np.zeros(game.observation_tensor_size)
    with pytest.raises(ModelError, match="features are 165 numbers, or rows of them, not an array "
                                         "shaped 3"):
        model.predict(np.zeros(3), [0])
    with pytest.raises(ModelError, match="an action id is from 0 to 27, not 28"):
        model.predict(x, [1, 28])
    with pytest.raises(ModelError, match="a non-empty list"):
        model.predict(x, [])
    other, state = midgame("shrine", seed=4, steps=30)
    with pytest.raises(ModelError, match="a model for card_duel was given a state of shrine"):
        model.evaluate(state)


# --- model files ------------------------------------------------------------------

def test_a_model_file_round_trips(tmp_path):
    game = core.load_game("relinquish(players=3)")
    model = random_model(game, (24, 12), seed=9)
    back = load_model(save(model, tmp_path), game)
    assert back.game_string == "relinquish(players=3)" and back.layers == (
        game.observation_tensor_size, 24, 12)
    for (a, b), (c, d) in zip(model.weights()["layers"], back.weights()["layers"]):
        assert np.array_equal(a, c) and np.array_equal(b, d)
    for head in ("policy", "value"):
        assert all(np.array_equal(a, b) for a, b in zip(model.weights()[head],
                                                          back.weights()[head]))
    x = np.random.default_rng(1).random(game.observation_tensor_size)
    legal = [0, 5, 900]
    for a, b in zip(model.predict(x, legal), back.predict(x, legal)):
        assert np.array_equal(a, b)
    with np.load(tmp_path / "model.npz") as f:
        assert f["format"] == 1 and str(f["game"]) == "relinquish(players=3)"
        assert f["layers"].tolist() == [game.observation_tensor_size, 24, 12]
        assert back.value_weight == model.value_weight == 1.0
        # A file without the weight (written before models carried it) plays the
        # value alone; one with it gives it back.
        named = {k: f[k] for k in f.files if k != "search_value_weight"}
    _write(tmp_path / "old.npz", **named)
    assert load_model(tmp_path / "old.npz", game).value_weight == 1.0
    _write(tmp_path / "half.npz", **named, search_value_weight=np.array(0.25))
    assert load_model(tmp_path / "half.npz", game).value_weight == 0.25
    _write(tmp_path / "bad.npz", **named, search_value_weight=np.array(3.0))
    with pytest.raises(ModelError, match="value_weight is from 0 to 1, not 3.0"):
        load_model(tmp_path / "bad.npz", game)


def _write(path, **arrays):
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def _entries(model):
    with np.load(model) as f:
        return {k: f[k] for k in f.files}


def _bad_files(tmp_path):
    """(file, the refusal's words) for each way a model file can be bad for Card Duel."""
    duel = core.load_game("card_duel")
    good = save(random_model(duel, (8,)), tmp_path, "good.npz")
    entries = _entries(good)
    cases = []

    def case(name, words, write=None, **changed):
        path = tmp_path / name
        if write is not None:
            write(path)
        else:
            _write(path, **{**entries, **changed})
        cases.append((str(path), words))

    case("missing.npz", "no model file", write=lambda p: None)
    case("text.npz", "not an .npz archive", write=lambda p: p.write_text("weights\n"))
    case("cut.npz", "not an .npz archive",
         write=lambda p: p.write_bytes(open(good, "rb").read()[:300]))
    case("array.npy", "an .npy array, not an .npz", write=lambda p: np.save(open(p, "wb"),
                                                                           np.zeros(3)))
    case("pickled.npz", "is corrupt",
         format=np.array([{"weights": 1}], dtype=object))
    case("empty.npz", "has no format entry", write=lambda p: _write(p, weights=np.zeros(3)))
    case("future.npz", "has format version 2; this cardarena reads version 1",
         format=np.array(2))
    case("shrine.npz", "was made for shrine, not card_duel",
         write=lambda p: random_model(core.load_game("shrine"), (8,)).save(p))
    case("variant.npz", "was made for card_duel(life=10), not card_duel",
         game=np.array("card_duel(life=10)"))
    case("inputs.npz", "reads 100 features, the game's observation tensor has 165",
         layers=np.array([100, 8]))
    case("hidden.npz", "hidden_0_weight is shaped 165x8, its layer sizes say 165x9",
         layers=np.array([165, 9]))
    case("policy.npz", "policy_weight is shaped 8x27, where 8x28 was expected",
         policy_weight=np.zeros((8, 27), np.float32))
    case("value.npz", "value_bias is shaped 3, where 2 was expected",
         value_bias=np.zeros(3, np.float32))
    case("nan.npz", "hidden_0_bias holds values that are not finite",
         hidden_0_bias=np.full(8, np.nan, np.float32))
    case("words.npz", "policy_bias holds <U1 values, not numbers",
         policy_bias=np.array(["a"] * 28))
    case("no_head.npz", "it has no value_weight entry",
         write=lambda p: _write(p, **{k: v for k, v in entries.items()
                                      if k != "value_weight"}))
    case("folder.npz", "is a folder", write=lambda p: p.mkdir())
    # Damaged inside the archive, past what its directory checks.
    case("deflated.npz", "is corrupt: damaged compressed data",
         write=lambda p: _damaged(p, entries, compressed=True))
    case("method.npz", "is corrupt: NotImplementedError",
         write=lambda p: _damaged(p, entries, compressed=False))
    return cases


def _damaged(path, entries, compressed):
    """``entries`` written to ``path``: compressed with the data of one member garbled,
    or stored with the compression method its directory names for one made unknown."""
    with open(path, "wb") as f:
        (np.savez_compressed if compressed else np.savez)(f, **entries)
    data = bytearray(path.read_bytes())
    if compressed:
        info = zipfile.ZipFile(path).getinfo("hidden_0_weight.npy")
        start = info.header_offset + 30 + len(info.filename) + len(info.extra) + 50
        data[start:start + 200] = bytes(b ^ 0x5A for b in data[start:start + 200])
    else:
        entry = data.find(b"PK\x01\x02")
        name = b"policy_weight.npy"
        while data[entry + 46:entry + 46 + len(name)] != name:
            entry = data.find(b"PK\x01\x02", entry + 4)
        data[entry + 10] = 99
    path.write_bytes(bytes(data))


def test_bad_model_files_are_refused_in_one_line(tmp_path):
    duel = core.load_game("card_duel")
    for path, words in _bad_files(tmp_path):
        with pytest.raises(ModelError) as err:
            load_model(path, duel)
        message = str(err.value)
        assert words in message and "\n" not in message, (path, message)
        # A bot spec naming the file is refused the same way, as a bad parameter.
        for spec in (f"ismcts(model={path})", f"policy(model={path})"):
            with pytest.raises(core.ParameterError) as err:
                search.make_bot(spec, duel, 0)
            assert str(err.value) == message


def test_the_command_refuses_a_bad_model_in_one_line(tmp_path):
    path = tmp_path / "shrine.npz"
    random_model(core.load_game("shrine"), (8,)).save(path)
    result = subprocess.run([CARDARENA, "demo", "card_duel", "--players",
                             f"ismcts(model={path})", "random"],
                            capture_output=True, text=True, timeout=120)
    # A bad bot spec is bad input, as every command's status 2 says.
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"cardarena demo: model file {path} was made for shrine, "
                             "not card_duel\n")


def test_the_default_model_is_read_from_the_game_package_or_said_missing():
    for text in [*core.GAMES, "relinquish(players=3)", "relinquish(teams=true,players=4)",
                 "shrine(alt_heal=true)"]:
        game = core.load_game(text)
        path = default_path(game)
        given = str(game).partition("(")[2].rstrip(")")
        assert path.parent.name == game.name
        assert path.name == ("model-" + given.replace("=", "-").replace(",", "-")
                             + ".npz" if given else "model.npz")
        if path.is_file():
            assert load_model("default", game).game_string == str(game)
        else:
            with pytest.raises(ModelError) as err:
                search.make_bot("policy", game, 0)
            assert str(err.value) == (f"no model is shipped for {game} (none at "
                                      f"core/{game.name}/{path.name}): give model=PATH")
    with pytest.raises(ModelError, match="an OpenSpiel game with no model of its own"):
        search.make_bot("ismcts(model=default)", "leduc_poker", 0)


def test_a_search_refuses_a_model_of_another_game():
    with pytest.raises(ModelError, match="a model for shrine cannot guide a search of "
                                         "card_duel"):
        MCTS(core.load_game("card_duel"), model=random_model(core.load_game("shrine")))
    for spec, words in [("ismcts(value_weight=2)", "value_weight must be 0.0..1.0"),
                        ("ismcts(value_view=mine)", "value_view is one of actor, searcher"),
                        ("policy(temperature=-1)", "temperature must be >= 0.0")]:
        with pytest.raises(core.ParameterError, match=words):
            search.make_bot(spec, core.load_game("card_duel"), 0)


# --- the raw policy and the search guided by it -----------------------------------

def _favouring(game, action):
    bias = np.zeros(game.num_distinct_actions)
    bias[action] = 12.0
    return hand_made(game, policy_bias=bias)


def test_the_policy_bot_plays_the_move_its_policy_favours(tmp_path):
    game, state = midgame("shrine", seed=1, steps=30)
    legal = state.legal_actions()
    assert len(legal) == 15
    for action in legal:
        path = save(_favouring(game, action), tmp_path)
        for spec in (f"policy(model={path})", f"policy(model={path},temperature=0.5)"):
            bot = search.make_bot(spec, game, state.current_player(), seed=3)
            assert bot.step(state) == action
            policy = dict(bot.step_with_policy(state)[0])
            assert list(policy) == legal and policy[action] > 0.99


def test_the_policy_bot_draws_from_its_policy_with_a_temperature(tmp_path):
    # A uniform policy: at temperature 0 its lowest move, always; at temperature 1 a
    # move drawn uniformly, so that 200 seeded draws among 15 moves meet every one
    # (each is missed with probability below 1e-5).
    game, state = midgame("shrine", seed=1, steps=30)
    path = save(hand_made(game), tmp_path)
    greedy = search.make_bot(f"policy(model={path})", game, state.current_player())
    assert {greedy.step(state) for _ in range(20)} == {min(state.legal_actions())}
    drawn = search.make_bot(f"policy(model={path},temperature=1)", game,
                            state.current_player(), seed=8)
    assert {drawn.step(state) for _ in range(200)} == set(state.legal_actions())


@pytest.mark.parametrize("weight", [1, 0])
def test_the_policy_steers_ismcts_at_a_small_budget(tmp_path, weight):
    # With a value that calls every position even, or with rollouts alone, the prior
    # tells the moves apart: 30 iterations among 15 moves follow it, where the search
    # without a model, at the same budget and seed, plays one move whatever the model
    # says.
    game, state = midgame("shrine", seed=1, steps=30)
    player = state.current_player()
    plain = search.make_bot("ismcts(iterations=30)", game, player, seed=2).step(state)
    chosen = set()
    for action in state.legal_actions():
        path = save(_favouring(game, action), tmp_path)
        bot = search.make_bot(f"ismcts(iterations=30,model={path},value_weight={weight})",
                              game, player, seed=2)
        chosen.add(bot.step(state))
        assert bot.step(state) == action
        assert max(bot.last.visits, key=bot.last.visits.get) == action
    assert len(chosen) == 15 and plain in chosen


@pytest.mark.parametrize("view", ["actor", "searcher"])
def test_the_value_head_is_what_a_leaf_backs_up_without_rollouts(view):
    # Each player's value is a constant: every iteration that ends short of the end
    # of the game backs up exactly that payoff, rescaled to [0, 1].
    game, state = midgame("shrine", seed=4, steps=30)
    player = state.current_player()
    bias = np.zeros(game.num_players)
    bias[player], bias[1 - player] = 0.8, -0.3
    model = hand_made(game, value_bias=bias)
    result = MCTS(game, iterations=200, seed=1, model=model, value_view=view).search(state)
    want = (np.tanh(np.float32(0.8)) + 1) / 2
    assert result.value == pytest.approx(want, abs=1e-6)
    assert all(v == pytest.approx(want, abs=1e-6) for v in result.values.values())
    # Half a rollout's payoff goes in once value_weight is 0.5: the values move.
    mixed = MCTS(game, iterations=200, seed=1, model=model, value_view=view,
                 value_weight=0.5).search(state)
    assert mixed.value != pytest.approx(want, abs=1e-3)
    # A model that carries the weight 0.5 gives its searches the same, unless told.
    own = hand_made(game, value_bias=bias, weight=0.5)
    assert MCTS(game, iterations=200, seed=1, model=own, value_view=view).search(
        state).values == mixed.values
    assert MCTS(game, iterations=200, seed=1, model=own, value_view=view,
                value_weight=1).search(state).value == pytest.approx(want, abs=1e-6)


@pytest.mark.parametrize("view", ["actor", "searcher"])
def test_the_value_head_decides_the_move_without_rollouts(view):
    # In this Shrine position each of the three moves leaves a mark in the features
    # (of the player to move next, and of the searcher) that neither other move
    # leaves: a value that pays the searcher for that mark makes it play that move,
    # each of the three in turn, where a prior gives them all the same weight.
    game, state = midgame("shrine", seed=4, steps=30)
    player = state.current_player()
    marks = {0: 2, 7: 16, 122: 341}
    assert state.legal_actions() == sorted(marks)
    for action, feature in marks.items():
        value = np.zeros((game.observation_tensor_size, game.num_players))
        value[feature, player], value[feature, 1 - player] = 3.0, -3.0
        model = hand_made(game, value=value)
        result = MCTS(game, iterations=60, seed=5, model=model,
                      value_view=view).search(state)
        assert result.action == action, (view, action, result.visits)


# --- threads, reuse and blunders with a model --------------------------------------

def _play(specs, game_string, seed):
    """A seeded game between two bots told every move; the moves and the returns."""
    game = core.load_game(game_string)
    bots = [search.make_bot(spec, game, p, seed=seed + p) for p, spec in enumerate(specs)]
    state, rng, moves = game.new_initial_state(), random.Random(seed), []
    reused = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
            told = bots
        else:
            mover = bots[state.current_player()]
            action = mover.step(state)
            assert action in state.legal_actions()
            if mover.last is not None:
                reused += mover.last.reused
            told = [bot for bot in bots if bot is not mover]
        for bot in told:
            bot.inform_action(state, state.current_player(), action)
        moves.append(action)
        state.apply_action(action)
    return moves, state.returns(), reused


@pytest.mark.parametrize("parallel", ["root", "tree"])
def test_threads_reuse_and_blunders_play_with_a_model(tmp_path, parallel):
    game = core.load_game("card_duel")
    path = save(random_model(game, (16,), seed=4), tmp_path)
    spec = f"ismcts(iterations=40,threads=2,parallel={parallel},reuse=true,blunder=0.2,model={path})"
    other = f"mo_ismcts(iterations=30,model={path},value_weight=0.5,value_view=searcher)"
    first = _play([spec, other], "card_duel", 6)
    # Threads in one tree take their walks in the order their timing gives.
    if parallel == "root":
        assert first == _play([spec, other], "card_duel", 6)
    assert first[2] > 0, "no search kept any visit of the last one's tree"


def test_a_guided_search_on_threads_repeats_and_spends_its_budget():
    # Each thread's first iteration evaluates the root, which backs up no move.
    game, state = midgame("shrine", seed=1, steps=30)
    model = random_model(game, (16,), seed=3)
    a, b = (MCTS(game, iterations=301, threads=2, parallel="root", seed=7,
                 model=model).search(state) for _ in range(2))
    assert a.iterations == 301 and sum(a.visits.values()) == 299
    assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)
    for mode, extra in [("mo", {}), ("perfect", {"worlds": 3}), ("perfect", {"cheat": True})]:
        result = MCTS(game, mode, iterations=90, seed=2, model=model, **extra).search(state)
        assert result.action in state.legal_actions()


def test_the_bots_list_shows_the_model_parameters():
    text = search.describe()
    for line in ["policy: a network's policy played without search",
                 "    model=default  (default|PATH)",
                 "    temperature=0.0  (>= 0.0)",
                 "    model=none  (none|default|PATH)",
                 "    puct_c=0.6  (>= 0.0)",
                 "    value_weight=model  (model|0..1)",
                 "    value_view=actor  (actor|searcher)"]:
        assert line in text
    result = subprocess.run([CARDARENA, "bots"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "value_view=actor" in result.stdout


def test_a_bot_spec_takes_the_models_weight_or_a_number():
    game = core.load_game("shrine")
    assert search.parse_bot("ismcts(value_weight=model)") == (
        "ismcts", {"value_weight": "model"})
    assert search.parse_bot("ismcts(value_weight=0.25)") == (
        "ismcts", {"value_weight": 0.25})
    for bad, why in (("2", "must be 0.0..1.0, not 2.0"), ("half", "is a number, not 'half'")):
        with pytest.raises(core.ParameterError, match=f"ismcts: value_weight {why}"):
            search.make_bot(f"ismcts(value_weight={bad})", game, 0)


def test_a_guided_search_of_one_iteration_gives_its_move_all_the_policy(tmp_path):
    # Its one iteration evaluates the root and visits no move: a bot on a tight
    # deadline meets it.
    game, state = midgame("shrine", seed=4, steps=30)
    result = MCTS(game, iterations=1, seed=1, model=random_model(game)).search(state)
    assert sum(result.visits.values()) == 0 and len(result.visits) > 1
    assert result.policy() == {a: float(a == result.action) for a in sorted(result.visits)}
    path = save(random_model(game), tmp_path)
    bot = search.make_bot(f"ismcts(iterations=1,model={path})", game,
                          state.current_player())
    policy, action = bot.step_with_policy(state)
    assert dict(policy) == {a: float(a == action) for a in state.legal_actions()}


def test_a_search_on_rollouts_alone_evaluates_a_new_node_at_its_second_visit():
    # value_weight 0: the root is evaluated at once, and the walk goes on down the
    # move its prior favours, to a node that the walk leaves unevaluated.  With a value
    # to read, that node is evaluated where it is reached, and the root is the first
    # walk's leaf.
    game, state = midgame("shrine", seed=1, steps=30)
    legal = state.legal_actions()
    model = _favouring(game, legal[3])
    rollouts = MCTS(game, iterations=1, seed=1, model=model, value_weight=0).search(state)
    assert rollouts.visits == {a: int(a == legal[3]) for a in legal}
    assert rollouts.nodes == 1 + len(legal)
    valued = MCTS(game, iterations=1, seed=1, model=model, value_weight=1).search(state)
    assert sum(valued.visits.values()) == 0 and valued.nodes == 1 + len(legal)
    # The second walk down the favoured move reaches that node again: now evaluated,
    # its moves become edges.
    again = MCTS(game, iterations=2, seed=1, model=model, value_weight=0,
                 puct_c=100).search(state)
    assert again.visits[legal[3]] == 2 and again.nodes > 1 + len(legal)


def test_every_shipped_model_is_where_model_default_looks_for_it():
    # A file named for another variant than the one it was trained on would be
    # listed by `cardarena bots` and refused by every search that asked for it.
    for kind in core.GAMES.values():
        for text, across in search.shipped(kind):
            game = core.load_game(text)
            if across:
                # One trained across parameters serves the variants that set them.
                last = {n: kind.choices[n][-1] for n in across}
                model = load_model("default", kind(**{**game.params, **last}))
                assert (model.game_string, model.across) == (text, across)
                continue
            model = load_model("default", game)
            assert model.game_string == text and model.path == str(default_path(game))
            assert 0 <= model.value_weight <= 1


def _across(tmp_path):
    """A Creature Shrines model trained across both decks, written to a file."""
    across = random_model(core.load_game("creature_shrines"), hidden=(8,))
    model = Model(across.game, **across.weights(), across=("deck0", "deck1"))
    path = tmp_path / "model.npz"
    model.save(path)
    return path


def test_a_model_trained_across_the_decks_serves_every_pair_and_no_other_variant(tmp_path):
    path = _across(tmp_path)
    pair = core.load_game("creature_shrines(deck0=purple,deck1=green)")
    model = load_model(str(path), pair)
    assert (model.game_string, model.across) == ("creature_shrines", ("deck0", "deck1"))
    assert model.fits(core.load_game("creature_shrines(deck0=blue)")) and model.fits(pair)
    bot = search.make_bot(f"ismcts(iterations=20,model={path})", pair, 0, seed=1)
    state = pair.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert bot.step(state) in state.legal_actions()
    # Its other parameters are the variant's own: a shorter game is another variant.
    other = core.load_game("creature_shrines(max_turns=40)")
    with pytest.raises(ModelError) as err:
        load_model(str(path), other)
    assert str(err.value) == (f"model file {path} was made for creature_shrines (any "
                              "deck0, deck1), not creature_shrines(max_turns=40)")
    assert not model.fits(other)
    # A model of one pair serves that pair alone.
    plain = random_model(core.load_game("creature_shrines"), hidden=(8,))
    plain.save(tmp_path / "pair.npz")
    with pytest.raises(ModelError, match="was made for creature_shrines, not "):
        load_model(str(tmp_path / "pair.npz"), pair)


def test_model_default_finds_a_model_trained_across_where_no_variant_has_its_own(
        tmp_path, monkeypatch):
    from search import model as models
    path = _across(tmp_path)
    monkeypatch.setattr(models, "_package", lambda kind: tmp_path)
    pair = core.load_game("creature_shrines(deck0=purple,deck1=green)")
    assert load_model("default", pair).path == str(path)
    assert models.shipped(type(pair)) == [("creature_shrines", ("deck0", "deck1"))]
    # One made for the pair itself comes first.
    own = random_model(pair, hidden=(8,))
    own.save(tmp_path / "model-deck0-purple-deck1-green.npz")
    assert load_model("default", pair).across == ()
    with pytest.raises(ModelError, match=r"^no model is shipped for "
                       r"creature_shrines\(max_turns=40\) \(none at "):
        load_model("default", core.load_game("creature_shrines(max_turns=40)"))


def test_a_model_naming_a_parameter_its_game_lacks_is_refused(tmp_path):
    game = core.load_game("shrine")
    with pytest.raises(ModelError, match=r"^model: shrine has no parameter deck0 to be "
                       "trained across$"):
        Model(game, **random_model(game).weights(), across=("deck0",))
    path = _across(tmp_path)
    with np.load(path) as archive:
        named = dict(archive)
    named["across"] = np.array([1, 2])
    np.savez(tmp_path / "bad.npz", **named)
    with pytest.raises(ModelError, match="bad.npz is corrupt: across is not a list of "
                       "names$"):
        load_model(str(tmp_path / "bad.npz"), core.load_game("creature_shrines"))
