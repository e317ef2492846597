"""The energy deck-builder's rules, each ruling (docs/rules/energy-deckbuilder.md) and
each mechanic of the text on the exact position it speaks of."""
import pytest

import core
from core.energy_deckbuilder.cards import CARDS, DECKS
from core.errors import StateFormatError
from energy_positions import GAME, act, names, position



def others(*cards):
    """Every market card but ``cards``."""
    return [c.name for c in CARDS if DECKS[c.deck] == "market" and c.name not in cards]


def view(state):
    return state.to_dict()


def me(state, p=0):
    return state.to_dict()["players"][p]


def creature(name, **kw):
    return {"card": name, **kw}


# --- the turn: E3, E4, E5, E23 ------------------------------------------------------------

def test_a_game_deals_the_market_then_each_hand_and_player_0_begins():
    # (E3, E23)
    state = GAME.new_initial_state()
    for step in range(8):
        assert state.is_chance_node()
        assert all(n.startswith("reveal ") for n in names(state))
        state.apply_action(state.legal_actions()[0])
    for drawer in (0, 0, 0, 0, 1, 1, 1, 1):
        assert view(state)["pending"][-1] == {"kind": "draw", "player": drawer, "cards":
                                              4 - len(me(state, drawer)["hand"])}
        assert state.action_view(state.legal_actions()[0], 1 - drawer) < 0
        state.apply_action(state.legal_actions()[0])
    v = view(state)
    assert (v["turn"], v["active"], v["stage"], state.current_player()) == (1, 0, "main", 0)
    assert len(v["market"]) == 8 and v["piles"] == {"Ashbloom": 4, "Steamlet": 4, "Mossmere": 4}
    assert v["common"] == {"red": 6, "green": 6, "blue": 6, "black": 6}
    for p in v["players"]:
        assert p["lives"] == 20 and len(p["hand"]) == 4 and len(p["draw"]) == 4


@pytest.mark.parametrize("energy", [2, 0, 3])
def test_the_second_player_gains_black_energy_on_their_first_turn_only(energy):
    # (E4)
    game = core.load_game("energy_deckbuilder", second_player_energy=energy)
    state = position(game, turn=1, players=[{"hand": ["Wisp"]}, {"draw": ["Wisp"] * 5}])
    act(state, "end", *["Wisp"] * 4)
    assert (view(state)["turn"], view(state)["active"]) == (2, 1)
    assert me(state, 1)["energy"]["black"] == energy
    assert view(state)["common"]["black"] == 6 - energy
    act(state, "end", "Wisp", "Cinder", "Droplet", "Sprout")
    act(state, "end", "Cinder", "Sprout", "Droplet", "Wisp")
    assert view(state)["turn"] == 4 and me(state, 1)["energy"]["black"] == 0


def test_stage_3_is_any_order_with_one_buy_and_ends_with_end():
    # (E5) Discards and plays repeat; the buy does not; only "end" closes the stage.
    state = position(market=["Emberling", "Firebolt"],
                     players=[{"hand": ["Cinder", "Sprout", "Droplet", "Wisp"]}, {}])
    act(state, "discard Cinder for red", "discard Sprout for green")
    assert {"buy Emberling", "buy Firebolt", "buy Ashbloom"} <= set(names(state))
    act(state, "buy Ashbloom")
    assert not [n for n in names(state) if n.startswith("buy ")]
    act(state, "play Droplet", "Wisp", "discard Wisp for black")
    assert view(state)["stage"] == "main" and state.current_player() == 0
    assert names(state)[0] == "end"
    act(state, "end")
    # Stage 4 returns the black energy, stage 5 discards the hand and draws a new one.
    assert me(state)["energy"] == dict.fromkeys(("red", "green", "blue", "black"), 0)
    assert view(state)["pending"] == [{"kind": "draw", "player": 0, "cards": 4}]


# --- combat: the text, E6, E13, E15, E21 --------------------------------------------------

def test_lives_can_be_attacked_only_behind_fewer_than_three_creatures():
    three = [creature("Wisp"), creature("Lantern"), creature("Thornback")]
    state = position(players=[{"creatures": [creature("Emberling"), None, None]},
                              {"creatures": three}])
    assert not [n for n in names(state) if n.startswith("attack lives")]
    state = position(players=[{"creatures": [creature("Emberling"), None, None]},
                              {"creatures": three[:2] + [None]}])
    act(state, "attack lives with Emberling (slot 1)")
    assert me(state, 1)["lives"] == 18


