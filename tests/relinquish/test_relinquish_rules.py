"""Relinquish: one test per ruling (docs/rules/relinquish.md), each on the exact
position it speaks of."""
import pytest

import core
from relinquish_positions import act, bountied, names, position


def legal(state):
    return names(state, state.legal_actions())


# L1: 78 distinct cards, Courts worth their strength.
def test_l1_the_deck_holds_78_distinct_cards():
    game = core.load_game("relinquish")
    assert len(set(game.cards.names)) == 78
    assert {"W1", "P10", "WP", "CN", "SK", "PQ", "T0", "T21"} <= set(game.cards.names)


# L2: 2 to 4 players; teams only with four, partners alternating with opponents.
def test_l2_teams_need_four_players_and_alternate():
    with pytest.raises(core.ParameterError, match="players=4"):
        core.load_game("relinquish(players=3,teams=true)")
    assert core.load_game("relinquish(players=4,teams=true)").teams() == ((0, 2), (1, 3))
    assert core.load_game("relinquish(players=3)").teams() == ((0,), (1,), (2,))


# L3: the highest flip goes first: Tarot over Court over Common.
def deal_but_last(flips, last_to):
    """A 2-player deal with one card left (T21) to place: hands and flips as given."""
    hands = [["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10", "C1", "C2", "C3"],
             ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "P1", "P2", "P3"]]
    hands[last_to] = hands[last_to][:-1]
    players = [{"hand": hands[p], "flip": flips[p]} for p in range(2)]
    players = [{k: v for k, v in pl.items() if v is not None} for pl in players]
    from core.relinquish import CARD_NAMES
    placed = {c for h in hands for c in h} | set(flips) | {"T21"}
    scry = [c for c in CARD_NAMES if c not in placed]
    return core.load_game("relinquish").state_from_dict(
        {"phase": "deal", "deal_next": 77, "players": players, "scry": scry,
         "exile": [f for f in flips if f]})


def test_l3_the_highest_flip_goes_first():
    state = deal_but_last(["WK", "T5"], 0)
    assert legal(state) == ["deal T21 to player 0"]
    state.apply_action(state.legal_actions()[0])
    view = state.to_dict()
    assert (view["phase"], view["active"], view["first"]) == ("main", 1, 1)


def test_l3_a_tie_flips_again_and_flipped_cards_are_exiled():
    state = deal_but_last(["C5", "P5"], 0)
    state.apply_action(state.legal_actions()[0])
    assert state.to_dict()["phase"] == "flip" and state.is_chance_node()
    act(state, "flip T3")
    act(state, "flip T4")
    view = state.to_dict()
    assert view["first"] == 1 and {"C5", "P5", "T3", "T4"} <= set(view["exile"])


def test_l3_a_short_game_has_16_cards_to_scry():
    state = core.load_game("relinquish(short_game=true)").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[-1])
    view = state.to_dict()
    assert view["scry_size"] == 16 and len(view["set_aside"]) + len(view["exile"]) == 78 - 26 - 16


# L4: Arise stands the tableau; each maneuver once a turn.
def test_l4_arise_and_each_maneuver_once():
    state = position("relinquish(acceptance=false)",
                     players=[{"hand": ["W7", "W8"], "resting": ["C2"]},
                              {"hand": ["S3"], "resting": ["S4", "SP"]}])
    assert "populate W7" in legal(state)
    act(state, "populate W7")
    assert not any(n.startswith("populate") for n in legal(state))
    act(state, "end turn")
    view = state.to_dict()
    assert view["active"] == 1
    assert view["players"][1]["standing"] == ["S4", "SP"] and view["players"][1]["resting"] == []
    assert view["players"][0]["resting"] == ["C2"]


def test_l4_populate_matches_the_highest_standing_common():
    state = position(players=[{"hand": ["W4", "W7"], "standing": ["C5", "C7"]}, {}])
    assert [n for n in legal(state) if n.startswith("populate")] == ["populate W7"]


# L5: Page and Knight cost 1 of their suit or 2 of any; King and Queen 2 or 3.
def test_l5_summon_costs():
    state = position(players=[{"hand": ["WK"], "standing": ["W2", "C3", "S4"]}, {}])
    act(state, "summon WK")
    assert legal(state) == ["pay with W2", "pay with C3", "pay with S4"]
    act(state, "pay with C3")
    # Off suit once: three in all.
    act(state, "pay with W2")
    assert legal(state) == ["pay with S4"]
    act(state, "pay with S4")
    assert state.to_dict()["phase"] == "main"
    state = position(players=[{"hand": ["WN"], "standing": ["W2"]}, {}])
    act(state, "summon WN")
    act(state, "pay with W2")
    assert state.to_dict()["phase"] == "main"
    state = position(players=[{"hand": ["WQ"], "standing": ["C2", "S3"]}, {}])
    assert "summon WQ" not in legal(state)


