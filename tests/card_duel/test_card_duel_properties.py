"""Properties of the Card Duel engine over many seeded random games.

Every random choice comes from a ``random.Random`` with a fixed seed (chance outcomes
drawn by their probabilities, decisions uniformly among the legal actions), so each run
plays exactly the same games.

* Invariants (every card exactly once, 26 cards to a player, hands within hand_points,
  damage totals, known hands, how a game ends), checked on the full ``to_dict`` after
  every step of random games and of games between heuristic players.
* Copies: ``clone``, ``copy.deepcopy``, ``pickle`` and ``serialize`` /
  ``deserialize_state`` give equal states that stay equal under the same actions.
* Determinization (D9, C1, C5, C6): keeps what the observer knows, moves only the split
  of the opponent's unseen cards, and samples it uniformly (chi-square tests).
* The search hooks: the heuristic value and moves make sense.
* Bad input: illegal actions, malformed positions and bad game parameters raise the
  project's errors with a clear message and change nothing.
"""
import itertools
import json
import random
import threading
from collections import Counter

import numpy as np
import pytest

import core
from card_duel_helpers import DECK, POOL, duel, pl, position, taken, value
from kit.helpers import chi_square_p_ok, follow_with_copies, random_step

VARIANTS = {
    "default": {},
    "small hands": {"hand_points": 12},
    "big hands": {"hand_points": 120},
    "long life": {"life": 60, "max_exchanges": 80},
    "short": {"max_exchanges": 4},
}


# --- invariants -------------------------------------------------------------------------

def all_cards(d):
    cards = Counter(d.get("stock", []))
    for player in d["players"]:
        for key in ("hand", "deck", "discard", "damage"):
            cards.update(player[key])
    cards.update(c for c in d["table"].values() if c)
    return cards


def owned(d, p):
    """How many cards belong to player ``p``: their own piles, the damage they have
    dealt, and their card on the table."""
    me, other = d["players"][p], d["players"][1 - p]
    n = len(me["hand"]) + len(me["deck"]) + len(me["discard"]) + len(other["damage"])
    role = "attack" if d["offense"] == p else "defense"
    return n + (d["table"][role] is not None)


def can_play(player):
    return bool(player["hand"] or player["deck"] or player["discard"])


def check_position(game, state):
    """Check the invariants on ``state``; return its ``to_dict``."""
    d = state.to_dict()
    params = game.params
    assert all_cards(d) == DECK
    assert 0 <= d["exchange"] <= params["max_exchanges"]
    if d["phase"] == "deal":
        assert not any(d["players"][1][k] for k in ("hand", "deck"))
        assert len(d["players"][0]["deck"]) < POOL
    else:
        assert "stock" not in d
        for p, player in enumerate(d["players"]):
            assert owned(d, p) == POOL
            points = sum(value(c) for c in player["hand"])
            assert points + player["hand_points_spent"] <= params["hand_points"]
            if d["phase"] != "build" and not player["deck"]:
                assert player["hand_known"]
            if not state.is_terminal():
                assert taken(player) < params["life"]
    if d["phase"] in ("deal", "build"):
        assert d["exchange"] == 0 and all(taken(player) == 0 for player in d["players"])
    player = state.current_player()
    legal = state.legal_actions()
    if state.is_terminal():
        assert d["phase"] == "over" and legal == []
        return d
    assert legal and legal == sorted(set(legal))
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(prob for _, prob in outcomes) - 1.0) < 1e-9
    else:
        assert player in (0, 1) and state.chance_outcomes() == []
    return d


def check_game_over(game, d, state):
    if d["winner"] == "draw":
        assert d["exchange"] == game.params["max_exchanges"]
        assert state.returns() == [0.0, 0.0]
        return "draw"
    winner = d["winner"]
    loser = d["players"][1 - winner]
    assert taken(d["players"][winner]) < game.params["life"]
    assert state.returns() == ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])
    if taken(loser) >= game.params["life"]:
        return "damage"
    assert not can_play(loser)
    return "no card"