def test_damage_adds_up_over_the_turn_and_wears_off_at_its_end():
    # (E6) Attackers take no damage.
    mine = [creature("Emberling"), creature("Blazehound"), None]
    foe = [creature("Thornback"), creature("Wisp"), creature("Lantern")]
    state = position(players=[{"creatures": [creature("Emberling"), creature("Kindler"),
                                             None]}, {"creatures": foe}])
    act(state, "attack Thornback (slot 1) with Emberling (slot 1)")
    assert me(state, 1)["creatures"][0]["damage"] == 2
    assert me(state)["creatures"][0] == {"card": "Emberling", "tapped": True, "damage": 0,
                                         "boost": 0, "stored": {"red": 0, "green": 0,
                                                                "blue": 0}, "upgrades": []}
    act(state, "attack Thornback (slot 1) with Kindler (slot 2)")
    assert me(state, 1)["creatures"][0]["damage"] == 3
    act(state, "end")
    assert me(state, 1)["creatures"][0]["damage"] == 0
    state = position(players=[{"creatures": mine}, {"creatures": foe}])
    act(state, "attack Thornback (slot 1) with Emberling (slot 1)",
        "attack Thornback (slot 1) with Blazehound (slot 2)")
    assert me(state, 1)["creatures"][0] is None
    assert me(state, 1)["discard"] == ["Thornback"]


def test_a_creature_acts_the_turn_it_is_played():
    # (E13)
    state = position(players=[{"hand": ["Emberling"], "energy": {"red": 1}}, {}])
    act(state, "play Emberling", "attack lives with Emberling (slot 1)")
    assert me(state, 1)["lives"] == 18


def test_effect_damage_adds_to_attack_damage_and_reaches_lives_behind_three_creatures():
    # (E15)
    foe = [creature("Thornback"), creature("Wisp"), creature("Lantern")]
    state = position(players=[{"hand": ["Firebolt", "Cinder"], "energy": {"red": 1},
                               "creatures": [creature("Emberling"), None, None]},
                              {"creatures": foe}])
    act(state, "attack Thornback (slot 1) with Emberling (slot 1)", "play Firebolt",
        "damage Thornback (slot 1)")
    assert me(state, 1)["creatures"][0] is None
    act(state, "play Cinder")
    assert me(state, 1)["lives"] == 19


def test_interchangeable_creatures_are_one_choice():
    # (E21) Two untapped Wisps: one attack and one produce for them, one target for
    # two alike; a creature with no power does not attack; a choice of one is made.
    state = position(players=[{"creatures": [creature("Wisp"), creature("Wisp"),
                                             creature("Lantern")]},
                              {"creatures": [creature("Wisp"), creature("Wisp"), None]}])
    taps = [n for n in names(state) if n.startswith(("attack", "produce"))]
    assert taps == ["attack Wisp (slot 1) with Wisp (slot 1)",
                    "attack lives with Wisp (slot 1)", "produce with Wisp (slot 1)",
                    "produce with Lantern (slot 3)"]
    act(state, "produce with Wisp (slot 1)")
    assert "attack lives with Wisp (slot 2)" in names(state)
    state = position(players=[{"hand": ["Barkskin"], "energy": {"green": 1},
                               "creatures": [creature("Wisp"), None, None]}, {}])
    act(state, "play Barkskin")
    assert view(state)["pending"] == [] and me(state)["creatures"][0]["upgrades"] == ["Barkskin"]


# --- creatures in play: the 3-creature limit, upgrades, E16 -------------------------------

