"""Card Duel rulings D1-D9 and the engine's C1-C7, each checked on the exact position it
speaks of (docs/rules/card-duel.md lists them all).

Positions come from ``card_duel_helpers.position``: a deck left out is filled from the
cards no zone holds, player 0 taking the lowest.
"""
import random
from collections import Counter

import pytest

import core
from card_duel_helpers import (DECK, act, build, duel, keep, outcomes, pl, play, position,
                               taken)
from kit.helpers import names

# Two pools of the same make-up: two of each class from 2 to 9, eight tens, two Aces.
POOL0 = "2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9 10 10 10 10 10 10 10 10 A A"
# 26 low cards, worth 124: a whole pool dealt out as damage under life 256.
POOL1 = "2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8"
# 25 of them, the rest of a pool whose last card is in play.
REST = "2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8"


def building(game=None, builder=0, hand0=""):
    """Hand building with the pools above; player 0 has kept ``hand0`` if player 1
    builds."""
    deck0 = Counter(POOL0.split()) - Counter(hand0.split())
    return position(pl(hand0, " ".join(deck0.elements())), pl(), game, phase="build",
                    builder=builder)


def exchange(attack, defender_hand, game=None, **extra):
    """Player 0 has attacked with ``attack``; player 1, holding ``defender_hand``,
    defends."""
    return position(pl("A 9"), pl(defender_hand), game, phase="defend",
                    table={"attack": attack}, **extra)


# --- D1, D2: the cards and the deal -------------------------------------------------

def test_d1_fifty_two_cards_in_ten_value_classes():
    state = duel().new_initial_state()
    assert Counter(state.to_dict()["stock"]) == DECK
    assert sum(DECK.values()) == 52
    # Suits never matter and a Jack, Queen or King is a 10: one class of 16 cards.
    assert outcomes(state) == pytest.approx(
        {name: (16 if name == "10" else 4) / 52 for name in DECK})


@pytest.mark.parametrize("attack,defense,stopped", [("10", "10", True), ("A", "10", False),
                                                    ("10", "A", True), ("9", "8", False),
                                                    ("2", "2", True)])
def test_d1_values_two_to_nine_ten_for_faces_eleven_for_the_ace(attack, defense, stopped):
    state = exchange(attack, defense)
    act(state, f"defend with {defense} from hand")
    assert state.to_dict()["phase"] == ("attack" if stopped else "damage")


def test_d1_a_damage_card_deals_its_value():
    state = position(pl("A 9"), pl("2", damage="6"), phase="damage",
                     table={"attack": "9", "defense": "2"})
    act(state, "damage with A from hand")
    assert taken(state.to_dict()["players"][1]) == 6 + 11


def test_d2_c7_each_pool_is_26_cards_and_both_players_know_both_pools():
    state = duel().new_initial_state()
    dealt = ["A"] * 4 + ["10"] * 16 + ["9"] * 4 + ["8"] * 2
    for card in dealt:
        # C7: a dealt card is seen by both players.
        assert all(state.action_view(a, p) == a for a in state.legal_actions() for p in (0, 1))
        act(state, card)
    d = state.to_dict()
    assert d["phase"] == "build" and "stock" not in d
    assert Counter(d["players"][0]["deck"]) == Counter(dealt)
    assert Counter(d["players"][1]["deck"]) == DECK - Counter(dealt)
    for viewer in (0, 1):
        other = state.observation_dict(viewer)["players"][1 - viewer]
        assert Counter(other["unseen"]) == Counter(d["players"][1 - viewer]["deck"])


# --- D3, D4: hand building -------------------------------------------------------

def building_choices(state):
    """The classes the player building chooses a count of, in order, keeping none."""
    builder, order = state.to_dict()["builder"], []
    while state.to_dict().get("builder") == builder:
        order.append(state.to_dict()["building"])
        act(state, keep(0, order[-1]))
    return order


