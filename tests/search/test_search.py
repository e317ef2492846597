"""The search engine through its public interface: bot specs and their errors, the
move each searcher returns, determinism, budgets, and expectimax's pruning."""
import random

import pyspiel
import pytest

import core
import search
from kit.helpers import random_step
from search.expectimax import Expectimax
from search.mcts import MCTS

OUR_KINDS = ["random", "greedy", "ismcts(iterations=60)", "mo_ismcts(iterations=60)",
             "determinized(iterations=60,worlds=3)", "cheater(iterations=60)",
             "expectimax(depth=2,worlds=2)",
             "ismcts(iterations=40,rollout=heuristic,epsilon=0.2,rollout_depth=6)",
             "ismcts(iterations=60,threads=2,parallel=root)",
             "determinized(iterations=60,worlds=3,threads=2,parallel=root)",
             "ismcts(iterations=60,blunder=0.5)"]


def midgame(game_string="shrine", seed=3, steps=60):
    """A seeded position part way into a random game, with a player to move."""
    game = core.load_game(game_string)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        random_step(state, rng)
    while state.current_player() < 0:
        random_step(state, rng)
    return game, state


def test_every_kind_is_listed_with_its_parameters():
    text = search.describe()
    for kind in search.KINDS.values():
        assert f"{kind.name}: " in text
        for name, param in kind.params.items():
            assert f"    {name}=" in text
    assert set(search.KINDS) >= {"random", "greedy", "ismcts", "mo_ismcts", "determinized",
                                 "cheater", "expectimax", "openspiel_ismcts",
                                 "openspiel_mcts"}


@pytest.mark.parametrize("spec, message", [
    ("alphazero", "unknown bot kind 'alphazero'; kinds: random, greedy, ismcts"),
    ("ismcts(iteratons=5)", "ismcts has no parameter 'iteratons'; its parameters: "
     "iterations, seconds, uct_c"),
    ("random(seed=1)", "random has no parameter 'seed'; its parameters: none"),
    ("ismcts(iterations=many)", "ismcts: iterations is an integer, not 'many'"),
    ("ismcts(iterations=0)", "ismcts: iterations must be >= 1, not 0"),
    ("ismcts(rollout=smart)", "ismcts: rollout is one of random, heuristic, not 'smart'"),
    ("ismcts(epsilon=1.5)", "ismcts: epsilon must be 0.0..1.0, not 1.5"),
    ("expectimax(star=3)", "expectimax: star must be 0..2, not 3"),
    ("ismcts(iterations=5,iterations=6)", "iterations is given twice"),
    ("ismcts(iterations=5", "cannot read bot string"),
    (7, "a bot is named by a string"),
])
def test_bad_specs_are_refused_naming_the_choices(spec, message):
    game = core.load_game("shrine")
    with pytest.raises(core.ParameterError) as err:
        search.make_bot(spec, game, 0)
    assert message in str(err.value)


def test_a_bot_needs_a_real_seat_and_a_game():
    game = core.load_game("shrine")
    for seat in (2, -1, True, "0"):
        with pytest.raises(core.ParameterError, match="player is a seat from 0 to 1"):
            search.make_bot("random", game, seat)
    with pytest.raises(core.ParameterError, match="unknown game|cannot load game"):
        search.make_bot("random", "no_such_game", 0)


def test_specs_are_normalised_and_typed():
    kind, values = search.parse_bot(" ismcts( uct_c=1 , rollout=heuristic ) ")
    assert kind == "ismcts" and values == {"uct_c": 1.0, "rollout": "heuristic"}
    bot = search.make_bot("ismcts( uct_c=1 , rollout=heuristic )", core.load_game("shrine"), 1)
    assert bot.spec == "ismcts(uct_c=1.0,rollout=heuristic)"
    assert search.parse_bot("greedy") == ("greedy", {})


@pytest.mark.parametrize("spec", OUR_KINDS)
def test_each_bot_moves_legally_and_repeats_itself_given_its_seed(spec):
    game, state = midgame()
    player = state.current_player()
    before = state.serialize()
    moves = []
    for _ in range(2):
        bot = search.make_bot(spec, game, player, seed=11)
        policy, action = bot.step_with_policy(state)
        assert action in state.legal_actions()
        assert abs(sum(p for _, p in policy) - 1) < 1e-9
        assert all(a in state.legal_actions() for a, _ in policy)
        moves.append(action)
    assert moves[0] == moves[1]
    assert state.serialize() == before, "a bot changed the state it was shown"


@pytest.mark.parametrize("spec", OUR_KINDS)
def test_bots_take_pyspiel_states_of_our_games(spec):
    spiel_game = pyspiel.load_game("shrine")
    state = spiel_game.new_initial_state()
    rng = random.Random(5)
    while state.current_player() < 0:
        state.apply_action(rng.choice(state.legal_actions()))
    bot = search.make_bot(spec, spiel_game, state.current_player(), seed=2)
    assert bot.step(state) in state.legal_actions()


