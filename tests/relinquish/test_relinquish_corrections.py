"""Relinquish: the corrections L14-L17 and the bug they came with, each on the exact
position it speaks of (docs/rules/relinquish.md)."""
import random

import numpy as np

import core
from core.relinquish import CARD_NAMES
from kit.helpers import random_step
from relinquish_positions import act, bountied, names, position


def legal(state):
    return names(state, state.legal_actions())


# --- enchant_any takes only opponents' Commons (a bug under L12) ---------------------------

def test_l12_enchant_any_offers_only_the_opponents_resting_commons():
    game = "relinquish(players=3,enchant_any=true)"
    state = position(game, players=[{"hand": ["T5"], "resting": ["W2", "W3"]},
                                    {"hand": ["T1"], "resting": ["C2"]},
                                    {"resting": ["S3"]}])
    act(state, "enchant T5 against every opponent")
    assert legal(state) == ["target C2"]
    act(state, "target C2")
    act(state, "target S3")
    # The side asked to Negate is the targets' owners, never the Enchanter.
    assert state.current_player() == 1 and state.to_dict()["magick"]["to_ask"] == [1, 2]
    act(state, "pass")
    act(state, "pass")
    view = state.to_dict()
    assert view["players"][0]["resting"] == ["W2", "W3", "C2", "S3"] and "T5" in view["exile"]


def test_l12_enchant_any_is_not_offered_on_the_enchanters_own_commons_alone():
    state = position("relinquish(players=3,enchant_any=true)",
                     players=[{"hand": ["T5"], "resting": ["W2", "W3"]}, {}, {}])
    assert not any(n.startswith("enchant") for n in legal(state))
    assert "T5" in state.to_dict()["players"][0]["hand"]


# --- L14: Murder kills any Court; only the targeted side Foils --------------------------------

def test_l14_murder_may_kill_the_active_players_own_court_and_no_one_foils_it():
    state = position(players=[{"hand": ["T14"], "standing": ["WQ", "C3"]},
                              {"hand": ["T18"]}])
    act(state, "murder T14")
    assert legal(state) == ["target WQ"]
    act(state, "target WQ")
    view = state.to_dict()
    assert view["phase"] == "main" and state.current_player() == 0
    assert "WQ" in view["discard"] and "T18" in view["players"][1]["hand"]


def test_l14_murder_offers_every_court_and_only_the_targeted_side_may_foil():
    game = "relinquish(players=4,teams=true,acceptance=false)"
    players = [{"hand": ["T14"], "standing": ["WP"]}, {"hand": ["T18"], "standing": ["CK"]},
               {"hand": ["T19"], "standing": ["SN"]}, {"hand": ["T20"]}]
    state = position(game, players=players)
    act(state, "murder T14")
    assert legal(state) == ["target WP", "target CK", "target SN"]
    # The partner's Court is the Enchanter's side's own: no Foil.
    act(state, "target SN")
    assert state.to_dict()["phase"] == "main" and "SN" in state.to_dict()["discard"]
    state = position(game, players=players)
    act(state, "murder T14")
    act(state, "target CK")
    # The targeted player, then their partner; the murderer's partner is not asked.
    assert state.current_player() == 1
    act(state, "pass")
    assert state.current_player() == 3 and legal(state) == ["foil T20", "pass"]
    act(state, "foil T20")
    assert state.current_player() == 0


def test_l14_the_greedy_player_murders_only_an_opponents_court():
    state = position(players=[{"hand": ["T14"], "standing": ["WQ"]}, {}])
    assert state.action_to_string(state.heuristic_action()) == "end turn"
    state = position(players=[{"hand": ["T14"], "standing": ["WQ"]}, {"standing": ["CP"]}])
    act(state, "murder T14")
    assert state.action_to_string(state.heuristic_action()) == "target CP"


# --- L15: a Bounty counts in an Enchant's and a Negate's total ----------------------------------

