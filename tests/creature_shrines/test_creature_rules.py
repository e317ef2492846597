"""Each ruling the engine implements, on the exact position it talks about."""
import pathlib

import pytest

import core
import core.creature_shrines.cards
from core.creature_shrines import CARDSET
from creature_positions import act, names, position, unit

RED = {"sources": {"ember_vent": 5}}


def test_the_shrine_starts_home_without_marks_and_is_played_like_a_creature():
    # (C6)
    st = position(players=[dict(RED), {}], turn=2)
    assert "play the shrine korrath_ember_tyrant" in names(st)
    act(st, "play the shrine korrath_ember_tyrant", "at 0b")
    assert unit(st, 0)["card"] == "korrath_ember_tyrant" and unit(st, 0)["site"] == "0b"
    assert st.to_dict()["players"][0]["tapped"] == {"ember_vent": 5}


def test_a_dead_shrine_goes_home_with_marks_and_loses_one_each_turn():
    # (C6) Korrath costs 5: it comes home with 5 marks; each of its player's turns
    # takes one off; paying 2 at burst speed takes another.
    st = position(players=[{"sources": {"ember_vent": 3}}, {"sources": {"tidepool": 1}}],
                  units=[{"slot": 0, "card": "korrath_ember_tyrant", "owner": 0, "site": "3b"},
                         {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "4b"},
                         {"slot": 2, "card": "riptide_lurker", "owner": 1, "site": "4b"}],
                  turn=3, active=1, act="combat")
    assert st.to_dict()["players"][0]["shrine_home"] is False
    # (C16) a choice with one option is no decision: each attack's target is Korrath
    act(st, "attack with riptide_lurker at 4b (first)", "attack with riptide_lurker at 4b (second)")
    act(st, "pass the combat act")
    me = st.to_dict()["players"][0]
    assert me["shrine_home"] and me["marks"] == 5
    # player 0 has 3 untapped Sources: (C7) priority after each of player 1's actions
    assert st.current_player() == 1
    act(st, "pass the final act")
    assert st.current_player() == 0 and names(st) == ["pass", "pay 2 to remove a time mark"]
    act(st, "pay 2 to remove a time mark")
    # one mark paid for, one taken as player 0's turn begins
    assert st.to_dict()["players"][0]["marks"] == 3 and st.to_dict()["active"] == 0


def test_priority_is_asked_whenever_the_opponent_might_hold_a_burst_card():
    # (C7 revised) player 1 has three Tidepools and one card player 0 has not seen:
    # Undertow, which could bounce the hound, or a creature.  Player 0 sees the same in
    # both: player 1 gets priority and passes, or plays.
    seen = []
    for card in ("undertow", "coral_sentry"):
        st = position(players=[dict(RED, hand=["blaze_hound"]),
                               {"sources": {"tidepool": 3}, "hand": [card]}], turn=2)
        act(st, "play blaze_hound", "at 0a")
        assert st.current_player() == 1 and st.to_dict()["step"] == "priority"
        assert ("play undertow" in names(st)) == (card == "undertow")
        seen.append(st.information_state_string(0))
    assert seen[0] == seen[1]


def test_priority_is_skipped_when_the_opponent_has_nothing_to_do():
    # (C7 revised) player 1 holds no card and no Shrine waits: what player 0 sees
    # shows player 1 can do nothing, so the active player acts on.
    st = position(players=[dict(RED, hand=["blaze_hound"]), {}], turn=2)
    act(st, "play blaze_hound", "at 0a")
    assert st.current_player() == 0 and st.to_dict()["step"] == "act"
    act(st, "pass the first act")
    assert st.current_player() == 0 and st.to_dict()["act"] == "travel"


def test_the_mulligan_puts_cards_under_the_library_known_to_their_owner():
    # (C10) the first player may mulligan two cards, and sees what lies at the bottom;
    # the opponent sees only how many.
    game = core.load_game("creature_shrines")
    st = game.new_initial_state()
    for card in ("blaze_hound", "cinder_brute", "stone_wall"):
        st.apply_action(game.cards.names.index(card))
    act(st, "mulligan blaze_hound")
    assert st.observation_dict(0)["players"][0]["bottom"] == ["blaze_hound"]
    assert "bottom" not in st.observation_dict(1)["players"][0]
    assert st.observation_dict(1)["players"][0]["primary_size"] == 38
    assert st.action_view(st.legal_actions()[0], 1) < 0
    st.apply_action(game.cards.names.index("firebolt"))
    act(st, "mulligan cinder_brute")
    st.apply_action(game.cards.names.index("warcry"))
    assert [n for n in names(st) if n.startswith("mulligan")] == []
    act(st, "keep")
    for _ in range(3):
        st.apply_action(game.cards.names.index("ember_vent"))
    me = st.to_dict()["players"][0]
    assert me["bottom"] == [] and me["primary"].count("blaze_hound") == 3
    assert st.to_dict()["mulligan"] == {"player": 1, "left": 4}