def test_a_fourth_creature_replaces_one_and_enters_tapped_in_a_tapped_ones_place():
    mine = [creature("Wisp", tapped=True, upgrades=["Barkskin"]), creature("Lantern"),
            creature("Thornback")]
    state = position(players=[{"hand": ["Emberling"], "energy": {"red": 1},
                               "creatures": mine}, {}])
    act(state, "play Emberling")
    assert names(state) == ["replace Wisp (slot 1)", "replace Lantern (slot 2)",
                            "replace Thornback (slot 3)"]
    act(state, "replace Wisp (slot 1)")
    assert me(state)["creatures"][0]["card"] == "Emberling"
    assert me(state)["creatures"][0]["tapped"]
    assert sorted(me(state)["discard"]) == ["Barkskin", "Wisp"]
    state = position(players=[{"hand": ["Emberling"], "energy": {"red": 1},
                               "creatures": mine}, {}])
    act(state, "play Emberling", "replace Lantern (slot 2)")
    assert not me(state)["creatures"][1]["tapped"]


def test_upgrades_stack_on_a_creature():
    state = position(players=[{"hand": ["Flametongue", "Stormcoil"],
                               "energy": {"red": 1, "blue": 2},
                               "creatures": [creature("Wisp"), None, None]},
                              {"creatures": [creature("Thornback"), None, None]}])
    act(state, "play Flametongue", "play Stormcoil")
    assert me(state)["creatures"][0]["upgrades"] == ["Flametongue", "Stormcoil"]
    act(state, "attack lives with Wisp (slot 1)")
    assert me(state, 1)["lives"] == 15


def test_a_destroyed_creature_takes_its_upgrades_and_stored_energy_with_it():
    # (E16)
    foe = [creature("Wisp", upgrades=["Barkskin"], stored={"green": 2}), None, None]
    state = position(players=[{"hand": ["Firebolt"], "energy": {"red": 1},
                               "creatures": [creature("Emberling"), None, None]},
                              {"creatures": foe}])
    act(state, "attack Wisp (slot 1) with Emberling (slot 1)", "play Firebolt")
    assert me(state, 1)["creatures"][0] is None
    assert sorted(me(state, 1)["discard"]) == ["Barkskin", "Wisp"]
    assert view(state)["common"]["green"] == 6


# --- energy: the fallback, E10, E12, E17, E24 ---------------------------------------------

def test_energy_of_a_colour_run_out_is_black_and_nothing_once_black_is_out():
    state = position(players=[{"hand": ["Ashbloom", "Steamlet"],
                               "energy": {"red": 6, "green": 5, "blue": 1, "black": 5}}, {}])
    assert view(state)["common"] == {"red": 0, "green": 1, "blue": 5, "black": 1}
    act(state, "play Ashbloom")
    assert me(state)["energy"] == {"red": 6, "green": 6, "blue": 1, "black": 6}
    act(state, "play Steamlet")
    assert me(state)["energy"] == {"red": 6, "green": 6, "blue": 2, "black": 6}


def test_stored_energy_comes_back_to_the_supply_at_the_start_of_the_turn():
    # (E10)
    state = position(turn=2, active=1,
                     players=[{"creatures": [creature("Lantern", stored={"red": 2, "blue": 1}),
                                             None, None], "hand": ["Wisp"]},
                              {"draw": ["Wisp"] * 5}])
    act(state, "end", *["Wisp"] * 4)
    assert me(state)["energy"] == {"red": 2, "green": 0, "blue": 1, "black": 0}
    assert me(state)["creatures"][0]["stored"] == {"red": 0, "green": 0, "blue": 0}


def test_the_energy_left_may_be_split_among_white_creatures_or_returned():
    # (E24, replacing E11) Cube by cube, colour by colour, each on any white creature
    # or returned; black goes back to the common supply; with no white creature, all does.
    whites = [creature("Lantern"), creature("Wisp"), creature("Emberling")]
    energy = {"red": 1, "blue": 2, "black": 1}
    state = position(players=[{"creatures": whites, "energy": energy}, {}])
    act(state, "end")
    assert names(state) == ["return the red left", "keep red on Lantern (slot 1)",
                            "keep red on Wisp (slot 2)"]
    act(state, "keep red on Wisp (slot 2)")
    assert names(state) == ["return the blue left", "keep blue on Lantern (slot 1)",
                            "keep blue on Wisp (slot 2)"]
    act(state, "keep blue on Lantern (slot 1)")
    act(state, "keep blue on Wisp (slot 2)")
    creatures = me(state)["creatures"]
    assert creatures[0]["stored"] == {"red": 0, "green": 0, "blue": 1}
    assert creatures[1]["stored"] == {"red": 1, "green": 0, "blue": 1}
    assert view(state)["common"] == {"red": 5, "green": 6, "blue": 4, "black": 6}
    assert view(state)["stage"] == "draw"
    # A creature once passed over is not offered again for that colour: a split is one
    # sequence of choices.
    state = position(players=[{"creatures": whites, "energy": energy}, {}])
    act(state, "end", "return the red left", "keep blue on Wisp (slot 2)")
    assert names(state) == ["return the blue left", "keep blue on Wisp (slot 2)"]
    act(state, "return the blue left")
    assert me(state)["creatures"][1]["stored"] == {"red": 0, "green": 0, "blue": 1}
    assert view(state)["common"] == {"red": 6, "green": 6, "blue": 5, "black": 6}
    state = position(players=[{"creatures": [creature("Emberling"), None, None],
                               "energy": energy}, {}])
    act(state, "end")
    assert view(state)["common"] == dict.fromkeys(("red", "green", "blue", "black"), 6)


