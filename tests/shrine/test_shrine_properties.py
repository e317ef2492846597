"""Properties of the Shrine engine over many seeded random games.

Every random choice comes from a ``random.Random`` with a fixed seed (chance outcomes
drawn by their probabilities, decisions uniformly among the legal actions), so each run
plays exactly the same games.

* Invariants (card conservation, Shrine capacity, one token of a kind per Field, the
  hand limit at every turn's end, how a game ends), checked on the full ``to_dict``
  after every step of 1000 default games and 300 games of each optional rule.
* Copies: ``clone``, ``copy.deepcopy``, ``pickle`` and ``serialize`` /
  ``deserialize_state`` give equal states that stay equal under the same actions.
* Determinization (S2): keeps what the observer knows and every public fact, and
  samples the hidden cards uniformly (a chi-square test on small positions).
* Bad input: illegal actions, malformed serialized states and bad game parameters raise
  the project's errors with a clear message and change nothing.
* A Hypothesis fuzz of action sequences.
"""
import copy
import itertools
import json
import pickle
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import core
from core.shrine import CARD_NAMES, FOUND_NONE
from kit.helpers import (assert_same, chi_square_p_ok, follow_with_copies, random_step,
                         roundtrip_pickle, roundtrip_serialized)
from shrine_helpers import shrine

VARIANTS = {
    "default": {},
    "balance": {"balance": True},
    "balance_returns": {"balance_returns": True},
    "alt_heal": {"alt_heal": True},
    "alt_fizzle": {"alt_fizzle": True},
}
HAND_LIMIT = 7
TOKEN_RANKS = {"J": "jack", "Q": "queen", "K": "king", "A": "dagger"}


def has_joker(game):
    return game.params["balance"] or game.params["balance_returns"]


def full_deck(game):
    deck = Counter({name: 2 for name in CARD_NAMES if name != "JOKER"})
    if has_joker(game):
        deck["JOKER"] = 1
    return deck


def rank(card):
    return card[:-1]


def capacity(field):
    return 7 if {"J", "Q", "K"} <= {rank(c) for c in field} else 5


def card_list(d):
    """Every card the position places, sorted: hands, Shrines, Fields, Graveyard,
    Library, the declared action's cards and the Joker while it is out."""
    cards = d["graveyard"] + d["library"]
    for pl in d["players"]:
        cards += pl["hand"] + pl["shrine"] + pl["field"]
    if "pending" in d:
        cards += d["pending"]["cards"]
    if d.get("joker_out"):
        cards.append("JOKER")
    return sorted(cards)


def cards_in_play(d):
    return Counter(card_list(d))


_DECKS = {}


def deck_list(game):
    key = has_joker(game)
    if key not in _DECKS:
        _DECKS[key] = sorted(full_deck(game).elements())
    return _DECKS[key]


def check_position(game, state):
    """Assert the invariants every position keeps; return its ``to_dict``."""
    d = state.to_dict()
    deck = deck_list(game)
    cards = card_list(d)
    if cards != deck:
        gained, lost = Counter(cards) - Counter(deck), Counter(deck) - Counter(cards)
        raise AssertionError(f"cards gained {dict(gained)}, lost {dict(lost)} in {d}")
    assert "joker_out" in d if has_joker(game) else "joker_out" not in d
    assert "JOKER" not in d["graveyard"]
    for p, pl in enumerate(d["players"]):
        assert "JOKER" not in pl["hand"], d
        for card in set(pl["hand_seen"]):
            assert pl["hand_seen"].count(card) <= pl["hand"].count(card), (p, d)
        ranks = [rank(c) for c in pl["field"]]
        assert len(ranks) == len(set(ranks)), (p, d)
        assert set(ranks) <= set(TOKEN_RANKS), (p, d)
        cap = capacity(pl["field"])
        assert "A" not in ranks or cap == 7, f"a Dagger token without a Triad: {d}"
        assert len(pl["shrine"]) <= cap, (p, cap, d)
        assert len(pl["shrine_seen"]) == len(pl["shrine"])
        if pl["shrine"] and d["step"] not in ("deal", "balance shrine"):
            assert pl["shrine_seen"][-1], f"player {p}'s top Shrine card is face down: {d}"
    player = state.current_player()
    assert player == d["current_player"]
    if state.is_terminal():
        assert player == core.TERMINAL_PLAYER and d["phase"] == "over"
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        return d
    legal = state.legal_actions()
    assert legal and legal == sorted(set(legal)), legal
    if d["phase"] == "chance":
        assert player == core.CHANCE_PLAYER
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert all(prob > 0 for _, prob in outcomes)
        assert abs(sum(prob for _, prob in outcomes) - 1.0) < 1e-9
    else:
        assert player in (0, 1)
        assert state.chance_outcomes() == []
    return d


def check_game_over(game, d, state):
    shrines = [len(pl["shrine"]) for pl in d["players"]]
    if d["winner"] == "draw":
        assert d["turn"] == game.params["max_turns"], d
        assert 0 not in shrines, d
        assert state.returns() == [0.0, 0.0]
    else:
        winner = d["winner"]
        assert winner in (0, 1), d
        assert shrines[1 - winner] == 0 and shrines[winner] > 0, d
        assert d["turn"] < game.params["max_turns"]
        assert state.returns() == ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])