def test_a_card_swapped_under_the_secondary_library_stays_a_primary_card():
    # (C35, C10) Scry the Depths puts an Undertow of the Primary Library under the
    # Secondary: its owner knows it there, the opponent that it came from the Primary.
    # Drawn, it is a Primary card in hand; dealt again for the opponent, it is dealt
    # from the Primary's unseen cards, and the Secondary keeps its own.
    under = [{"card": "undertow", "from": "primary"}]
    st = position("creature_shrines(deck0=blue,deck1=red)",
                  [{"sources": {"tidepool": 20}, "bottom_secondary": under,
                    "secondary": [], "hand": ["coral_sentry"]}, {}], turn=2)
    assert st.to_dict()["players"][0]["bottom_secondary"] == under
    assert st.observation_dict(0)["players"][0]["bottom_secondary"] == under
    assert core.load_game("creature_shrines(deck0=blue,deck1=red)").state_from_dict(
        st.to_dict()).to_dict() == st.to_dict()
    primary = set(st.to_dict()["players"][0]["primary"]) | {"coral_sentry", "undertow"}
    for seed in range(40):
        world = st.determinized(1, seed).to_dict()["players"][0]
        assert world["secondary"] == [] and world["hand_secondary"] == []
        (card,) = world["bottom_secondary"]
        assert card["from"] == "primary" and card["card"] in primary
    st = position("creature_shrines(deck0=blue,deck1=red)",
                  [{"sources": {"tidepool": 20}, "bottom_secondary": under,
                    "secondary": []}, {}], turn=2, step="draw_choice",
                  drawing={"player": 0, "then": "turn"})
    act(st, "draw from the secondary library")
    me = st.to_dict()["players"][0]
    assert me["hand"] == ["undertow"] and me["hand_secondary"] == []
    assert me["bottom_secondary"] == [] and me["secondary_size"] == 0


def test_a_card_swapped_under_the_secondary_library_does_not_tell_if_priority_is_asked():
    # (C7 revised, C35) player 1 holds one card of the Secondary Library, which holds
    # only Sources, and Swapped a card of the Primary under it: an Undertow, which could
    # answer the hound, or a Coral Sentry.  Player 1 cannot hold the Undertow, and
    # player 0 sees the same in both: the priority step is skipped in both.
    seen = []
    for card in ("undertow", "coral_sentry"):
        st = position(players=[dict(RED, hand=["blaze_hound"]),
                               {"sources": {"tidepool": 3}, "hand_secondary": ["tidepool"],
                                "bottom_secondary": [{"card": card, "from": "primary"}]}],
                      turn=2)
        act(st, "play blaze_hound", "at 0a")
        assert st.current_player() == 0 and st.to_dict()["step"] == "act"
        seen.append(st.information_state_string(0))
    assert seen[0] == seen[1]


def test_the_first_player_draws_at_the_end_of_the_first_turn():
    st = position(players=[dict(RED), {}], turn=0)
    act(st, "pass the first act", "pass the travel act", "pass the combat act",
        "pass the final act")
    assert names(st) == ["draw from the primary library", "draw from the secondary library"]
    act(st, "draw from the secondary library")
    st.apply_action(core.load_game("creature_shrines").cards.names.index("ember_vent"))
    assert st.to_dict()["turn"] == 1 and st.current_player() == 1
    assert names(st) == ["draw from the primary library", "draw from the secondary library"]


def test_an_empty_library_is_not_drawn_from():
    # (C12) with the Secondary Library empty, the turn's draw is from the Primary.
    st = position(players=[{}, {"secondary": [], "hand_secondary": ["tidepool"] * 20}],
                  turn=1, active=0, act="final")
    act(st, "pass the final act")
    assert st.is_chance_node() and st.to_dict()["drawing"]["library"] == "primary"