def test_stage_4_waits_on_a_colour_the_player_still_holds():
    # (E24) A position stopped in stage 4 names the colour being stored and the lowest
    # creature still open to it.
    whites = [creature("Lantern"), creature("Wisp"), None]
    pending = [{"kind": "own", "player": 0, "effect": "keep", "amount": 0, "colour": "blue",
                "from_slot": 1}]
    state = position(players=[{"creatures": whites, "energy": {"blue": 2}}, {}],
                     stage="store", pending=pending)
    assert names(state) == ["return the blue left", "keep blue on Wisp (slot 2)"]
    assert state.to_dict()["pending"] == pending
    with pytest.raises(StateFormatError, match="colour the player still holds"):
        position(players=[{"creatures": whites, "energy": {"red": 2}}, {}],
                 stage="store", pending=pending)


def test_costs_in_any_colour_take_black_first_then_the_players_choice_of_colour():
    # (E12) A coloured cost is paid in its colour; spent energy returns to the common
    # supply at once.
    state = position(market=["Pyrewyrm"], players=[{"energy": {"black": 4, "red": 3,
                                                               "green": 1}}, {}])
    act(state, "buy Pyrewyrm")
    assert names(state) == ["pay 2 red, 1 green", "pay 3 red"]
    assert me(state)["energy"] == {"red": 3, "green": 1, "blue": 0, "black": 0}
    act(state, "pay 2 red, 1 green")
    assert me(state)["energy"] == {"red": 1, "green": 0, "blue": 0, "black": 0}
    assert me(state)["discard"] == ["Pyrewyrm"]
    assert view(state)["common"] == {"red": 5, "green": 6, "blue": 6, "black": 6}
    # Exactly as many cubes as the cost, or one colour: no choice.
    for energy in ({"black": 5, "red": 1, "green": 1}, {"black": 2, "blue": 6}):
        state = position(market=["Pyrewyrm"], players=[{"energy": energy}, {}])
        act(state, "buy Pyrewyrm")
        assert me(state)["discard"] == ["Pyrewyrm"]
        assert view(state)["pending"] == [{"kind": "refill", "cards": 1}]
    state = position(players=[{"hand": ["Emberling"], "energy": {"black": 3}}, {}])
    assert "play Emberling" not in names(state)
    state = position(players=[{"hand": ["Pyrewyrm"], "energy": {"red": 3, "green": 1}}, {}])
    act(state, "play Pyrewyrm")
    assert me(state)["creatures"][0]["card"] == "Pyrewyrm"


def test_a_store_effect_falls_back_to_black_in_the_supply_and_needs_a_white_creature():
    # (E17)
    state = position(players=[{"hand": ["Hoard"], "energy": {"black": 1, "blue": 6},
                               "creatures": [creature("Lantern"), None, None]}, {}])
    act(state, "play Hoard")
    assert me(state)["creatures"][0]["stored"] == {"red": 1, "green": 1, "blue": 0}
    assert me(state)["energy"]["black"] == 1
    state = position(players=[{"hand": ["Hoard"], "energy": {"black": 1},
                               "creatures": [creature("Emberling"), None, None]}, {}])
    act(state, "play Hoard")
    assert me(state)["energy"] == dict.fromkeys(("red", "green", "blue", "black"), 0)
    assert view(state)["common"] == dict.fromkeys(("red", "green", "blue", "black"), 6)