def play_checked(game, seed, stats):
    """Play one random game, checking every position; return the final state."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    d = check_position(game, state)
    max_steps = game.max_game_length
    steps = 0
    while not state.is_terminal():
        before = d
        random_step(state, rng)
        steps += 1
        assert steps <= max_steps
        d = check_position(game, state)
        stats["joker played"] += bool(d.get("joker_out")) and not before.get("joker_out")
        stats["big shrine"] += any(len(pl["shrine"]) > 5 for pl in d["players"])
        if d["turn"] != before["turn"]:
            # A turn ended: its player is down to the hand limit; the other moves next.
            ended = before["active"]
            assert d["turn"] == before["turn"] + 1
            assert len(d["players"][ended]["hand"]) <= HAND_LIMIT, (before, d)
            if not state.is_terminal():
                assert d["active"] == 1 - ended
            stats["turns"] += 1
        else:
            assert d["active"] == before["active"] or state.is_terminal()
    check_game_over(game, d, state)
    stats[f"winner {d['winner']}"] += 1
    return state


@pytest.mark.parametrize("variant,games", [("default", 500), ("balance", 300),
                                           ("balance_returns", 300), ("alt_heal", 300),
                                           ("alt_fizzle", 300)])
def test_invariants_in_random_games(variant, games):
    """500 default games and 300 of each optional rule, seeds 0.., invariants checked
    on the full position after every step: each of the 52 cards (and the Joker with a
    Balance rule) exactly once; Shrines within capacity (5, or 7 with a J+Q+K Triad);
    at most one token of a kind per Field; the hand of a player whose turn ends at most
    7; a game ends with the loser's Shrine empty (+1/-1) or at max_turns (0/0)."""
    game = shrine(**VARIANTS[variant])
    stats = Counter()
    for seed in range(games):
        play_checked(game, seed, stats)
    # The games really reach the rules under test.
    assert stats["winner 0"] > 0 and stats["winner 1"] > 0
    assert stats["big shrine"] > 0
    if has_joker(game):
        assert stats["joker played"] > 0


def test_games_ending_at_max_turns():
    """Short games (max_turns 1..12, 60 seeds) end as draws at exactly max_turns unless
    a Shrine empties first."""
    stats = Counter()
    for max_turns in (1, 2, 5, 12):
        game = shrine(max_turns=max_turns, balance=max_turns % 2 == 0)
        for seed in range(15):
            play_checked(game, 1000 + seed, stats)
    assert stats["winner draw"] > 0


# --- copies ---------------------------------------------------------------------------

def face_down_top(d):
    """Whether some Shrine's top card is face down (during the deal, or while a Balance
    adds face-down cards)."""
    return any(pl["shrine"] and not pl["shrine_seen"][-1] for pl in d["players"])


@pytest.mark.parametrize("variant,games", [("default", 20), ("balance", 20),
                                           ("balance_returns", 20), ("alt_heal", 10),
                                           ("alt_fizzle", 10)])
def test_copies_equal_and_stay_equal(variant, games):
    """20 default games and 10-20 of each optional rule (seeds 500..). After every step:
    a fresh clone equals the state (to_dict, information state strings, observation
    tensors), is independent of it, and stays equal after the next action. Four twins,
    made at the start and then remade from themselves at every step by clone, deepcopy,
    a pickle round trip and a serialize/deserialize_state round trip, follow the game
    action by action and stay equal to it: no part of the state is lost by copying."""
    game = shrine(**VARIANTS[variant])
    steps = sum(follow_with_copies(game, seed) for seed in range(500, 500 + games))
    assert steps >= games, "every game should have played at least one step"


def test_clone_of_a_position_built_from_a_dict():
    """A position from state_from_dict clones, pickles and round-trips like any other."""
    game = shrine()
    state = game.state_from_dict(small_position(False))
    for copy_ in (state.clone(), copy.deepcopy(state), roundtrip_pickle(state),
                  roundtrip_serialized(state)):
        assert_same(copy_, state)


# --- determinization ------------------------------------------------------------------

def public_facts(d, observer):
    """Everything in a position's ``to_dict`` that ``observer`` knows for sure."""
    facts = {k: v for k, v in d.items() if k not in ("players", "library")}
    facts["library size"] = len(d["library"])
    for p, pl in enumerate(d["players"]):
        facts[p] = {
            "hand size": len(pl["hand"]),
            "hand seen": sorted(pl["hand_seen"]),
            "field": pl["field"],
            "shrine size": len(pl["shrine"]),
            "shrine seen": pl["shrine_seen"],
            "face up": [c for c, up in zip(pl["shrine"], pl["shrine_seen"]) if up],
        }
        if p == observer:
            facts[p]["hand"] = sorted(pl["hand"])
    return facts


def hidden_cards(d, observer):
    """The cards ``observer`` cannot see: the opponent's unseen hand cards, the Library
    and the face-down Shrine cards."""
    opp = d["players"][1 - observer]
    cards = Counter(opp["hand"]) - Counter(opp["hand_seen"])
    cards.update(d["library"])
    for pl in d["players"]:
        cards.update(c for c, up in zip(pl["shrine"], pl["shrine_seen"]) if not up)
    return cards