def test_l5_a_court_at_least_the_highest_standing_court():
    state = position(players=[{"hand": ["WP", "CQ"], "standing": ["SN", "C1", "C2", "C3"]}, {}])
    summons = [n for n in legal(state) if n.startswith("summon")]
    assert summons == ["summon CQ"]


# L6: Enchant and Negate; Murder and Foil; counters alternate.
def test_l6_negate_takes_a_smaller_set():
    state = position(players=[{"hand": ["T16"]}, {"hand": ["T3"], "resting": ["W3", "W4", "W9"]}])
    act(state, "enchant T16 against player 1")
    for card in ("W3", "W4", "W9"):
        act(state, f"target {card}")
    assert state.current_player() == 1
    act(state, "negate T3")
    act(state, "target W3")
    act(state, "pass")
    view = state.to_dict()
    assert view["players"][0]["resting"] == ["W3"]
    assert view["players"][1]["resting"] == ["W4", "W9"]
    assert {"T16", "T3"} <= set(view["exile"])


def test_l6_the_fool_negates_the_whole_enchant():
    state = position(players=[{"hand": ["T7"]}, {"hand": ["T0"], "resting": ["W3", "W4"]}])
    act(state, "enchant T7 against player 1")
    act(state, "target W3")
    act(state, "target W4")
    act(state, "negate T0")
    act(state, "pass")
    assert state.to_dict()["players"][1]["resting"] == ["W3", "W4"]


def test_l6_a_counter_chain_of_three_tarots():
    # Murder, Foil, a second Foil by the murderer: the Court dies.
    state = position(players=[{"hand": ["T14", "T20"]}, {"hand": ["T18"], "standing": ["SQ"]}])
    act(state, "murder T14")
    act(state, "target SQ")
    assert legal(state) == ["foil T18", "pass"]
    act(state, "foil T18")
    assert state.current_player() == 0 and legal(state) == ["foil T20", "pass"]
    act(state, "foil T20")
    act(state, "pass")
    view = state.to_dict()
    assert "SQ" in view["discard"] and {"T14", "T18", "T20"} <= set(view["exile"])


def test_l6_a_foil_stands_when_the_murderer_passes():
    state = position(players=[{"hand": ["T14"]}, {"hand": ["T18"], "standing": ["SQ"]}])
    act(state, "murder T14")
    act(state, "target SQ")
    act(state, "foil T18")
    act(state, "pass")
    assert state.to_dict()["players"][1]["standing"] == ["SQ"]


def test_l6_only_the_target_side_counters():
    state = position("relinquish(players=3)",
                     players=[{"hand": ["T14"]}, {"hand": ["T18"], "standing": ["SQ"]},
                              {"hand": ["T19"]}])
    act(state, "murder T14")
    act(state, "target SQ")
    assert state.current_player() == 1
    act(state, "pass")
    assert state.to_dict()["phase"] == "main" and "SQ" in state.to_dict()["discard"]


def test_l6_augur_scries_twice():
    state = position(players=[{"hand": ["T4"]}, {}], scry=["W1", "W2", "W3", "W4"])
    act(state, "augur T4")
    act(state, "draw W1")
    act(state, "draw W3")
    act(state, "scry: discard W1")
    act(state, "draw W2")
    act(state, "draw W4")
    act(state, "scry: discard W4")
    view = state.to_dict()
    assert view["players"][0]["hand"] == ["W2", "W3"] and view["phase"] == "main"


# L7: Battle.  Attackers are declared at once and rest; the defender picks which
# attacker each clash answers; a hidden Rally adds a Common's value.
def battle(players, game="relinquish(acceptance=false)"):
    return position(game, players=players)


def test_l7_attackers_are_declared_together_and_rest():
    state = battle([{"standing": ["WP", "WK"]}, {"standing": ["C3"]}])
    act(state, "attack player 1 with WP")
    assert legal(state) == ["attack player 1 with WK", "clash"]
    act(state, "attack player 1 with WK")
    view = state.to_dict()
    assert view["players"][0]["resting"] == ["WP", "WK"]
    assert view["battle"]["aimed"] == [[], ["WP", "WK"]]
    act(state, "clash")
    # No Court defends, so each attacker captures unopposed: the defender still says
    # which attacker comes first.
    assert legal(state) == ["answer WP", "answer WK"]


