"""Each movement and combat keyword, Deathwish, Terrain and the two spell speeds on the
exact position the rules text talks about (C3): what a player is offered, and what
happens."""
from creature_positions import act, names, position, unit

RED = {"sources": {"ember_vent": 9}}
BLUE = {"sources": {"tidepool": 9}}
YELLOW = {"sources": {"sunspring": 9}}
GREEN = {"sources": {"grove_root": 9}}
PURPLE = {"sources": {"gloom_well": 9}}


def game(deck0, deck1):
    return f"creature_shrines(deck0={deck0},deck1={deck1})"


def travellers(st):
    return [n for n in names(st) if n.startswith("travel with")]


def targets(st):
    return [n for n in names(st) if n.startswith("enter combat")]


def next_turn(st):
    """Pass the rest of the turn, the opponent passing each priority it gets (C7), and
    draw the next player's card."""
    mover = st.to_dict()["active"]
    while st.to_dict()["active"] == mover:
        now = st.to_dict()
        act(st, "pass" if now["step"] == "priority" else f"pass the {now['act']} act")
    act(st, "draw from the primary library")
    st.apply_action(st.legal_actions()[0])


def test_haste_travels_and_attacks_in_the_turn_it_arrives():
    # (C3 Haste, C13) both creatures were played this turn: only the Hound may go
    here = [{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "1a", "new": True},
            {"slot": 1, "card": "cinder_brute", "owner": 0, "site": "1b", "new": True},
            {"slot": 2, "card": "coral_sentry", "owner": 1, "site": "3a"},
            {"slot": 3, "card": "coral_sentry", "owner": 1, "site": "3b"}]
    st = position(game("red", "blue"), [RED, {}], here, turn=2, act="travel")
    assert travellers(st) == ["travel with blaze_hound at 1a"]
    act(st, "travel with blaze_hound at 1a", "pass the travel act")
    assert unit(st, 0)["site"] == "2a"
    here[0]["site"], here[1]["site"] = "2a", "2b"
    st = position(game("red", "blue"), [RED, {}], here, turn=2, act="combat")
    assert names(st) == ["pass the combat act", "attack with blaze_hound at 2a"]


def test_flying_passes_over_the_ground_and_only_flyers_reach_and_lunge_touch_it():
    # (C3 Flying) a Sentry does not hold a site against the Heron; another Heron does
    here = [{"slot": 0, "card": "mistveil_heron", "owner": 0, "site": "1a"},
            {"slot": 1, "card": "mistveil_heron", "owner": 0, "site": "1b"},
            {"slot": 2, "card": "coral_sentry", "owner": 1, "site": "2a"},
            {"slot": 3, "card": "mistveil_heron", "owner": 1, "site": "2b"}]
    st = position(game("blue", "blue"), [BLUE, {}], here, turn=2, act="travel")
    assert travellers(st) == ["travel with mistveil_heron at 1a"]
    act(st, "travel with mistveil_heron at 1a", "pass the travel act")
    assert unit(st, 0)["site"] == "2a"
    # a Golem cannot enter combat with a flyer; a flyer may pick any target in range
    here = [{"slot": 0, "card": "wandering_golem", "owner": 0, "site": "3a"},
            {"slot": 1, "card": "mistveil_heron", "owner": 1, "site": "3a"},
            {"slot": 2, "card": "stone_wall", "owner": 1, "site": "4a"},
            {"slot": 3, "card": "mistveil_heron", "owner": 0, "site": "3b"},
            {"slot": 4, "card": "coral_sentry", "owner": 1, "site": "3b"},
            {"slot": 5, "card": "wandering_golem", "owner": 1, "site": "4b"}]
    st = position(game("blue", "blue"), [BLUE, {}], here, turn=2, act="combat")
    # (C16) the Wall, its one target, is taken at once
    act(st, "attack with wandering_golem at 3a")
    assert unit(st, 0)["target"] == 2
    act(st, "attack with mistveil_heron at 3b")
    assert targets(st) == ["enter combat with coral_sentry at 3b",
                           "enter combat with wandering_golem at 4b"]