def test_a_fifth_permanent_on_a_site_makes_the_player_with_more_sacrifice_one():
    here = [{"slot": i, "card": "blaze_hound", "owner": 0, "site": "0a"} for i in range(3)]
    here.append({"slot": 3, "card": "riptide_lurker", "owner": 1, "site": "0a"})
    st = position(players=[dict(RED, hand=["stone_wall"]), {}], units=here, turn=2)
    act(st, "play stone_wall", "at 0a")
    assert names(st) == ["sacrifice blaze_hound at 0a (first)",
                         "sacrifice blaze_hound at 0a (second)",
                         "sacrifice blaze_hound at 0a (third)", "sacrifice stone_wall at 0a"]
    act(st, "sacrifice blaze_hound at 0a (second)")
    assert st.to_dict()["players"][0]["graveyard"] == ["blaze_hound"]
    assert len(st.to_dict()["units"]) == 4


def test_travel_goes_forward_its_distance_and_stops_before_opposing_creatures():
    # (C13) Ember Charger's Sprint 1 makes its distance 2, unless a creature is in the
    # way; a new creature without Haste waits a turn; a Stationary one never travels.
    units = [{"slot": 0, "card": "ember_charger", "owner": 0, "site": "0a"},
             {"slot": 1, "card": "ember_charger", "owner": 0, "site": "0b"},
             {"slot": 2, "card": "cinder_brute", "owner": 0, "site": "0c", "new": True},
             {"slot": 3, "card": "coral_sentry", "owner": 1, "site": "2b"}]
    st = position(players=[dict(RED), {}], units=units, turn=2, act="travel")
    assert names(st) == ["pass the travel act", "travel with ember_charger at 0a",
                         "travel with ember_charger at 0b"]
    act(st, "travel with ember_charger at 0a")
    assert names(st) == ["travel 1 site", "travel 2 sites"]
    act(st, "travel 2 sites", "travel with ember_charger at 0b")
    # (C29) declared, they wait for the declarations to end
    assert unit(st, 0)["site"] == "0a" and unit(st, 0)["travel"] == 2
    assert names(st) == ["pass the travel act"]
    act(st, "pass the travel act")
    assert unit(st, 0)["site"] == "2a" and unit(st, 1)["site"] == "1b"
    assert st.to_dict()["act"] == "combat"


def test_combat_reaches_one_site_ahead_and_a_blocker_takes_the_damage():
    # (C14) Ember Charger on 4a reaches 4a and the player zone behind it; the defender
    # blocks with the Coral Sentry on 4a; both strike at once.
    units = [{"slot": 0, "card": "ember_charger", "owner": 0, "site": "4a"},
             {"slot": 1, "card": "coral_sentry", "owner": 1, "site": "4a"},
             {"slot": 2, "card": "stone_wall", "owner": 1, "site": "4a"}]
    st = position(players=[dict(RED), {}], units=units, turn=2, act="combat")
    act(st, "attack with ember_charger at 4a")
    assert names(st) == ["enter combat with coral_sentry at 4a",
                         "enter combat with stone_wall at 4a", "enter combat with the player"]
    act(st, "enter combat with the player", "pass the combat act")
    assert st.current_player() == 1
    assert names(st) == ["no more blocks", "block with coral_sentry at 4a"]
    act(st, "block with coral_sentry at 4a")
    players = st.to_dict()["players"]
    assert players[1]["life"] == 20 and players[1]["graveyard"] == ["coral_sentry"]
    assert unit(st, 0)["damage"] == 1 and unit(st, 0)["tapped"]


def test_an_unblocked_attack_on_the_player_takes_life_and_can_win():
    units = [{"slot": 0, "card": "cinder_brute", "owner": 0, "site": "4c"}]
    st = position(players=[dict(RED), {"life": 4}], units=units, turn=2, act="combat")
    act(st, "attack with cinder_brute at 4c", "pass the combat act")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]


