"""Shrine rulings R15-R28, the engine's rulings S2, S6-S11, S13-S18 and the optional
rules, each checked on the exact position it speaks of.

Every test builds its position with ``state_from_dict`` and checks what a player at
the table would check: which actions are offered, and afterwards the hands, Shrines,
Fields, the Graveyard from bottom to top, who is to act and who won.  Player 0 is the
active player unless a test says otherwise; the Library holds every card the position
does not place elsewhere.
"""
from collections import Counter

import pytest

import core
from core.shrine import FOUND_NONE
from kit.helpers import names
from shrine_helpers import (act, assert_next_turn, offered, outcomes, pl, play, position,
                            shrine)


# --- R15: an Ace on top --------------------------------------------------------------

def test_r15_ace_on_top_is_removed_only_by_dagger_or_equal_pair():
    # The King token would let a lone 2B reach within 1 of the Ace's value: it must
    # not, nor may the black Ace attack the red one as a Pawn of value 1.
    state = position(pl("AB 2B 3B 7B 7R 9R 9R", "4B 6R", "KB"), pl("5B 6B", "9B AR"))
    assert names(state) == [
        "pass",
        "dagger AB (pay 2B) -> Shrine AR", "dagger AB (pay 3B) -> Shrine AR",
        "dagger AB (pay 7B) -> Shrine AR",
        "attack pair 7R+7B -> AR", "attack pair 9R+9R -> AR",
    ]


def test_r15_pair_of_equal_value_any_colours_removes_the_ace():
    state = position(pl("7B 7R 3B", "4B 6R"), pl("5B 6B", "9B AR"))
    act(state, "attack pair 7R+7B -> AR")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["9B"]
    assert d["players"][1]["shrine_seen"] == [True]
    assert d["graveyard"] == ["AR", "7B", "7R"]
    assert d["players"][0]["hand"] == ["3B"]
    assert_next_turn(state)


# --- R16, S7: Token block ------------------------------------------------------------

def test_r16_token_block_discards_the_token_and_the_attack_and_removes_nothing():
    state = position(pl("4B 5B 10R", "2R 6R"), pl("2B 3B", "3R 9R", "QR"))
    act(state, "attack 5B+4B -> 9R")
    assert state.current_player() == 1
    assert names(state) == ["no response", "token block QR"]
    act(state, "token block QR")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R", "9R"]
    assert d["players"][1]["field"] == []
    assert d["graveyard"] == ["QR", "4B", "5B"]
    assert d["players"][0]["hand"] == ["10R"]
    assert_next_turn(state)


# Each Pawn attack: (my hand, my field, Graveyard, opponent's Shrine, the steps that
# declare it, the Graveyard once it is blocked by the Jack token).
PAWN_ATTACKS = {
    "plain": ("4B 5B", "", "", "3R 9R", ["attack 5B+4B -> 9R"], ["JB", "4B", "5B"]),
    "king": ("10B", "KB", "", "3R 9R", ["attack 10B -> 9R"], ["JB", "10B"]),
    "ace pair": ("7B 7R", "", "", "3R AR", ["attack pair 7R+7B -> AR"], ["JB", "7B", "7R"]),
    # A blocked Resurrection leaves the resurrected card in the Graveyard (S10).
    "resurrection": ("6R 7R 8R 5B", "", "4B", "3R 9R",
                     ["resurrect 6R+7R+8R (4B)", "resurrect to attack 5B+4B -> 9R"],
                     ["4B", "JB", "6R", "7R", "8R", "5B"]),
    "resurrection pair": ("2R 3R 4R 7R", "", "7B", "3R AR",
                          ["resurrect 2R+3R+4R (7B)", "resurrect to attack 7R+7B -> AR"],
                          ["7B", "JB", "2R", "3R", "4R", "7R"]),
}


@pytest.mark.parametrize("kind", PAWN_ATTACKS)
def test_r16_s7_token_block_answers_every_pawn_attack(kind):
    hand, field, grave, target, steps, blocked = PAWN_ATTACKS[kind]
    state = position(pl(hand, "2B 6R", field), pl("2B 3B", target, "JB QR"),
                     graveyard=grave.split())
    play(state, *steps)
    assert names(state) == ["no response", "token block JB", "token block QR"]
    act(state, "token block JB")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == target.split()
    assert d["players"][1]["field"] == ["QR"]
    assert d["graveyard"] == blocked
    assert d["players"][0]["hand"] == []


# Actions no Token blocks: (my hand, my Shrine, the declaration).
NOT_BLOCKABLE = {
    "dagger": ("AB 5B", "2B 6R", "dagger AB (pay 5B) -> Shrine 9R"),
    "triplet": ("7B 7B 7R", "2B 6R", "triplet 7R+7B+7B"),
    "quad": ("7B 7B 7R 7R", "2B 6R", "quad 7"),
    "heal": ("6B 6R", "2B 6R", "heal 6R+6B -> 6R"),
    "token play": ("JB 5B", "2B 6R", "play token JB (pay 5B)"),
}


@pytest.mark.parametrize("kind", NOT_BLOCKABLE)
def test_r16_s7_tokens_never_block_dagger_triplet_quad_heal_or_token_play(kind):
    hand, own, declaration = NOT_BLOCKABLE[kind]
    state = position(pl(hand, own), pl("2B 3B 4B", "3R 9R", "JR QR KR"))
    act(state, declaration)
    assert names(state) == ["no response", "fizzle"]


def test_r30_the_dagger_token_blocks_like_any_token():
    state = position(pl("4B 5B", "2R 6R"), pl("2R 3R", "3R 9R", "JB QR KB AR"))
    act(state, "attack 5B+4B -> 9R")
    assert names(state) == ["no response", "token block JB", "token block QR",
                            "token block KB", "token block AR"]
    act(state, "token block AR")
    d = state.to_dict()
    # The Triad stands; the Dagger token and the attack's cards are gone, nothing removed.
    assert d["players"][1]["field"] == ["JB", "QR", "KB"]
    assert d["players"][1]["shrine"] == ["3R", "9R"]
    assert d["graveyard"] == ["AR", "4B", "5B"]
    assert_next_turn(state)


# --- R17: playing a Token ------------------------------------------------------------