def test_a_flyer_is_blocked_only_by_flyers_reach_and_lunge():
    # (C3 Flying, C14) the Heron flies at the player over a Golem and a Sentry (Reach)
    here = [{"slot": 0, "card": "mistveil_heron", "owner": 0, "site": "4a"},
            {"slot": 1, "card": "wandering_golem", "owner": 1, "site": "4a"},
            {"slot": 2, "card": "coral_sentry", "owner": 1, "site": "4a"}]
    st = position(game("blue", "blue"), [BLUE, {}], here, turn=2, act="combat")
    act(st, "attack with mistveil_heron at 4a", "enter combat with the player",
        "pass the combat act")
    assert names(st) == ["no more blocks", "block with coral_sentry at 4a"]


def test_immoveable_holds_its_site_against_flyers_unstoppable_and_lunge():
    # (C3 Immoveable) a Tidewall ahead stops all three; the Sentry ahead of a Lancer
    # Cadet does not stop its leap
    here = [{"slot": 0, "card": "mistveil_heron", "owner": 1, "site": "3a"},
            {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "3b"},
            {"slot": 2, "card": "tidewall", "owner": 0, "site": "2a"},
            {"slot": 3, "card": "tidewall", "owner": 0, "site": "2b"}]
    st = position(game("blue", "blue"), [{}, BLUE], here, turn=3, active=1, act="travel")
    assert travellers(st) == []
    here = [{"slot": 0, "card": "lancer_cadet", "owner": 0, "site": "1a"},
            {"slot": 1, "card": "tidewall", "owner": 1, "site": "2a"},
            {"slot": 2, "card": "lancer_cadet", "owner": 0, "site": "1b"},
            {"slot": 3, "card": "coral_sentry", "owner": 1, "site": "2b"}]
    st = position(game("yellow", "blue"), [YELLOW, {}], here, turn=2, act="travel")
    assert travellers(st) == ["travel with lancer_cadet at 1b"]
    # nor may anyone leave an Immoveable permanent's site, not even Unstoppable
    here = [{"slot": 0, "card": "riptide_lurker", "owner": 1, "site": "2a"},
            {"slot": 1, "card": "tidewall", "owner": 0, "site": "2a"}]
    st = position(game("blue", "blue"), [{}, BLUE], here, turn=3, active=1, act="travel")
    assert travellers(st) == []


def test_lunge_leaps_one_held_site_onto_an_open_one():
    # (C3 Lunge) Sprint 1 gives the Cadet two sites: over the Sentry, never onto it
    here = [{"slot": 0, "card": "lancer_cadet", "owner": 0, "site": "1a"},
            {"slot": 1, "card": "coral_sentry", "owner": 1, "site": "2a"},
            {"slot": 2, "card": "lancer_cadet", "owner": 0, "site": "1b"},
            {"slot": 3, "card": "coral_sentry", "owner": 1, "site": "2b"},
            {"slot": 4, "card": "coral_sentry", "owner": 1, "site": "3b"},
            {"slot": 5, "card": "wandering_golem", "owner": 1, "site": "4b"}]
    st = position(game("yellow", "blue"), [YELLOW, {}], here, turn=2, act="travel")
    assert travellers(st) == ["travel with lancer_cadet at 1a"]
    # (C16) its only distance is taken at once
    act(st, "travel with lancer_cadet at 1a", "pass the travel act")
    assert unit(st, 0)["site"] == "3a"
    # a Lunge may enter combat with a flyer
    here = [{"slot": 0, "card": "lancer_cadet", "owner": 0, "site": "4a"},
            {"slot": 1, "card": "mistveil_heron", "owner": 1, "site": "4a"}]
    st = position(game("yellow", "blue"), [YELLOW, {}], here, turn=2, act="combat")
    act(st, "attack with lancer_cadet at 4a")
    assert targets(st) == ["enter combat with mistveil_heron at 4a",
                           "enter combat with the player"]


def test_reach_enters_combat_with_a_flyer():
    # (C3 Reach) the Archer may pick the Heron, the Golem beside it may not
    here = [{"slot": 0, "card": "thornback_archer", "owner": 0, "site": "3a"},
            {"slot": 1, "card": "wandering_golem", "owner": 0, "site": "3b"},
            {"slot": 2, "card": "mistveil_heron", "owner": 1, "site": "3a"},
            {"slot": 3, "card": "mistveil_heron", "owner": 1, "site": "3b"}]
    st = position(game("green", "blue"), [GREEN, {}], here, turn=2, act="combat")
    assert names(st) == ["pass the combat act", "attack with thornback_archer at 3a"]
    act(st, "attack with thornback_archer at 3a")
    assert targets(st) == ["enter combat with mistveil_heron at 3a",
                           "enter combat with the player"]