def sample_positions(game, games, seed):
    """Non-terminal positions at random points of random games, three a game."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = game.new_initial_state()
        history = []
        while not state.is_terminal():
            history.append(state.clone())
            random_step(state, rng)
        positions += rng.sample(history, min(3, len(history)))
    return positions


@pytest.mark.parametrize("variant,games", [("default", 400), ("balance", 150),
                                           ("balance_returns", 150), ("alt_heal", 100),
                                           ("alt_fizzle", 100)])
def test_determinization_keeps_what_the_observer_knows(variant, games):
    """Three positions from each of 400 default games and 100-150 games of each
    optional rule; for both observers and two seeds each: the observer's information state
    string, observation_dict and observation tensor are unchanged; every public fact
    (Graveyard, Fields, Shrine sizes and face-up cards, hand sizes, known hand cards,
    Library size, phase, turn, pending action) is unchanged, and so are the observer's
    legal actions when the observer is to act; every card is still present exactly
    once and the Joker is in no hand; only the hidden cards move, among themselves;
    the original is untouched and a seed always gives the same world."""
    game = shrine(**VARIANTS[variant])
    master = random.Random(7)
    moved = 0
    for state in sample_positions(game, games, seed=2000):
        original = state.to_dict()
        for observer in (0, 1):
            iss = state.information_state_string(observer)
            view = state.observation_dict(observer)
            tensor = state.observation_tensor(observer)
            facts = public_facts(original, observer)
            for _ in range(2):
                seed = master.getrandbits(64)
                world = state.determinized(observer, seed)
                d = check_position(game, world)
                assert world.information_state_string(observer) == iss
                assert world.observation_dict(observer) == view
                assert np.array_equal(world.observation_tensor(observer), tensor)
                assert public_facts(d, observer) == facts
                assert hidden_cards(d, observer) == hidden_cards(original, observer)
                if state.current_player() == observer:
                    assert world.legal_actions() == state.legal_actions()
                    assert [world.action_to_string(a) for a in world.legal_actions()] == \
                        [state.action_to_string(a) for a in state.legal_actions()]
                assert state.to_dict() == original
                assert state.determinized(observer, seed).to_dict() == d
                moved += d != original
    assert moved > 0


# A small position: player 0 sees everything but player 1's two unseen hand cards, the
# two Library cards and one face-down Shrine card; the Graveyard holds the rest.
SMALL_POSITION = {
    "turn": 10, "active": 0, "phase": "action",
    "players": [
        {"hand": ["KB", "9R", "4R"], "shrine": ["8R", "6B"], "shrine_seen": [True, True],
         "field": []},
        {"hand": ["2B", "3B", "7R"], "hand_seen": ["2B"],
         "shrine": ["3B", "10R"], "shrine_seen": [False, True], "field": []},
    ],
    "library": ["9B", "QR"],
}


def small_position(with_joker):
    """SMALL_POSITION with the Graveyard filling the deck. Hidden from player 0: player
    1's 3B and 7R, the Library's 9B and QR, the face-down 3B under player 1's 10R; with
    the Joker, it takes the place of the Library's QR."""
    desc = json.loads(json.dumps(SMALL_POSITION))
    if with_joker:
        desc["library"] = ["9B", "JOKER"]
    placed = Counter(desc["library"])
    for pl in desc["players"]:
        placed.update(pl["hand"])
        placed.update(pl["shrine"])
    deck = full_deck(shrine(balance=with_joker))
    desc["graveyard"] = sorted((deck - placed).elements(), key=CARD_NAMES.index)
    return desc


def world_of(d, observer=0):
    """What is hidden from ``observer``, as a comparable value: the opponent's unseen
    hand cards, the Library, and the face-down Shrine cards slot by slot."""
    opp = d["players"][1 - observer]
    hand = tuple(sorted((Counter(opp["hand"]) - Counter(opp["hand_seen"])).elements()))
    shrines = tuple(tuple(c for c, up in zip(pl["shrine"], pl["shrine_seen"]) if not up)
                    for pl in d["players"])
    return hand, tuple(sorted(d["library"])), shrines


def expected_worlds(d, observer=0):
    """The probability of each world consistent with what ``observer`` knows, if every
    physical arrangement of the hidden cards (the two copies of a kind told apart) over
    the hidden slots is equally likely and the Joker is never in a hand."""
    opp = d["players"][1 - observer]
    hand_slots = len(opp["hand"]) - len(opp["hand_seen"])
    hidden = list(hidden_cards(d, observer).elements())
    shrine_slots = [(p, i) for p, pl in enumerate(d["players"])
                    for i, up in enumerate(pl["shrine_seen"]) if not up]
    weights = Counter()
    for perm in itertools.permutations(range(len(hidden))):
        cards = [hidden[i] for i in perm]
        hand = cards[:hand_slots]
        if "JOKER" in hand:
            continue
        rest = cards[hand_slots:]
        shrines = [[], []]
        for (p, _), card in zip(shrine_slots, rest):
            shrines[p].append(card)
        library = rest[len(shrine_slots):]
        weights[(tuple(sorted(hand)), tuple(sorted(library)),
                 tuple(tuple(s) for s in shrines))] += 1
    total = sum(weights.values())
    return {w: n / total for w, n in weights.items()}


@pytest.mark.parametrize("with_joker", [False, True], ids=["default", "balance"])
def test_determinization_is_uniform_over_worlds(with_joker):
    """Player 0 cannot see five cards (two in player 1's hand, two in the Library, one
    face down in player 1's Shrine); 6000 determinizations (seeds from master seed 11)
    must hit each consistent world as often as a uniform deal of the physical cards
    would (two 3B copies make some worlds twice as likely; the Joker never goes to the
    hand). Chi-square goodness of fit at alpha = 0.001, i.e. 99.9% confidence: a
    correct sampler fails this one time in a thousand, and the fixed seeds make the
    outcome the same on every run."""
    game = shrine(balance=with_joker)
    desc = small_position(with_joker)
    state = game.state_from_dict(desc)
    d = state.to_dict()
    expected = expected_worlds(d)
    assert len(expected) == (11 if with_joker else 18)
    samples = 6000
    master = random.Random(11)
    observed = Counter()
    for _ in range(samples):
        world = state.determinized(0, master.getrandbits(64))
        dw = world.to_dict()
        assert world.information_state_string(0) == state.information_state_string(0)
        observed[world_of(dw)] += 1
    assert set(observed) <= set(expected), set(observed) - set(expected)
    ok, stat = chi_square_p_ok(observed, expected, samples)
    assert ok, f"chi-square {stat:.1f} with {len(expected) - 1} degrees of freedom"


def test_chi_square_check_rejects_a_biased_sampler():
    """The chi-square check itself can fail: worlds drawn with one world twice as
    likely as it should be are rejected."""
    desc = small_position(False)
    expected = expected_worlds(shrine().state_from_dict(desc).to_dict())
    keys = sorted(expected)
    biased = dict(expected)
    biased[keys[0]] *= 2
    total = sum(biased.values())
    rng = random.Random(3)
    observed = Counter(rng.choices(keys, [biased[k] / total for k in keys], k=6000))
    assert not chi_square_p_ok(observed, expected, 6000)[0]


