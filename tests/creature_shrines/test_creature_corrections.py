"""The corrections C32-C39 of the rulings, each on the exact position it talks about:
readings of the rules text the engine once contradicted."""
from creature_positions import act, names, position

RED = {"sources": {"ember_vent": 5}}
BLUE = {"sources": {"tidepool": 5}}


def slots(state):
    return {u["slot"]: u for u in state.to_dict()["units"]}


def test_cleave_hits_every_permanent_on_the_site_its_own_players_too():
    # (C32) Ash Cleaver (3) fights Coral Sentry on 4b, where the Cleaver's own Blaze
    # Hound stands too: the hound takes the 3 as well, and dies; the Cleaver not.
    st = position(players=[dict(RED), {}],
                  units=[{"slot": 0, "card": "ash_cleaver", "owner": 0, "site": "3b",
                          "tapped": True, "target": 1},
                         {"slot": 1, "card": "coral_sentry", "owner": 1, "site": "4b"},
                         {"slot": 2, "card": "blaze_hound", "owner": 0, "site": "4b"}],
                  turn=2, act="combat")
    act(st, "pass the combat act")
    after = slots(st)
    assert 1 not in after and 2 not in after
    assert after[0]["damage"] == 1                 # the Sentry struck back


def test_the_attacker_then_the_defender_get_priority_after_blockers_are_declared():
    # (C33) Blaze Hound attacks player 1, Riptide Lurker blocks; then player 0 may
    # respond (Warcry), then player 1 (Undertow), and only then is damage dealt.
    st = position(players=[dict(RED, hand=["warcry"]), dict(BLUE, hand=["undertow"])],
                  units=[{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "3b",
                          "tapped": True, "target": "player"},
                         {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "4b"}],
                  turn=2, act="combat")
    act(st, "pass the combat act")
    assert st.current_player() == 1 and names(st)[0] == "pass"
    act(st, "pass", "block with riptide_lurker at 4b")
    now = st.to_dict()
    assert st.current_player() == 0 and now["step"] == "priority"
    assert "play warcry" in names(st) and slots(st)[1].get("damage") is None
    act(st, "play warcry")
    # (C28) the attacker's response gives the defender priority, whose pass ends the
    # exchange
    assert st.current_player() == 1 and "play undertow" in names(st)
    assert st.to_dict()["priority_then"] == "strike"
    act(st, "pass")
    # the pumped hound (4) kills the lurker and survives its 3
    assert st.to_dict()["act"] == "final" and 1 not in slots(st)
    assert slots(st)[0]["damage"] == 3


def test_a_tapped_creature_may_block():
    # (C34) Riptide Lurker is tapped: it still blocks Blaze Hound's attack on player 1
    st = position(players=[dict(RED), {}],
                  units=[{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "3b",
                          "tapped": True, "target": "player"},
                         {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "4b",
                          "tapped": True}],
                  turn=2, act="combat")
    act(st, "pass the combat act")
    assert names(st) == ["no more blocks", "block with riptide_lurker at 4b"]
    act(st, "block with riptide_lurker at 4b")
    assert st.to_dict()["players"][1]["life"] == 20


def test_travellers_travel_at_once_and_the_site_limit_is_kept_after_all_have_moved():
    # (C36) four of player 0's creatures fill 1a; the one at 0a travels onto 1a as one
    # of the four leaves it for 2a: as they move together, 1a never holds five, and no
    # creature is sacrificed (travelling one by one in slot order, the first arrival
    # would overfill 1a).
    here = [{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "0a"}]
    here += [{"slot": k, "card": "cinder_brute" if k < 4 else "ash_cleaver", "owner": 0,
              "site": "1a"} for k in range(1, 5)]
    st = position(players=[dict(RED), {}], units=here, turn=2, act="travel")
    act(st, "travel with blaze_hound at 0a", "travel with ash_cleaver at 1a", "pass the travel act")
    assert not [n for n in names(st) if n.startswith("sacrifice")]
    sites = {k: u["site"] for k, u in slots(st).items()}
    assert sites == {0: "1a", 1: "1a", 2: "1a", 3: "1a", 4: "2a"}
    assert st.to_dict()["act"] == "combat"


def test_immoveable_holds_against_mounting():
    # (C37) Tidewall stands on 0a with Squire Knight: the knight may not leave 0a to
    # mount the Pegasus on 1a; without the wall it may.
    game = "creature_shrines(deck0=yellow,deck1=blue)"
    here = [{"slot": 0, "card": "squire_knight", "owner": 0, "site": "0a"},
            {"slot": 1, "card": "gilded_pegasus", "owner": 0, "site": "1a"}]
    wall = [{"slot": 2, "card": "tidewall", "owner": 1, "site": "0a"}]
    mine = [{"sources": {"sunspring": 3}}, {}]
    assert "mount squire_knight at 0a" in names(position(game, mine, here, turn=2))
    assert "mount squire_knight at 0a" not in names(position(game, mine, here + wall, turn=2))