def play_checked(game, seed, stats, heuristic=False):
    """Play one seeded game, checking every position, by random or heuristic players."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    d = check_position(game, state)
    steps = 0
    while not state.is_terminal():
        before = d
        if heuristic and not state.is_chance_node():
            state.apply_action(state.heuristic_action(seed))
        else:
            random_step(state, rng)
        steps += 1
        assert steps <= game.max_game_length
        d = check_position(game, state)
        for p in (0, 1):
            # Damage only ever grows, and only by the one card of an exchange.
            grown = Counter(d["players"][p]["damage"]) - Counter(before["players"][p]["damage"])
            assert sum(grown.values()) <= 1 and not (
                Counter(before["players"][p]["damage"]) - Counter(d["players"][p]["damage"]))
            if before["players"][p]["hand_known"] and before["phase"] != "build":
                assert d["players"][p]["hand_known"]
        assert d["exchange"] - before["exchange"] in (0, 1)
        if d["exchange"] != before["exchange"] and not state.is_terminal():
            assert d["table"] == {"attack": None, "defense": None} and d["phase"] == "attack"
            stats["exchanges"] += 1
        stats["reshuffles"] += any(
            len(a["deck"]) > len(b["deck"]) for a, b in zip(d["players"], before["players"])
            if d["phase"] not in ("deal", "build"))
    stats[check_game_over(game, d, state)] += 1
    stats[f"winner {d['winner']}"] += 1
    return state


@pytest.mark.parametrize("variant,games", [("default", 500), ("small hands", 150),
                                           ("big hands", 150), ("long life", 100),
                                           ("short", 100)])
def test_invariants_in_random_games(variant, games):
    """500 default games and 100-150 of each other setting, seeds 0.., invariants checked
    on the full position after every step: all 52 cards exactly once; 26 cards to each
    player once dealt; hand plus the points played from it within hand_points; damage
    only grows, one card at a time, and stays below life while the game goes on; a
    player whose deck is empty has a known hand, and a known hand stays known; each
    exchange ends with an empty table; a game ends with the loser at life in damage or
    without a card to play (+1/-1), or at max_exchanges (0/0)."""
    game = duel(**VARIANTS[variant])
    stats = Counter()
    for seed in range(games):
        play_checked(game, seed, stats)
    assert stats["winner 0"] > 0 and stats["winner 1"] > 0
    if variant == "short":
        assert stats["draw"] > 0
    if variant == "long life":
        assert stats["reshuffles"] > 0


def test_invariants_in_games_between_heuristic_players():
    stats = Counter()
    for seed in range(100):
        play_checked(duel(), seed, stats, heuristic=True)
    assert stats["winner 0"] > 0 and stats["winner 1"] > 0


def test_a_player_with_no_card_to_play_loses_in_long_games():
    """With life out of reach, games run until a player has nothing left, or to
    max_exchanges."""
    stats = Counter()
    game = duel(life=256, max_exchanges=2000)
    for seed in range(40):
        play_checked(game, seed, stats)
    assert stats["no card"] > 0


# --- copies ---------------------------------------------------------------------------

@pytest.mark.parametrize("variant,games", [("default", 30), ("big hands", 10),
                                           ("long life", 10)])
def test_copies_equal_and_stay_equal(variant, games):
    """After every step of seeded random games: a fresh clone equals the state and is
    independent of it; four twins, remade at every step from themselves by clone,
    deepcopy, a pickle round trip and a serialize/deserialize_state round trip, follow
    the game action by action and stay equal to it."""
    game = duel(**VARIANTS[variant])
    for seed in range(300, 300 + games):
        follow_with_copies(game, seed)


# --- determinization ------------------------------------------------------------------

def sample_positions(game, games, seed):
    """Positions at random points of random games, four a game, at least one of them
    while hands are built."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = game.new_initial_state()
        history = []
        while not state.is_terminal():
            history.append(state.clone())
            random_step(state, rng)
        history.append(state)
        building = [s for s in history if s.to_dict()["phase"] == "build"]
        positions += rng.sample(history, 3) + rng.sample(building, 1)
    return positions


def unseen(d, q):
    return Counter(d["players"][q]["hand"]) + Counter(d["players"][q]["deck"])


@pytest.mark.parametrize("variant,games", [("default", 150), ("small hands", 50),
                                           ("big hands", 50)])