def test_creatures_heal_at_the_end_of_a_turn_and_structures_keep_their_damage():
    units = [{"slot": 0, "card": "ash_cleaver", "owner": 0, "site": "2b"},
             {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "3b"},
             {"slot": 2, "card": "tidewall", "owner": 1, "site": "3a"},
             {"slot": 3, "card": "cinder_brute", "owner": 0, "site": "3a"}]
    st = position(players=[dict(RED), {}], units=units, turn=2, act="combat")
    act(st, "attack with ash_cleaver at 2b", "attack with cinder_brute at 3a")
    act(st, "pass the combat act")
    assert unit(st, 0)["damage"] == 3 and unit(st, 2)["damage"] == 4
    act(st, "pass the final act")
    assert "damage" not in unit(st, 0) and unit(st, 2)["damage"] == 4


def test_damage_to_blockers_is_lethal_to_the_closest_first():
    # (C14, C43) the Longbow Sentinel's Range 2 reaches the player from 3b; of its two
    # blockers the Coral Sentry, on its own site, is closer: lethal damage to it comes
    # first, so its 2 strength all go there, nothing is left to choose, and the Heron
    # behind takes none.
    units = [{"slot": 0, "card": "longbow_sentinel", "owner": 0, "site": "3b"},
             {"slot": 1, "card": "mistveil_heron", "owner": 1, "site": "4b"},
             {"slot": 2, "card": "coral_sentry", "owner": 1, "site": "3b"}]
    st = position("creature_shrines(deck0=green)", players=[{}, {}], units=units, turn=2,
                  act="combat")
    act(st, "attack with longbow_sentinel at 3b", "enter combat with the player",
        "pass the combat act", "block with mistveil_heron at 4b", "block with coral_sentry at 3b")
    assert unit(st, 2)["damage"] == 2 and "damage" not in unit(st, 1)
    assert unit(st, 0)["damage"] == 2 and st.to_dict()["players"][1]["life"] == 20


def test_sources_pay_by_colour_first_then_generic_automatically():
    # (C11)
    st = position(players=[{"sources": {"ember_vent": 2}, "hand": ["ash_cleaver",
                                                                 "blaze_hound"]}, {}], turn=2)
    assert names(st) == ["pass the first act", "play blaze_hound"]
    act(st, "play blaze_hound", "at 0a")
    assert st.to_dict()["players"][0]["tapped"] == {"ember_vent": 2}


def test_one_source_a_turn():
    st = position(players=[{"hand_secondary": ["ember_vent", "ember_vent"]}, {}], turn=2)
    act(st, "play ember_vent")
    assert names(st) == ["pass the first act"]


def test_max_turns_ends_the_game_with_the_higher_life_winning():
    # (C9)
    st = position("creature_shrines(max_turns=2)", players=[{"life": 12}, {"life": 15}],
                  turn=3, active=1, act="final")
    act(st, "pass the final act")
    assert st.is_terminal() and st.returns() == [-1.0, 1.0]


def test_king_of_the_hill_scores_the_neutral_row_by_fives():
    # (C8) a 4/5 Ironhide Ogre scores 2 and a 2/2 Blaze Hound 1; no player zone target.
    units = [{"slot": 0, "card": "ironhide_ogre", "owner": 0, "site": "2a"},
             {"slot": 1, "card": "blaze_hound", "owner": 0, "site": "2c"},
             {"slot": 2, "card": "blaze_hound", "owner": 0, "site": "4b"}]
    st = position("creature_shrines(mode=king_of_the_hill)", players=[{"points": 17}, {}],
                  units=units, turn=2, act="combat")
    assert names(st) == ["pass the combat act"]
    act(st, "pass the combat act", "pass the final act")
    assert st.is_terminal() and st.to_dict()["players"][0]["points"] == 20


def test_conquest_shares_one_count_for_damage_and_points():
    # (C8) both start at 15; damage takes from it, neutral-row points add to it.
    st = core.load_game("creature_shrines(mode=conquest)").new_initial_state()
    assert [p["life"] for p in st.to_dict()["players"]] == [15, 15]


def test_rush_keeps_creatures_off_sites_with_opposing_creatures():
    # (C8)
    units = [{"slot": 0, "card": "riptide_lurker", "owner": 1, "site": "0a"}]
    st = position("creature_shrines(mode=rush)", players=[dict(RED, hand=["blaze_hound"]), {}],
                  units=units, turn=2)
    act(st, "play blaze_hound")
    assert names(st) == ["at 0b", "at 0c"]


def test_every_deck_plays_a_whole_game():
    for deck in CARDSET.decks:
        game = core.load_game(f"creature_shrines(deck0={deck},deck1=red)")
        st = game.new_initial_state()
        for step in range(3000):
            if st.is_terminal():
                break
            st.apply_action(st.sample_chance(step) if st.is_chance_node()
                            else st.heuristic_action(step))
        assert st.is_terminal()


