"""Shrine's knowledge for search: ``evaluate`` and ``heuristic_action``
(docs/rules/shrine.md, "What search knows about Shrine").

The statistical tests play seeded games, so every run plays the same ones. Each makes
a one-sided exact binomial test at 99% confidence and states the rate it measured.
"""
import math
import random

import pytest

from kit.helpers import names, random_step
from shrine_helpers import act, pl, position, VARIANTS

import core

CONFIDENCE = 0.99


def binomial_tail(successes, trials, p=0.5):
    """P(X >= successes) for X ~ Binomial(trials, p): the p-value of the one-sided test
    of "the true rate is at most ``p``"."""
    return sum(math.comb(trials, k) * p ** k * (1 - p) ** (trials - k)
               for k in range(successes, trials + 1))


def greedy_move(state, rng):
    """The greedy player sees only what it knows: it chooses in a world dealt anew from
    its information set, where each action id means what it means in the real one."""
    player = state.current_player()
    world = state.determinized(player, rng.getrandbits(32))
    return world.heuristic_action(rng.getrandbits(32))


def random_move(state, rng):
    return rng.choice(state.legal_actions())


def play_game(game, seed, players, visit=None):
    """Play a seeded game, ``players[p]`` choosing for player p and chance drawn by its
    probabilities; ``visit`` sees every state before it moves on.  Returns the end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if visit:
            visit(state, rng)
        if state.is_chance_node():
            random_step(state, rng)
        else:
            state.apply_action(players[state.current_player()](state, rng))
    return state


def dealt(state):
    return not state.is_terminal() and "dealt" not in state.to_dict()


# --- heuristic_action: strength ---------------------------------------------------------

# Games of 200 the greedy player won against the random one when this was written.
GREEDY_WINS = {"shrine": 200, "shrine(balance=true)": 200, "shrine(balance_returns=true)": 195,
               "shrine(alt_heal=true)": 200, "shrine(alt_fizzle=true)": 198,
               "shrine(balance=true,alt_heal=true,alt_fizzle=true)": 199}


@pytest.mark.parametrize("game_string", VARIANTS)
def test_greedy_player_beats_a_uniform_random_player(game_string):
    """200 games, seats alternating; a draw counts as a loss.  The exact binomial test
    rejects "the greedy player wins at most half its games" at 99% confidence (with
    200 wins of 200, as measured under the default rules, the p-value is 6e-61), and
    the wins stay within 10 of those measured (GREEDY_WINS)."""
    game, n = core.load_game(game_string), 200
    wins = 0
    for i in range(n):
        seat = i % 2
        players = [greedy_move, random_move] if seat == 0 else [random_move, greedy_move]
        wins += play_game(game, i, players).returns()[seat] == 1
    assert binomial_tail(wins, n) < 1 - CONFIDENCE, wins
    assert wins >= GREEDY_WINS[game_string] - 10, wins


# --- evaluate: what it predicts and what it reads ----------------------------------------

# How often the sign of evaluate agreed with the winner when this was written.  Under
# balance_returns it is near chance (56%, not significant): the Joker comes back again
# and again, levelling the two sides each time, so a lead says little about the end.
MEASURED = {"shrine": 0.860, "shrine(balance=true)": 0.767, "shrine(alt_heal=true)": 0.873,
            "shrine(alt_fizzle=true)": 0.830,
            "shrine(balance=true,alt_heal=true,alt_fizzle=true)": 0.785}


@pytest.mark.parametrize("game_string", sorted(MEASURED))
def test_evaluate_predicts_the_winner(game_string):
    """One position from each of 300 seeded greedy-versus-greedy games, taken at a
    uniformly random step after the deal so that the trials are independent, and
    judged by one player, alternating; drawn games are left out.  The sign of
    ``evaluate`` agrees with the winner more often than chance by the exact binomial
    test at 99% confidence (measured rates in MEASURED, 258 of 300 under the default
    rules), and the rate stays within 8 points of what was measured."""
    game = core.load_game(game_string)
    agree = trials = 0
    for i in range(300):
        states = []
        final = play_game(game, 1000 + i, [greedy_move, greedy_move],
                          lambda state, rng: states.append(state.clone()) if dealt(state)
                          else None)
        if final.returns()[0] == 0:
            continue
        player = i % 2
        state = random.Random(i).choice(states)
        trials += 1
        agree += state.evaluate(player) * final.returns()[player] > 0
    assert binomial_tail(agree, trials) < 1 - CONFIDENCE, (agree, trials)
    assert agree / trials >= MEASURED[game_string] - 0.08, (agree, trials)


def positions(game, games, every=5):
    """Every ``every``-th state after the deal of seeded games between the greedy
    player and a random one, which between them reach varied positions."""
    found = []
    for seed in range(games):
        players = [greedy_move, random_move] if seed % 2 else [random_move, greedy_move]
        play_game(game, seed, players,
                  lambda state, rng: found.append(state.clone())
                  if dealt(state) and rng.random() < 1 / every else None)
    return found


@pytest.mark.parametrize("game_string", VARIANTS)
def test_evaluate_lies_in_range_and_reads_only_what_the_player_knows(game_string):
    """A value in [-1, 1] that every world dealt from the player's information set
    agrees on: the opponent's hidden cards, face-down Shrine cards and the Library
    never move it."""
    game = core.load_game(game_string)
    for i, state in enumerate(positions(game, 30)):
        for player in range(2):
            value = state.evaluate(player)
            assert -1 <= value <= 1
            for seed in range(3):
                assert state.determinized(player, 100 * i + seed).evaluate(player) == value


@pytest.mark.parametrize("game_string", VARIANTS)
def test_evaluate_is_antisymmetric_when_each_player_knows_the_others_hand(game_string):
    """Each player judges from what they know; once both know both hands, the two
    judgements are the same one seen from either side."""
    game = core.load_game(game_string)
    for state in positions(game, 20):
        desc = state.to_dict()
        # Hands shown are no longer hidden cards of any pile: one pile, as at the start.
        desc.pop("piles", None)
        desc.pop("library_pile", None)
        for player in desc["players"]:
            player["hand_seen"] = player["hand"]
            player.pop("hand_piles", None)
            player.pop("shrine_piles", None)
        open_hands = game.state_from_dict(desc)
        assert open_hands.evaluate(0) == pytest.approx(-open_hands.evaluate(1), abs=1e-12)


def test_evaluate_prefers_the_side_that_is_ahead():
    ahead = position(pl("5B 9R", "2B 6R 8B 3R", "JB"), pl("4R 7B", "9B"))
    assert ahead.evaluate(0) > 0.5 > -0.5 > ahead.evaluate(1)


# --- heuristic_action: legal, repeatable, and blind to what the player cannot see ---------

@pytest.mark.parametrize("game_string", VARIANTS)
def test_heuristic_action_is_legal_repeatable_and_leaves_the_state_alone(game_string):
    """At every node of seeded games, mostly steered by the heuristic itself and
    sometimes at random: a legal action at each decision, the same one for the same
    seed, None at chance nodes, and the state unchanged."""
    game = core.load_game(game_string)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            before = state.serialize()
            choice = state.heuristic_action(seed)
            assert state.serialize() == before
            if state.is_chance_node():
                assert choice is None
                random_step(state, rng)
                continue
            legal = state.legal_actions()
            assert choice in legal and state.heuristic_action(seed) == choice
            state.apply_action(choice if rng.random() < 0.7 else rng.choice(legal))


# The acting player's own choices.  An answer or a counter looks one decision further,
# at the other player's reply, which reads that player's hand in the world given.
OWN_CHOICES = {"start", "action", "resurrection", "jack discard", "discard"}


@pytest.mark.parametrize("game_string", [v for v in VARIANTS if "balance" not in v])
def test_heuristic_action_of_the_acting_player_ignores_cards_it_cannot_see(game_string):
    """Its own actions, draws and discards are the same in every world dealt from its
    information set.  (With the Balance card this does not hold: an attack may turn up
    a face-down Joker, whose Balance the look ahead then plays out.)"""
    game = core.load_game(game_string)
    for i, state in enumerate(positions(game, 30, every=3)):
        if state.is_chance_node() or state.to_dict()["phase"] not in OWN_CHOICES:
            continue
        player = state.current_player()
        choice = state.heuristic_action(i)
        for seed in range(3):
            assert state.determinized(player, 100 * i + seed).heuristic_action(i) == choice


def test_heuristic_action_takes_the_last_shrine_card():
    state = position(pl("9B 5B 2R", "2B 6R"), pl("3R 4B", "9R"))
    state.apply_action(state.heuristic_action(0))
    assert state.returns() == [1, -1]


def test_heuristic_answer_fizzles_an_attack_on_the_last_shrine_card():
    # Player 0 keeps one card beside the attack: too few to counter the Fizzle.
    state = position(pl("9B 5R", "2B 6R"), pl("2B 3B 4R", "9R"))
    act(state, "attack 9B -> 9R")
    assert names(state) == ["no response", "fizzle"]
    assert state.action_to_string(state.heuristic_action(0)) == "fizzle"


def test_heuristic_counters_a_fizzle_of_a_winning_attack():
    state = position(pl("9B 2R 3R 4R", "2B 6R"), pl("2B 3B 4B", "9R"))
    act(state, "attack 9B -> 9R")
    act(state, "fizzle")
    assert state.action_to_string(state.heuristic_action(0)) == "counter-fizzle"