def test_determinization_keeps_what_the_observer_knows(variant, games):
    """Four positions from each seeded random game; for both observers and two seeds
    each: the observer's information state string, observation_dict and tensor are
    unchanged; everything but the opponent's hand and deck is unchanged; those two
    hold the same cards between them, the hand keeps its size once hands are built
    and stays within hand_points with the points played from it; so the observer's
    legal actions are unchanged when it acts; a seed always gives the same world and
    the original is untouched."""
    game = duel(**VARIANTS[variant])
    master = random.Random(7)
    moved = Counter()
    for state in sample_positions(game, games, seed=2000):
        original = state.to_dict()
        for observer in (0, 1):
            q = 1 - observer
            iss = state.information_state_string(observer)
            view = state.observation_dict(observer)
            tensor = state.observation_tensor(observer)
            for _ in range(2):
                seed = master.getrandbits(64)
                world = state.determinized(observer, seed)
                d = check_position(game, world)
                assert world.information_state_string(observer) == iss
                assert world.observation_dict(observer) == view
                assert np.array_equal(world.observation_tensor(observer), tensor)
                rest = {k: v for k, v in d.items() if k != "players"}
                assert rest == {k: v for k, v in original.items() if k != "players"}
                assert d["players"][observer] == original["players"][observer]
                theirs, was = d["players"][q], original["players"][q]
                assert {k: v for k, v in theirs.items() if k not in ("hand", "deck")} == \
                    {k: v for k, v in was.items() if k not in ("hand", "deck")}
                assert unseen(d, q) == unseen(original, q)
                if original["phase"] != "build":
                    assert len(theirs["hand"]) == len(was["hand"])
                if state.current_player() == observer:
                    assert world.legal_actions() == state.legal_actions()
                assert state.to_dict() == original
                assert state.determinized(observer, seed).to_dict() == d
                moved[original["phase"]] += theirs["hand"] != was["hand"]
    assert moved["build"] > 0 and moved["attack"] + moved["defend"] > 0


def expected_worlds(cards, size, budget):
    """The probability of each hand of ``size`` cards (any size if None) out of
    ``cards`` worth at most ``budget``, if every set of physical cards that fits is
    equally likely."""
    weights = Counter()
    # ``cards`` ascend by value: past the first size whose lowest cards overflow the
    # budget, nothing fits.
    sizes = [k for k in range(len(cards) + 1)
             if sum(value(c) for c in cards[:k]) <= budget and size in (None, k)]
    for k in sizes:
        for combo in itertools.combinations(range(len(cards)), k):
            hand = [cards[i] for i in combo]
            if sum(value(c) for c in hand) <= budget:
                weights[tuple(sorted(hand, key=value))] += 1
    total = sum(weights.values())
    return {w: n / total for w, n in weights.items()}


def after_building():
    """Player 1 holds two of A 10 10 5 3 2 and has played 17 points from hand: the two
    cards are worth 13 at most. Six hands fit, two of them twice as likely (two tens)."""
    return position(pl("A"), pl("5 3", "A 10 10 2", spent=17))


def while_building():
    """Player 0 kept a hand under hand_points 5 from a pool with 2 2 3 4 5 and nothing
    else below 6; player 1 builds. Seven hands fit, 2 and 2+3 twice as likely."""
    deck0 = "2 2 4 5 6 6 6 6 7 7 7 7 8 8 8 8 9 9 9 9 10 10 10 10 10"
    return position(pl("3", deck0), pl(), duel(hand_points=5), phase="build", builder=1)


@pytest.mark.parametrize("make,size,budget,worlds", [(after_building, 2, 13, 6),
                                                     (while_building, None, 5, 7)],
                         ids=["after building", "while building"])
def test_determinization_is_uniform_over_worlds(make, size, budget, worlds):
    """Observer 0 (after building) or 1 (while building) cannot see how the opponent's
    unseen cards split; 4000 determinizations (seeds from master seed 11) must hit
    each hand that fits as often as a uniform choice of physical cards would.
    Chi-square goodness of fit at alpha = 0.001: a correct sampler fails one time in a
    thousand, and the fixed seeds make the outcome the same on every run."""
    state = make()
    observer = 0 if size is not None else 1
    q = 1 - observer
    cards = sorted((unseen(state.to_dict(), q)).elements(), key=value)
    expected = expected_worlds(cards, size, budget)
    assert len(expected) == worlds
    samples = 4000
    master = random.Random(11)
    observed = Counter()
    for _ in range(samples):
        world = state.determinized(observer, master.getrandbits(64))
        observed[tuple(world.to_dict()["players"][q]["hand"])] += 1
    assert set(observed) <= set(expected), set(observed) - set(expected)
    ok, stat = chi_square_p_ok(observed, expected, samples)
    assert ok, f"chi-square {stat:.1f} with {len(expected) - 1} degrees of freedom"