def test_a_designers_deck_file_deals_its_own_decks_and_its_refusals_name_the_file(tmp_path):
    text = core.creature_shrines.cards.FILES[1].read_text()
    yellow = text.split("[deck.yellow]")[1].split("[deck.red]")[0]
    mine = tmp_path / "mine.toml"
    mine.write_text("[deck.sun]" + yellow.replace("[deck.yellow.primary]",
                                                   "[deck.sun.primary]"))
    game = core.load_game(f"creature_shrines(decks={mine})")
    assert game.params["deck0"] == game.params["deck1"] == "sun"
    libraries = game.new_initial_state().to_dict()["players"][0]
    assert libraries["shrine"] == "solenne_banner_of_dawn"
    assert libraries["primary"].count("sunlit_scout") == 3
    assert game.data_files[1] == str(mine)
    with pytest.raises(core.ParameterError, match="deck0 must be one of sun; not 'red'"):
        core.load_game(f"creature_shrines(decks={mine},deck0=red)")
    # The decks shipped before the rebalancing, kept for designers to measure again.
    before = (pathlib.Path(__file__).parents[2] / "docs" / "results" / "creature_shrines"
              / "decks-before.toml")
    assert set(core.load_game(f"creature_shrines(decks={before})").decks) \
        == set(core.creature_shrines.cards.CARDSET.decks)
    mine.write_text(mine.read_text().replace('"Sunlit Scout" = 3', '"Blaze Hound" = 3'))
    with pytest.raises(core.CardArenaError, match="mine.toml: deck 'sun'.*Blaze Hound"):
        core.load_game(f"creature_shrines(decks={mine})")


def test_a_card_held_from_both_libraries_is_played_from_the_library_its_player_picks():
    # (C18) the opponent counts each library's cards in a hand, so which copy leaves is
    # the player's choice, and public; the engine never picks one for them.
    st = position(players=[{"sources": {"ember_vent": 2}, "hand": ["blaze_hound"],
                            "hand_secondary": ["blaze_hound"]}, {}], turn=2)
    assert names(st) == ["pass the first act", "play blaze_hound from the primary library",
                         "play blaze_hound from the secondary library"]
    act(st, "play blaze_hound from the secondary library", "at 0a")
    seen = st.observation_dict(1)["players"][0]
    assert seen["hand_size"] == 1 and seen["hand_secondary_size"] == 0


def test_after_a_response_the_active_player_may_respond_and_a_pass_ends_the_exchange():
    # (C7, C28) player 0 passes the First Act; player 1 answers with a Firebolt; player
    # 0 may answer that in turn; player 1 has nothing left, so the act ends
    here = [{"slot": 0, "card": "wandering_golem", "owner": 0, "site": "1a"},
            {"slot": 1, "card": "wandering_golem", "owner": 1, "site": "3a"}]
    bolt = {"sources": {"ember_vent": 9}, "hand": ["firebolt"]}
    st = position("creature_shrines(deck0=red,deck1=red)", [dict(bolt), dict(bolt)], here,
                  turn=2)
    act(st, "pass the first act")
    assert st.current_player() == 1 and names(st) == ["pass", "play firebolt"]
    act(st, "play firebolt")
    assert unit(st, 0)["damage"] == 3
    view = st.to_dict()
    assert view["step"] == "priority" and view["priority"] == 0
    assert view["priority_then"] == "next act" and view["act"] == "first"
    assert names(st) == ["pass", "play firebolt"]
    act(st, "play firebolt")
    assert unit(st, 1)["damage"] == 3 and st.to_dict()["act"] == "travel"
    # player 0's pass ends the exchange, though player 1 holds another Firebolt
    st = position("creature_shrines(deck0=red,deck1=red)",
                  [dict(bolt), dict(bolt, hand=["firebolt", "firebolt"])], here, turn=2)
    act(st, "pass the first act", "play firebolt", "pass")
    assert st.to_dict()["act"] == "travel" and st.current_player() == 0
    # the same answer to an action that keeps the act going: the act is player 0's
    # window, and their pass there passes the act
    st = position("creature_shrines(deck0=red,deck1=red)",
                  [dict(bolt, hand=["firebolt", "blaze_hound"]), dict(bolt)], here, turn=2)
    act(st, "play blaze_hound", "at 0b", "play firebolt", "target wandering_golem at 1a")
    assert st.to_dict()["step"] == "act" and st.current_player() == 0
    act(st, "pass the first act")
    assert st.to_dict()["act"] == "travel"


