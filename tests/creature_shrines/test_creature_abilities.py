"""Each static ability, condition and card type on the exact position it talks about
(C3), and the engine's rulings on effects (C19-C25)."""
from core.creature_shrines import CARDSET
from core.creature_shrines.cards import slug
from creature_positions import act, names, position, unit

RED = {"sources": {"ember_vent": 9}}
GAME_RB = "creature_shrines(deck0=red,deck1=blue)"


def combat(units, players=(RED, {}), game=GAME_RB):
    return position(game, players=[dict(players[0]), dict(players[1])], units=units,
                    turn=2, act="combat")


def test_armor_absorbs_the_first_instance_of_damage():
    # (C3 Armor) the Ogre's Armor takes the Hound's blow; the next one hurts
    st = combat([{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "3a"},
                 {"slot": 1, "card": "ironhide_ogre", "owner": 1, "site": "3a"}],
                game="creature_shrines(deck0=red,deck1=red)")
    assert unit(st, 1)["armor"] == 1
    act(st, "attack with blaze_hound at 3a", "pass the combat act")
    assert "damage" not in unit(st, 1) and unit(st, 1)["armor"] == 0


def test_bloodless_survives_combat_damage_but_not_damage_after_it():
    # (C3 Bloodless)
    st = combat([{"slot": 0, "card": "rootbound_titan", "owner": 0, "site": "3a"},
                 {"slot": 1, "card": "bone_colossus", "owner": 1, "site": "3a"}],
                players=({"sources": {"grove_root": 9}}, {}),
                game="creature_shrines(deck0=green,deck1=purple)")
    act(st, "attack with rootbound_titan at 3a", "pass the combat act")
    assert unit(st, 1)["damage"] == 7


def test_cleave_strikes_every_opposing_permanent_on_the_site():
    # (C3 Cleave)
    st = combat([{"slot": 0, "card": "ash_cleaver", "owner": 0, "site": "3a"},
                 {"slot": 1, "card": "coral_sentry", "owner": 1, "site": "3a"},
                 {"slot": 2, "card": "tidewall", "owner": 1, "site": "3a"}])
    act(st, "attack with ash_cleaver at 3a", "enter combat with tidewall at 3a",
        "pass the combat act", "no more blocks")
    assert unit(st, 2)["damage"] == 3
    assert st.to_dict()["players"][1]["graveyard"] == ["coral_sentry"]


def test_guard_takes_the_damage_meant_for_its_side_on_its_site():
    # (C3 Guard, C19: always redirected)
    st = combat([{"slot": 0, "card": "cinder_brute", "owner": 0, "site": "3a"},
                 {"slot": 1, "card": "coral_sentry", "owner": 1, "site": "3a"},
                 {"slot": 2, "card": "glacier_warden", "owner": 1, "site": "3a"}])
    act(st, "attack with cinder_brute at 3a", "enter combat with coral_sentry at 3a",
        "pass the combat act", "no more blocks")
    assert "damage" not in unit(st, 1) and unit(st, 2)["damage"] == 4


def test_stomp_carries_damage_past_blockers_to_the_player():
    # (C3 Stomp) 4 strength, a blocker of resilience 3: 1 reaches the player
    st = combat([{"slot": 0, "card": "cinder_brute", "owner": 0, "site": "4a"},
                 {"slot": 1, "card": "coral_sentry", "owner": 1, "site": "4a"}])
    act(st, "attack with cinder_brute at 4a", "enter combat with the player",
        "pass the combat act", "block with coral_sentry at 4a")
    assert st.to_dict()["players"][1]["life"] == 19


def test_quick_attack_strikes_first_and_a_fallen_foe_strikes_back_never():
    # (C3 Quick Attack)
    st = combat([{"slot": 0, "card": "quickstrike_duelist", "owner": 0, "site": "3a"},
                 {"slot": 1, "card": "lancer_cadet", "owner": 1, "site": "3a"}],
                players=({"sources": {"sunspring": 9}}, {}),
                game="creature_shrines(deck0=yellow,deck1=yellow)")
    act(st, "attack with quickstrike_duelist at 3a", "pass the combat act")
    assert "damage" not in unit(st, 0)
    assert st.to_dict()["players"][1]["graveyard"] == ["lancer_cadet"]


def test_protection_spends_itself_on_the_first_opposing_effect():
    # (C3 Protection) Firebolt at the Coral Sentry does nothing but spend it
    st = position(GAME_RB, [dict(RED, hand=["firebolt", "firebolt"]), {}],
                  [{"slot": 0, "card": "coral_sentry", "owner": 1, "site": "2a"}], turn=2)
    act(st, "play firebolt")
    assert "damage" not in unit(st, 0) and unit(st, 0)["unprotected"]
    act(st, "play firebolt")
    assert st.to_dict()["players"][1]["graveyard"] == ["coral_sentry"]