def test_chi_square_check_rejects_a_biased_sampler():
    """The chi-square check itself can fail: hands drawn with one hand twice as likely
    as it should be are rejected."""
    state = after_building()
    expected = expected_worlds(sorted(unseen(state.to_dict(), 1).elements(), key=value), 2, 13)
    keys = sorted(expected)
    biased = dict(expected)
    biased[keys[0]] *= 2
    total = sum(biased.values())
    rng = random.Random(3)
    observed = Counter(rng.choices(keys, [biased[k] / total for k in keys], k=4000))
    assert not chi_square_p_ok(observed, expected, 4000)[0]


def test_determinization_while_building_keeps_the_classes_not_chosen_yet_in_the_deck():
    """Player 1 chooses how many 3s to keep under hand_points 5, after the 5s and the
    4s: the hand is empty, a 4 or a 5, four times as likely each as empty, and never
    holds a 2 or a 3."""
    high = " ".join(["8", "8"] + ["9"] * 4 + ["10"] * 16 + ["A"] * 4)
    state = position(pl("", high), pl(), duel(hand_points=5), phase="build", builder=1,
                     building="3")
    master = random.Random(5)
    hands = Counter(tuple(state.determinized(0, master.getrandbits(64)).to_dict()
                          ["players"][1]["hand"]) for _ in range(900))
    assert set(hands) == {(), ("4",), ("5",)}
    assert 50 < hands[()] < 150


def test_determinization_with_large_hands_finds_a_hand_that_fits():
    """Under hand_points 256 a hand of many cards must still be sampled exactly, with
    the few worlds that fit a tight budget: 12 unseen low cards, 8 of them in hand,
    played points leaving room for the 8 lowest only."""
    low = "2 2 2 2 3 3 3 3"
    state = position(pl("A"), pl(low, "4 4 4 4", spent=256 - 20), duel(hand_points=256))
    for seed in range(20):
        assert state.determinized(0, seed).to_dict()["players"][1]["hand"] == low.split()


def test_a_determinization_is_the_same_whatever_was_determinized_before():
    """A thread keeps the last tables of ways it counted, for the next determinization
    of the same information set: one of another set in between must not change the
    world a seed gives.  Each world is checked against the one a new thread, which
    has counted nothing yet, draws from the same seed."""
    states = [after_building(), while_building(),
              position(pl("A"), pl("5 3 2", "A 10 10", spent=12))]
    observers = [0, 1, 0]

    def on_a_new_thread(state, observer, seed):
        world = []
        thread = threading.Thread(
            target=lambda: world.append(state.determinized(observer, seed).to_dict()))
        thread.start()
        thread.join()
        return world[0]

    for seed in range(10):
        for before in range(len(states)):
            for state, observer in zip(states, observers):
                states[before].determinized(observers[before], seed + 1)
                assert state.determinized(observer, seed).to_dict() == on_a_new_thread(
                    state, observer, seed)


# --- the search hooks ---------------------------------------------------------------

def test_evaluate_favours_the_player_with_more_life_left():
    ahead = position(pl("9"), pl("9", damage="10 5"))
    assert ahead.evaluate(0) > 0.3 and ahead.evaluate(1) < -0.3
    assert ahead.evaluate(0) == pytest.approx(-ahead.evaluate(1))
    # Damage about to land counts: the best card it can come from.
    due = position(pl("A"), pl("2", damage="5"), phase="damage",
                   table={"attack": "9", "defense": "2"})
    assert due.evaluate(0) > position(pl("A"), pl("2", damage="5")).evaluate(0)


def test_heuristic_builds_the_strongest_hand_that_fits():
    state = position(pl(deck="2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9 10 10 10 10 10 10 10 10 A A"),
                     pl(), phase="build")
    while state.current_player() == 0:
        state.apply_action(state.heuristic_action())
    assert state.to_dict()["players"][0]["hand"] == ["8", "A", "A"]


@pytest.mark.parametrize("hand,deck,choice", [
    ("3 8 10", "2 2 2 2", "defend with 8 from hand"),
    ("3 4", "2 9 10 10", "defend with top of deck"),
    ("3 8", "10 10 10 A", "defend with top of deck"),
])
def test_heuristic_defends_with_the_cheapest_card_that_stops_the_attack(hand, deck, choice):
    """The cheapest hand card that stops a 7; the deck when it nearly surely stops it,
    or when no hand card can."""
    state = position(pl("A"), pl(hand, deck), phase="defend", table={"attack": "7"})
    assert state.action_to_string(state.heuristic_action()) == choice