# --- the market: E7 ---------------------------------------------------------------------------

def test_a_bought_market_card_is_replaced_from_the_market_deck_while_it_lasts():
    # (E7) Bought cards go to the discard pile; a zero-cost pile is not refilled.
    state = position(market=["Emberling"], market_deck=["Pyrewyrm", "Firebolt"],
                     players=[{"energy": {"black": 2}},
                              {"discard": others("Emberling", "Pyrewyrm", "Firebolt")}])
    act(state, "buy Emberling")
    assert state.is_chance_node() and names(state) == ["reveal Pyrewyrm", "reveal Firebolt"]
    act(state, "reveal Firebolt")
    assert view(state)["market"] == ["Firebolt"] and me(state)["discard"] == ["Emberling"]
    state = position(market=["Emberling"], market_deck=[],
                     players=[{"energy": {"black": 2}}, {"discard": others("Emberling")}])
    act(state, "buy Emberling")
    assert view(state)["market"] == [] and not state.is_chance_node()
    state = position(market=["Emberling"], players=[{}, {}])
    act(state, "buy Mossmere")
    assert view(state)["piles"]["Mossmere"] == 3 and not state.is_chance_node()


# --- the end: E8, E22 ---------------------------------------------------------------------

@pytest.mark.parametrize("lives, result", [((12, 9), [1.0, -1.0]), ((9, 12), [-1.0, 1.0]),
                                           ((9, 9), [0.0, 0.0])])
def test_max_turns_ends_the_game_after_the_last_turns_stage_4(lives, result):
    # (E8, E22) More lives wins, equal lives is a draw; no hand is drawn.
    game = core.load_game("energy_deckbuilder", max_turns=6)
    state = position(game, turn=6, active=1, players=[{"lives": lives[0]},
                                                       {"lives": lives[1], "hand": ["Wisp"]}])
    act(state, "end")
    assert state.is_terminal() and state.returns() == result
    assert me(state, 1)["hand"] == ["Wisp"]


def test_a_player_out_of_lives_loses_at_once():
    state = position(players=[{"creatures": [creature("Pyrewyrm"), None, None]},
                              {"lives": 5}])
    act(state, "attack lives with Pyrewyrm (slot 1)")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert view(state)["winner"] == 0


# --- triggers: E14, E20 --------------------------------------------------------------------

def test_upkeep_triggers_run_by_slot_each_creature_before_its_upgrades():
    # (E14) Mistwalker's draw waits on chance before the triggers after it run.
    def start(mine):
        state = position(turn=2, active=1, players=[{"creatures": mine, "hand": ["Wisp"]},
                                                    {"draw": ["Wisp"] * 5}])
        return act(state, "end", *["Wisp"] * 4)

    state = start([creature("Mistwalker", upgrades=["Rootstrength"]), creature("Cinderlord"),
                   None])
    assert state.is_chance_node()
    assert (me(state)["lives"], me(state, 1)["lives"]) == (20, 20)
    act(state, "Wisp")
    assert (me(state)["lives"], me(state, 1)["lives"]) == (21, 19)
    state = start([creature("Cinderlord"), creature("Mistwalker"), None])
    assert state.is_chance_node() and me(state, 1)["lives"] == 19


def test_producing_gives_the_energy_before_the_produce_trigger():
    # (E14)
    state = position(players=[{"creatures": [creature("Tidecaller"), None, None]}, {}])
    act(state, "produce with Tidecaller (slot 1)")
    assert state.is_chance_node() and me(state)["energy"]["blue"] == 1


def test_an_untap_never_untaps_the_creature_whose_trigger_it_is():
    # (E20) No card of the set untaps from a trigger (a produce trigger may not: see
    # test_energy_properties), so the frame is written out.
    mine = [creature("Wisp", tapped=True), creature("Lantern", tapped=True),
            creature("Emberling", tapped=True)]
    frame = {"kind": "own", "player": 0, "card": "Rewind", "effect": "untap", "amount": 1,
             "colour": "red", "barred": 0}
    state = position(players=[{"creatures": mine}, {}], pending=[frame])
    assert names(state) == ["untap Lantern (slot 2)", "untap Emberling (slot 3)"]