def test_travellers_travel_after_the_declarations_and_the_opponents_priority():
    # (C29) both creatures are declared; the opponent, given priority before they
    # travel, freezes one, which stays; the other goes
    here = [{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "1a"},
            {"slot": 1, "card": "cinder_brute", "owner": 0, "site": "1b"}]
    st = position("creature_shrines(deck0=red,deck1=blue)",
                  [{"sources": {"ember_vent": 9}},
                   {"sources": {"tidepool": 9}, "hand": ["frost_snare"]}],
                  here, turn=2, act="travel")
    act(st, "travel with blaze_hound at 1a", "travel with cinder_brute at 1b")
    assert st.current_player() == 0
    act(st, "pass the travel act")
    assert st.to_dict()["priority_then"] == "travel"
    act(st, "play frost_snare", "target blaze_hound at 1a")
    assert unit(st, 0)["site"] == "1a" and unit(st, 1)["site"] == "2b"
    assert st.to_dict()["act"] == "combat"
    # a Trap springs as the Golem travels: the travelling player gets priority, then
    # the opponent, then the Combat Act begins
    here = [{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "1a"},
            {"slot": 1, "card": "wandering_golem", "owner": 0, "site": "1b"},
            {"slot": 2, "card": "pitfall", "owner": 1, "site": "2b", "face_down": True},
            {"slot": 3, "card": "grave_thrall", "owner": 1, "site": "4c"}]
    st = position("creature_shrines(deck0=red,deck1=purple)",
                  [{"sources": {"ember_vent": 9}, "hand": ["firebolt"]},
                   {"sources": {"gloom_well": 9}, "hand": ["wither"]}],
                  here, turn=2, act="travel")
    act(st, "travel with blaze_hound at 1a", "travel with wandering_golem at 1b",
        "pass the travel act", "pass")
    assert unit(st, 0)["site"] == "2a" and unit(st, 1)["damage"] == 3
    view = st.to_dict()
    assert view["priority"] == 0 and view["priority_then"] == "trigger"
    act(st, "pass")
    assert st.to_dict()["priority"] == 1 and names(st) == ["pass", "play wither"]
    act(st, "pass")
    assert st.to_dict()["act"] == "combat" and st.current_player() == 0


def test_an_arrival_that_overfills_a_site_and_springs_a_trap_is_sacrificed_for_first():
    # (C44) player 1 plays a fifth permanent onto 4b, where player 0's Pitfall lies face
    # down: the Pitfall springs, and player 1 first picks what to sacrifice; only then
    # does it deal its 3 to what is left (the Heron, whose damage the Warden's Guard
    # takes, alone outlives it)
    here = [{"slot": 0, "card": "pitfall", "owner": 0, "site": "4b", "face_down": True}]
    here += [{"slot": k, "card": card, "owner": 1, "site": "4b"} for k, card in
             enumerate(("tidewall", "glacier_warden", "mistveil_heron", "riptide_lurker"), 1)]
    st = position("creature_shrines(deck0=red,deck1=blue)",
                  [RED, {"sources": {"tidepool": 9}, "hand": ["coral_sentry"]}], here,
                  turn=3, active=1)
    act(st, "play coral_sentry", "at 4b")
    assert st.current_player() == 1 and all(n.startswith("sacrifice") for n in names(st))
    assert len(names(st)) == 5
    d = st.to_dict()
    assert d["players"][0]["graveyard"] == ["pitfall"]
    assert [u["card"] for u in d["units"] if u["owner"] == 1 and "damage" not in u] == [
        "tidewall", "glacier_warden", "mistveil_heron", "riptide_lurker", "coral_sentry"]
    act(st, "sacrifice tidewall at 4b")
    d = st.to_dict()
    assert [u["card"] for u in d["units"]] == ["mistveil_heron"]
    assert d["players"][1]["graveyard"] == ["glacier_warden", "coral_sentry", "riptide_lurker",
                                            "tidewall"]
    assert d["players"][0]["graveyard"] == ["pitfall"]
