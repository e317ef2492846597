"""Shrine rulings R1-R14 and the engine's rulings S1, S3-S5, S12 and S19-S21, each checked
on the exact position it speaks of (docs/rules/shrine.md lists them all).

As in test_shrine_responses.py, player 0 is the active player unless a test says
otherwise, and the Library holds every card the position does not place elsewhere.
"""
from collections import Counter

import pytest

from core.shrine import CARD_KINDS, CARD_NAMES
from kit.helpers import names
from shrine_helpers import (act, assert_next_turn, offered, outcomes, pl, play, position,
                            shrine)

DECK = [name for name in CARD_NAMES if name != "JOKER"]


def everything_but(*zones):
    """The Graveyard that holds every card the given zones (space-separated names) do
    not: with it a position has an empty Library."""
    rest = Counter({name: 2 for name in DECK})
    rest.subtract(Counter(" ".join(zones).split()))
    assert all(n >= 0 for n in rest.values())
    return sorted(rest.elements())


def deal(state, cards):
    """Apply the deal's chance outcomes, named in dealing order."""
    return play(state, *cards.split())


DEAL = ("2B 3B 4B 5B 6B  2R 3R 4R 5R 6R  7B 8B 9B 10B JB  7R 8R 9R 10R JR")


# --- R1-R3: components ---------------------------------------------------------------

@pytest.mark.parametrize("params,cards", [({}, 52), ({"balance": True}, 53),
                                          ({"balance_returns": True}, 53)])
def test_r1_two_players_and_52_cards_with_one_joker_under_balance(params, cards):
    game = shrine(**params)
    assert game.num_players == 2
    state = game.new_initial_state()
    library = Counter(state.to_dict()["library"])
    assert sum(library.values()) == cards
    assert library["JOKER"] == cards - 52


def test_r2_only_colour_matters_and_copies_are_one_kind():
    state = shrine().new_initial_state()
    # 26 kinds, two copies each, dealt with equal chances.
    assert outcomes(state) == {name: pytest.approx(2 / 52) for name in DECK}
    # Two copies of a kind make one action, never two.
    state = position(pl("9B 9B 5B 4B", "2B 6R"), pl("2R", "3R 9R"))
    assert offered(state, "attack") == ["attack 5B+4B -> 9R", "attack 9B -> 9R"]


@pytest.mark.parametrize("target,attacks", [
    ("KR", ["attack KB -> KR", "attack QB+AB -> KR", "attack JB+2B -> KR"]),
    ("QR", ["attack QB -> QR", "attack JB+AB -> QR", "attack 9B+2B+AB -> QR"]),
    ("JR", ["attack JB -> JR", "attack 9B+2B -> JR"]),
    ("3R", ["attack 2B+AB -> 3R"]),
])
def test_r3_pawn_values_ace_1_jack_11_queen_12_king_13(target, attacks):
    state = position(pl("AB 2B 9B JB QB KB", "2B 6R"), pl("2R", f"3B {target}"))
    assert sorted(offered(state, "attack")) == sorted(attacks)


# --- R4-R7: set-up and what each player sees --------------------------------------------

def test_r4_deal_five_to_each_shrine_top_face_up_then_five_to_each_hand():
    state = deal(shrine().new_initial_state(), DEAL)
    d = state.to_dict()
    assert [pl["shrine"] for pl in d["players"]] == [DEAL.split()[0:5], DEAL.split()[5:10]]
    assert [pl["shrine_seen"] for pl in d["players"]] == [[False] * 4 + [True]] * 2
    assert d["players"][0]["hand"] == ["7B", "8B", "9B", "10B", "JB"]
    assert d["players"][1]["hand"] == ["7R", "8R", "9R", "10R", "JR"]
    assert len(d["library"]) == 32
    # Player 0 starts; with the Graveyard empty their first draw comes at once (R8, S19).
    assert (d["turn"], d["active"]) == (0, 0)
    assert state.is_chance_node() and len(outcomes(state)) == 26


def test_r5_only_the_top_shrine_card_is_seen_even_by_its_owner():
    state = deal(shrine().new_initial_state(), DEAL)
    for viewer in (0, 1):
        view = state.observation_dict(viewer)
        assert [pl["shrine"] for pl in view["players"]] == [["??"] * 4 + ["6B"],
                                                            ["??"] * 4 + ["6R"]]


def test_r5_a_card_once_face_up_stays_known_under_a_new_top():
    state = position(pl("6B 6R", "2B 6R"), pl("2R", "3R 9R"))
    play(state, "heal 6R+6B -> 6R", "9B")
    for viewer in (0, 1):
        assert state.observation_dict(viewer)["players"][0]["shrine"] == ["??", "6R", "9B"]