def test_r17_token_play_pays_one_card_of_its_colour_and_one_of_each_kind():
    state = position(pl("JB JB QR 5R 9B KR", "2B 6R", "QB"), pl("2B 3B", "3R 9R"))
    # No Queen: one is on the Field.  The Jack may pay with the other Jack.
    assert sorted(offered(state, "play token")) == sorted([
        "play token JB (pay 9B)", "play token JB (pay JB)",
        "play token KR (pay 5R)", "play token KR (pay QR)",
    ])
    act(state, "play token KR (pay QR)")
    d = state.to_dict()
    assert d["players"][0]["field"] == ["QB", "KR"]
    assert d["players"][0]["hand"] == ["5R", "9B", "JB", "JB"]
    assert d["graveyard"] == ["QR"]
    assert_next_turn(state)


# --- R18, S13: Jack steal ------------------------------------------------------------

@pytest.mark.parametrize("opp_hand,allowed", [("9B", False), ("9B 3R", True)])
def test_r18_jack_steal_needs_two_cards_in_the_opponents_hand(opp_hand, allowed):
    state = position(pl("5B", "2B 6R", "JB"), pl(opp_hand, "3R 9R"))
    assert ("jack steal" in names(state)) == allowed


def test_r18_s2_jack_steal_takes_a_random_opponent_card_then_discards_any():
    state = position(pl("5B", "2B 6R", "JB"), pl("3R 9B 9B", "3R 9R"))
    act(state, "jack steal")
    act(state, "no response")
    assert state.is_chance_node()
    assert outcomes(state) == {"3R": pytest.approx(1 / 3), "9B": pytest.approx(2 / 3)}
    act(state, "9B")
    d = state.to_dict()
    assert d["phase"] == "jack discard" and state.current_player() == 0
    assert d["powers_used"] == ["jack"]
    # The victim knows which card left: the thief's 9B is known to them.
    assert d["players"][0]["hand"] == ["5B", "9B"]
    assert d["players"][0]["hand_seen"] == ["9B"]
    assert d["players"][1]["hand"] == ["3R", "9B"]
    # The stolen card may be the one discarded.
    assert names(state) == ["discard 5B", "discard 9B"]
    act(state, "discard 9B")
    d = state.to_dict()
    assert d["players"][0]["hand"] == ["5B"]
    assert d["players"][0]["hand_seen"] == []
    assert d["graveyard"] == ["9B"]
    assert_next_turn(state)


def test_s13_jack_steal_after_fizzle_and_counter_finds_an_empty_hand():
    state = position(pl("2B 5B 8R", "2B 6R", "JB"), pl("3R 9B 10B", "3R 9R"))
    play(state, "jack steal", "fizzle")
    assert names(state) == ["no counter", "counter-fizzle"]
    act(state, "counter-fizzle")
    d = state.to_dict()
    assert d["players"][0]["hand"] == [] and d["players"][1]["hand"] == []
    assert d["graveyard"] == ["3R", "9B", "10B", "2B", "5B", "8R"]
    assert_next_turn(state)


def test_s13_alt_fizzle_jack_steal_takes_the_card_the_fizzle_left():
    state = position(pl("2B 5B 8R 10R", "2B 6R", "JB"), pl("3R 4R 9B 10B", "3R 9R"),
                     game=shrine(alt_fizzle=True))
    play(state, "jack steal", "fizzle", "discard 3R", "discard 9B", "discard 10B",
         "counter-fizzle", "discard 2B", "discard 8R", "discard 10R")
    assert outcomes(state) == {"4R": 1.0}
    act(state, "4R")
    assert names(state) == ["discard 4R", "discard 5B"]
    act(state, "discard 5B")
    d = state.to_dict()
    assert d["players"][0]["hand"] == ["4R"] and d["players"][1]["hand"] == []
    assert d["graveyard"] == ["3R", "9B", "10B", "2B", "8R", "10R", "5B"]
    assert_next_turn(state)


# --- R19: Dagger targets -------------------------------------------------------------

def test_r19_dagger_targets_each_field_card_or_the_shrine_top():
    state = position(pl("AB 5B", "2B 6R"), pl("2R", "2R 9R", "JR QB KB AR"))
    assert offered(state, "dagger") == [
        "dagger AB (pay 5B) -> JR", "dagger AB (pay 5B) -> QB", "dagger AB (pay 5B) -> KB",
        "dagger AB (pay 5B) -> AR", "dagger AB (pay 5B) -> Shrine 9R",
    ]


def test_r19_s11_dagger_sends_payment_target_then_ace_to_the_graveyard():
    state = position(pl("AB 5B 9B", "2B 6R"), pl("2R", "2R 9R", "JR"))
    act(state, "dagger AB (pay 5B) -> Shrine 9R")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["2R"] and d["players"][1]["shrine_seen"] == [True]
    assert d["players"][1]["field"] == ["JR"]
    assert d["graveyard"] == ["5B", "9R", "AB"]
    assert_next_turn(state)


# --- R20, S6, S8: Dagger block -------------------------------------------------------

def test_r20_dagger_block_sends_both_aces_and_payments_to_graveyard():
    state = position(pl("AB 5B 8R 9R 10R", "2B 6R"), pl("AR 3R", "3R 9R", "QB"))
    act(state, "dagger AB (pay 5B) -> QB")
    # Two cards only: no Fizzle, but a Dagger block.
    assert names(state) == ["no response", "dagger block AR (pay 3R)"]
    act(state, "dagger block AR (pay 3R)")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["QB"]
    assert d["players"][1]["hand"] == []
    assert d["players"][0]["hand"] == ["8R", "9R", "10R"]
    assert d["graveyard"] == ["5B", "AB", "3R", "AR"]
    # R26: nothing answers a Dagger block, though three cards could pay a Fizzle.
    assert_next_turn(state)


def test_r20_s8_dagger_block_answers_a_resurrected_dagger():
    state = position(pl("3B 4R 5B", "2R 6R"), pl("AB 2B", "3R 9R", "KR"),
                     graveyard=["9B", "AR"])
    act(state, "resurrect 3B+4R+5B (AR)")
    assert names(state) == ["resurrect onto own Shrine", "resurrect as dagger -> KR",
                            "resurrect as dagger -> Shrine 9R"]
    act(state, "resurrect as dagger -> KR")
    assert names(state) == ["no response", "dagger block AB (pay 2B)"]
    act(state, "dagger block AB (pay 2B)")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["KR"]
    # The resurrected Ace stays where it lay (S10).
    assert d["graveyard"] == ["9B", "AR", "3B", "4R", "5B", "2B", "AB"]
    assert_next_turn(state)