def test_a_bot_moves_only_for_its_own_seat():
    game, state = midgame()
    other = 1 - state.current_player()
    bot = search.make_bot("ismcts(iterations=10)", game, other)
    with pytest.raises(search.SearchError, match=f"a bot for player {other} was asked to "
                       f"move for player {1 - other}"):
        bot.step(state)
    state = game.new_initial_state()
    with pytest.raises(search.SearchError, match="asked to move for chance"):
        search.make_bot("greedy", game, 0).step(state)


def test_searches_spend_exactly_their_iterations_and_report_them():
    game, state = midgame()
    for mode, extra in (("so", {}), ("mo", {}), ("perfect", {"worlds": 4}),
                        ("perfect", {"cheat": True})):
        searcher = MCTS(game, mode, iterations=400, seed=1, **extra)
        result = searcher.search(state)
        assert result.iterations == 400
        # Every iteration visits the root's tree once, through one of its root moves.
        assert sum(result.visits.values()) == 400
        assert set(result.visits) <= set(state.legal_actions())
        assert result.action == max(result.visits, key=lambda a: (result.visits[a], -a)) \
            or extra.get("worlds")
        assert all(0 <= v <= 1 for v in result.values.values())
        assert 1 < result.nodes <= 400 * game.num_players + 1
        assert searcher.node_bytes == 32


def test_a_blunder_is_a_uniformly_random_move_in_place_of_a_search():
    # At blunder=1 every move is a blunder: drawn evenly from the legal moves (a
    # chi-squared test at the 0.1% level over 1200 draws), with no search spent.  At
    # 0.5 about half the moves search; a seeded bot repeats its choices.
    game, state = midgame(seed=3)
    legal = state.legal_actions()
    assert len(legal) == 5
    bot = search.make_bot("ismcts(iterations=50,blunder=1)", game, state.current_player(),
                          seed=2)
    counts = {a: 0 for a in legal}
    for _ in range(1200):
        counts[bot.step(state)] += 1
        assert bot.last is None
    expected = 1200 / len(legal)
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 18.47, counts  # the 99.9th percentile of chi-squared, 4 degrees

    def moves(seed):
        bot = search.make_bot("ismcts(iterations=50,blunder=0.5)", game,
                              state.current_player(), seed=seed)
        return [(bot.step(state), bot.last is None) for _ in range(200)]

    chosen = moves(4)
    assert 70 <= sum(blundered for _, blundered in chosen) <= 130
    assert moves(4) == chosen != moves(5)


def test_a_time_budget_runs_until_its_deadline():
    game, state = midgame()
    result = MCTS(game, iterations=1, seconds=0.05, seed=1).search(state)
    assert result.seconds >= 0.05 and result.iterations > 1


def test_a_searcher_refuses_a_state_of_another_game_or_with_nobody_to_move():
    game, state = midgame()
    searcher = MCTS(core.load_game("shrine(alt_heal=true)"), iterations=5)
    with pytest.raises(search.SearchError, match="made for shrine\\(alt_heal=true\\), not shrine"):
        searcher.search(state)
    with pytest.raises(search.SearchError, match="nobody is to move"):
        MCTS(game, iterations=5).search(game.new_initial_state())


@pytest.mark.parametrize("seed", range(6))
def test_star_pruning_returns_the_plain_expectimax_values(seed):
    game, state = midgame(seed=seed, steps=30 + 40 * seed)
    if state.is_terminal():
        pytest.skip("the seeded game ended early")
    for depth in (2, 3, 4):
        plain = Expectimax(game, depth=depth, worlds=2, star=0, seed=seed).search(state)
        for star in (1, 2):
            pruned = Expectimax(game, depth=depth, worlds=2, star=star, seed=seed).search(state)
            assert pruned.values == pytest.approx(plain.values, abs=1e-9)
            assert pruned.action == plain.action


def test_expectimax_at_depth_one_scores_each_move_by_evaluate():
    # One world, sampled from the same seed as determinized(), so the values are the
    # game's evaluate (or result) after each move, rescaled to [0, 1].
    game, state = midgame()
    player = state.current_player()
    result = Expectimax(game, depth=1, worlds=1, seed=9).search(state)
    world = state.determinized(player, 9)
    for action in state.legal_actions():
        after = world.clone()
        after.apply_action(action)
        assert result.values[action] == pytest.approx((after.evaluate(player) + 1) / 2)
    assert result.action == max(sorted(result.values), key=result.values.get)


# OpenSpiel's ISMCTS refuses perfect-information games, and we refuse it hearts, whose
# resampler breaks the rules during the pass (the test below checks the refusal).
@pytest.mark.parametrize("game_string, spec", [
    (game, spec) for game in ("leduc_poker", "hearts", "tic_tac_toe")
    for spec in OUR_KINDS + ["openspiel_ismcts(iterations=30)", "openspiel_mcts(iterations=30)"]
    if game == "leduc_poker" or not spec.startswith("openspiel_ismcts")])