def test_d3_a_hand_is_worth_at_most_hand_points_and_the_rest_is_the_deck():
    state = building()
    assert names(state) == ["keep no As", "keep 1 A", "keep 2 As"]
    act(state, "keep 2 As")
    # 22 points kept: no 10 or 9 fits, and one 8 does.
    assert names(state) == ["keep no 10s"]
    play(state, "keep no 10s", "keep no 9s")
    assert names(state) == ["keep no 8s", "keep 1 8"]
    act(state, "keep 1 8")
    for card in "7 6 5 4 3 2".split():
        assert names(state) == [keep(0, card)]
        act(state, keep(0, card))
    build(state)
    d = state.to_dict()
    assert d["players"][0]["hand"] == ["8", "A", "A"]
    assert Counter(d["players"][0]["deck"]) == Counter(POOL0.split()) - Counter("8 A A".split())
    # An empty hand is a hand: player 1 kept nothing and plays from the deck alone.
    assert d["players"][1]["hand"] == [] and len(d["players"][1]["deck"]) == 26
    assert names(state) == ["attack with 8 from hand", "attack with A from hand",
                            "attack with top of deck"]


@pytest.mark.parametrize("hand_points,first", [(10, "10"), (9, "9"), (2, "2")])
def test_d3_hand_points_is_a_parameter(hand_points, first):
    state = building(duel(hand_points=hand_points))
    assert names(state)[-1] == keep(1, first)
    assert building_choices(state)[0] == first
    # Under hand_points 1 no card fits: nobody has a choice, and the game starts.
    state = play(duel(hand_points=1).new_initial_state(), *POOL0.split())
    assert state.to_dict()["phase"] == "attack"


def test_d3_the_opponent_sees_no_card_of_a_hand_being_built():
    state = building()
    after = set()
    for a in state.legal_actions():
        assert state.action_view(a, 1) == -1 and state.action_view(a, 0) == a
        twin = state.clone()
        twin.apply_action(a)
        after.add(twin.information_state_string(1))
    assert len(after) == 1


def test_d3_the_choice_that_ends_the_building_shows_the_hands_size_and_nothing_more():
    # Player 1 has kept A 10 or 10 10, both two cards, and chooses how many 2s to keep.
    states = [build(building(builder=1, hand0="A A 8"), hand, stop="2")
              for hand in ("A 10", "10 10")]
    views = [[state.action_view(a, 0) for a in state.legal_actions()] for state in states]
    assert views[0] == views[1] and len(set(views[0])) == len(views[0]) == 3
    seen = []
    for state in states:
        act(state, "keep 1 2")
        seen.append(state.information_state_string(0))
        assert state.observation_dict(0)["players"][1]["hand"] == ["??"] * 3
    assert seen[0] == seen[1]


def test_d4_player_0_the_dealer_attacks_first():
    state = build(build(building()))
    d = state.to_dict()
    assert (d["phase"], d["offense"], d["current_player"], d["exchange"]) == ("attack", 0, 0, 0)


# --- D5: the exchange ----------------------------------------------------------------

def test_d5_a_defense_as_high_as_the_attack_stops_it_and_the_defender_attacks_next():
    state = exchange("7", "7 9")
    assert names(state) == ["defend with 7 from hand", "defend with 9 from hand",
                            "defend with top of deck"]
    act(state, "defend with 7 from hand")
    d = state.to_dict()
    assert (d["phase"], d["offense"], d["current_player"], d["exchange"]) == ("attack", 1, 1, 1)
    assert d["table"] == {"attack": None, "defense": None}
    assert d["players"][0]["discard"] == ["7"] and d["players"][1]["discard"] == ["7"]
    assert taken(d["players"][1]) == 0


def test_d5_a_lower_defense_is_hit_and_the_attacker_places_a_damage_card():
    state = exchange("9", "8")
    act(state, "defend with 8 from hand")
    d = state.to_dict()
    assert (d["phase"], d["current_player"]) == ("damage", 0)
    assert names(state) == ["damage with 9 from hand", "damage with A from hand",
                            "damage with top of deck"]
    act(state, "damage with A from hand")
    d = state.to_dict()
    # The damage card lies face up in front of the defender; the attacker attacks again.
    assert d["players"][1]["damage"] == ["A"]
    assert state.observation_dict(1)["players"][1]["damage"] == ["A"]
    assert (d["phase"], d["offense"], d["exchange"]) == ("attack", 0, 1)
    assert d["players"][0]["discard"] == ["9"] and d["players"][1]["discard"] == ["8"]
    assert d["players"][0]["hand"] == ["9"] and d["players"][0]["hand_points_spent"] == 11