def test_r5_a_card_uncovered_is_turned_up_for_both():
    state = position(pl("9B", "2B 6R"), pl("2R", "3R 4B 9R"))
    act(state, "attack 9B -> 9R")
    for viewer in (0, 1):
        assert state.observation_dict(viewer)["players"][1]["shrine"] == ["??", "4B"]


def test_r6_library_unknown_to_both_graveyard_public_and_ordered():
    state = position(pl("9B", "2B 6R"), pl("2R", "3R 9R"), graveyard=["KR", "2B", "7R"])
    for viewer in (0, 1):
        view = state.observation_dict(viewer)
        assert view["graveyard"] == ["KR", "2B", "7R"]
        assert view["library"] == ["??"] * 43
    assert names(position(pl("9B", "2B 6R"), pl("2R", "3R 9R"), phase="start",
                          graveyard=["KR", "2B", "7R"]))[1] == "take 7R from the Graveyard"


def test_r7_jack_steal_shows_the_card_to_the_thief_and_its_loss_to_the_victim():
    state = position(pl("5B", "2B 6R", "JB"), pl("3R 9B", "3R 9R", hand_seen=["3R"]))
    act(state, "jack steal")
    assert outcomes(state) == {"3R": 0.5, "9B": 0.5}
    act(state, "9B")
    thief, victim = state.observation_dict(0), state.observation_dict(1)
    assert thief["players"][0]["hand"] == ["5B", "9B"]
    assert thief["players"][1]["hand"] == ["3R"]
    # The victim knows where the 9B went, not what else the thief holds.
    assert victim["players"][0]["hand"] == ["9B", "??"]
    assert victim["players"][1]["hand"] == ["3R"]


# --- R8-R12: the turn ------------------------------------------------------------------

def test_r8_draw_then_act_or_take_the_graveyard_card_as_the_whole_action():
    start = position(pl("9B", "2B 6R"), pl("2R", "3R 9R"), phase="start",
                     graveyard=["4B", "9B"])
    assert names(start) == ["draw", "take 9B from the Graveyard"]

    drawn = play(start.clone(), "draw")
    assert drawn.is_chance_node()
    act(drawn, "5B")
    assert drawn.to_dict()["phase"] == "action"
    assert drawn.to_dict()["players"][0]["hand"] == ["5B", "9B"]

    taken = play(start.clone(), "take 9B from the Graveyard")
    assert taken.to_dict()["players"][0]["hand"] == ["9B", "9B"]
    assert_next_turn(taken)


def test_r9_the_actions_a_turn_offers():
    # Every kind of action but the Dagger token, offered at once.
    state = position(pl("JB 4B 4B 4R 4R 9B 9R 8R AB 5B QR 10R", "2B 6R 9R", "KB JR"),
                     pl("2R 5R", "3R 8R", "QB"), graveyard=["7R"])
    kinds = {name.split()[0] for name in names(state)}
    assert kinds == {"pass", "jack", "play", "dagger", "triplet", "quad", "resurrect",
                     "heal", "attack"}
    assert "jack steal" in names(state)
    assert offered(state, "heal") == ["heal 9R+9B -> 9R"]
    # The Dagger token needs a Triad; then it is offered too.
    triad = position(pl("AB 5B", "2B 6R", "JB QR KB"), pl("2R", "3R 9R"))
    assert offered(triad, "play Dagger token") == ["play Dagger token AB (pay 5B)"]


def test_r10_s12_end_of_turn_discard_down_to_seven_one_card_at_a_time():
    state = position(pl("2B 3B 4B 5B 6B 7B 8R 8B", "2B 6R"), pl("2R", "3R 9R"),
                     phase="start", graveyard=["9B"])
    act(state, "take 9B from the Graveyard")
    d = state.to_dict()
    assert d["phase"] == "discard" and state.current_player() == 0
    assert d["picks_left"] == 2 and d["turn"] == 0
    assert names(state) == ["discard 2B", "discard 3B", "discard 4B", "discard 5B",
                            "discard 6B", "discard 7B", "discard 8B", "discard 8R",
                            "discard 9B"]
    act(state, "discard 9B")
    assert state.to_dict()["picks_left"] == 1
    act(state, "discard 2B")
    d = state.to_dict()
    assert d["graveyard"] == ["9B", "2B"]
    assert len(d["players"][0]["hand"]) == 7
    assert_next_turn(state)