def test_l7_one_defender_answers_two_attackers():
    state = battle([{"standing": ["WP", "WN"]}, {"standing": ["SQ", "C3", "C8"]}])
    act(state, "attack player 1 with WP")
    act(state, "attack player 1 with WN")
    act(state, "clash")
    assert state.current_player() == 1
    act(state, "answer WN")
    assert legal(state) == ["defend with SQ", "decline"]
    act(state, "defend with SQ")
    act(state, "no rally")
    act(state, "no rally")
    act(state, "reveal the Rallies")
    # The Queen won and stays standing; she answers the Page as well.
    assert state.to_dict()["players"][1]["standing"] == ["C3", "C8", "SQ"]
    assert legal(state) == ["defend with SQ", "decline"]
    act(state, "defend with SQ")
    act(state, "no rally")
    act(state, "no rally")
    act(state, "reveal the Rallies")
    view = state.to_dict()
    assert view["phase"] == "main" and "battle" in view["used"]
    assert view["players"][1]["standing"] == ["C3", "C8", "SQ"]
    assert {"WP", "WN"} <= set(view["discard"])


def test_l7_a_rally_decides_a_clash():
    state = battle([{"hand": ["W5", "T3"], "standing": ["WK"]},
                    {"hand": ["S2"], "standing": ["SQ", "C3", "C8"]}])
    act(state, "attack player 1 with WK")
    act(state, "clash")
    act(state, "defend with SQ")
    assert legal(state) == ["rally W5", "no rally"]
    rallies = state.legal_actions()
    assert {state.action_view(a, 1) for a in rallies} == {-1}
    act(state, "rally W5")
    # The defender sees that a Rally was chosen, not which, nor a smaller hand.
    seen = state.observation_dict(1)
    assert seen["battle"]["rallies"] == [None] and seen["players"][0]["hand_size"] == 2
    assert state.observation_dict(0)["battle"]["rallies"] == ["W5"]
    act(state, "rally S2")
    assert state.is_chance_node()
    act(state, "reveal the Rallies")
    # King 2 + 5 beats Queen 3 + 2: the Queen is discarded and the King takes the
    # highest standing Common.
    view = state.to_dict()
    assert {"SQ", "W5", "S2"} <= set(view["discard"])
    assert view["players"][0]["standing"] == ["C8"] and view["players"][0]["resting"] == ["WK"]
    assert view["players"][0]["hand"] == ["T3"] and view["players"][1]["standing"] == ["C3"]


def test_l7_a_hidden_rally_is_resampled_from_the_hand_it_came_from():
    state = battle([{"hand": ["W5", "W6", "T3"], "standing": ["WK"]},
                    {"hand": ["S2"], "standing": ["SQ", "C3"]}])
    act(state, "attack player 1 with WK")
    act(state, "clash")
    act(state, "defend with SQ")
    act(state, "rally W5")
    chosen = set()
    for seed in range(40):
        world = state.determinized(1, seed).to_dict()
        rally = world["battle"]["rallies"][0]
        assert rally == "none" or rally in world["players"][0]["hand"]
        chosen.add(rally)
    assert "none" in chosen and len(chosen) > 2


def test_l7_a_tie_discards_both_and_the_attacker_still_captures():
    state = battle([{"standing": ["WP"]}, {"standing": ["SP", "C3", "C8"]}])
    act(state, "attack player 1 with WP")
    act(state, "clash")
    act(state, "defend with SP")
    act(state, "no rally")
    act(state, "no rally")
    act(state, "reveal the Rallies")
    view = state.to_dict()
    assert {"WP", "SP"} <= set(view["discard"])
    assert view["players"][0]["standing"] == ["C3"]


def test_l7_declining_lets_the_attacker_choose_among_equal_commons():
    state = battle([{"standing": ["WN"]}, {"standing": ["SN", "C4", "S4", "P9"]}])
    act(state, "attack player 1 with WN")
    act(state, "clash")
    act(state, "decline")
    assert state.current_player() == 0 and legal(state) == ["capture C4", "capture S4"]
    act(state, "capture S4")
    view = state.to_dict()
    assert view["players"][0]["standing"] == ["S4"]
    assert view["players"][1]["standing"] == ["C4", "SN", "P9"]