def token_search_position():
    """A Balance by player 0 searching the Library for a Jack for player 1: the Library
    holds JB and 2B; player 1's hidden hand holds the other Jacks."""
    p0 = {"hand": ["3B", "4B", "5B"], "shrine": ["6B", "7B"], "field": ["JR"]}
    p1 = {"hand": ["8B", "9B", "10B", "2R", "3R", "JB", "JR"], "shrine": ["6R", "7R"],
          "field": []}
    library = ["JB", "2B"]
    placed = Counter(library)
    for pl in (p0, p1):
        placed.update(pl["hand"] + pl["shrine"] + pl["field"])
    grave = sorted((full_deck(shrine()) - placed).elements(), key=CARD_NAMES.index)
    return shrine(balance=True).state_from_dict({
        "players": [p0, p1], "graveyard": grave, "library": library, "joker_out": True,
        "phase": "chance", "chance": {"draw": "token", "to": 1},
        "balance": {"player": 0, "token": 0, "then": "action"}})


def test_s15_a_token_search_tells_the_observer_nothing_before_it_is_made():
    """The Balance searches the Library in the open whether or not it holds a Jack, and
    may find nothing: a world is never rejected for its Library.  Unseen by player 0:
    player 1's seven hand cards, the Library's two and two face-down Shrine cards, of
    which three are Jacks, so 27 of the 55 pairs the Library may hold have one."""
    state = token_search_position()
    assert state.chance_outcomes() == [(CARD_NAMES.index("JB"), 1.0)]
    with_jack = 0
    for seed in range(300):
        world = state.determinized(0, seed)
        assert world.information_state_string(0) == state.information_state_string(0)
        library = world.to_dict()["library"]
        found = {"JB", "JR"} & set(library)
        with_jack += bool(found)
        if not found:
            assert world.chance_outcomes() == [(FOUND_NONE, 1.0)]
    # Binomial(300, 27/55): 147 expected, 99.9% of draws between 120 and 175.
    assert 120 <= with_jack <= 175


def test_determinization_keeps_a_resurrection_able_to_use_its_card():
    """Player 0 has declared a Resurrection of 2R, which only an attack with red cards
    worth 8 can use (their Shrine is full): player 1 knows player 0 holds such cards, so
    every world player 1 imagines leaves player 0 such an attack."""
    state = shrine().state_from_dict({
        "active": 0, "phase": "resurrection", "graveyard": ["9R", "2R"],
        "pending": {"action": 370, "cards": ["5B", "6R", "7B"], "resurrected": "2R",
                    "resurrected_at": 1},
        "players": [{"hand": ["8R", "3B", "4B"], "shrine": ["KR", "4R", "AR", "7R", "10R"]},
                    {"hand": ["3R", "6B"], "shrine": ["QR", "5R", "10B"]}]})
    hands = set()
    for seed in range(200):
        world = state.determinized(1, seed)
        assert world.information_state_string(1) == state.information_state_string(1)
        uses = [world.action_to_string(a) for a in world.legal_actions()]
        assert uses and all(use.startswith("resurrect to attack ") for use in uses), uses
        hands.add(" ".join(world.to_dict()["players"][0]["hand"]))
    assert len(hands) > 50


# --- bad input ------------------------------------------------------------------------

def test_every_error_is_a_value_error_and_a_cardarena_error():
    """Callers can catch any of the project's errors as ValueError or as
    CardArenaError, and a move on a finished game as an illegal action; so the tests of
    bad input only name the most specific class they expect."""
    expected = ["CardArenaError", "IllegalActionError", "GameOverError", "ParameterError",
                "StateFormatError"]
    if hasattr(core.errors, "PlayerError"):
        expected.append("PlayerError")
    for name in expected:
        cls = getattr(core.errors, name)
        assert issubclass(cls, ValueError), name
        assert issubclass(cls, core.errors.CardArenaError), name
    assert issubclass(core.errors.GameOverError, core.errors.IllegalActionError)


def mid_game_state(game=None, seed=42, steps=150):
    game = game or shrine()
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        random_step(state, rng)
    assert not state.is_terminal()
    return state


def finished_game():
    rng = random.Random(5)
    state = shrine().new_initial_state()
    while not state.is_terminal():
        random_step(state, rng)
    return state


def states_at_every_kind_of_node():
    state = mid_game_state()
    rng = random.Random(9)
    found = {}
    while len(found) < 2 and not state.is_terminal():
        found.setdefault("chance" if state.is_chance_node() else "decision", state.clone())
        random_step(state, rng)
    return found


@pytest.mark.parametrize("node", ["chance", "decision"])
@pytest.mark.parametrize("action,message", [
    ("illegal", r"action \d+ is \(.*\) not legal here; legal: "),
    (-1, r"action -1 is out of range; legal: "),
    (10 ** 6, r"action 1000000 is out of range; legal: "),
    ("3", r"an action is an int, not str"),
    (2.5, r"an action is an int, not float"),
    (True, r"an action is an int, not bool"),
    (None, r"an action is an int, not NoneType"),
])
def test_bad_actions_raise_and_change_nothing(node, action, message):
    """At a chance node and at a decision: an id that is not legal here (a card not in
    the Library at the chance node), out of range, or not an int raises
    IllegalActionError, a ValueError, naming the problem; the state is unchanged and
    still playable."""
    state = states_at_every_kind_of_node()[node]
    legal = state.legal_actions()
    if action == "illegal":
        action = next(a for a in range(27 if node == "chance" else 2000) if a not in legal)
    before = state.to_dict()
    with pytest.raises(core.IllegalActionError, match=message):
        state.apply_action(action)
    assert state.to_dict() == before
    assert state.legal_actions() == legal
    state.apply_action(legal[0])  # the state still works