@pytest.mark.parametrize("opp_hand,responses", [
    ("AR 3R", None),                        # two cards: no window at all
    ("AR 3R 9B", ["no response", "fizzle"]),  # a Fizzle, never a Dagger block
])
def test_s8_dagger_token_play_is_not_dagger_blocked(opp_hand, responses):
    state = position(pl("AB 5B", "2B 6R", "JB QR KB"), pl(opp_hand, "3R 9R"))
    act(state, "play Dagger token AB (pay 5B)")
    if responses is not None:
        assert names(state) == responses
        act(state, "no response")
    d = state.to_dict()
    assert d["players"][0]["field"] == ["JB", "QR", "KB", "AB"]
    assert d["graveyard"] == ["5B"]
    assert_next_turn(state)


# --- R21, S17: the Triad -------------------------------------------------------------

@pytest.mark.parametrize("field,size,heal", [
    ("JB QR", 4, True), ("JB QR", 5, False),
    ("JB QR KB", 6, True), ("JB QR KB", 7, False),
])
def test_r21_triad_raises_shrine_capacity_to_seven(field, size, heal):
    own = ["2B", "3B", "4B", "5B", "7B", "8B"][:size - 1] + ["6R"]
    state = position(pl("6B 6R", " ".join(own), field), pl("2R 3R", "3R 9R"))
    assert ("heal 6R+6B -> 6R" in names(state)) == heal


def test_r21_s11_heal_into_the_seventh_slot_pays_the_pair_then_turns_up_a_card():
    state = position(pl("6B 6R", "2B 3B 4B 5B 7B 6R", "JB QR KB"), pl("2R 3R", "3R 9R"))
    act(state, "heal 6R+6B -> 6R")
    assert state.is_chance_node()
    act(state, "9R")
    d = state.to_dict()
    assert d["players"][0]["shrine"] == ["2B", "3B", "4B", "5B", "7B", "6R", "9R"]
    assert d["players"][0]["shrine_seen"][-2:] == [True, True]
    assert d["graveyard"] == ["6B", "6R"]
    assert_next_turn(state)


@pytest.mark.parametrize("field,allowed", [("JB QR", False), ("JB QR KB", True)])
def test_r21_dagger_token_only_with_a_triad(field, allowed):
    state = position(pl("AB 5B", "2B 6R", field), pl("2R", "3R 9R"))
    assert offered(state, "play Dagger token") == (
        ["play Dagger token AB (pay 5B)"] if allowed else [])


def test_r21_s17_triad_break_drops_the_dagger_token_then_trims_the_top_first():
    opp_shrine = "2B 3B 4B 6B 7R 8R 9R"
    state = position(pl("AR 5R", "2R 6R"),
                     pl("2R", opp_shrine, "JR QB KB AB", shrine_seen=[False] * 6 + [True]))
    act(state, "dagger AR (pay 5R) -> QB")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["JR", "KB"]
    assert d["players"][1]["shrine"] == ["2B", "3B", "4B", "6B", "7R"]
    # The newly exposed top is turned up.
    assert d["players"][1]["shrine_seen"] == [False] * 4 + [True]
    assert d["graveyard"] == ["5R", "QB", "AR", "AB", "9R", "8R"]
    assert_next_turn(state)


def test_r21_s17_blocking_with_a_triad_token_breaks_the_triad():
    state = position(pl("4B 5B", "2R 6R"), pl("2R", "2B 3B 4R 6B 8R 9R", "JR QB KB AB"))
    act(state, "attack 5B+4B -> 9R")
    act(state, "token block KB")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["JR", "QB"]
    assert d["players"][1]["shrine"] == ["2B", "3B", "4R", "6B", "8R"]
    assert d["graveyard"] == ["KB", "4B", "5B", "AB", "9R"]
    assert_next_turn(state)


# --- R22, S9: Triplet and Quad -------------------------------------------------------

@pytest.mark.parametrize("opp_field,allowed", [("", False), ("QR", True)])
def test_r22_triplet_needs_an_opponent_field_card(opp_field, allowed):
    state = position(pl("7B 7B 7R", "2B 6R"), pl("2R", "3R 9R", opp_field))
    assert offered(state, "triplet") == (["triplet 7R+7B+7B"] if allowed else [])


def test_r22_s11_triplet_clears_the_field_and_the_broken_triad_trims_the_shrine():
    state = position(pl("7B 7B 7R", "2B 6R"),
                     pl("2R 3R", "2B 3B 4B 6B 8R 9R 10R", "JR QB KB AR"))
    act(state, "triplet 7R+7B+7B")
    d = state.to_dict()
    assert d["players"][1]["field"] == []
    assert d["players"][1]["shrine"] == ["2B", "3B", "4B", "6B", "8R"]
    assert d["graveyard"] == ["JR", "QB", "KB", "AR", "7B", "7B", "7R", "10R", "9R"]
    assert_next_turn(state)


@pytest.mark.parametrize("opp_field,removed", [("", []), ("JR KB", ["JR", "KB"])])
def test_r22_s9_quad_takes_any_field_cards_and_the_top_shrine_card(opp_field, removed):
    state = position(pl("7B 7B 7R 7R", "2B 6R"), pl("2R", "3R 9R", opp_field))
    assert offered(state, "quad") == ["quad 7"]
    act(state, "quad 7")
    d = state.to_dict()
    assert d["players"][1]["field"] == []
    assert d["players"][1]["shrine"] == ["3R"]
    assert d["graveyard"] == removed + ["9R", "7B", "7B", "7R", "7R"]
    assert_next_turn(state)


def test_r22_s17_quad_on_a_full_triad_shrine_takes_the_top_then_trims_to_five():
    # The Quad resolves whole (Field, top card, combo); the broken Triad trims after.
    state = position(pl("7B 7B 7R 7R", "2R 6R"),
                     pl("2R 3R", "2B 3B 4B 6B 8R 9R 10R", "JR QB KB AR"))
    act(state, "quad 7")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["2B", "3B", "4B", "6B", "8R"]
    assert d["graveyard"] == ["JR", "QB", "KB", "AR", "10R", "7B", "7B", "7R", "7R", "9R"]
    assert_next_turn(state)

# --- R23, S10: Resurrection ----------------------------------------------------------

def test_r23_resurrection_takes_three_consecutive_values_with_the_ace_low_high_or_wrapping():
    state = position(pl("JB QB KB AR 2B 3B 9B", "2R 6R"), pl("2R", "3R 9B"),
                     graveyard=["9R"])
    assert offered(state, "resurrect") == [
        "resurrect AR+2B+3B (9R)", "resurrect JB+QB+KB (9R)",
        "resurrect QB+KB+AR (9R)", "resurrect KB+AR+2B (9R)",
    ]