def test_every_kind_plays_openspiels_own_games(game_string, spec):
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    rng = random.Random(1)
    # In hearts, past the deal and the pass.
    for _ in range(80 if game_string == "hearts" else 2):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    history = state.history()
    bot = search.make_bot(spec, game, state.current_player(), seed=3)
    assert bot.step(state) in state.legal_actions()
    assert state.history() == history


def test_hearts_is_searched_in_playable_worlds_and_refused_to_openspiels_ismcts():
    # OpenSpiel's hearts resampler returns, during the pass, worlds in which a card is
    # later played by a player who does not hold it.  Worlds are played out before use.
    game = core.ForeignGame("hearts")
    assert game.can_determinize and game.checks_worlds
    assert not core.ForeignGame("leduc_poker").checks_worlds
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.current_player() < 0 or len(state.to_dict()["history"]) < 60:
        random_step(state, rng)
    assert search.make_bot("ismcts(iterations=30)", game, state.current_player()).step(state) \
        in state.legal_actions()
    with pytest.raises(core.ParameterError, match="resampler for it returns worlds that break"):
        search.make_bot("openspiel_ismcts", game, 0)


def test_searchers_that_sample_worlds_refuse_a_game_that_cannot():
    game = pyspiel.load_game("liars_dice")
    for spec in ("ismcts", "mo_ismcts", "determinized", "expectimax", "greedy"):
        with pytest.raises(core.ParameterError, match="cannot: use cheater"):
            search.make_bot(spec, game, 0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert search.make_bot("cheater(iterations=20)", game, 0).step(state) \
        in state.legal_actions()


def test_a_move_pyspiel_refuses_during_a_search_stops_it_with_a_clear_error():
    # Without the check of its worlds, hearts' resampler hands search, during the pass,
    # worlds in which a player must play a card they do not hold.
    game = core.ForeignGame("hearts")
    game.checks_worlds = False
    state = game.new_initial_state()
    rng = random.Random(11)
    decisions = 0
    while decisions < 9 or state.current_player() < 0:
        decisions += state.current_player() >= 0
        random_step(state, rng)
    bot = search.make_bot("ismcts(iterations=300)", game, state.current_player(), seed=1)
    with pytest.raises(search.SearchError, match="refused a move during the search"):
        bot.step(state)


def test_a_determinized_search_counts_the_nodes_of_every_world():
    game, state = midgame()
    result = MCTS(game, "perfect", worlds=4, iterations=400, seed=1).search(state)
    # One world of 100 iterations grows at most 101 nodes; four grow up to 404.
    assert 101 < result.nodes <= 404


def test_the_cheater_on_the_searchers_tree_reads_the_hidden_cards_and_nothing_else():
    # Two positions the player to move cannot tell apart: the honest searcher, sampling
    # worlds from what that player knows, searches them alike; the cheater handed the
    # true state at every iteration does not, and repeats itself on one position.
    game, state = midgame(seed=5)
    player = state.current_player()
    other = state.determinized(player, 11)
    assert other.to_dict() != state.to_dict()
    honest = [MCTS(game, "so", iterations=300, seed=2).search(s).visits for s in (state, other)]
    assert honest[0] == honest[1]
    spec = "cheater(iterations=300,tree=searcher)"
    cheating = [search.make_bot(spec, game, player, seed=2).step_with_policy(s)[0]
                for s in (state, other, state)]
    assert cheating[0] != cheating[1] and cheating[0] == cheating[2]
    with pytest.raises(core.ParameterError, match="tree is one of perfect, searcher"):
        search.make_bot("cheater(tree=open)", game, player)


def test_moves_tied_in_visits_and_payoff_are_drawn_among_not_taken_lowest_first():
    # Nine iterations on tic-tac-toe's empty board give each square one visit and one
    # rollout, so its 0, 1/2 or 1 ties several squares; the lowest id once won every
    # tie.  The draw is the searcher's seeded generator's: one seed, one move.
    game = core.ForeignGame(pyspiel.load_game("tic_tac_toe"))
    state = game.new_initial_state()
    chosen, tied_seeds = set(), 0
    for seed in range(40):
        result = MCTS(game, iterations=9, seed=seed).search(state)
        assert set(result.visits.values()) == {1}
        best = max(result.values.values())
        tied = sorted(a for a, v in result.values.items() if v == best)
        assert result.action in tied
        assert MCTS(game, iterations=9, seed=seed).search(state).action == result.action
        if len(tied) > 1:
            tied_seeds += 1
            chosen.add(result.action == tied[0])
    assert tied_seeds >= 10 and chosen == {True, False}