def test_r11_s1_dagger_token_draws_an_extra_card_first_and_gives_a_second_action():
    state = position(pl("9B", "2B 6R", "JB QB KB AB"), pl("2R 3R", "3R 9R"),
                     active=1, graveyard=["7B"])
    act(state, "pass")
    # The extra card first, then the usual choice.
    assert state.is_chance_node() and state.to_dict()["active"] == 0
    act(state, "4B")
    assert names(state) == ["draw", "take 7B from the Graveyard"]
    play(state, "draw", "5B")
    d = state.to_dict()
    assert d["phase"] == "action" and d["actions_left"] == 2
    act(state, "attack 5B+4B -> 9R")
    d = state.to_dict()
    assert d["phase"] == "action" and d["actions_left"] == 1
    assert d["players"][1]["shrine"] == ["3R"]
    act(state, "pass")
    assert_next_turn(state, player=1, turn=2)


def test_s1_taking_the_graveyard_card_spends_one_of_the_two_actions():
    state = position(pl("5B 4B", "2B 6R", "JB QB KB AB"), pl("2R 3R", "3R 9R"),
                     active=1, graveyard=["7B"])
    play(state, "pass", "9R", "take 7B from the Graveyard")
    d = state.to_dict()
    assert d["phase"] == "action" and d["actions_left"] == 1
    assert d["players"][0]["hand"] == ["4B", "5B", "7B", "9R"]
    act(state, "attack 5B+4B -> 9R")
    assert_next_turn(state, player=1, turn=2)


def test_s1_s16_losing_the_dagger_token_in_the_first_action_loses_the_second():
    # The attack turns up the opponent's Joker; they play it, so the attacker gives up
    # the Token kinds the opponent lacks: the Triad breaks and the Dagger token falls.
    state = position(pl("5B 8B", "2R 6R", "JB QB KB AB"), pl("9B 9R", "2B JOKER 5R"),
                     game=shrine(balance=True), actions_left=2)
    act(state, "attack 5B -> 5R")
    # R31: first the attacker matches the opponent's two cards in hand: one card to
    # draw.  Then the Shrine drops to one card, and the Field is emptied.
    assert state.is_chance_node()
    act(state, "10R")
    d = state.to_dict()
    assert d["players"][0]["hand"] == ["8B", "10R"]
    assert d["players"][0]["field"] == [] and d["players"][0]["shrine"] == ["2R"]
    assert d["graveyard"] == [] and d["joker_out"] is True
    assert_next_turn(state)


def test_r12_an_empty_library_is_refilled_from_the_shuffled_graveyard():
    grave = everything_but("9B", "2B 6R", "2R", "3R 9R")
    state = position(pl("9B", "2B 6R"), pl("2R", "3R 9R"), phase="start",
                     graveyard=grave)
    assert state.to_dict()["library"] == []
    act(state, "draw")
    assert outcomes(state) == {name: pytest.approx(count / len(grave))
                               for name, count in Counter(grave).items()}
    act(state, "KR")
    d = state.to_dict()
    assert d["graveyard"] == [] and len(d["library"]) == len(grave) - 1
    assert "KR" in d["players"][0]["hand"]


def test_r12_s19_with_library_and_graveyard_empty_nothing_is_drawn_and_no_heal():
    hand = " ".join(everything_but("2B 6R", "2R 9B", "3R 9R"))
    state = position(pl(hand, "2B 6R"), pl("2R 9B", "3R 9R"), active=1)
    act(state, "pass")
    d = state.to_dict()
    # No draw, no choice: the turn goes straight to its action.
    assert d["active"] == 0 and d["phase"] == "action"
    assert len(d["players"][0]["hand"]) == len(hand.split())
    assert "6B" in d["players"][0]["hand"] and "6R" in d["players"][0]["hand"]
    assert offered(state, "heal") == []


def test_s19_an_empty_graveyard_means_the_draw_comes_at_once():
    state = position(pl("9B", "2B 6R"), pl("2R", "3R 9R"), active=1)
    act(state, "pass")
    assert state.is_chance_node() and state.to_dict()["active"] == 0
    act(state, "5B")
    assert state.to_dict()["phase"] == "action"


# --- R13, R14: Heal and Attack ----------------------------------------------------------