def test_untap_lets_a_creature_act_again():
    state = position(players=[{"hand": ["Rewind"], "energy": {"blue": 1},
                               "creatures": [creature("Emberling", tapped=True), None, None]},
                              {}])
    act(state, "play Rewind", "attack lives with Emberling (slot 1)")
    assert me(state, 1)["lives"] == 18


# --- hidden cards and draws: E9, E18, E19 ---------------------------------------------------

def test_hands_draw_piles_and_the_market_deck_order_are_hidden():
    # (E9) The opponent's hand and draw pile together are public, as is the market deck.
    state = position(players=[{"hand": ["Cinder", "Wisp"], "discard": ["Sprout"]},
                              {"hand": ["Droplet"]}])
    seen = state.observation_dict(1)["players"][0]
    assert seen["hand"] == ["??", "??"] and seen["draw"] == ["??"] * 5
    assert sorted(seen["unseen"]) == sorted(["Cinder", "Droplet"] + ["Wisp"] * 5)
    assert seen["discard"] == ["Sprout"]
    assert state.observation_dict(1)["market_deck"] == state.to_dict()["market_deck"]
    world = state.determinized(1, 3)
    assert sorted(world.to_dict()["players"][0]["hand"] + world.to_dict()["players"][0]["draw"]) \
        == sorted(seen["unseen"])


def test_an_empty_draw_pile_is_reshuffled_when_a_card_is_due_and_the_hand_is_known():
    # (E18) The cards in hand when the discard pile is shuffled are every card the
    # player had unseen: the opponent knows them, and so does every determinization.
    state = position(players=[{"hand": ["Insight", "Cinder"], "energy": {"blue": 1},
                               "draw": ["Droplet"],
                               "discard": ["Wisp"] * 5 + ["Sprout"]}, {}])
    act(state, "play Insight", "Droplet")
    assert me(state)["draw"] == ["Wisp"] * 5 + ["Sprout", "Insight"]
    assert me(state)["known"] == ["Cinder", "Droplet"]
    act(state, "Sprout")
    assert state.observation_dict(1)["players"][0]["hand"] == ["Cinder", "Droplet", "??"]
    for seed in range(20):
        hand = state.determinized(1, seed).to_dict()["players"][0]["hand"]
        assert "Cinder" in hand and "Droplet" in hand and len(hand) == 3
    act(state, "play Droplet")
    assert me(state)["known"] == ["Cinder"]


def test_a_draw_from_two_empty_piles_draws_nothing():
    # (E18)
    # Mistwalker's upkeep draw finds every other card of its owner in hand.
    hand = ["Wisp"] * 5 + ["Cinder", "Sprout", "Droplet"]
    state = position(turn=2, active=1,
                     players=[{"hand": hand, "creatures": [creature("Mistwalker"), None, None]},
                              {"draw": ["Wisp"] * 5}])
    act(state, "end", *["Wisp"] * 4)
    assert (view(state)["turn"], view(state)["stage"], view(state)["pending"]) == (3, "main", [])
    assert len(me(state)["hand"]) == 8


def test_a_turn_offers_only_end_after_its_step_cap():
    # (E19)
    state = position(steps=119, players=[{"hand": ["Wisp", "Cinder"]}, {}])
    act(state, "discard Wisp for black")
    assert names(state) == ["end"]


# --- positions --------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"common": {"red": 5}}, "red energy: 0 held by the players and 5 in the common supply"),
    ({"market": ["Ashbloom"]}, r"market\[0\]: 'Ashbloom' is not a market card"),
    ({"players": [{"hand": ["Wisp"] * 6}, {}]}, "more cards than the deck holds: Wisp"),
    ({"players": [{"hand": ["Scorch"]}, {"discard": ["Scorch"]}]},
     "more cards than the deck holds: Scorch"),
    ({"players": [{"creatures": [creature("Emberling", stored={"red": 1}), None, None]}, {}]},
     "energy is stored on white creatures only"),
    ({"turn": 2}, "turn 2 is player 1's"),
    ({"stage": "draw"}, "something is pending then"),
])
def test_a_position_that_cannot_arise_is_refused(change, message):
    with pytest.raises(StateFormatError, match=message):
        position(**change)