def test_heuristic_throws_the_cheapest_card_when_nothing_can_stop_the_attack():
    # Player 1 has no deck or discard pile: the rest of the pool is damage dealt.
    dealt = "2 2 2 2 3 3 3 5 5 5 5 6 6 6 6 7 7 7 7 8 8 8 8 9"
    state = position(pl(damage=dealt), pl("3 4", ""), duel(life=256), phase="defend",
                     table={"attack": "9"})
    assert state.action_to_string(state.heuristic_action()) == "defend with 3 from hand"


@pytest.mark.parametrize("hand,damage,choice", [
    ("2 A", "", "damage with A from hand"),
    ("2 3", "", "damage with top of deck"),
    ("2 3", "10 9", "damage with 3 from hand"),
])
def test_heuristic_damages_with_its_best_card_or_the_deck(hand, damage, choice):
    state = position(pl(hand), pl("2", damage=damage), phase="damage",
                     table={"attack": "9", "defense": "2"})
    assert state.action_to_string(state.heuristic_action()) == choice


def test_heuristic_attacks_from_the_deck_and_saves_the_hand():
    assert position(pl("A 9"), pl("9")).heuristic_action() == 10


def test_heuristic_players_beat_random_players():
    """Over 200 seeded games in each seat, the heuristic player scores well above a
    random one: real game knowledge, not a legal move picker."""
    game = duel()
    for seat in (0, 1):
        score = 0.0
        for seed in range(200):
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.current_player() == seat:
                    state.apply_action(state.heuristic_action(seed))
                else:
                    random_step(state, rng)
            score += state.returns()[seat]
        assert score / 200 > 0.2, (seat, score / 200)


# --- bad input ------------------------------------------------------------------------

def mid_game_state(seed=42, steps=60):
    rng = random.Random(seed)
    state = duel().new_initial_state()
    for _ in range(steps):
        random_step(state, rng)
    assert not state.is_terminal()
    return state


def node(kind):
    rng = random.Random(9)
    state = mid_game_state()
    while ("chance" if state.is_chance_node() else "decision") != kind:
        random_step(state, rng)
    return state


@pytest.mark.parametrize("kind", ["chance", "decision"])
@pytest.mark.parametrize("action,message", [
    ("illegal", r"action \d+ is \(.*\) not legal here; legal: "),
    (-1, r"action -1 is out of range; legal: "),
    (28, r"action 28 is out of range; legal: "),
    ("3", r"an action is an int, not str"),
    (2.5, r"an action is an int, not float"),
    (True, r"an action is an int, not bool"),
])
def test_bad_actions_raise_and_change_nothing(kind, action, message):
    state = node(kind)
    legal = state.legal_actions()
    if action == "illegal":
        action = next(a for a in range(28) if a not in legal)
    before = state.to_dict()
    with pytest.raises(core.IllegalActionError, match=message):
        state.apply_action(action)
    assert state.to_dict() == before
    state.apply_action(legal[0])


def test_actions_on_a_finished_game_raise_game_over():
    rng = random.Random(5)
    state = duel().new_initial_state()
    while not state.is_terminal():
        random_step(state, rng)
    before = state.to_dict()
    for action in (0, 10, 21, -1):
        with pytest.raises(core.GameOverError, match=r"the game is over; cannot apply"):
            state.apply_action(action)
    assert state.to_dict() == before


def test_numpy_integer_actions_are_accepted():
    state = node("decision")
    twin = state.clone()
    state.apply_action(np.int64(state.legal_actions()[-1]))
    twin.apply_action(twin.legal_actions()[-1])
    assert state == twin


def base():
    """A position in an attack, both players with cards in every pile."""
    return position(pl("A 2", discard="9 9", damage="3", spent=11),
                    pl("10", discard="4", damage="5 8", spent=10), offense=1, exchange=5)


def edit(how):
    d = base().to_dict()
    how(d)
    return d


def move(d, p, pile, q, to, card):
    """Move ``card`` from player ``p``'s ``pile`` to player ``q``'s ``to``."""
    d["players"][p][pile].remove(card)
    d["players"][q][to].append(card)