def test_d5_the_top_of_a_deck_is_drawn_face_up():
    state = position(pl("A", "2 2 2 A"), pl())
    act(state, "attack with top of deck")
    assert state.is_chance_node() and state.to_dict()["drawing_for"] == "attack"
    assert outcomes(state) == {"2": 0.75, "A": 0.25}
    act(state, "A")
    for viewer in (0, 1):
        assert state.observation_dict(viewer)["table"]["attack"] == "A"
    d = state.to_dict()
    assert d["players"][0]["deck"] == ["2", "2", "2"] and d["players"][0]["hand"] == ["A"]
    assert d["players"][0]["hand_points_spent"] == 0


def test_d5_damage_from_the_top_of_the_deck():
    state = position(pl("", "5 10 10 10"), pl("2"), phase="damage",
                     table={"attack": "9", "defense": "2"})
    act(state, "damage with top of deck")
    assert outcomes(state) == {"5": 0.25, "10": 0.75}
    act(state, "10")
    assert state.to_dict()["players"][1]["damage"] == ["10"]


# --- D6: life ------------------------------------------------------------------------

@pytest.mark.parametrize("damage,card,dead", [("10 10", "2", True), ("10 10", "A", True),
                                              ("10 9", "2", False), ("A", "A", True),
                                              ("A", "10", False)])
def test_d6_a_player_whose_damage_reaches_life_loses_at_once(damage, card, dead):
    state = position(pl(card), pl("2", damage=damage), phase="damage",
                     table={"attack": "9", "defense": "2"})
    act(state, f"damage with {card} from hand")
    assert state.is_terminal() == dead
    if dead:
        assert state.returns() == [1.0, -1.0] and state.to_dict()["winner"] == 0


def test_d6_life_is_a_parameter():
    for life, dead in ((30, False), (21, True)):
        state = position(pl("A"), pl("2", damage="10"), duel(life=life), phase="damage",
                         table={"attack": "9", "defense": "2"})
        act(state, "damage with A from hand")
        assert state.is_terminal() == dead


# --- D7: empty hand, empty deck, nothing to play ---------------------------------

def test_d7_with_an_empty_hand_only_the_deck_can_be_played():
    state = position(pl(), pl("9"), phase="attack")
    assert names(state) == ["attack with top of deck"]


def test_d7_with_an_empty_deck_the_discard_pile_is_shuffled_into_a_new_deck():
    state = position(pl("9", ""), pl("9"))
    old = Counter(state.to_dict()["players"][0]["discard"])
    assert names(state) == ["attack with 9 from hand",
                            "attack with top of deck (reshuffle discard pile)"]
    act(state, "attack with top of deck (reshuffle discard pile)")
    d = state.to_dict()
    assert d["players"][0]["discard"] == [] and Counter(d["players"][0]["deck"]) == old
    assert outcomes(state) == pytest.approx({c: n / 25 for c, n in old.items()})


def test_d7_with_an_empty_deck_and_discard_pile_only_the_hand_can_be_played():
    state = position(pl("9", ""), pl("9", damage=REST), duel(life=256))
    assert names(state) == ["attack with 9 from hand"]


def test_d7_a_defender_with_no_card_at_all_loses():
    # Player 1's whole pool lies in front of player 0 as damage; life 256 keeps 0 alive.
    state = position(pl("A", damage=POOL1), pl(deck=""), duel(life=256))
    act(state, "attack with A from hand")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.to_dict()["table"] == {"attack": "A", "defense": None}