@pytest.mark.parametrize("action", [0, 1, -1, 10 ** 6, "3", 2.5, True])
def test_actions_on_a_finished_game_raise_game_over(action):
    state = finished_game()
    before = state.to_dict()
    with pytest.raises(core.GameOverError, match=r"the game is over; cannot apply action"):
        state.apply_action(action)
    assert state.to_dict() == before
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_numpy_integer_actions_are_accepted():
    state = mid_game_state()
    twin = state.clone()
    action = state.legal_actions()[-1]
    state.apply_action(np.int64(action))
    twin.apply_action(action)
    assert state == twin


def _edit(desc, how):
    desc = json.loads(json.dumps(desc))
    how(desc)
    return json.dumps(desc)


def _base():
    """A mid-game position of the default game whose player 0 has no Triad, a Shrine
    below 5 cards and at least three Library cards."""
    for seed in range(100):
        d = mid_game_state(seed=seed, steps=120).to_dict()
        p0 = d["players"][0]
        if capacity(p0["field"]) == 5 and len(p0["shrine"]) < 5 and len(d["library"]) >= 3:
            return d
    raise AssertionError("no suitable position")


def _overfill(d):
    p0 = d["players"][0]
    while len(p0["shrine"]) < 6:
        p0["shrine"].insert(0, d["library"].pop())
        p0["shrine_seen"].insert(0, False)


def _duplicate(d):
    card = next(c for c, n in cards_in_play(d).items() if n == 2)
    d["graveyard"].append(card)
    return card


MALFORMED = [
    ("not json", lambda d: None, "{players: [", r"not a serialized shrine state"),
    ("empty", lambda d: None, "", r"not a serialized shrine state"),
    ("a list", lambda d: None, "[1, 2]", r"a position is a dict, not list"),
    ("a number", lambda d: None, "42", r"a position is a dict, not int"),
    ("players not a list", lambda d: d.update(players=3), None,
     r"players must be a list of two dicts"),
    ("unknown key", lambda d: d.update(colour="red"), None, r"unknown keys \['colour'\]"),
    ("hand not a list", lambda d: d["players"][0].update(hand="5R"), None,
     r"players\[0\]\.hand must be a list of cards"),
    ("unknown card", lambda d: d["players"][1]["hand"].append("11R"), None,
     r"players\[1\]\.hand\[\d+\]: '11R' is not a card"),
    ("card not a string", lambda d: d["graveyard"].append(7), None,
     r"graveyard\[\d+\]: 7 is not a card"),
    ("duplicated card", _duplicate, None, r"\w+: more than 2 \w+ in play"),
    ("missing card", lambda d: d["library"].pop(), None, r"cards missing from the position: \w+"),
    ("shrine over capacity", _overfill, None,
     r"players\[0\]\.shrine holds more than its capacity 5"),
    ("joker without balance", lambda d: d["library"].append("JOKER"), None,
     r"this game has no Balance card \(Joker\); set balance=true"),
    ("joker on a shrine without balance",
     lambda d: (d["players"][0]["shrine"].insert(0, "JOKER"),
                d["players"][0]["shrine_seen"].insert(0, False)), None,
     r"this game has no Balance card \(Joker\)"),
    ("joker_out without balance", lambda d: d.update(joker_out=True), None,
     r"joker_out: this game has no Balance card"),
    ("bad phase", lambda d: d.update(phase="lunch"), None, r"phase must be one of .*'lunch'"),
    ("bad turn", lambda d: d.update(turn="ten"), None,
     r"turn must be an integer from 0 to 400, not 'ten'"),
]