def test_r23_s11_wrapped_resurrection_pays_ascending_and_uses_the_card_on_own_shrine():
    state = position(pl("KB AR 2B", "2R 6R"), pl("2R", "3R 9B"), graveyard=["5B", "9R"])
    act(state, "resurrect KB+AR+2B (9R)")
    assert state.current_player() == 0
    assert names(state) == ["resurrect onto own Shrine", "resurrect to attack 9R -> 9B"]
    act(state, "resurrect onto own Shrine")
    d = state.to_dict()
    assert d["players"][0]["shrine"] == ["2R", "6R", "9R"]
    assert d["players"][0]["shrine_seen"] == [False, True, True]
    assert d["graveyard"] == ["5B", "AR", "2B", "KB"]
    assert_next_turn(state)


def test_r23_resurrected_token_goes_to_the_field_for_free():
    state = position(pl("3B 4R 5B", "2B 6R 9R 10R 8B", "JB"), pl("2R", "3R 9R"),
                     graveyard=["QR"])
    act(state, "resurrect 3B+4R+5B (QR)")
    assert names(state) == ["resurrect as token"]
    act(state, "resurrect as token")
    d = state.to_dict()
    assert d["players"][0]["field"] == ["JB", "QR"]
    assert d["graveyard"] == ["3B", "4R", "5B"]
    assert_next_turn(state)


def test_r23_resurrected_ace_is_a_free_dagger_or_with_a_triad_a_free_dagger_token():
    state = position(pl("3B 4R 5B", "2B 6R", "JR QR KR"), pl("2R", "3R 9R", "QB"),
                     graveyard=["9B", "AB"])
    act(state, "resurrect 3B+4R+5B (AB)")
    assert names(state) == ["resurrect onto own Shrine", "resurrect as Dagger token",
                            "resurrect as dagger -> QB", "resurrect as dagger -> Shrine 9R"]
    act(state, "resurrect as dagger -> QB")
    d = state.to_dict()
    assert d["players"][1]["field"] == []
    assert d["graveyard"] == ["9B", "3B", "4R", "5B", "QB", "AB"]
    assert_next_turn(state)


def test_r23_resurrected_card_attacks_with_hand_cards_of_its_colour():
    # Full Shrine: the card can only attack.
    state = position(pl("6R 7R 8R 5B 2B 3B 9R", "2B 3B 4B 5R 6R"), pl("2R", "3R 9R"),
                     graveyard=["10R", "4B"])
    act(state, "resurrect 6R+7R+8R (4B)")
    assert names(state) == ["resurrect to attack 4B+3B+2B -> 9R",
                            "resurrect to attack 5B+4B -> 9R"]
    act(state, "resurrect to attack 5B+4B -> 9R")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R"]
    assert d["graveyard"] == ["10R", "6R", "7R", "8R", "9R", "4B", "5B"]
    assert d["players"][0]["hand"] == ["2B", "3B", "9R"]
    assert_next_turn(state)


def test_r23_resurrected_card_pairs_with_a_hand_card_against_an_ace_top():
    state = position(pl("2R 3R 4R 7R", "2B 3B 4B 5R 6R"), pl("2R", "3R AR"),
                     graveyard=["7B"])
    act(state, "resurrect 2R+3R+4R (7B)")
    assert names(state) == ["resurrect to attack 7R+7B -> AR"]
    act(state, "resurrect to attack 7R+7B -> AR")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R"]
    assert d["graveyard"] == ["2R", "3R", "4R", "AR", "7B", "7R"]
    assert_next_turn(state)


def test_r23_s8_resurrected_dagger_token_is_free_and_never_dagger_blocked():
    state = position(pl("3B 4R 5B", "2B 6R", "JB QR KB"), pl("AR 3R", "3R 9R"),
                     graveyard=["AB"])
    play(state, "resurrect 3B+4R+5B (AB)", "resurrect as Dagger token")
    d = state.to_dict()
    assert d["players"][0]["field"] == ["JB", "QR", "KB", "AB"]
    assert d["graveyard"] == ["3B", "4R", "5B"]
    assert_next_turn(state)

@pytest.mark.parametrize("own,opp_top,allowed", [
    ("2B 3B 4B 5R 6R", "9B", False),   # full Shrine, same colour as the target
    ("2B AR", "9B", False),            # an Ace on top takes no card
    ("2B 3B 4B 5R 6R", "9R", True),    # 9B may attack 9R on its own
])
def test_s10_resurrection_is_offered_only_when_the_card_has_a_use(own, opp_top, allowed):
    state = position(pl("3B 4R 5B", own), pl("2R", f"3R {opp_top}"), graveyard=["9B"])
    assert offered(state, "resurrect") == (["resurrect 3B+4R+5B (9B)"] if allowed else [])


def test_s10_fizzled_resurrection_leaves_the_card_in_the_graveyard():
    state = position(pl("3B 4R 5B", "2B 6R"), pl("JB QB KB", "3R 9R"), graveyard=["2R", "9R"])
    play(state, "resurrect 3B+4R+5B (9R)", "resurrect onto own Shrine")
    assert names(state) == ["no response", "fizzle"]
    act(state, "fizzle")
    d = state.to_dict()
    assert d["players"][0]["shrine"] == ["2B", "6R"]
    assert d["graveyard"] == ["2R", "9R", "JB", "QB", "KB", "3B", "4R", "5B"]
    assert_next_turn(state)


# --- R24, S6: the response window ----------------------------------------------------

# (my hand, my field, the opponent's hand and field, the declaration)
NO_WINDOW = {
    "attack, two cards, no token": ("4B 5B", "", "2B 3B", "", "attack 5B+4B -> 9R"),
    "heal, two cards and a token": ("6B 6R", "", "2B 3B", "QR", "heal 6R+6B -> 6R"),
    "dagger, one card (an Ace)": ("AB 5B", "", "AR", "", "dagger AB (pay 5B) -> Shrine 9R"),
    "jack steal, two cards": ("5B", "JB", "2B 3B", "QR", "jack steal"),
}