def test_l7_attackers_split_across_opponents_and_the_attacker_orders_them():
    state = battle([{"standing": ["WP", "WN"]}, {"standing": ["C3"]}, {"standing": ["S5"]}],
                   "relinquish(players=3,acceptance=false)")
    act(state, "attack player 2 with WP")
    act(state, "attack player 1 with WN")
    act(state, "clash")
    assert legal(state) == ["clash with player 1 next", "clash with player 2 next"]
    act(state, "clash with player 2 next")
    view = state.to_dict()
    assert view["players"][0]["standing"] == ["C3", "S5"]


# R8: only a standing Court defends; a resting one cannot.
def test_r8_a_resting_court_does_not_defend():
    state = battle([{"standing": ["WK"]}, {"standing": ["C3", "C8"], "resting": ["SQ"]}])
    act(state, "attack player 1 with WK")
    act(state, "clash")
    view = state.to_dict()
    assert view["phase"] == "main" and view["players"][0]["standing"] == ["C8"]


# L12: partner_rally: the partner of each clashing seat adds a hidden Common too.
def test_l12_partner_rally_adds_a_partners_common():
    with pytest.raises(core.ParameterError, match="teams=true"):
        core.load_game("relinquish(players=4,partner_rally=true)")
    state = battle([{"standing": ["WK"]}, {"standing": ["SQ", "C3"]}, {"hand": ["C2"]},
                    {"hand": ["P1"]}],
                   "relinquish(players=4,teams=true,partner_rally=true,acceptance=false)")
    act(state, "attack player 1 with WK")
    act(state, "clash")
    act(state, "defend with SQ")
    act(state, "no rally")
    act(state, "no rally")
    assert state.current_player() == 2 and legal(state) == ["rally C2", "no rally"]
    act(state, "rally C2")
    assert state.current_player() == 3
    act(state, "no rally")
    act(state, "reveal the Rallies")
    # King 2 + 2 beats Queen 3.
    view = state.to_dict()
    assert {"SQ", "C2"} <= set(view["discard"]) and view["players"][0]["standing"] == ["C3"]


# L9: special abilities rest two standing cards of one suit (Arcana) or one type
# (Finesse), any number of times, and never act on the cards that paid.
def test_l9_glamour_turns_over_a_common_but_never_a_payer():
    state = position(players=[{"standing": ["W2", "W3", "WP"]}, {"standing": ["C5"]}])
    act(state, "glamour")
    # In card order: the Page, last of the Wands, can only be the second payer.
    assert legal(state) == ["pay with W2", "pay with W3"]
    act(state, "pay with W2")
    assert legal(state) == ["pay with W3", "pay with WP"]
    act(state, "pay with W3")
    assert legal(state) == ["target C5"]
    act(state, "target C5")
    view = state.to_dict()
    assert view["players"][1]["resting"] == ["C5"] and view["phase"] == "main"
    assert view["players"][0]["resting"] == ["W2", "W3"]
    # The Page of Wands can still pay, but no second Wands card stands.
    assert "glamour" not in legal(state)


def test_l9_coerce_rests_a_court_so_it_cannot_defend():
    state = position("relinquish(acceptance=false)",
                     players=[{"standing": ["S1", "S2", "WK"]},
                              {"standing": ["PQ", "C4", "C9"]}])
    act(state, "coerce")
    act(state, "pay with S1")
    act(state, "pay with S2")
    assert legal(state) == ["target WK", "target PQ"]
    act(state, "target PQ")
    act(state, "attack player 1 with WK")
    act(state, "clash")
    assert state.to_dict()["players"][0]["standing"] == ["C9"]


def test_l9_bounty_offers_either_payers_value_a_court_paying_its_strength():
    state = position(players=[{"standing": ["P5", "PK"]}, {"standing": ["C10"]}])
    act(state, "bounty")
    act(state, "pay with P5")
    act(state, "pay with PK")
    act(state, "target C10")
    assert legal(state) == ["subtract 5", "subtract 2", "add 2", "add 5"]
    act(state, "add 5")
    assert state.to_dict()["bounty"] == {"C10": 5}


def test_l9_lavish_scries_after_the_acceptances_are_over():
    state = position(players=[{"hand": ["W9"], "standing": ["C1", "C2"]}, {}],
                     generation=1, scry=["S1", "S2"])
    act(state, "lavish")
    act(state, "pay with C1")
    act(state, "pay with C2")
    act(state, "draw S1")
    act(state, "draw S2")
    act(state, "scry: discard S1")
    assert state.to_dict()["players"][0]["hand"] == ["W9", "S2"]