def test_freeze_stops_travel_and_attack_and_lasts():
    # (C3 Freeze) a condition: no travel, no attack, no tapping, while it stays
    st = position(GAME_RB, [RED, {}],
                  [{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "2a",
                    "frozen": True}], turn=2, act="travel")
    assert names(st) == ["pass the travel act"]


def test_weaken_makes_any_damage_lethal_and_poison_any_combat_damage_nothing():
    # (C3 Weaken, Poison)
    st = combat([{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "3a",
                  "poisoned": True},
                 {"slot": 1, "card": "tidewall", "owner": 1, "site": "3a", "weakened": True},
                 {"slot": 2, "card": "blaze_hound", "owner": 0, "site": "3b"},
                 {"slot": 3, "card": "tidewall", "owner": 1, "site": "3b", "weakened": True}])
    act(st, "attack with blaze_hound at 3a", "attack with blaze_hound at 3b", "pass the combat act")
    assert "damage" not in unit(st, 1)
    assert st.to_dict()["players"][1]["graveyard"] == ["tidewall"]


def test_ground_takes_flying_and_bounce_returns_a_known_card():
    # (C3 Ground, Bounce)
    st = position("creature_shrines(deck0=green,deck1=blue)",
                  [{"sources": {"grove_root": 9}, "hand": ["vinelash"]}, {}],
                  [{"slot": 0, "card": "mistveil_heron", "owner": 1, "site": "2a"}], turn=2)
    act(st, "play vinelash")
    assert unit(st, 0)["grounded"]
    st = position("creature_shrines(deck0=blue,deck1=red)",
                  [{"sources": {"tidepool": 9}, "hand": ["undertow"]}, {}],
                  [{"slot": 0, "card": "cinder_brute", "owner": 1, "site": "2a"}], turn=2)
    act(st, "play undertow")
    assert st.observation_dict(0)["players"][1]["hand_known"] == ["cinder_brute"]


def test_swap_puts_cards_where_its_owner_says_and_only_they_know_which():
    # (C3 Swap, C10) a card Scry the Depths does not keep on top of the Primary Library
    # goes under the Secondary Library, as the text says (C35)
    rest = [slug(c.name) for c, n in CARDSET.decks["blue"].primary for _ in range(n)]
    for card in ["scry_the_depths"] + ["undertow"] * 3:
        rest.remove(card)
    st = position("creature_shrines(deck0=blue,deck1=red)",
                  [{"sources": {"tidepool": 9}, "hand": ["scry_the_depths"],
                    "primary": ["undertow"] * 3, "graveyard": rest}, {}], turn=2)
    act(st, "play scry_the_depths")
    while st.is_chance_node():
        st.apply_action(st.legal_actions()[0])
    assert names(st) == ["put undertow at the bottom", "put undertow on top"]
    act(st, "put undertow at the bottom", "put undertow on top", "put undertow on top",
        "draw from the primary library")
    me = st.to_dict()["players"][0]
    # the card under the Secondary came from the Primary (C35), which both players know
    assert me["top"] == ["undertow"]
    assert me["bottom_secondary"] == [{"card": "undertow", "from": "primary"}]
    assert me["bottom"] == [] and me["hand"] == ["undertow"]
    seen = st.observation_dict(1)["players"][0]
    assert "top" not in seen and seen["primary_size"] == 1 and seen["secondary_size"] == 12


def test_a_trap_lies_face_down_hidden_and_springs_when_an_enemy_enters():
    # (C3 Trap, C10)
    st = position("creature_shrines(deck0=red,deck1=blue)", [dict(RED, hand=["pitfall"]), {}],
                  turn=2)
    play = next(a for a in st.legal_actions() if st.action_to_string(a) == "play pitfall")
    assert st.action_view(play, 1) < 0
    act(st, "play pitfall", "at 2a")
    assert st.observation_dict(1)["units"][0]["card"] == "hidden"
    st = position("creature_shrines(deck0=red,deck1=blue)", [RED, {}],
                  [{"slot": 0, "card": "pitfall", "owner": 0, "site": "3a", "face_down": True},
                   {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "4a"}],
                  turn=3, active=1, act="travel")
    act(st, "travel with riptide_lurker at 4a", "pass the travel act")
    assert st.to_dict()["players"][1]["graveyard"] == ["riptide_lurker"]
    assert st.to_dict()["players"][0]["graveyard"] == ["pitfall"]