def test_combat_damage_reaches_only_what_is_in_range_when_it_is_dealt():
    # (C38) Blaze Hound entered combat with Riptide Lurker, which then stood in range;
    # it now stands three sites ahead of the hound, out of its range of one: the hound
    # deals it nothing, and the lurker, out of its own range, strikes nothing back.
    st = position(players=[dict(RED), {}],
                  units=[{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "1b",
                          "tapped": True, "target": 1},
                         {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "4b"}],
                  turn=2, act="combat")
    act(st, "pass the combat act")
    after = slots(st)
    assert st.to_dict()["act"] == "final"
    assert "damage" not in after[0] and "damage" not in after[1]


def test_a_trap_springs_on_its_printed_requirement_an_opposing_creature_not_a_structure():
    # (C39) Pitfall's requirement is enemy_enters: an opposing creature entering its
    # site.  Player 1's Tidewall, a structure, comes onto the site and springs nothing;
    # Coral Sentry, a creature, springs it.
    st = position("creature_shrines(deck0=red,deck1=blue)",
                  [dict(RED), dict(BLUE, hand=["tidewall", "coral_sentry"])],
                  [{"slot": 0, "card": "pitfall", "owner": 0, "site": "4a",
                    "face_down": True}], turn=3, active=1)
    act(st, "play tidewall", "at 4a")
    assert slots(st)[0].get("face_down") and "damage" not in slots(st)[1]
    act(st, "play coral_sentry", "at 4a")
    after = slots(st)
    assert 0 not in after and after[1]["damage"] == 3 and 2 not in after
    assert st.to_dict()["players"][0]["graveyard"] == ["pitfall"]


def test_double_attack_strikes_in_the_precombat_act_and_again_in_regular_combat():
    # (C41) Twinfang Raider (2) attacks player 1 unblocked: 2 in the Precombat Act, 2
    # again in regular combat
    st = position(players=[dict(RED), {}],
                  units=[{"slot": 0, "card": "twinfang_raider", "owner": 0, "site": "4b",
                          "tapped": True, "target": "player"}],
                  turn=2, act="combat")
    act(st, "pass the combat act")
    assert st.to_dict()["players"][1]["life"] == 16


def test_double_attack_strikes_first_and_a_quick_attacker_only_first():
    # (C41) Twinfang Raider (2/2) fights Coral Sentry (1/3): its first blow lands before
    # regular combat, the second with the Sentry's own, which the Raider survives
    st = position(players=[dict(RED), {}],
                  units=[{"slot": 0, "card": "twinfang_raider", "owner": 0, "site": "3b",
                          "tapped": True, "target": 1},
                         {"slot": 1, "card": "coral_sentry", "owner": 1, "site": "4b"}],
                  turn=2, act="combat")
    act(st, "pass the combat act")
    after = slots(st)
    assert 1 not in after and after[0]["damage"] == 1


def test_a_banished_card_goes_to_its_owners_banishment_pile_in_sight_of_both():
    # (C42) Void Rite banishes Cinder Brute: out of the game, in player 1's Banishment
    # pile, which both players see; a banished Shrine goes home with time marks.
    game = "creature_shrines(deck0=purple,deck1=red)"
    purple = {"sources": {"gloom_well": 3}, "hand": ["void_rite"]}
    st = position(game, [purple, {}],
                  [{"slot": 0, "card": "cinder_brute", "owner": 1, "site": "3a"}], turn=2)
    act(st, "play void_rite")
    assert slots(st) == {}
    for seat in range(2):
        them = st.observation_dict(seat)["players"][1]
        assert them["banishment"] == ["cinder_brute"] and them["graveyard"] == []
    pile = st.observation_tensor(0)[st.game.tensor_layout.block("banishment")]
    theirs = pile[len(pile) // 2:]      # the viewer's pile, then the opponent's
    assert theirs[st.game.cards.names.index("cinder_brute")] > 0 and not pile[:len(pile) // 2].any()
    assert st.game.state_from_dict(st.to_dict()) == st
    st = position(game, [purple, {}],
                  [{"slot": 0, "card": "korrath_ember_tyrant", "owner": 1, "site": "3a"}],
                  turn=2)
    act(st, "play void_rite")
    them = st.to_dict()["players"][1]
    assert them["shrine_home"] and them["marks"] == 5 and them["banishment"] == []