def test_unstoppable_goes_onto_and_off_sites_held_by_the_enemy():
    # (C3 Unstoppable) the Lurker walks out of a held site into another; the Golem,
    # with the same enemies around it, stays
    here = [{"slot": 0, "card": "riptide_lurker", "owner": 0, "site": "2a"},
            {"slot": 1, "card": "cinder_brute", "owner": 1, "site": "2a"},
            {"slot": 2, "card": "cinder_brute", "owner": 1, "site": "3a"},
            {"slot": 3, "card": "wandering_golem", "owner": 0, "site": "1b"},
            {"slot": 4, "card": "ironhide_ogre", "owner": 1, "site": "2b"}]
    st = position(game("blue", "red"), [BLUE, {}], here, turn=2, act="travel")
    assert travellers(st) == ["travel with riptide_lurker at 2a"]
    act(st, "travel with riptide_lurker at 2a", "pass the travel act")
    assert unit(st, 0)["site"] == "3a"


def test_sprint_adds_to_the_travel_distance_also_from_a_tool():
    # (C3 Sprint) the Scout's own Sprint 1; the Golem's from a Traveller's Cloak
    here = [{"slot": 0, "card": "sunlit_scout", "owner": 0, "site": "0a"},
            {"slot": 1, "card": "wandering_golem", "owner": 0, "site": "0b"}]
    st = position(game("yellow", "red"), [YELLOW, {}], here, turn=2, act="travel")
    act(st, "travel with sunlit_scout at 0a")
    assert names(st) == ["travel 1 site", "travel 2 sites"]
    act(st, "travel 2 sites", "travel with wandering_golem at 0b", "pass the travel act")
    assert unit(st, 0)["site"] == "2a" and unit(st, 1)["site"] == "1b"
    here = [{"slot": 0, "card": "wandering_golem", "owner": 0, "site": "0a"},
            {"slot": 1, "card": "traveller_s_cloak", "owner": 0, "site": "0a", "host": 0}]
    st = position(game("blue", "red"), [BLUE, {}], here, turn=2, act="travel")
    act(st, "travel with wandering_golem at 0a")
    assert names(st) == ["travel 1 site", "travel 2 sites"]


def test_range_reaches_as_many_sites_further_ahead():
    # (C3 Range) Range 2: the Sentinel on 1b reaches 4b, three sites ahead, and not
    # the Player Zone behind; the Archer's Range 1 reaches 3a but not 4a
    here = [{"slot": 0, "card": "longbow_sentinel", "owner": 0, "site": "1b"},
            {"slot": 1, "card": "wandering_golem", "owner": 1, "site": "4b"},
            {"slot": 2, "card": "thornback_archer", "owner": 0, "site": "1a"},
            {"slot": 3, "card": "wandering_golem", "owner": 1, "site": "4a"}]
    st = position(game("green", "red"), [GREEN, {}], here, turn=2, act="combat")
    assert names(st) == ["pass the combat act", "attack with longbow_sentinel at 1b"]
    act(st, "attack with longbow_sentinel at 1b", "pass the combat act")
    assert unit(st, 1)["damage"] == 2
    here[3]["site"] = "3a"
    st = position(game("green", "red"), [GREEN, {}], here, turn=2, act="combat")
    assert "attack with thornback_archer at 1a" in names(st)


def test_stationary_never_travels_but_attacks():
    # (C3 Stationary)
    here = [{"slot": 0, "card": "longbow_sentinel", "owner": 0, "site": "1b"},
            {"slot": 1, "card": "wandering_golem", "owner": 1, "site": "3b"}]
    st = position(game("green", "red"), [GREEN, {}], here, turn=2, act="travel")
    assert names(st) == ["pass the travel act"]
    act(st, "pass the travel act")
    assert names(st) == ["pass the combat act", "attack with longbow_sentinel at 1b"]


def test_deathwish_acts_when_the_creature_dies():
    # (C3 Deathwish) a Firebolt kills the Grave Thrall, which leaves Restless Bones on
    # its site; Morvain's costs the Firebolt's caster 2 life
    here = [{"slot": 0, "card": "grave_thrall", "owner": 1, "site": "3a"}]
    st = position(game("red", "purple"), [dict(RED, hand=["firebolt"]), {}], here, turn=2)
    act(st, "play firebolt")
    d = st.to_dict()
    assert d["players"][1]["graveyard"] == ["grave_thrall"]
    assert [(u["card"], u["owner"], u["site"]) for u in d["units"]] == \
        [("restless_bones", 1, "3a")]
    here = [{"slot": 0, "card": "morvain_the_hollow_king", "owner": 1, "site": "3a",
             "damage": 2}]
    st = position(game("red", "purple"), [dict(RED, hand=["firebolt"]), {}], here, turn=2)
    act(st, "play firebolt")
    assert st.to_dict()["players"][0]["life"] == 18