@pytest.mark.parametrize("field,heals", [
    ("", ["heal 6R+6B -> 6R"]),
    # The Queen: a pair within 1 of the top, still with a card of its colour.
    ("QB", ["heal 5R+5R -> 6R", "heal 6R+6B -> 6R"]),
])
def test_r13_heal_pays_a_pair_of_the_top_value_with_one_of_its_colour(field, heals):
    state = position(pl("6B 6B 6R 5R 5R 7B 7B", "2B 6R", field), pl("2R", "3R 9R"))
    assert offered(state, "heal") == heals
    act(state, heals[0])
    # The pair is paid, then the top Library card is turned up onto the Shrine.
    assert state.is_chance_node()
    act(state, "JB")
    d = state.to_dict()
    assert d["players"][0]["shrine"] == ["2B", "6R", "JB"]
    assert d["players"][0]["shrine_seen"] == [False, True, True]
    assert Counter(d["graveyard"]) == Counter(heals[0].split()[1].split("+"))
    assert_next_turn(state)


@pytest.mark.parametrize("hand,own", [("6B 6R", "2B 3B 4B 5R 6R"), ("AB AR", "2B AR")])
def test_r13_no_heal_on_a_full_shrine_or_an_ace(hand, own):
    state = position(pl(hand, own), pl("2R", "3R 9R"))
    assert offered(state, "heal") == []


@pytest.mark.parametrize("field,attacks", [
    ("", ["attack 4B+3B+2B -> 9R", "attack 5B+4B -> 9R"]),
    # The King: a total within 1 of the top's value (S4).
    ("KB", ["attack 5B+3B -> 9R",
            "attack 4B+3B+2B -> 9R", "attack 5B+4B -> 9R", "attack 5B+3B+2B -> 9R"]),
])
def test_r14_s4_attack_pays_the_exact_value_in_cards_of_the_other_colour(field, attacks):
    # 4R is the top's colour and never pays; 10B is too much without the King.
    state = position(pl("2B 3B 4B 5B 4R 10B", "2B 6R", field), pl("2R", "3R 9R"))
    assert sorted(offered(state, "attack")) == sorted(attacks + (["attack 10B -> 9R"]
                                                                  if field else []))


# --- S3-S5, S12: powers, payments, the hand limit ----------------------------------------

def dagger_turn(hand, opp_shrine="2R 9R 9R", opp_hand="2R 3R", **desc):
    """Player 0 with a Triad and the Dagger token, about to take two actions."""
    return position(pl(hand, "2B 6R", "JB QB KB AB"), pl(opp_hand, opp_shrine),
                    actions_left=2, **desc)


def test_s3_the_kings_range_serves_once_per_turn():
    state = dagger_turn("10B 8B 9B")
    assert offered(state, "attack") == ["attack 8B -> 9R", "attack 9B -> 9R",
                                        "attack 10B -> 9R"]
    act(state, "attack 10B -> 9R")
    assert state.to_dict()["powers_used"] == ["king"]
    assert offered(state, "attack") == ["attack 9B -> 9R"]


def test_s3_an_exact_attack_leaves_the_kings_range_for_the_second_action():
    state = dagger_turn("10B 9B")
    act(state, "attack 9B -> 9R")
    assert state.to_dict()["powers_used"] == []
    assert offered(state, "attack") == ["attack 10B -> 9R"]


def test_s3_the_jack_steals_once_per_turn():
    state = dagger_turn("5B", opp_hand="2R 3R 4R 5R 6R", opp_shrine="3R 9R")
    play(state, "jack steal", "no response", "4R", "discard 4R")
    d = state.to_dict()
    assert d["actions_left"] == 1 and d["powers_used"] == ["jack"]
    assert "jack steal" not in names(state)


def test_s3_the_queens_range_serves_once_per_turn():
    state = position(pl("5R 5R 7B 7R", "2B 6R", "JB QB KB AB"), pl("2R 3R", "3R 9R"),
                     actions_left=2)
    assert offered(state, "heal") == ["heal 5R+5R -> 6R", "heal 7R+7B -> 6R"]
    play(state, "heal 5R+5R -> 6R", "6B")
    # The new top is 6B: 7R+7B is within 1 of it, but the Queen has served.
    assert state.to_dict()["powers_used"] == ["queen"]
    assert offered(state, "heal") == []


def test_s4_the_kings_range_applies_to_a_total_of_several_cards():
    state = position(pl("5B 5B 3B", "2B 6R", "KB"), pl("2R", "3R 9R"))
    assert offered(state, "attack") == ["attack 5B+3B -> 9R", "attack 5B+5B -> 9R"]


def test_s4_a_queen_heal_is_still_a_pair_of_one_value():
    state = position(pl("5R 6B 7R", "2B 6R", "QB"), pl("2R", "3R 9R"))
    assert offered(state, "heal") == []