def test_d7_a_position_where_the_player_to_act_has_no_card_is_refused():
    with pytest.raises(core.StateFormatError, match="must play but has no card"):
        position(pl(damage=POOL1), pl(deck=""), duel(life=256), phase="defend",
                 table={"attack": "A"})


# --- D8: max_exchanges ---------------------------------------------------------------

def test_d8_max_exchanges_ends_the_game_as_a_draw():
    state = exchange("7", "9", duel(max_exchanges=3), exchange=2)
    act(state, "defend with 9 from hand")
    d = state.to_dict()
    assert state.is_terminal() and d["winner"] == "draw" and d["exchange"] == 3
    assert state.returns() == [0.0, 0.0]


def test_d8_a_player_killed_in_the_last_exchange_loses_rather_than_draws():
    state = position(pl("A"), pl("2", damage="10 10"), duel(max_exchanges=3), phase="damage",
                     exchange=2, table={"attack": "9", "defense": "2"})
    act(state, "damage with A from hand")
    assert state.to_dict()["winner"] == 0 and state.returns() == [1.0, -1.0]


# --- D9: what each player knows ----------------------------------------------------

def test_d9_a_player_knows_their_own_deck_and_the_opponents_unseen_cards_not_the_split():
    state = position(pl("A 10", spent=8, discard="8"), pl("A 9 2", discard="3"))
    d = state.to_dict()
    mine = state.observation_dict(0)["players"]
    assert mine[0]["hand"] == ["10", "A"] and mine[0]["deck"] == d["players"][0]["deck"]
    theirs = mine[1]
    assert theirs["hand"] == ["??"] * 3 and theirs["deck"] == ["??"] * 22
    assert Counter(theirs["unseen"]) == Counter(d["players"][1]["hand"] + d["players"][1]["deck"])
    assert theirs["discard"] == ["3"]
    assert state.observation_dict(1)["players"][0]["hand_points_spent"] == 8
    hands = set()
    for seed in range(40):
        world = state.determinized(0, seed)
        assert world.information_state_string(0) == state.information_state_string(0)
        w = world.to_dict()["players"]
        assert w[0] == d["players"][0] and len(w[1]["hand"]) == 3
        assert Counter(w[1]["hand"] + w[1]["deck"]) == Counter(theirs["unseen"])
        hands.add(" ".join(w[1]["hand"]))
    assert len(hands) > 5


# --- the engine's rulings ---------------------------------------------------------------

def test_c1_a_hands_size_is_secret_until_both_hands_are_built():
    small = build(building(), "2")
    large = build(building(), "A A 8")
    assert small.information_state_string(1) == large.information_state_string(1)
    assert small.observation_dict(1)["players"][0]["hand"] is None
    for state, size in ((small, 1), (large, 3)):
        build(state)
        for viewer in (0, 1):
            assert len(state.observation_dict(viewer)["players"][0]["hand"]) == size
            assert len(state.observation_dict(viewer)["players"][1]["hand"]) == 0


def test_c1_a_builder_makes_as_many_choices_whatever_the_hand_and_each_looks_alike():
    """What player 1 sees of player 0's build, choice by choice, is the same for every
    hand: neither how many choices there are nor what each of them shows tells the
    hand's size."""
    views, sizes = set(), set()
    for seed in range(30):
        rng = random.Random(seed)
        state = building()
        seen = []
        while state.to_dict()["phase"] == "build" and state.current_player() == 0:
            # Seed 0 keeps nothing, seed 1 as much as fits, the others choose at random.
            legal = state.legal_actions()
            a = legal[-seed] if seed < 2 else rng.choice(legal)
            seen.append(state.action_view(a, 1))
            state.apply_action(a)
        views.add(tuple(seen))
        sizes.add(len(state.to_dict()["players"][0]["hand"]))
    assert {0, 3} < sizes and views == {(-1,) * 10}


def test_c1_player_0_cannot_see_player_1_build_either():
    state = building(builder=1, hand0="A A 8")
    before = state.information_state_string(0)
    kept = [build(state.clone(), hand, stop="2") for hand in ("", "10 10", "A 9 4")]
    assert len({twin.information_state_string(0) for twin in kept} - {before}) == 1