@pytest.mark.parametrize("case,edit,raw,message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_serialized_states(case, edit, raw, message):
    game = shrine()
    base = _base()
    assert game.deserialize_state(json.dumps(base)).to_dict() == base
    data = raw if raw is not None else _edit(base, edit)
    with pytest.raises(core.StateFormatError, match=message):
        game.deserialize_state(data)


# Positions whose parts do not fit together: each edit of a plain position (player 0
# to act, a Graveyard of two cards) and the error it must raise.
def _plain(**desc):
    base = {"players": [{"hand": ["4B", "5B", "9R"], "shrine": ["2B", "6R"]},
                        {"hand": ["2R", "3R", "8B"], "shrine": ["3R", "9R"]}],
            "graveyard": ["7B", "KR"]}
    base.update(desc)
    return base


def _with_balance(**desc):
    return _plain(joker_out=True, **desc)


MISFITS = [
    ("chance with nothing drawn", _plain(phase="chance"), {},
     r"phase 'chance' needs chance.draw"),
    ("hand draw to nobody",
     _plain(phase="chance", chance={"draw": "hand", "left": 1, "then": "action"}), {},
     r"a hand draw needs chance.to"),
    ("hand draw of no card",
     _plain(phase="chance", chance={"draw": "hand", "to": 0, "left": 0, "then": "action"}), {},
     r"chance.left: at least one card"),
    ("hand draw then resolve",
     _plain(phase="chance", chance={"draw": "hand", "to": 0, "left": 1, "then": "resolve"}), {},
     r"chance.then: after these draws comes one of"),
    ("draw in the wrong step",
     _plain(phase="chance", step="end", chance={"draw": "hand", "to": 0, "left": 1,
                                                "then": "action"}), {},
     r"a hand draw comes in step 'drawing', not 'end'"),
    ("heal card turned up for the opponent",
     _plain(phase="chance", chance={"draw": "flip", "to": 1, "left": 1, "then": "after"}), {},
     r"a heal turns up a card on the active Shrine"),
    ("chance outside a chance event", _plain(chance={"draw": "steal"}), {},
     r"chance is only for phase 'chance', not 'action'"),
    ("decision in a running step", _plain(step="resolve"), {},
     r"a decision waits in step 'wait', not 'resolve'"),
    ("take from an empty Graveyard", _plain(phase="start", graveyard=[]), {},
     r"the Graveyard is empty"),
    ("no action left", _plain(actions_left=0), {}, r"phase 'action' needs an action left"),
    ("response to nothing", _plain(phase="response"), {},
     r"phase 'response' needs pending: the declared action"),
    ("resurrection of nothing", _plain(phase="resurrection"), {},
     r"phase 'resurrection' needs pending"),
    ("declared action in the action phase",
     _plain(pending={"action": 3, "cards": []}), {}, r"no action is declared in phase 'action'"),
    ("a pass answered", _plain(phase="response", pending={"action": 0, "cards": []}), {},
     r"pending.action 0 is not an action that can be answered"),
    ("attack paid with the wrong cards",
     _plain(phase="response", pending={"action": 641, "cards": ["4B"]}), {},
     r"pending.cards for 'attack 5B\+4B -> 9R' are \['4B', '5B'\], not \['4B'\]"),
    ("resurrection use without its card",
     _plain(phase="response", pending={"action": 440, "cards": ["AB", "2B", "3B"]}), {},
     r"pending.resurrected goes with the use of a Resurrection"),
    ("resurrection use after no run",
     _plain(phase="response", graveyard=["7B", "KR"],
            pending={"action": 440, "cards": ["AB", "2B", "4R"], "resurrected": "KR",
                     "resurrected_at": 1}), {},
     r"a Resurrection's use follows its three cards of consecutive values"),
    ("discard of nothing", _plain(phase="discard"), {},
     r"picks_left 0 does not fit phase 'discard' with 3 cards in hand"),
    ("picks outside a discard", _plain(picks_left=2), {},
     r"picks_left is only for discards, not phase 'action'"),
    ("balance discard without a Balance", _with_balance(phase="balance discard", picks_left=1),
     {"balance": True}, r"phase 'balance discard' needs balance"),
    ("Balance without the Joker out",
     _plain(phase="balance discard", picks_left=1, balance={"player": 1, "token": 3}),
     {"balance": True}, r"a Balance is played with joker_out true"),
    ("Balance resuming mid-resolution",
     _with_balance(phase="balance discard", balance={"player": 1, "then": "resolve"}),
     {"balance": True}, r"balance.then: a Balance resumes one of"),
    ("token search for a token nobody lacks",
     _with_balance(phase="chance", chance={"draw": "token", "to": 1},
                   balance={"player": 0, "token": 0}),
     {"balance": True}, r"balance.token: the token kind searched for"),
    ("winner with two Shrines standing", _plain(winner=0), {},
     r"player 0 wins only once the other Shrine is empty"),
    ("draw before max_turns", _plain(winner="draw", turn=5), {},
     r"a draw comes only at max_turns \(400\), not at turn 5"),
    ("max_turns reached without an end", _plain(turn=400), {},
     r"turn 400 is at max_turns, but the game has no winner"),
    ("a winner that is no player", _plain(winner="both"), {},
     r"winner must be 0, 1, \"draw\" or null, not 'both'"),
    ("phase over without a winner", _plain(phase="over"), {}, r"phase 'over' needs a winner"),
    ("deal with a finished Shrine",
     _plain(phase="chance", chance={"draw": "deal"}, dealt=3, graveyard=[]), {},
     r"after 3 cards dealt, the Shrines hold 3 and 0"),
    ("dealt outside the deal", _plain(dealt=3), {}, r"dealt is only for a deal in progress"),
    ("several hand draws outside a Balance",
     _plain(phase="chance", chance={"draw": "hand", "to": 0, "left": 2, "then": "action"}), {},
     r"only a Balance draws several cards in a row"),
    ("a face-down top at a draw",
     _plain(phase="chance", chance={"draw": "hand", "to": 0, "left": 1, "then": "action"},
            players=[{"hand": ["4B"], "shrine": ["2B", "6R"], "shrine_seen": [True, False]},
                     {"hand": ["2R"], "shrine": ["3R", "9R"]}]), {},
     r"players\[0\]\.shrine_seen: the top card is always face up"),
    ("a token onto a filled slot",
     _plain(phase="response", pending={"action": 82, "cards": ["7R", "JR"]},
            players=[{"hand": ["2B"], "shrine": ["2R", "9R"], "field": ["JB"]},
                     {"hand": ["3R", "8B", "KR"], "shrine": ["4B", "9B"]}]), {},
     r"pending.action 'play token JR \(pay 7R\)' could not have been declared"),
    ("a Dagger at an empty Field slot",
     _plain(phase="response", pending={"action": 145, "cards": ["5B", "AB"]},
            players=[{"hand": ["2B"], "shrine": ["2R", "9R"]},
                     {"hand": ["3R", "8B", "KR"], "shrine": ["4B", "9B"]}]), {},
     r"pending.action 'dagger AB \(pay 5B\) -> Jack token' could not have been declared"),
    ("a 10 resurrected as a token",
     _plain(phase="response", graveyard=["10R"],
            pending={"action": 441, "cards": ["4B", "5B", "6B"], "resurrected": "10R",
                     "resurrected_at": 0},
            players=[{"hand": ["3B"], "shrine": ["8B", "AB"]},
                     {"hand": ["6R", "8B", "KR"], "shrine": ["QB", "2B"]}]), {},
     r"pending.action 'resurrect as token' could not have been declared"),
    ("a response nobody could give",
     _plain(phase="response", pending={"action": 641, "cards": ["4B", "5B"]},
            players=[{"hand": ["9R"], "shrine": ["2B", "6R"]},
                     {"hand": ["2R"], "shrine": ["3R", "9R"]}]), {},
     r"phase 'response': the opponent could not answer"),
    ("a Counter-Fizzle from a short hand",
     _plain(phase="counter", pending={"action": 82, "cards": ["7R", "JR"]},
            players=[{"hand": ["2B"], "shrine": ["2R", "9R"]},
                     {"hand": [], "shrine": ["4B", "9B"]}]), {"alt_fizzle": True},
     r"phase 'counter': a Counter-Fizzle needs 3 cards in hand"),
    ("a Joker face up on a Shrine",
     _plain(phase="resurrection", graveyard=["2B", "9R"],
            pending={"action": 370, "cards": ["5B", "6R", "7B"], "resurrected": "9R",
                     "resurrected_at": 1},
            players=[{"hand": ["3B", "4B"], "shrine": ["KR", "10R"]},
                     {"hand": ["3R", "6B"], "shrine": ["QR", "JOKER"]}]), {"balance": True},
     r"players\[1\]\.shrine: a Joker turned up is played at once"),
]


@pytest.mark.parametrize("case,desc,params,message", MISFITS, ids=[m[0] for m in MISFITS])
def test_positions_whose_parts_do_not_fit_are_refused(case, desc, params, message):
    game = shrine(**params)
    with pytest.raises(core.StateFormatError, match=message):
        game.state_from_dict(desc)
    with pytest.raises(core.StateFormatError, match=message):
        game.deserialize_state(json.dumps(desc))


FLOW_VALUES = {
    "phase": ["chance", "start", "action", "resurrection", "jack discard", "response",
              "fizzle discard", "counter", "counter discard", "discard", "balance discard",
              "over"],
    "step": ["deal", "drawing", "wait", "resolve", "after", "end", "balance shrine"],
    "actions_left": [0, 1, 2],
    "picks_left": [0, 1, 3, 9],
    "winner": [None, 0, 1, "draw"],
    "dealt": [0, 12, 20],
    "chance": [None, {"draw": "hand", "to": 0, "left": 1, "then": "action"},
               {"draw": "flip", "to": 1, "left": 1, "then": "after"}, {"draw": "steal"},
               {"draw": "token", "to": 1}, {"draw": "hidden", "to": 0}, {"draw": "deal"}],
    "balance": [None, {"player": 0, "token": 1, "then": "after"},
                {"player": 1, "token": 3, "then": "end"}],
    "pending": [None, {"action": 7, "cards": []}, {"action": 63, "cards": ["2B", "JB"]},
                {"action": 1040, "cards": [], "resurrected": "9R"},
                {"action": 145, "cards": ["5B", "AB"]}, {"action": 82, "cards": ["7R", "JR"]},
                {"action": 441, "cards": ["4B", "5B", "6B"], "resurrected": "10R"}],
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 40), edits=hs.dictionaries(hs.sampled_from(sorted(FLOW_VALUES)),
                                                     hs.integers(0, 11), min_size=1))