def test_s5_any_other_card_of_the_colour_pays_a_token_or_a_dagger():
    state = position(pl("JB QB AB AB", "2B 6R"), pl("2R", "3R 9R"))
    assert offered(state, "play token") == ["play token JB (pay AB)",
                                            "play token JB (pay QB)",
                                            "play token QB (pay AB)",
                                            "play token QB (pay JB)"]
    assert offered(state, "dagger") == ["dagger AB (pay AB) -> Shrine 9R",
                                        "dagger AB (pay JB) -> Shrine 9R",
                                        "dagger AB (pay QB) -> Shrine 9R"]
    act(state, "dagger AB (pay AB) -> Shrine 9R")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R"]
    assert d["graveyard"] == ["AB", "9R", "AB"]
    assert d["players"][0]["hand"] == ["JB", "QB"]


def test_s12_the_hand_limit_waits_for_the_end_of_the_turn():
    state = dagger_turn("2B 3B 4B 5B 6B 7B 8B", phase="start", graveyard=["9B"])
    act(state, "take 9B from the Graveyard")
    # Eight cards, and the second action still comes before any discard.
    d = state.to_dict()
    assert d["phase"] == "action" and len(d["players"][0]["hand"]) == 8
    act(state, "pass")
    assert state.to_dict()["phase"] == "discard"
    act(state, "discard 2B")
    assert_next_turn(state)


def test_s3_a_power_is_spent_when_declared_even_if_the_action_is_fizzled():
    state = dagger_turn("10B 8B", opp_hand="2R 3R 4R")
    play(state, "attack 10B -> 9R", "fizzle")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["2R", "9R", "9R"] and d["actions_left"] == 1
    assert d["powers_used"] == ["king"]
    assert offered(state, "attack") == []


# --- S20, S21: an Ace on top, against a Quad and a Balance ------------------------------

def test_s20_a_quad_takes_an_ace_on_top():
    # Four cards of one value hold the equal pair R15 asks for.
    state = position(pl("7B 7B 7R 7R 2B", "2R 6R"), pl("9B 9R", "3R AR"))
    assert offered(state, "quad") == ["quad 7"]
    act(state, "quad 7")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R"]
    assert d["graveyard"] == ["AR", "7B", "7B", "7R", "7R"]
    assert_next_turn(state)


@pytest.mark.parametrize("stack,after", [("AR", ["AR"]), ("3R AR", ["3R", "AR"]),
                                          ("2B 3R 4R 5R AR", ["2B", "3R", "4R", "5R"])])
def test_r29_an_ace_on_top_takes_no_balance_additions_but_loses_cards(stack, after):
    state = position(pl("3B 4B", "2B 6B 7B 8R"), pl("9B 9R", stack),
                     game=shrine(balance=True), phase="start", graveyard=["10B"])
    play(state, "draw", "JOKER")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == after
    assert d["players"][1]["shrine_seen"][-1] is True
    assert_next_turn(state)


def test_r31_a_balance_fills_the_shrine_to_the_capacity_it_has_before_the_field():
    # The Joker's player has a Triad and seven cards; the opponent gains the Triad only
    # after the Shrine step, so it grows to five, not seven.
    state = position(pl("3B 4B", "2B 3B 4B 5B 6B 7B 8R", "JB QB KB"),
                     pl("9B 9R", "3R 4R 5R"),
                     game=shrine(balance=True), phase="start",
                     graveyard=["10B", "JR", "QR", "KR"])
    play(state, "draw", "JOKER", "6R", "7R")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R", "4R", "5R", "6R", "7R"]
    assert d["players"][1]["field"] == ["JR", "QR", "KR"]
    assert_next_turn(state)


def test_s23_an_ace_added_face_down_does_not_stop_the_adding():
    state = position(pl("3B 4B", "2B 6B 7B 8R"), pl("9B 9R", "3R 10R"),
                     game=shrine(balance=True), phase="start", graveyard=["10B"])
    play(state, "draw", "JOKER", "AB", "6R")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R", "10R", "AB", "6R"]
    assert d["players"][1]["shrine_seen"] == [False, True, False, True]
    assert_next_turn(state)


def test_s15_cards_a_balance_adds_face_down_are_hidden_from_both_but_the_top_turned_up():
    # Ours: what each player sees of the additions.  The Shrine's new top is turned up
    # once the adding is done, so that card alone is seen as it comes out.
    state = position(pl("3B 4B", "2B 6B 7B 8R"), pl("9B 9R", "3R 10R"),
                     game=shrine(balance=True), phase="start", graveyard=["10B"])
    play(state, "draw", "JOKER")
    first, last = CARD_KINDS["5R"], CARD_KINDS["6R"]
    assert [state.action_view(first, p) for p in (0, 1)] == [-1, -1]
    play(state, "5R")
    assert [state.action_view(last, p) for p in (0, 1)] == [last, last]