def test_c2_a_hand_is_built_by_one_choice_per_class_from_the_ace_down():
    assert building_choices(building()) == "A 10 9 8 7 6 5 4 3 2".split()
    # A class worth more than hand_points offers no choice, nor one the pool lacks.
    pool = "2 2 3 3 4 4 5 5 6 6 7 7 8 8 10 10 10 10 10 10 10 10 10 10 A A"
    state = position(pl(deck=pool), pl(), duel(hand_points=9), phase="build")
    assert building_choices(state) == "8 7 6 5 4 3 2".split()
    # Each hand comes from one sequence of choices: the count kept of each class.
    state = build(building(), "7 7 5")
    assert state.to_dict()["players"][0]["hand"] == ["5", "7", "7"]


def test_c3_the_exchange_cards_stay_on_the_table_until_the_exchange_ends():
    # Player 0 attacked with an Ace; every other card of theirs is in the discard pile.
    state = position(pl("", ""), pl("2"), phase="damage", table={"attack": "A", "defense": "2"})
    old = Counter(state.to_dict()["players"][0]["discard"])
    assert "A" not in old and len(old) > 1
    assert names(state) == ["damage with top of deck (reshuffle discard pile)"]
    act(state, "damage with top of deck (reshuffle discard pile)")
    assert set(outcomes(state)) == set(old)
    act(state, "3")
    d = state.to_dict()
    assert d["players"][0]["discard"] == ["A"]
    assert Counter(d["players"][0]["deck"]) == old - Counter(["3"])
    assert d["players"][1]["damage"] == ["3"] and d["players"][1]["discard"] == ["2"]


def test_c4_an_attacker_with_no_card_for_the_damage_loses():
    # Player 0's last card attacks; the rest of the pool lies in front of player 1.
    state = position(pl("9", ""), pl("2", damage=REST), duel(life=256))
    play(state, "attack with 9 from hand", "defend with 2 from hand")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert state.to_dict()["table"] == {"attack": "9", "defense": "2"}


def test_c5_once_a_deck_runs_out_the_opponent_knows_the_hand():
    state = position(pl("A"), pl("10 2", "7"))
    play(state, "attack with A from hand", "defend with top of deck", "7")
    d = state.to_dict()
    assert d["players"][1]["hand_known"] and d["players"][1]["deck"] == []
    assert state.observation_dict(0)["players"][1]["hand"] == ["2", "10"]


def test_c5_a_known_hand_stays_known_once_the_discard_pile_is_a_deck_again():
    state = position(pl("A"), pl("10 2", ""), phase="defend", table={"attack": "A"})
    pile = Counter(state.to_dict()["players"][1]["discard"])
    play(state, "defend with top of deck (reshuffle discard pile)", "9")
    view = state.observation_dict(0)["players"][1]
    assert view["hand"] == ["2", "10"] and Counter(view["deck"]) == pile - Counter(["9"])
    for seed in range(10):
        assert state.determinized(0, seed) == state


def test_c6_the_opponents_hand_and_the_cards_played_from_it_fit_in_hand_points():
    # Player 1 has played 26 points from hand, so the two cards left are worth 4 at most:
    # of the unseen A A 2 2, only the two 2s fit.
    discard = " ".join(["10"] * 16 + ["6"] * 4 + ["5"] * 2)
    state = position(pl("A"), pl("2 2", "A A", discard=discard, spent=26))
    assert state.to_dict()["players"][1]["hand"] == ["2", "2"]
    worlds = {" ".join(state.determinized(0, seed).to_dict()["players"][1]["hand"])
              for seed in range(30)}
    assert worlds == {"2 2"}


def test_c6_a_hand_worth_more_than_hand_points_is_refused():
    with pytest.raises(core.StateFormatError, match=r"exceed hand_points 30"):
        position(pl("A A A"), pl())
    with pytest.raises(core.StateFormatError, match=r"exceed hand_points 30"):
        position(pl("A A", spent=9), pl())