def test_fuzzed_flow_keys_are_refused_or_play_on_soundly(seed, edits):
    """Real positions with their phase, step, chance event, Balance, declared action and
    counters overwritten at random: each is refused with StateFormatError, or plays on
    for 60 random steps keeping every invariant."""
    game = shrine(balance=seed % 2 == 1)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(30 + 7 * seed):
        if state.is_terminal():
            break
        random_step(state, rng)
    desc = state.to_dict()
    for key, i in edits.items():
        value = FLOW_VALUES[key][i % len(FLOW_VALUES[key])]
        if value is None:
            desc.pop(key, None)
        else:
            desc[key] = value
    try:
        state = game.state_from_dict(desc)
    except core.StateFormatError:
        return
    check_position(game, state)
    for _ in range(60):
        if state.is_terminal():
            break
        random_step(state, rng)
        check_position(game, state)


def test_an_observation_is_not_a_state():
    """A player's view hides cards as ``??``: it cannot be read back as a position."""
    view = mid_game_state().observation_dict(0)
    with pytest.raises(core.StateFormatError, match=r"'\?\?' is not a card"):
        shrine().deserialize_state(json.dumps(view))


def test_shrine_of_eight_cards_is_rejected():
    desc = small_position(False)
    p1 = desc["players"][1]
    extra = [desc["graveyard"].pop() for _ in range(6)]
    p1["shrine"] = extra + p1["shrine"]
    p1["shrine_seen"] = [False] * 7 + [True]
    with pytest.raises(core.StateFormatError, match=r"players\[1\]\.shrine holds at most 7"):
        shrine().state_from_dict(desc)


def test_joker_in_a_hand_is_rejected_with_balance():
    desc = small_position(True)
    desc["players"][0]["hand"].append("JOKER")
    desc["library"].remove("JOKER")
    with pytest.raises(core.StateFormatError, match=r"the Joker is never held in a hand"):
        shrine(balance=True).state_from_dict(desc)


def test_the_small_positions_are_valid():
    for with_joker in (False, True):
        desc = small_position(with_joker)
        state = shrine(balance=with_joker).state_from_dict(desc)
        assert state.current_player() == 0
        assert check_position(state.game, state)["library"] == sorted(
            desc["library"], key=CARD_NAMES.index)


@pytest.mark.parametrize("spec,params,message", [
    ("chess", {}, r"unknown game 'chess'; games: " + ", ".join(sorted(core.GAMES))),
    ("shrine(colour=red)", {}, r"shrine has no parameter 'colour'"),
    ("shrine", {"colour": "red"}, r"shrine has no parameter 'colour'"),
    ("shrine(alt_heal=maybe)", {}, r"shrine parameter alt_heal must be bool .*'maybe'"),
    ("shrine", {"alt_heal": "maybe"}, r"parameter alt_heal must be bool"),
    ("shrine", {"balance": 1}, r"parameter balance must be bool"),
    ("shrine(max_turns=abc)", {}, r"shrine parameter max_turns must be int .*'abc'"),
    ("shrine", {"max_turns": "abc"}, r"parameter max_turns must be int"),
    ("shrine", {"max_turns": 2.5}, r"parameter max_turns must be int"),
    ("shrine", {"max_turns": True}, r"parameter max_turns must be int"),
    ("shrine", {"max_turns": 0}, r"parameter max_turns must be from 1 to 30000 .*, not 0"),
    ("shrine", {"max_turns": -5}, r"parameter max_turns must be from 1 to 30000 .*, not -5"),
    ("shrine(max_turns=-1)", {}, r"parameter max_turns must be from 1 to 30000 .*, not -1"),
    ("shrine(max_turns)", {}, r"'max_turns' is not key=value"),
    ("shrine((", {}, r"cannot read game string"),
    (42, {}, r"a game is named by a string"),
])
def test_bad_game_parameters(spec, params, message):
    with pytest.raises(core.ParameterError, match=message):
        core.load_game(spec, **params)