@pytest.mark.parametrize("case", NO_WINDOW)
def test_r24_s6_no_window_when_the_responder_cannot_answer(case):
    hand, field, opp_hand, opp_field, declaration = NO_WINDOW[case]
    state = position(pl(hand, "2B 6R", field), pl(opp_hand, "3R 9R", opp_field))
    act(state, declaration)
    assert state.to_dict()["phase"] != "response"


# As NO_WINDOW, then the responses offered.
WINDOW = {
    "heal, three cards": ("6B 6R", "", "2B 3B 4B", "", "heal 6R+6B -> 6R",
                          ["no response", "fizzle"]),
    "attack, two cards and a token": ("4B 5B", "", "2B 3B", "QR", "attack 5B+4B -> 9R",
                                      ["no response", "token block QR"]),
    # The acting player cannot tell whether two cards hold an Ace and its payment.
    "dagger, two cards, no Ace": ("AB 5B", "", "2B 3B", "", "dagger AB (pay 5B) -> Shrine 9R",
                                  ["no response"]),
    "jack steal, three cards": ("5B", "JB", "2B 3B 4B", "", "jack steal",
                                ["no response", "fizzle"]),
}


@pytest.mark.parametrize("case", WINDOW)
def test_r24_s6_window_opens_when_an_answer_may_be_possible(case):
    hand, field, opp_hand, opp_field, declaration, responses = WINDOW[case]
    state = position(pl(hand, "2B 6R", field), pl(opp_hand, "3R 9R", opp_field))
    act(state, declaration)
    assert state.current_player() == 1
    assert names(state) == responses


def test_r24_pass_opens_no_window():
    state = position(pl("4B 5B", "2B 6R"), pl("2B 3B 4R 5R 6B", "3R 9R", "QR"))
    act(state, "pass")
    assert_next_turn(state)


def test_r24_s2_taking_the_graveyard_card_opens_no_window_and_is_known():
    state = position(pl("4B 5B", "2B 6R"), pl("2B 3B 4R 5R 6B", "3R 9R", "QR"),
                     phase="start", graveyard=["8B", "9B"])
    assert names(state) == ["draw", "take 9B from the Graveyard"]
    act(state, "take 9B from the Graveyard")
    d = state.to_dict()
    assert d["players"][0]["hand"] == ["4B", "5B", "9B"]
    assert d["players"][0]["hand_seen"] == ["9B"]
    assert state.observation_dict(1)["players"][0]["hand"] == ["9B", "??", "??"]
    assert d["graveyard"] == ["8B"]
    assert_next_turn(state)


# --- R25, R26: Fizzle and Counter-Fizzle ---------------------------------------------

# (my hand, the declaration, the action's cards as they reach the Graveyard)
FIZZLED = {
    "attack": ("4B 5B 10R", "attack 5B+4B -> 9R", ["4B", "5B"]),
    "token play": ("JB 5B 10R", "play token JB (pay 5B)", ["5B", "JB"]),
    "dagger": ("AB 5B 10R", "dagger AB (pay 5B) -> Shrine 9R", ["5B", "AB"]),
}


@pytest.mark.parametrize("kind", FIZZLED)
def test_r25_fizzle_discards_the_whole_hand_and_cancels_the_action(kind):
    hand, declaration, paid = FIZZLED[kind]
    state = position(pl(hand, "2B 6R"), pl("2B 3B JR QR", "3R 9R"))
    act(state, declaration)
    act(state, "fizzle")
    d = state.to_dict()
    # One card left beside the action's: no Counter-Fizzle.
    assert d["players"][1]["hand"] == [] and d["players"][0]["hand"] == ["10R"]
    assert d["players"][1]["shrine"] == ["3R", "9R"]
    assert d["players"][0]["field"] == []
    assert d["graveyard"] == ["2B", "3B", "JR", "QR"] + paid
    assert_next_turn(state)


def test_r26_counter_fizzle_discards_the_rest_of_the_hand_and_the_action_resolves():
    state = position(pl("4B 5B 10R 2R 3R", "2B 6R"), pl("2B 3B JR", "6B 9R", "KR"))
    play(state, "attack 5B+4B -> 9R", "fizzle")
    assert state.current_player() == 0
    assert names(state) == ["no counter", "counter-fizzle"]
    act(state, "counter-fizzle")
    d = state.to_dict()
    # Nothing answers it: no Token block although the King token is there.
    assert d["players"][1]["shrine"] == ["6B"]
    assert d["players"][1]["field"] == ["KR"]
    assert d["players"][0]["hand"] == [] and d["players"][1]["hand"] == []
    assert d["graveyard"] == ["2B", "3B", "JR", "2R", "3R", "10R", "9R", "4B", "5B"]
    assert_next_turn(state)


def test_r26_s11_countered_resurrection_takes_its_card_from_under_the_discards():
    state = position(pl("3B 4R 5B 8B 9B 10B", "2B 6R"), pl("JB QB KB", "3R 9R"),
                     graveyard=["2R", "9R"])
    play(state, "resurrect 3B+4R+5B (9R)", "resurrect onto own Shrine", "fizzle",
         "counter-fizzle")
    d = state.to_dict()
    assert d["players"][0]["shrine"] == ["2B", "6R", "9R"]
    assert d["graveyard"] == ["2R", "JB", "QB", "KB", "8B", "9B", "10B", "3B", "4R", "5B"]
    assert_next_turn(state)

def test_r26_no_counter_leaves_the_action_fizzled_and_the_hand_kept():
    state = position(pl("4B 5B 10R 2R 3R", "2B 6R"), pl("2B 3B JR", "6B 9R"))
    play(state, "attack 5B+4B -> 9R", "fizzle", "no counter")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["6B", "9R"]
    assert d["players"][0]["hand"] == ["2R", "3R", "10R"]
    assert d["graveyard"] == ["2B", "3B", "JR", "4B", "5B"]
    assert_next_turn(state)


def test_r26_counter_needs_three_cards_beside_the_ones_played():
    state = position(pl("4B 5B 2R 3R", "2B 6R"), pl("2B 3B JR", "6B 9R"))
    play(state, "attack 5B+4B -> 9R", "fizzle")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["6B", "9R"]
    assert d["players"][0]["hand"] == ["2R", "3R"]
    assert_next_turn(state)


# --- R27, R28: the end ---------------------------------------------------------------

def test_r27_empty_shrine_loses_at_once():
    # The Dagger token's second action never comes.
    state = position(pl("4B 5B 9B", "2B 6R", "JB QB KB AB"), pl("2R", "9R"))
    act(state, "attack 5B+4B -> 9R")
    d = state.to_dict()
    assert d["winner"] == 0 and d["phase"] == "over"
    assert d["players"][1]["shrine"] == []
    assert state.is_terminal() and state.legal_actions() == []
    assert state.current_player() == core.TERMINAL_PLAYER
    assert state.returns() == [1.0, -1.0]