def test_l9_congregate_and_conscript_place_cards_and_finesse_false_removes_them():
    players = [{"hand": ["W7", "SK"], "standing": ["C9", "C3", "S4", "WP", "CP"]}, {}]
    state = position(players=players)
    assert {"congregate W7", "conscript SK"} <= set(legal(state))
    act(state, "congregate W7")
    assert legal(state) == ["pay with C3"]
    act(state, "pay with C3")
    assert legal(state) == ["pay with S4"]
    act(state, "pay with S4")
    act(state, "conscript SK")
    act(state, "pay with WP")
    act(state, "pay with CP")
    view = state.to_dict()
    assert view["players"][0]["standing"] == ["W7", "C9", "SK"]
    assert view["used"] == [] and view["players"][0]["hand"] == []
    state = position("relinquish(finesse=false)", players=players)
    assert not any(n.startswith(("congregate", "conscript")) for n in legal(state))


# R11: a Bounty changes a tableau Common's value until the end of the turn for
# Populate's order, the capture table and Congregate's sums (and, by L15, an Enchant's
# and a Negate's totals: test_relinquish_corrections.py); scores count the printed
# values.
def test_r11_a_bounty_reorders_populate_and_ends_with_the_turn():
    state = bountied("C9", "subtract 6", {}, me=["C9"], hand=("W5", "T9", "W8"))
    assert "populate W5" in legal(state)
    act(state, "populate W5")
    act(state, "end turn")
    view = state.to_dict()
    assert "bounty" not in view and view["active"] == 1


def test_r11_a_bounty_moves_a_common_in_the_capture_table():
    state = bountied("C10", "subtract 6", {"standing": ["C5", "C10"]}, me=["WP"],
                     hand=("W5", "T9", "W8"))
    act(state, "attack player 1 with WP")
    act(state, "clash")
    # The Page takes the lowest: the 10 is worth 4 this turn.
    assert state.to_dict()["players"][0]["standing"] == ["C10"]


def test_l7_r11_a_capture_chooses_among_every_common_bounties_bring_to_one_worth():
    # Thirteen Commons worth 5 this turn, four of them by Bounties up and five down: the
    # Page's choice holds all thirteen (the engine's list of them once held ten).
    worth_five = ["W5", "C5", "S5", "P5", "W4", "C4", "S4", "P4", "W6", "C6", "S6", "P6",
                  "W7"]
    bounty = {"W4": 1, "C4": 1, "S4": 1, "P4": 1, "W6": -1, "C6": -1, "S6": -1, "P6": -1,
              "W7": -2}
    state = position("relinquish(acceptance=false)",
                     players=[{"standing": ["WP"], "hand": ["W2"]},
                              {"standing": worth_five, "hand": ["S9"]}], bounty=bounty)
    act(state, "attack player 1 with WP")
    act(state, "clash")
    assert sorted(names(state, state.legal_actions())) == sorted(
        f"capture {c}" for c in worth_five)
    act(state, "capture W7")
    assert state.to_dict()["players"][0]["standing"] == ["W7"]
    assert len(state.to_dict()["players"][1]["standing"]) == 12


@pytest.mark.parametrize("target, amount, standing, hand, offered", [
    # C9 worth 3 this turn: with S4 it makes 7, no longer 13.
    ("C9", "subtract 6", ["C9", "S4"], ("W7",), "congregate W7"),
    # C2 worth -4 this turn: with S9 it makes 5, no longer 11.
    ("C2", "subtract 6", ["C2", "S9"], ("W5",), "congregate W5"),
])
def test_r11_a_bounty_changes_what_a_congregate_may_place(target, amount, standing, hand,
                                                          offered):
    before = position("relinquish(acceptance=false)",
                      players=[{"standing": ["P4", "P6", *standing], "hand": list(hand)}, {}])
    assert offered not in legal(before)
    state = bountied(target, amount, {}, me=standing, hand=hand)
    assert offered in legal(state)
    act(state, offered)
    for _ in standing:
        (pay,) = legal(state)
        act(state, pay)
    view = state.to_dict()["players"][0]
    assert offered.split()[1] in view["standing"] and set(standing) <= set(view["resting"])