def test_good_game_parameters_still_load():
    game = core.load_game("shrine(max_turns=12, alt_heal=TRUE)")
    assert game.params["max_turns"] == 12 and game.params["alt_heal"] is True
    assert core.load_game("shrine", max_turns=30000).params["max_turns"] == 30000


# --- fuzz -----------------------------------------------------------------------------

FUZZ_GAMES = [shrine(), shrine(balance=True), shrine(balance_returns=True, max_turns=6),
              shrine(alt_heal=True, alt_fizzle=True), shrine(max_turns=1),
              shrine(max_turns=3, balance=True)]


@settings(derandomize=True, database=None, max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(game_index=hs.integers(0, len(FUZZ_GAMES) - 1),
       moves=hs.lists(hs.tuples(hs.integers(0, 60), hs.integers(0, 2 ** 32),
                                hs.one_of(hs.none(), hs.integers(-3, 1300),
                                          hs.integers(-2 ** 31, 2 ** 31 - 1))),
                      max_size=40))
def test_fuzz_action_sequences(game_index, moves):
    """Hypothesis, derandomized, 200 examples. Each move is some legal actions picked
    by index (the indices from a random.Random seeded by the example), then an
    arbitrary integer (within a C int: see test_huge_action_ids_raise_illegal_action)
    applied as an action. One that is not legal raises IllegalActionError
    (GameOverError once the game is over) and changes nothing; the invariants hold
    after every action, and a finished game ended as the rules say."""
    game = FUZZ_GAMES[game_index]
    state = game.new_initial_state()
    for picks, seed, raw in moves:
        rng = random.Random(seed)
        for _ in range(picks):
            legal = state.legal_actions()
            if not legal:
                break
            state.apply_action(legal[rng.randrange(len(legal))])
            check_position(game, state)
        if raw is None:
            continue
        before = state.to_dict()
        if state.is_terminal():
            with pytest.raises(core.GameOverError):
                state.apply_action(raw)
            assert state.to_dict() == before
        elif raw in state.legal_actions():
            state.apply_action(raw)
        else:
            with pytest.raises(core.IllegalActionError) as info:
                state.apply_action(raw)
            assert not isinstance(info.value, core.GameOverError)
            assert state.to_dict() == before
        check_position(game, state)
    if state.is_terminal():
        check_game_over(game, state.to_dict(), state)


# --- regressions: positions where copying or hiding once went wrong ---------------------

def first_position(game, wanted, seeds=range(300)):
    """The first position of seeded random games for which ``wanted(to_dict)`` holds."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            if wanted(state.to_dict()):
                return state
            if state.is_terminal():
                break
            random_step(state, rng)
    raise AssertionError("no such position in the seeded games")


def during_the_deal():
    state = shrine().new_initial_state()
    rng = random.Random(1)
    for _ in range(3):
        random_step(state, rng)
    assert face_down_top(state.to_dict())
    return state


def at_a_heal_flip():
    return first_position(shrine(), lambda d: d.get("chance", {}).get("draw") == "flip")


def a_won_game():
    return first_position(shrine(), lambda d: d["winner"] in (0, 1))


def a_drawn_game():
    return first_position(shrine(max_turns=2), lambda d: d["winner"] == "draw")


def adding_face_down_cards():
    return first_position(shrine(balance=True),
                          lambda d: d["step"] == "balance shrine" and face_down_top(d))


@pytest.mark.parametrize("make", [
    pytest.param(at_a_heal_flip, id="heal flip"),
    pytest.param(a_won_game, id="won game"),
    pytest.param(during_the_deal, id="deal"),
    pytest.param(a_drawn_game, id="drawn game"),
])
def test_paid_cards_are_not_listed_as_pending(make):
    """Cards an action has paid leave the pending list as they move, so none is
    counted twice (while a heal's card is turned up, or once the action won)."""
    state = make()
    d = state.to_dict()
    assert cards_in_play(d) == full_deck(state.game), d


@pytest.mark.parametrize("make", [
    pytest.param(during_the_deal, id="deal"),
    pytest.param(at_a_heal_flip, id="heal flip"),
    pytest.param(a_won_game, id="won game"),
    pytest.param(a_drawn_game, id="drawn game"),
    pytest.param(lambda: mid_game_state(), id="mid game"),
    pytest.param(adding_face_down_cards, id="balance adds face down"),
])
def test_every_position_round_trips(make):
    """serialize/deserialize_state and pickle work on every position a game reaches."""
    state = make()
    assert state.game.deserialize_state(state.serialize()) == state
    assert pickle.loads(pickle.dumps(state)) == state


@pytest.mark.parametrize("action", [2 ** 31, -2 ** 31 - 1, 10 ** 20, np.int64(2 ** 40)],
                         ids=["2**31", "-2**31-1", "10**20", "np.int64(2**40)"])
def test_huge_action_ids_raise_illegal_action(action):
    state = mid_game_state()
    before = state.to_dict()
    with pytest.raises(core.IllegalActionError, match=r"out of range"):
        state.apply_action(action)
    assert state.to_dict() == before


@pytest.mark.parametrize("make", [
    pytest.param(during_the_deal, id="deal"),
    pytest.param(adding_face_down_cards, id="balance adds face down"),
])
def test_observation_tensor_hides_face_down_cards(make):
    """A face-down top card (during the deal, or while a Balance adds face-down cards)
    is not in the tensor, as it is not in the information state string."""
    state = make()
    for observer in (0, 1):
        tensor = state.observation_tensor(observer)
        for seed in range(10):
            world = state.determinized(observer, seed)
            assert world.information_state_string(observer) == \
                state.information_state_string(observer)
            assert np.array_equal(world.observation_tensor(observer), tensor)