def test_l15_an_enchant_counts_a_bountied_common_at_its_new_value():
    # C5 is worth 9 this turn: the T9 takes it alone, and not with the 4 beside it.
    state = bountied("C5", "add 4", {"resting": ["C5", "S4"]})
    act(state, "enchant T9 against player 1")
    assert legal(state) == ["target C5"]
    act(state, "target C5")
    assert state.to_dict()["phase"] == "counter"
    state = bountied("C5", "subtract 4", {"resting": ["C5", "S4"]})
    assert "enchant T9 against player 1" not in legal(state)


def test_l15_a_common_worth_nothing_can_be_taken_and_the_enchanter_says_when_done():
    # C4 is worth 0 this turn: the Fool can take it, and a T10 that has named W10 may
    # add it or stop there.
    state = bountied("C4", "subtract 4", {"resting": ["W10", "C4"]}, hand=("T0", "T10"))
    assert {"enchant T0 against player 1", "enchant T10 against player 1"} <= set(legal(state))
    act(state, "enchant T10 against player 1")
    assert legal(state) == ["target W10"]
    act(state, "target W10")
    assert legal(state) == ["target C4", "no more targets"]
    act(state, "target C4")
    assert state.to_dict()["magick"]["levels"] == [{"value": 10, "cards": ["W10", "C4"]}]
    state = bountied("C4", "subtract 4", {"resting": ["W10", "C4"]}, hand=("T0", "T10"))
    act(state, "enchant T10 against player 1")
    act(state, "target W10")
    act(state, "no more targets")
    assert state.to_dict()["magick"]["levels"] == [{"value": 10, "cards": ["W10"]}]
    state = bountied("C4", "subtract 4", {"resting": ["W10", "C4"]}, hand=("T0", "T10"))
    act(state, "enchant T0 against player 1")
    assert legal(state) == ["target C4"]
    act(state, "target C4")
    act(state, "pass")
    assert state.to_dict()["players"][0]["resting"] == ["C4", "P4", "P6"]


def test_l15_a_common_worth_less_than_nothing_lowers_an_enchants_total():
    # C2 is worth -4 this turn: with S9 it makes 5.
    state = bountied("C2", "subtract 6", {"resting": ["C2", "S9"]}, hand=("T5",))
    act(state, "enchant T5 against player 1")
    assert legal(state) == ["target C2"]
    act(state, "target C2")
    assert legal(state) == ["target S9"]
    act(state, "target S9")
    act(state, "pass")
    assert state.to_dict()["players"][0]["resting"] == ["C2", "S9", "P4", "P6"]


def test_l15_a_negate_counts_a_bountied_common_at_its_new_value():
    # C5 is worth 1 this turn: the defender's T1 names it.
    state = bountied("C5", "subtract 4", {"resting": ["C5", "S3"], "hand": ["T1"]},
                     hand=("T4",))
    act(state, "enchant T4 against player 1")
    act(state, "target C5")
    act(state, "target S3")
    assert legal(state) == ["negate T1", "pass"]
    act(state, "negate T1")
    act(state, "target C5")
    act(state, "pass")
    view = state.to_dict()
    assert view["players"][0]["resting"] == ["C5", "P4", "P6"]
    assert view["players"][1]["resting"] == ["S3"]


# --- L16: the short game's set-aside cards are face down ----------------------------------------

def dealt(game, seed=3):
    """A game of ``game`` dealt with seeded chance, at its first decision."""
    rng = random.Random(seed)
    state = core.load_game(game).new_initial_state()
    while state.is_chance_node():
        random_step(state, rng)
    return state


def test_l16_the_short_games_set_aside_cards_are_seen_by_no_one():
    state = dealt("relinquish(short_game=true)")
    truth = state.to_dict()
    aside = truth["set_aside"]
    assert len(aside) == 78 - 2 * 13 - 2 - 16 and truth["set_aside_size"] == len(aside)
    # Exile shows only the flips: a set-aside card is never in it.
    flips = {pl["flip"] for pl in truth["players"]}
    assert set(truth["exile"]) == flips and not set(aside) & set(truth["exile"])
    for p in range(2):
        seen = state.observation_dict(p)
        assert seen["set_aside"] is None and seen["set_aside_size"] == len(aside)
        assert set(seen["exile"]) == flips