@pytest.mark.parametrize("turn,over", [(1, False), (2, True)])
def test_r28_max_turns_ends_the_game_as_a_draw(turn, over):
    state = position(pl("4B", "2B 6R"), pl("2R", "3R 9R"), game=shrine(max_turns=3),
                     turn=turn)
    act(state, "pass")
    d = state.to_dict()
    assert d["turn"] == turn + 1
    assert state.is_terminal() == over
    if over:
        assert d["winner"] == "draw" and state.returns() == [0.0, 0.0]
    else:
        assert d["winner"] is None and d["active"] == 1


# --- S2: knowledge after public removals ---------------------------------------------

def test_s2_playing_a_known_kind_lowers_what_the_opponent_knows():
    state = position(pl("9B 9B 3R", "2B 6R", hand_seen=["9B"]), pl("2R", "3R 9R"))
    assert state.observation_dict(1)["players"][0]["hand"] == ["9B", "??", "??"]
    act(state, "attack 9B -> 9R")
    d = state.to_dict()
    # The two 9B are one kind: which one left cannot matter.
    assert d["players"][0]["hand"] == ["3R", "9B"]
    assert d["players"][0]["hand_seen"] == []
    assert state.observation_dict(1)["players"][0]["hand"] == ["??", "??"]


def test_s2_fizzle_empties_what_the_opponent_knows():
    state = position(pl("4B 5B", "2B 6R"), pl("2B 3B 9B", "3R 9R", hand_seen=["9B", "3B"]))
    play(state, "attack 5B+4B -> 9R", "fizzle")
    assert state.to_dict()["players"][1]["hand_seen"] == []


# --- Balance (S14, S15, S16, S18) -----------------------------------------------------

def test_balance_s15_r31_drawn_joker_is_played_at_once_and_uses_the_action():
    state = position(pl("3B 4B 5R", "2B 6B 7B 8R", "JB KR"),
                     pl("9B 9R 10B 10R 2R", "3R 6R", "QR KB"),
                     game=shrine(balance=True), phase="start", graveyard=["JR", "5B", "JB"])
    play(state, "draw", "JOKER")
    # R31: the hand first: the opponent discards down to three, cards of their choice.
    d = state.to_dict()
    assert d["phase"] == "balance discard" and state.current_player() == 1
    assert names(state) == ["discard 2R", "discard 9B", "discard 9R", "discard 10B",
                            "discard 10R"]
    play(state, "discard 9B", "discard 10R")
    d = state.to_dict()
    assert d["players"][1]["hand"] == ["2R", "9R", "10B"]
    assert d["players"][0]["hand"] == ["3B", "4B", "5R"]
    assert d["graveyard"] == ["JR", "5B", "JB", "9B", "10R"]
    # Then the Shrine: two face-down Library cards.
    assert state.is_chance_node() and set(outcomes(state)) >= {"7R", "8B"}
    assert "JOKER" not in outcomes(state)
    play(state, "7R", "8B")
    # Last the Field: the topmost Jack of the Graveyard joins, the Queen leaves.
    d = state.to_dict()
    assert d["players"][1]["field"] == ["JB", "KB"]
    assert d["players"][1]["shrine"] == ["3R", "6R", "7R", "8B"]
    assert d["players"][1]["shrine_seen"] == [False, True, False, True]
    # Library and Graveyard shuffled together; the Joker has left the game.
    assert d["graveyard"] == []
    assert d["joker_out"] is True and "JOKER" not in d["library"]
    assert not Counter(["JR", "5B", "QR", "9B", "10R"]) - Counter(d["library"])
    # Drawing it was the action: the turn is over and the next one draws at once (S19).
    assert_next_turn(state)
    assert state.is_chance_node()


def test_balance_returns_s15_s18_opponent_draws_loses_shrine_cards_finds_a_token():
    state = position(pl("2B 3B 4B 5B 6B", "2R 7R", "QB"),
                     pl("8B 9B", "3R 4R 5R 9R"),
                     game=shrine(balance_returns=True), phase="start", graveyard=["10B"])
    play(state, "draw", "JOKER")
    # R31: the hand draws three first.
    play(state, "10R", "JB", "2R")
    assert state.to_dict()["players"][1]["hand"] == ["2R", "8B", "9B", "10R", "JB"]
    # Then the Shrine loses its two top cards.  Last the Field: no Queen in the
    # Graveyard, so the Library is searched over its Queens' colours.
    assert outcomes(state) == {"QB": pytest.approx(1 / 3), "QR": pytest.approx(2 / 3)}
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R", "4R"]
    assert d["graveyard"] == ["10B", "9R", "5R"]
    act(state, "QR")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["QR"]
    assert d["players"][1]["shrine_seen"] == [False, True]
    # The Joker is shuffled back in.
    assert d["graveyard"] == [] and d["joker_out"] is False
    assert Counter(d["library"])["JOKER"] == 1
    assert_next_turn(state)


def test_balance_s15_dagger_token_falls_when_the_opponents_triad_breaks():
    state = position(pl("2B 3B", "2R 3R 4R 5R 6R", "JB QB"),
                     pl("8B 9B", "2B 3B 4B 5B 6B 7B", "JR QR KR AR"),
                     game=shrine(balance=True), phase="start", graveyard=["10B"])
    play(state, "draw", "JOKER")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["JR", "QR"]
    assert d["players"][1]["shrine"] == ["2B", "3B", "4B", "5B", "6B"]
    assert d["players"][1]["hand"] == ["8B", "9B"]
    assert d["graveyard"] == []
    assert {c: Counter(d["library"])[c] for c in ("KR", "AR", "7B")} == {"KR": 2, "AR": 2,
                                                                           "7B": 2}
    assert_next_turn(state)


def test_balance_r30_s22_a_dagger_token_the_player_lacks_is_lost():
    state = position(pl("2B 3B", "2R 3R 4R 5R 6R", "JB QB KB"),
                     pl("8B 9B", "3B 4B 5B 6B 7B", "JR QR KR AR"),
                     game=shrine(balance=True), phase="start", graveyard=["10B"])
    play(state, "draw", "JOKER")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["JR", "QR", "KR"]
    assert d["players"][1]["shrine"] == ["3B", "4B", "5B", "6B", "7B"]
    assert Counter(d["library"])["AR"] == 2
    assert_next_turn(state)