def edit_building(how):
    """A position in which player 0 chooses how many 8s to keep, with nothing kept yet."""
    d = position(pl(), pl(), phase="build").to_dict()
    how(d)
    return d


MALFORMED = [
    ("a list", [1, 2], r"a position is a dict, not list"),
    ("unknown key", edit(lambda d: d.update(suit="hearts")), r"unknown keys \['suit'\]"),
    ("players not two", edit(lambda d: d["players"].pop()), r"players must be a list of two"),
    ("unknown player key", edit(lambda d: d["players"][0].update(life=3)),
     r"players\[0\]: unknown keys \['life'\]"),
    ("an observation", base().observation_dict(0),
     r"players\[1\]\.unseen: an observation is not a position"),
    ("hand not a list", edit(lambda d: d["players"][0].update(hand="A")),
     r"players\[0\]\.hand must be a list of cards"),
    ("a face card", edit(lambda d: d["players"][1]["hand"].append("K")),
     r"players\[1\]\.hand\[1\]: 'K' is not a card .* a 10 stands for 10, J, Q or K"),
    ("a number for a card", edit(lambda d: d["players"][0]["discard"].append(7)),
     r"players\[0\]\.discard\[2\]: 7 is not a card"),
    ("a fifth Ace", edit(lambda d: d["players"][0]["discard"].append("A")),
     r"more cards than the deck holds: A"),
    ("a card missing", edit(lambda d: d["players"][0]["deck"].pop()),
     r"cards missing from the position: "),
    ("pools not 26", edit(lambda d: d["players"][1]["deck"].append(d["players"][0]["deck"].pop())),
     r"player 0's cards .* number 25, not 26"),
    ("hand over hand_points", edit(lambda d: d["players"][0].update(hand_points_spent=20)),
     r"players\[0\]: the hand \(13 points\) and the points played from it \(20\) exceed"),
    ("spent not an int", edit(lambda d: d["players"][0].update(hand_points_spent="11")),
     r"players\[0\]\.hand_points_spent must be an integer from 0 to 30, not '11'"),
    ("bad phase", edit(lambda d: d.update(phase="lunch")), r"phase must be one of .*'lunch'"),
    ("exchange not an int", edit(lambda d: d.update(exchange="5")),
     r"exchange must be an integer from 0 to 300, not '5'"),
    ("exchange at the end", edit(lambda d: d.update(exchange=300)),
     r"exchange 300 is at max_exchanges, but the game has no winner"),
    ("over without winner", edit(lambda d: d.update(phase="over")),
     r"phase 'over' needs a winner"),
    ("winner while playing", edit(lambda d: d.update(winner=0, phase="attack")),
     r"a game with a winner is in phase 'over', not 'attack'"),
    ("winner while dealing", dict(duel().new_initial_state().to_dict(), winner=1),
     r"a game with a winner is in phase 'over', not 'deal'"),
    ("winner while building", dict(position(pl(), pl(), phase="build").to_dict(), winner=0),
     r"a game with a winner is in phase 'over', not 'build'"),
    ("winner without a reason", edit(lambda d: d.update(winner=0, phase="over")),
     r"winner: player 0 wins only once player 1 has taken life"),
    ("draw too early", edit(lambda d: d.update(winner="draw", phase="over")),
     r"winner: a draw comes only at max_exchanges"),
    ("bad winner", edit(lambda d: d.update(winner=3)), r"winner must be 0, 1, \"draw\" or null"),
    ("dead but playing", edit(lambda d: [move(d, 1, "deck", 0, "damage", "10") for _ in "ab"]),
     r"players\[0\] has taken 23 damage, at least life \(22\)"),
    ("damage without defense", edit(lambda d: d.update(phase="damage")),
     r"table: in phase 'damage' the table holds the attack and defense cards"),
    ("a defense with no attack card", edit(lambda d: d.update(phase="defend")),
     r"table: in phase 'defend' the table holds the attack card only"),
    ("a card on the table in an attack",
     edit(lambda d: d["table"].update(attack=d["players"][1]["deck"].pop())),
     r"table: in phase 'attack' the table holds no card"),
    ("table not a dict", edit(lambda d: d.update(table=["A"])),
     r"table must be a dict with attack and defense"),
    ("draw without its card", edit(lambda d: d.update(phase="draw")),
     r"phase 'draw' needs drawing_for"),
    ("drawing_for outside a draw", edit(lambda d: d.update(drawing_for="attack")),
     r"drawing_for is only for phase 'draw'"),
    ("stock after the deal", edit(lambda d: d.update(stock=[])),
     r"stock is only for phase 'deal'"),
    ("builder outside building", edit(lambda d: d.update(builder=1)),
     r"builder is only for phase 'build'"),
    ("building outside building", edit(lambda d: d.update(building="A")),
     r"building is only for phase 'build'"),
    ("building a class the pool lacks", edit_building(lambda d: d.update(building="A")),
     r"building: player 0 chooses how many of a class to keep only if their deck holds"),
    ("a hand being built holding a class not chosen yet",
     edit_building(lambda d: move(d, 0, "deck", 0, "hand", "2")),
     r"players\[0\]\.hand: classes are chosen from the Ace down, so while 8 is chosen"),
    ("hand_known not a bool", edit(lambda d: d["players"][1].update(hand_known="yes")),
     r"players\[1\]\.hand_known must be true or false"),
    ("an empty deck, the hand unknown",
     edit(lambda d: (d["players"][0]["discard"].extend(d["players"][0]["deck"]),
                     d["players"][0].update(deck=[], hand_known=False))),
     r"players\[0\]\.hand_known: a player whose deck has run out"),
    ("current player", edit(lambda d: d.update(current_player=0)),
     r"current_player 0 does not match the phase \(1\)"),
    ("played while building", edit(lambda d: d.update(phase="build")),
     r"in phase 'build' no card has been played yet"),
]