def test_a_tool_joins_a_creature_and_stays_on_the_site_when_it_dies():
    # (C3 Tool) Battle Standard costs 1 to attach, +2/+1; it stays when its creature goes
    st = position(GAME_RB, [dict(RED, hand=["battle_standard"]), {}],
                  [{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "1a"}], turn=2)
    act(st, "play battle_standard", "at 1a", "attach battle_standard at 1a")
    assert unit(st, 1)["host"] == 0
    st = position(GAME_RB, [RED, {"sources": {"tidepool": 9}, "hand": ["undertow"]}],
                  [{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "1a"},
                   {"slot": 1, "card": "battle_standard", "owner": 0, "site": "1a", "host": 0}],
                  turn=3, active=1)
    act(st, "play undertow")
    assert "host" not in unit(st, 1) and unit(st, 1)["site"] == "1a"


def test_the_newest_weather_wins_where_two_overlap(every):
    # (C3 Terrain and Weather) a newer row Weather over the same row removes the older
    st = position(f"creature_shrines(decks={every},deck0=blue,deck1=red)",
                  [{"sources": {"tidepool": 9}, "hand": ["fogbank", "thunderstorm"]}, {}],
                  turn=2)
    act(st, "play fogbank", "over row 2", "play thunderstorm", "over row 2")
    d = st.to_dict()
    assert [u["card"] for u in d["units"]] == ["thunderstorm"]
    assert d["players"][0]["graveyard"] == ["fogbank"]


def test_a_creature_that_may_mount_rides_a_saddle_within_one_site():
    # (C3 Saddle/Mount, C25) for 2 the pair is one creature with the larger stat line
    st = position("creature_shrines(deck0=yellow,deck1=red)",
                  [{"sources": {"sunspring": 9}}, {}],
                  [{"slot": 0, "card": "squire_knight", "owner": 0, "site": "1a"},
                   {"slot": 1, "card": "gilded_pegasus", "owner": 0, "site": "1b"}], turn=2)
    act(st, "mount squire_knight at 1a")
    d = st.to_dict()
    assert [u["card"] for u in d["units"]] == ["gilded_pegasus"]
    assert d["units"][0]["rider"] == "squire_knight"


def test_an_idol_lies_beside_the_region_and_taps_at_once():
    # (C3 Idol, C24)
    st = position("creature_shrines(deck0=yellow,deck1=red)",
                  [{"sources": {"sunspring": 9}, "hand": ["warhorn_idol"]}, {}],
                  [{"slot": 0, "card": "sunlit_scout", "owner": 0, "site": "0a"}], turn=2)
    act(st, "play warhorn_idol", "tap warhorn_idol beside the region")
    assert unit(st, 0)["pump"] == 1


def test_a_bounced_shrine_goes_home_without_time_marks():
    # (C20)
    st = position("creature_shrines(deck0=blue,deck1=red)",
                  [{"sources": {"tidepool": 9}, "hand": ["undertow"]}, {}],
                  [{"slot": 0, "card": "korrath_ember_tyrant", "owner": 1, "site": "2a"}],
                  turn=2)
    act(st, "play undertow")
    them = st.to_dict()["players"][1]
    assert them["shrine_home"] and them["marks"] == 0


def test_a_swap_keeps_its_cards_on_top_of_a_library_with_eight_known_cards_under_it():
    # (C26) eight cards already lie known under the Secondary Library, where a Swap puts
    # what it does not keep (C35): Scry the Depths may only keep what it looks at on
    # top, which here is no choice at all (C16)
    rest = [slug(c.name) for c, n in CARDSET.decks["blue"].primary for _ in range(n)]
    swapped = ["tidewall"] * 3 + ["frost_snare"] * 3 + ["coral_sentry"] * 2
    under = [{"card": card, "from": "primary"} for card in swapped]
    for card in ["scry_the_depths"] + ["undertow"] * 3 + swapped:
        rest.remove(card)
    st = position("creature_shrines(deck0=blue,deck1=red)",
                  [{"sources": {"tidepool": 9}, "hand": ["scry_the_depths"],
                    "primary": ["undertow"] * 3, "bottom_secondary": under,
                    "graveyard": rest}, {}],
                  turn=2)
    act(st, "play scry_the_depths")
    while st.is_chance_node():
        st.apply_action(st.legal_actions()[0])
    me = st.to_dict()["players"][0]
    assert me["top"] == ["undertow"] * 3 and me["bottom_secondary"] == under
    act(st, "draw from the primary library")
    me = st.to_dict()["players"][0]
    assert me["top"] == ["undertow"] * 2 and me["hand"] == ["undertow"]