def test_balance_r30_s22_no_dagger_token_without_a_triad():
    # Both Kings are out of reach (a Field and a hand), so the opponent gains the Jack
    # and Queen but no Triad, and with it no Dagger token, though an Ace is on offer.
    state = position(pl("KR 2B", "2R 3R 4R 5R 6R", "JB QB KB AB"),
                     pl("8B 9B", "3B 4B 5B 6B 7B"),
                     game=shrine(balance=True), phase="start",
                     graveyard=["AR", "JR", "QR"], actions_left=2)
    play(state, "draw", "JOKER")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["JR", "QR"]
    assert d["players"][1]["shrine"] == ["3B", "4B", "5B", "6B", "7B"]


def test_balance_s16_joker_turned_up_in_a_shrine_is_played_by_its_owner():
    state = position(pl("5B 8B 8R JR", "2R 3B 6R"),
                     pl("9B 9R", "2B JOKER 5R", "KB"),
                     game=shrine(balance=True), graveyard=["KR", "3R"])
    play(state, "attack 5B -> 5R", "no response")
    # The Joker leaves the opponent's Shrine; they play it, so the attacker matches
    # them (R31): discards a card of their choice, keeps the bottom Shrine card, and
    # takes the King from the Graveyard.
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["2B"] and d["players"][1]["shrine_seen"] == [True]
    assert d["phase"] == "balance discard" and state.current_player() == 0
    act(state, "discard JR")
    d = state.to_dict()
    assert d["players"][0]["hand"] == ["8B", "8R"]
    assert d["players"][0]["shrine"] == ["2R"] and d["players"][0]["shrine_seen"] == [True]
    assert d["players"][0]["field"] == ["KR"]
    assert d["graveyard"] == [] and d["joker_out"] is True
    assert_next_turn(state)


def test_balance_s16_joker_turned_up_by_a_triad_break_trim():
    state = position(pl("AR 5R 9B 10R", "4R 6R 7B 10B"),
                     pl("2R 3R", "2B 3B 4B 5B JOKER 8R 9R", "JR QB KB AB"),
                     game=shrine(balance=True), graveyard=["JB", "KR"])
    play(state, "dagger AR (pay 5R) -> QB", "no response")
    # Trimmed to five, the Joker is on top: it leaves, and its owner plays it.  The
    # attacker matches their Jack and King from the Graveyard; Shrines and hands
    # already match.
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["2B", "3B", "4B", "5B"]
    assert d["players"][1]["shrine_seen"] == [False, False, False, True]
    assert d["players"][0]["field"] == ["JB", "KR"]
    assert d["players"][0]["hand"] == ["9B", "10R"]
    assert d["graveyard"] == [] and d["joker_out"] is True
    assert_next_turn(state)


@pytest.mark.parametrize("hand,steps", [
    ("5B 8B", ["attack 5B -> 5R"]),
    ("AB 8B", ["dagger AB (pay 8B) -> Shrine 5R", "no response"]),
    ("7B 7B 7R 7R", ["quad 7"]),
])
def test_balance_s16_r27_joker_turned_up_as_the_last_shrine_card_loses(hand, steps):
    state = position(pl(hand, "2R 6R"), pl("9B 9R", "JOKER 5R"), game=shrine(balance=True))
    play(state, *steps)
    d = state.to_dict()
    assert d["winner"] == 0 and d["players"][1]["shrine"] == []
    assert state.returns() == [1.0, -1.0]


def test_balance_s15_a_token_kind_found_nowhere_is_not_matched():
    # Both Jacks of each colour are in hands, a Shrine or a Field.  The search of the
    # Library is made in the open all the same, and finds nothing.
    state = position(pl("JR 2B", "2R 3R JR", "JB"), pl("JB 9B", "4R 5R 6R"),
                     game=shrine(balance=True), phase="start", graveyard=["10B"])
    play(state, "draw", "JOKER")
    assert outcomes(state) == {"nothing": 1.0}
    assert state.action_to_string(FOUND_NONE) == "find nothing"
    act(state, "nothing")
    d = state.to_dict()
    assert d["players"][1]["field"] == []
    assert d["players"][1]["hand"] == ["9B", "JB"]
    assert_next_turn(state)


def test_balance_s14_joker_is_never_dealt_into_an_opening_hand():
    state = shrine(balance=True).new_initial_state()
    assert "JOKER" in outcomes(state)
    play(state, "2B", "3B", "4B", "5B", "6B", "2R", "3R", "4R", "5R", "6R")
    # Replaced and shuffled back: the same as never dealing it to a hand.
    assert "JOKER" not in outcomes(state)
    assert "JOKER" in state.to_dict()["library"]


def test_balance_s14_joker_turned_up_at_set_up_is_played_once_hands_are_dealt():
    state = shrine(balance=True).new_initial_state()
    play(state, "2B", "3B", "4B", "5B", "JOKER",      # player 0's Shrine, Joker on top
         "2R", "3R", "4R", "5R", "6R",                # player 1's Shrine
         "7B", "8B", "9B", "10B", "6B",               # player 0's hand
         "7R", "8R", "9R", "10R")
    assert state.is_chance_node()
    act(state, "JB")                                  # the last card of player 1's hand
    d = state.to_dict()
    assert d["players"][0]["shrine"] == ["2B", "3B", "4B", "5B"]
    assert d["players"][1]["shrine"] == ["2R", "3R", "4R", "5R"]
    assert d["players"][1]["shrine_seen"][-1] is True
    assert d["graveyard"] == [] and Counter(d["library"])["6R"] == 2
    assert d["joker_out"] is True
    # Then player 0's first turn: the Graveyard is empty, so the draw comes at once.
    assert (d["turn"], d["active"]) == (0, 0) and state.is_chance_node()