# L8: a Scry keeps one and discards the other face up; Acceptance until the reshuffle.
def test_l8_acceptance_and_the_reshuffle():
    state = position(players=[{"hand": ["W5", "W6"]}, {"hand": ["C5", "C6"]}],
                     scry=["S1", "S2"], discard=["P7"])
    act(state, "populate W5")
    act(state, "end turn")
    act(state, "draw S1")
    act(state, "draw S2")
    observer = state.observation_dict(1)
    assert observer["scrying"]["drawn"] is None and observer["scrying"]["drawn_size"] == 2
    act(state, "scry: discard S2")
    view = state.to_dict()
    assert view["players"][0]["hand"] == ["W6", "S1"] and view["discard"] == ["S2", "P7"]
    # The Scry pile has run out: no more Acceptances.
    act(state, "populate C5")
    act(state, "end turn")
    view = state.to_dict()
    assert (view["active"], view["phase"], view["players"][1]["hand"]) == (0, "main", ["C6"])


# L10: the game ends when the active player ends a turn with no cards, or all pass.
def test_l10_an_empty_hand_ends_the_game_and_scores():
    state = position(players=[{"hand": ["W5"], "standing": ["C3", "CP"]},
                              {"hand": ["C4"], "standing": ["S8"]}])
    act(state, "populate W5")
    act(state, "end turn")
    assert state.is_terminal()
    assert state.to_dict()["scores"] == [8, 8] and state.returns() == [1.0, -1.0]


def test_l10_every_player_passing_ends_the_game():
    state = position("relinquish(acceptance=false)",
                     players=[{"hand": ["W5"]}, {"hand": ["C4"]}])
    act(state, "end turn")
    assert not state.is_terminal()
    act(state, "end turn")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


# L11: max_turns ends a long game, scored as L10.
def test_l11_max_turns():
    state = position("relinquish(acceptance=false,max_turns=3)", players=[{"hand": ["W5", "W6"]}, {"hand": ["C4"]}],
                     turn=2)
    act(state, "populate W5")
    act(state, "end turn")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


# L13: returns by rank in a free-for-all; partners share a team's result.
def test_l13_free_for_all_returns():
    state = position("relinquish(players=3)",
                     players=[{"standing": ["W9"]}, {"standing": ["C5"]}, {"standing": ["S5"]}],
                     phase="over")
    assert state.returns() == [1.0, -0.5, -0.5]


def test_l13_partners_share_a_result_in_a_team_game():
    state = position("relinquish(players=4,teams=true)",
                     players=[{"standing": ["W9"]}, {"standing": ["C5"]},
                              {"standing": ["S2"]}, {"standing": ["P5"]}],
                     phase="over")
    assert state.to_dict()["scores"] == [11, 10, 11, 10]
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]


def test_hidden_hands_stay_hidden():
    state = position(players=[{"hand": ["W5"]}, {"hand": ["C4"]}])
    view = state.observation_dict(0)
    assert view["players"][1]["hand"] is None and view["players"][1]["hand_size"] == 1
    assert view["scry"] is None


# Search knowledge: evaluate and the greedy move read only what the player sees.
def test_evaluate_favours_the_side_ahead_and_ignores_hidden_cards():
    state = position(players=[{"hand": ["W2", "T4"], "standing": ["C9", "S8", "CK"]},
                              {"hand": ["W10", "T20"], "standing": ["C3"]}])
    assert state.evaluate(0) > 0 > state.evaluate(1)
    for seed in range(5):
        assert state.determinized(0, seed).evaluate(0) == state.evaluate(0)


def test_heuristic_populates_the_highest_playable_common():
    state = position(players=[{"hand": ["W4", "W7", "C9"], "standing": ["S5"]}, {}])
    assert state.action_to_string(state.heuristic_action()) == "populate C9"


def test_heuristic_defends_only_with_a_stronger_court_and_rallies_just_enough():
    state = position("relinquish(acceptance=false)",
                     players=[{"hand": ["W2", "W5", "W9"], "standing": ["WN"]},
                              {"standing": ["SP", "SK", "C4"]}])
    act(state, "attack player 1 with WN")
    act(state, "clash")
    assert state.action_to_string(state.heuristic_action()) == "defend with SK"
    state = position("relinquish(acceptance=false)",
                     players=[{"hand": ["W1", "W2", "W5"], "standing": ["WN"]},
                              {"standing": ["SK", "C4"]}])
    act(state, "attack player 1 with WN")
    act(state, "clash")
    act(state, "defend with SK")
    # Knight 1 against King 2: the 2 is the smallest Common that wins.
    assert state.action_to_string(state.heuristic_action()) == "rally W2"