def test_a_creature_played_within_one_site_of_its_partner_may_mount_with_it_at_once():
    # (C3 Saddle/Mount, C30) the Knight, played on the Melee row, may mount the Pegasus
    # a site ahead for nothing more: one creature, on the Pegasus's site, new this turn;
    # a Pegasus played beside a Knight may carry it the other way round, and a Knight too
    # far from any site the Pegasus may take is not offered
    st = position("creature_shrines(deck0=yellow,deck1=red)",
                  [{"sources": {"sunspring": 9}, "hand": ["squire_knight"]}, {}],
                  [{"slot": 0, "card": "gilded_pegasus", "owner": 0, "site": "1a"}], turn=2)
    act(st, "play squire_knight")
    assert names(st) == ["at 0a", "at 0b", "at 0c", "mount with gilded_pegasus at 1a"]
    act(st, "mount with gilded_pegasus at 1a")
    d = st.to_dict()
    assert [u["card"] for u in d["units"]] == ["gilded_pegasus"]
    assert d["units"][0]["rider"] == "squire_knight" and d["units"][0]["site"] == "1a"
    assert d["units"][0]["new"] and d["players"][0]["tapped"] == {"sunspring": 3}
    st = position("creature_shrines(deck0=yellow,deck1=red)",
                  [{"sources": {"sunspring": 9}, "hand": ["gilded_pegasus"]}, {}],
                  [{"slot": 0, "card": "squire_knight", "owner": 0, "site": "0c"},
                   {"slot": 1, "card": "squire_knight", "owner": 0, "site": "2b"}], turn=2)
    act(st, "play gilded_pegasus")
    assert names(st)[3:] == ["mount with squire_knight at 0c"]
    act(st, "mount with squire_knight at 0c")
    assert unit(st, 0)["rider"] == "gilded_pegasus" and len(st.to_dict()["units"]) == 2


def test_a_bounced_rider_goes_back_to_the_hand_of_the_library_it_came_from():
    # (C3 Bounce, Saddle/Mount) a bounced card returns to its owner's hand, each card
    # counted with the library it was drawn from, a rider too.  No shipped deck puts a
    # creature in its Secondary Library, but a designed deck may: the rider's library
    # is kept when it mounts (as it is played, or later) and read when it leaves.
    for secondary in (True, False):
        st = position("creature_shrines(deck0=blue,deck1=yellow)",
                      [{"sources": {"tidepool": 9}, "hand": ["undertow"]}, {}],
                      [{"slot": 0, "card": "gilded_pegasus", "owner": 1, "site": "2a",
                        "rider": "squire_knight", "rider_secondary": secondary}], turn=2)
        act(st, "play undertow")
        them = st.to_dict()["players"][1]
        assert (them["hand"], them["hand_secondary"]) == \
            ((["gilded_pegasus"], ["squire_knight"]) if secondary
             else (["gilded_pegasus", "squire_knight"], []))
    st = position("creature_shrines(deck0=yellow,deck1=red)",
                  [{"sources": {"sunspring": 9}, "hand_secondary": ["squire_knight"]}, {}],
                  [{"slot": 0, "card": "gilded_pegasus", "owner": 0, "site": "1a"}], turn=2)
    act(st, "play squire_knight", "mount with gilded_pegasus at 1a")
    assert unit(st, 0)["rider_secondary"]
    st = position("creature_shrines(deck0=yellow,deck1=red)",
                  [{"sources": {"sunspring": 9}}, {}],
                  [{"slot": 0, "card": "squire_knight", "owner": 0, "site": "1a",
                    "secondary": True},
                   {"slot": 1, "card": "gilded_pegasus", "owner": 0, "site": "1b"}], turn=2)
    act(st, "mount squire_knight at 1a")
    assert unit(st, 1)["rider_secondary"] and not unit(st, 1).get("secondary")


def test_a_traps_cost_shows_in_the_mana_it_takes_and_the_opponent_deals_only_traps_it_pays():
    # (C31) green mana in the pool (as a second colour would bring) pays all of
    # Pitfall's 3 and none of Hex Mire's purple: the opponent sees what each took, not
    # which Trap it was, and deals either face-down card afresh only among the Traps
    # that mana pays for
    game = "creature_shrines(deck0=purple,deck1=red)"
    rich = {"sources": {"gloom_well": 3}, "pool": {"green": 3},
            "hand": ["pitfall", "hex_mire"]}
    dealt = {}
    for trap, seen in (("pitfall", {"green": 3}), ("hex_mire", {"purple": 1, "green": 2})):
        st = position(game, [dict(rich), {}], turn=2)
        play = next(a for a in st.legal_actions() if st.action_to_string(a) == f"play {trap}")
        assert st.action_view(play, 1) == -3
        act(st, f"play {trap}", "at 2b")
        shown = st.observation_dict(1)["units"][0]
        assert shown["card"] == "hidden" and shown["paid"] == seen
        worlds = [st.determinized(1, seed) for seed in range(40)]
        assert all(w.information_state_string(1) == st.information_state_string(1)
                   for w in worlds)
        dealt[trap] = {w.to_dict()["units"][0]["card"] for w in worlds}
    assert dealt == {"pitfall": {"pitfall"}, "hex_mire": {"pitfall", "hex_mire"}}