def test_terrain_acts_on_its_pathway_at_its_players_upkeep_beside_weather(every):
    # (C3 Terrain) Overgrowth over pathway a armors the creatures there, not on b;
    # a Weather over the same sites is another subtype and removes nothing
    here = [{"slot": 0, "card": "wandering_golem", "owner": 0, "site": "0a"},
            {"slot": 1, "card": "wandering_golem", "owner": 0, "site": "0b"}]
    st = position(f"creature_shrines(decks={every},deck0=green,deck1=blue)",
                  [dict(GREEN, hand=["overgrowth"]), dict(BLUE, hand=["fogbank"])], here,
                  turn=2)
    act(st, "play overgrowth", "over pathway a")
    assert "armor" not in unit(st, 0)
    next_turn(st)
    act(st, "play fogbank", "over row 0")
    next_turn(st)
    assert st.to_dict()["active"] == 0
    assert sorted(u["card"] for u in st.to_dict()["units"][2:]) == ["fogbank", "overgrowth"]
    assert unit(st, 0)["armor"] == 1 and "armor" not in unit(st, 1)


def test_an_inert_spell_waits_for_the_first_and_final_acts_of_its_player():
    # (C3 Spell, Inert) Soul Siphon: not in the Travel Act, not at priority
    st = position(game("purple", "red"), [dict(PURPLE, hand=["soul_siphon"]), {}], turn=2,
                  act="travel")
    assert "play soul_siphon" not in names(st)
    st = position(game("red", "purple"), [dict(RED, hand=["blaze_hound"]),
                                          dict(PURPLE, hand=["soul_siphon"])], turn=2)
    act(st, "play blaze_hound", "at 0a")
    # (C7) player 1's deck holds Burst cards it could pay for: it gets priority, where
    # the Inert spell it holds is no choice
    assert st.current_player() == 1 and names(st) == ["pass"]
    st = position(game("purple", "red"), [dict(PURPLE, hand=["soul_siphon"]), {}], turn=2,
                  act="final")
    act(st, "play soul_siphon")
    players = st.to_dict()["players"]
    assert players[1]["life"] == 18 and players[0]["life"] == 22
    assert players[0]["graveyard"] == ["soul_siphon"]


def test_a_burst_spell_answers_at_priority():
    # (C3 Spell, Burst; C7) a Blaze Hound is played; the opponent's Firebolt kills it
    # before the active player goes on
    st = position(game("red", "red"), [dict(RED, hand=["blaze_hound"]),
                                       dict(RED, hand=["firebolt"])], turn=2)
    act(st, "play blaze_hound", "at 0a")
    assert st.current_player() == 1 and st.to_dict()["step"] == "priority"
    assert names(st) == ["pass", "play firebolt"]
    act(st, "play firebolt")
    d = st.to_dict()
    assert d["players"][0]["graveyard"] == ["blaze_hound"]
    assert d["players"][1]["graveyard"] == ["firebolt"]
    assert st.current_player() == 0 and d["step"] == "act" and d["act"] == "first"


def test_immoveable_holds_against_its_own_controller_too():
    # (C27) the Titan never leaves its own site, and its controller's creatures may not
    # travel onto it; the only move effect of the set, Blink Wraith's move of itself,
    # stops before it whoever controls it, as the engine asks no one's side
    here = [{"slot": 0, "card": "rootbound_titan", "owner": 0, "site": "1a"},
            {"slot": 1, "card": "thornback_archer", "owner": 0, "site": "0a"},
            {"slot": 2, "card": "thornback_archer", "owner": 0, "site": "1b"}]
    st = position(game("green", "purple"), [GREEN, {}], here, turn=2, act="travel")
    assert travellers(st) == ["travel with thornback_archer at 1b"]
    here = [{"slot": 0, "card": "rootbound_titan", "owner": 0, "site": "2a"}]
    st = position(game("green", "purple"), [{}, dict(PURPLE, hand=["blink_wraith"])], here,
                  turn=3, active=1)
    act(st, "play blink_wraith", "at 4a")
    assert unit(st, 1)["site"] == "3a"