def test_balance_s15_s1_r30_r31_joker_drawn_with_the_dagger_token_leaves_one_action():
    state = position(pl("9B 9R", "2B 3B 4B 5B 6B", "JB QB KB AB"),
                     pl("2R 3R", "4R 5R 6R"),
                     game=shrine(balance=True), active=1, graveyard=["JR", "QR", "KR"])
    act(state, "pass")
    # Player 0's extra card comes first: the Joker.  Equal hands: nothing to draw.
    act(state, "JOKER")
    # R31: the Shrine fills face down to five, the capacity it has before the Field.
    play(state, "7R", "8R")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["4R", "5R", "6R", "7R", "8R"]
    # Then the Field: Jack, Queen and King from the Graveyard make a Triad, and beside
    # it a Dagger token (R30), searched out of the Library as no Ace is in the Graveyard.
    assert outcomes(state) == {"AB": pytest.approx(1 / 3), "AR": pytest.approx(2 / 3)}
    act(state, "AR")
    d = state.to_dict()
    assert d["players"][1]["field"] == ["JR", "QR", "KR", "AR"]
    # Player 0 now draws (empty Graveyard) and acts once.
    assert d["active"] == 0 and state.is_chance_node()
    act(state, "10B")
    d = state.to_dict()
    assert d["phase"] == "action" and d["actions_left"] == 1
    assert d["players"][0]["hand"] == ["9B", "9R", "10B"]
    act(state, "pass")
    assert state.to_dict()["active"] == 1


# --- alt_heal ----------------------------------------------------------------------

@pytest.mark.parametrize("field,heals", [
    ("", ["heal 9R -> 9R", "heal 5R+4R -> 9R", "heal 6R+3R -> 9R"]),
    ("QB", ["heal 9R -> 9R", "heal 5R+4R -> 9R", "heal 6R+3R -> 9R",
            "heal 5R+3R -> 9R", "heal 6R+4R -> 9R"]),
])
def test_alt_heal_sums_cards_of_the_top_colour_queen_within_one(field, heals):
    # A pair of nines is no heal under this rule; 9B is the wrong colour.
    state = position(pl("3R 4R 5R 6R 9B 9R", "2B 9R", field), pl("2R", "3B 8B"),
                     game=shrine(alt_heal=True))
    assert sorted(offered(state, "heal")) == sorted(heals)


@pytest.mark.parametrize("own", ["2B 3B 4B 5B 9R", "2B AR"])
def test_alt_heal_respects_capacity_and_the_ace_on_top(own):
    state = position(pl("AR 9R", own), pl("2R", "3B 8B"), game=shrine(alt_heal=True))
    assert offered(state, "heal") == []


def test_alt_heal_resolves_like_a_heal_and_is_never_token_blocked():
    state = position(pl("4R 5R", "2B 9R", "QB"), pl("2R 3R", "3B 8B", "KR"),
                     game=shrine(alt_heal=True))
    act(state, "heal 5R+4R -> 9R")
    # Exact value: the Queen's power stays unused.
    assert state.to_dict()["powers_used"] == []
    assert state.is_chance_node()
    act(state, "7B")
    d = state.to_dict()
    assert d["players"][0]["shrine"] == ["2B", "9R", "7B"]
    assert d["graveyard"] == ["4R", "5R"]
    assert_next_turn(state)


# --- alt_fizzle --------------------------------------------------------------------

def test_alt_fizzle_discards_exactly_three_chosen_cards():
    state = position(pl("4B 5B 10R", "2B 6R"), pl("2B 3B JR QR 8R", "3R 9R"),
                     game=shrine(alt_fizzle=True))
    play(state, "attack 5B+4B -> 9R", "fizzle")
    d = state.to_dict()
    assert d["phase"] == "fizzle discard" and state.current_player() == 1
    assert names(state) == ["discard 2B", "discard 3B", "discard 8R", "discard JR",
                            "discard QR"]
    play(state, "discard QR", "discard 2B", "discard 8R")
    d = state.to_dict()
    assert d["players"][1]["hand"] == ["3B", "JR"]
    assert d["players"][1]["shrine"] == ["3R", "9R"]
    # In the order picked, then the action's cards.
    assert d["graveyard"] == ["QR", "2B", "8R", "4B", "5B"]
    assert_next_turn(state)


def test_alt_fizzle_needs_three_cards():
    state = position(pl("4B 5B", "2B 6R"), pl("2B 3B", "3R 9R", "QR"),
                     game=shrine(alt_fizzle=True))
    act(state, "attack 5B+4B -> 9R")
    assert names(state) == ["no response", "token block QR"]


def test_alt_fizzle_counter_also_discards_exactly_three():
    state = position(pl("4B 5B 10R 2R 3R 7R", "2B 6R"), pl("2B 3B JR QR", "6B 9R"),
                     game=shrine(alt_fizzle=True))
    play(state, "attack 5B+4B -> 9R", "fizzle", "discard 2B", "discard 3B", "discard JR")
    assert names(state) == ["no counter", "counter-fizzle"]
    act(state, "counter-fizzle")
    assert state.to_dict()["phase"] == "counter discard" and state.current_player() == 0
    play(state, "discard 10R", "discard 2R", "discard 7R")
    d = state.to_dict()
    assert d["players"][0]["hand"] == ["3R"] and d["players"][1]["hand"] == ["QR"]
    assert d["players"][1]["shrine"] == ["6B"]
    assert d["graveyard"] == ["2B", "3B", "JR", "10R", "2R", "7R", "9R", "4B", "5B"]
    assert_next_turn(state)


# --- several optional rules together -------------------------------------------------

def test_balance_alt_heal_alt_fizzle_together_countered_heal_turns_up_the_joker():
    state = position(pl("4R 5R 8B 10B JB", "2B 9R"), pl("2R 3B 6B 7B", "3R 6R 10R"),
                     game=shrine(balance=True, alt_heal=True, alt_fizzle=True))
    play(state, "heal 5R+4R -> 9R", "fizzle", "discard 2R", "discard 3B", "discard 6B",
         "counter-fizzle", "discard 8B", "discard 10B", "discard JB")
    # The heal resolves: its two cards paid, then the card turned up is the Joker.
    assert state.is_chance_node() and "JOKER" in outcomes(state)
    act(state, "JOKER")
    # The healer plays it: the opponent discards their last hand card (R31), then drops
    # a Shrine card.
    d = state.to_dict()
    assert d["players"][0]["shrine"] == ["2B", "9R"]
    assert d["phase"] == "balance discard" and state.current_player() == 1
    act(state, "discard 7B")
    d = state.to_dict()
    assert d["players"][1]["shrine"] == ["3R", "6R"]
    assert d["players"][0]["hand"] == [] and d["players"][1]["hand"] == []
    assert d["players"][1]["shrine_seen"] == [False, True]
    assert d["graveyard"] == [] and d["joker_out"] is True
    assert Counter(d["library"])["10R"] == 2 and "JOKER" not in d["library"]
    assert_next_turn(state)