@pytest.mark.parametrize("case,desc,message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_positions_are_refused_by_name(case, desc, message):
    game = duel()
    with pytest.raises(core.StateFormatError, match=message):
        game.state_from_dict(desc)
    with pytest.raises(core.StateFormatError, match=message):
        game.deserialize_state(json.dumps(desc))


def test_the_base_position_and_text_that_is_no_position():
    assert duel().deserialize_state(base().serialize()) == base()
    for text in ("", "{players: [", "42"):
        with pytest.raises(core.StateFormatError,
                           match=r"not a serialized card_duel state|a position is a dict"):
            duel().deserialize_state(text)


@pytest.mark.parametrize("spec,params,message", [
    ("card_duel", {"life": 0}, r"life must be from 1 to 256 .*, not 0"),
    ("card_duel", {"life": -5}, r"life must be from 1 to 256 .*, not -5"),
    ("card_duel(life=257)", {}, r"life must be from 1 to 256 \(256: the most damage a pool"),
    ("card_duel(hand_points=-1)", {}, r"hand_points must be from 0 to 256 .*, not -1"),
    ("card_duel", {"hand_points": 1000}, r"hand_points must be from 0 to 256 .*, not 1000"),
    ("card_duel", {"max_exchanges": 0}, r"max_exchanges must be from 1 to 30000 .*, not 0"),
    ("card_duel(max_exchanges=10**6)", {}, r"parameter max_exchanges must be int"),
    ("card_duel", {"life": 2.5}, r"card_duel parameter life must be int \(default 22\)"),
    ("card_duel", {"life": True}, r"parameter life must be int"),
    ("card_duel(life=abc)", {}, r"parameter life must be int .*'abc'"),
    ("card_duel(lives=3)", {}, r"card_duel has no parameter 'lives'; its parameters are: "
                               r"hand_points \(default 30\), life \(default 22\), "
                               r"max_exchanges \(default 300\)"),
])
def test_bad_game_parameters(spec, params, message):
    with pytest.raises(core.ParameterError, match=message):
        core.load_game(spec, **params)


def test_good_game_parameters_load():
    game = core.load_game("card_duel(hand_points=0,life=1,max_exchanges=30000)")
    assert game.params == {"hand_points": 0, "life": 1, "max_exchanges": 30000}
    assert str(game) == "card_duel(hand_points=0,life=1,max_exchanges=30000)"
    assert core.load_game("card_duel", life=np.int32(40)).params["life"] == 40


def test_every_action_id_has_a_name():
    state = base()
    all_names = [state.action_to_string(a) for a in range(duel().num_distinct_actions)]
    assert all_names[9] == "attack with A from hand" and all_names[10] == "attack with top of deck"
    assert all_names[11] == "keep 0 cards of the class being built"
    assert all_names[27] == "keep 16 cards of the class being built"
    with pytest.raises(core.IllegalActionError, match=r"out of range: ids run from 0 to 27"):
        state.action_to_string(28)