def test_l16_views_tensors_and_worlds_agree_that_set_aside_cards_are_hidden():
    # The same position with a set-aside card and a Scry card swapped looks the same to
    # every seat, by dict, by information state and by tensor; a seat's worlds reach it.
    state = dealt("relinquish(short_game=true)")
    truth = state.to_dict()
    a, b = truth["set_aside"][0], truth["scry"][0]
    swapped = dict(truth, set_aside=sorted([b] + truth["set_aside"][1:], key=CARD_NAMES.index),
                   scry=sorted([a] + truth["scry"][1:], key=CARD_NAMES.index))
    other = state.game.state_from_dict(swapped)
    assert other != state
    for p in range(2):
        assert other.observation_dict(p) == state.observation_dict(p)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert np.array_equal(other.observation_tensor(p), state.observation_tensor(p))
    worlds = [state.determinized(0, seed).to_dict() for seed in range(30)]
    assert any(a not in w["set_aside"] for w in worlds)
    assert all(len(w["set_aside"]) == len(truth["set_aside"]) for w in worlds)


def test_l16_a_card_set_aside_in_the_deal_is_not_shown_to_anyone():
    state = core.load_game("relinquish(short_game=true)").new_initial_state()
    exiles = [a for a in state.legal_actions() if state.action_to_string(a).startswith("exile")]
    assert exiles and all(state.action_view(exiles[0], p) == -1 for p in range(2))


# --- L17: nothing stale in a position's dict ------------------------------------------------

def test_l17_a_second_enchant_shows_no_card_of_the_first():
    state = position("relinquish(acceptance=false)",
                     players=[{"hand": ["T16", "W2"], "resting": ["W1"]},
                              {"hand": ["T3", "T4"], "resting": ["W3", "W4", "W9"]}])
    act(state, "enchant T16 against player 1")
    for card in ("W3", "W4", "W9"):
        act(state, f"target {card}")
    act(state, "negate T3")
    # Negating, the defender picks: no seat is being asked.
    assert state.to_dict()["magick"]["to_ask"] == []
    act(state, "target W3")
    # Asked to answer, nobody picks: nothing of the picking is left.
    magick = state.to_dict()["magick"]
    assert (magick["picker"], magick["pool"], magick["picked"], magick["pick_left"]) \
        == (None, [], [], 0)
    act(state, "pass")
    act(state, "end turn")
    act(state, "enchant T4 against player 0")
    magick = state.to_dict()["magick"]
    assert magick["levels"] == [{"value": 4, "cards": []}]
    fresh = position("relinquish(acceptance=false)",
                     players=[{"hand": ["W2"], "resting": ["W1", "W3"]},
                              {"hand": ["T4"], "standing": ["W4", "W9"]}],
                     active=1, first=0, turn=1, exile=["T16", "T3"])
    act(fresh, "enchant T4 against player 0")
    assert fresh.to_dict() == state.to_dict()


def test_l17_a_battle_keeps_no_declared_attacker_nor_a_finished_opponent():
    state = position("relinquish(players=4,acceptance=false)",
                     players=[{"standing": ["WP", "WN", "WK"]}, {"standing": ["C3"]},
                              {"standing": ["S5"]}, {"standing": ["P7"]}])
    act(state, "attack player 3 with WP")
    act(state, "attack player 1 with WN")
    act(state, "attack player 2 with WK")
    act(state, "clash")
    assert state.to_dict()["battle"]["last_declared"] is None
    act(state, "clash with player 3 next")
    # Player 3's clashes are done: the attacker faces no one until naming the next.
    assert legal(state) == ["clash with player 1 next", "clash with player 2 next"]
    assert state.to_dict()["battle"]["facing"] is None
