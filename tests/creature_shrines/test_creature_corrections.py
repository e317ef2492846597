"""The corrections C32-C43 of the rulings, each on the exact position it talks about:
readings of the rules text the engine once contradicted, and what the text has that the
engine once lacked."""
import numpy as np

from creature_positions import act, names, position

RED = {"sources": {"ember_vent": 5}}
BLUE = {"sources": {"tidepool": 5}}
GREEN = "creature_shrines(deck0=green)"


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
    here += [{"slot": k, "card": card, "owner": 0, "site": "1a"} for k, card in
             enumerate(("cinder_brute", "cinder_brute", "ironhide_ogre", "ash_cleaver"), 1)]
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


def test_mounting_is_a_move_no_grounded_rider_and_no_site_an_opposing_creature_holds():
    # (C37) mounting moves the rider onto the saddle's site, and a move other than
    # travel is barred to a Grounded permanent and off or onto a site an opposing
    # creature holds: the knight on 1a is Grounded, the one on 3b stands with a Golem.
    # Neither may mount; the first may once it is no longer Grounded, the second once
    # the Golem has gone from both sites.
    game = "creature_shrines(deck0=yellow,deck1=blue)"
    grounded = [{"slot": 0, "card": "squire_knight", "owner": 0, "site": "1a",
                 "grounded": True},
                {"slot": 1, "card": "gilded_pegasus", "owner": 0, "site": "2a"}]
    held = [{"slot": 2, "card": "squire_knight", "owner": 0, "site": "3b"},
            {"slot": 3, "card": "wandering_golem", "owner": 1, "site": "3b"},
            {"slot": 4, "card": "gilded_pegasus", "owner": 0, "site": "2b"},
            {"slot": 5, "card": "wandering_golem", "owner": 1, "site": "2b"}]
    mine = [{"sources": {"sunspring": 5}}, {}]
    offered = [n for n in names(position(game, mine, grounded + held, turn=2))
               if n.startswith("mount")]
    assert offered == []
    free = [dict(grounded[0], grounded=False), grounded[1]] + held[:1] + held[2:3]
    assert [n for n in names(position(game, mine, free, turn=2)) if n.startswith("mount")] \
        == ["mount squire_knight at 1a", "mount squire_knight at 3b"]


def test_a_site_overfilled_level_by_arrivals_together_is_cut_by_their_player():
    # (C45, ours) three Golems of player 1 and a Heron of player 0's stand on 2a; two
    # Lurkers of player 0's travel there together: six, three each.  The text names
    # the player with more; level, player 0, whose arrivals overfilled the site,
    # sacrifices first, and then player 1, who has more, until four are left.
    game = "creature_shrines(deck0=blue,deck1=blue)"
    units = [{"slot": k, "card": "wandering_golem", "owner": 1, "site": "2a"}
             for k in range(3)]
    units += [{"slot": 3, "card": "mistveil_heron", "owner": 0, "site": "2a"},
              {"slot": 4, "card": "riptide_lurker", "owner": 0, "site": "1a"},
              {"slot": 5, "card": "riptide_lurker", "owner": 0, "site": "0a"},
              {"slot": 6, "card": "traveller_s_cloak", "owner": 0, "site": "0a",
               "host": 5}]
    st = position(game, [{}, {}], units, turn=2, act="travel")
    act(st, "travel with riptide_lurker at 1a", "travel with riptide_lurker at 0a",
        "travel 2 sites", "pass the travel act")
    while st.to_dict()["step"] == "priority":
        act(st, "pass")
    assert st.current_player() == 0 and names(st) == [
        "sacrifice mistveil_heron at 2a", "sacrifice riptide_lurker at 2a (first)",
        "sacrifice riptide_lurker at 2a (second)"]
    act(st, "sacrifice mistveil_heron at 2a")
    assert st.current_player() == 1 and all(n.startswith("sacrifice wandering_golem")
                                            for n in names(st))


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


def test_an_x_cost_offers_every_x_its_player_can_pay_and_the_effect_scales_by_it():
    # (C40) Thorn Barrage costs X and 1 green and deals X damage: with four Grove Roots
    # X may be 0 to 3; X = 3 taps all four and deals 3 to the Wandering Golem (2/4).
    golem = [{"slot": 1, "card": "wandering_golem", "owner": 1, "site": "4a"}]
    st = position(GREEN, [{"sources": {"grove_root": 4}, "hand": ["thorn_barrage"]}, {}],
                  golem, turn=2)
    act(st, "play thorn_barrage")
    assert st.current_player() == 0
    assert names(st) == ["X = 0", "X = 1", "X = 2", "X = 3"]
    assert st.to_dict()["choosing"][-1]["choose"] == "x"
    assert st.game.state_from_dict(st.to_dict()) == st
    act(st, "X = 3")          # the Golem, the one enemy, is its target at once (C16)
    me = st.to_dict()["players"][0]
    assert slots(st)[1]["damage"] == 3
    assert me["tapped"] == {"grove_root": 4} and me["graveyard"] == ["thorn_barrage"]
    # X = 1 deals 1 and leaves two Roots untapped; mana in the pool pays for X too
    st = position(GREEN, [{"sources": {"grove_root": 2}, "pool": {"green": 2},
                           "hand": ["thorn_barrage"]}, {}], golem, turn=2)
    act(st, "play thorn_barrage")
    assert names(st) == ["X = 0", "X = 1", "X = 2", "X = 3"]
    act(st, "X = 1")
    assert slots(st)[1]["damage"] == 1
    assert st.to_dict()["players"][0]["tapped"] == {} and st.to_dict()["players"][0]["pool"] == {}


def test_an_x_of_0_pays_the_rest_of_the_cost_and_its_effect_does_nothing():
    # (C40) With one Grove Root, X can only be 0: no choice is asked (C16), the green is
    # paid, and damage X deals nothing, so no target is asked either.
    st = position(GREEN, [{"sources": {"grove_root": 1}, "hand": ["thorn_barrage"]}, {}],
                  [{"slot": 1, "card": "wandering_golem", "owner": 1, "site": "4a"}],
                  turn=2)
    act(st, "play thorn_barrage")
    me = st.to_dict()["players"][0]
    assert me["tapped"] == {"grove_root": 1} and me["graveyard"] == ["thorn_barrage"]
    assert "damage" not in slots(st)[1] and names(st) == ["pass the first act"]


def blocked_charger(*blockers, **charger):
    """Ember Charger (3/3) of player 0's on 4a attacks player 1, who blocks with each of
    ``blockers``, (card, site) pairs in slots 1, 2...: the attacker's damage
    assignment is next."""
    units = [{"slot": 0, "card": "ember_charger", "owner": 0, "site": "4a", "tapped": True,
              "target": "player", **charger}]
    units += [{"slot": k, "card": card, "owner": 1, "site": site}
              for k, (card, site) in enumerate(blockers, 1)]
    st = position(players=[dict(RED), {}], units=units, turn=2, act="combat")
    act(st, "pass the combat act",
        *[f"block with {card} at {site}" for card, site in blockers])
    return st


def test_the_attacker_shares_its_damage_freely_among_blockers_on_one_site():
    # (C43) The Charger's 3 among Riptide Lurker (3/2) and Coral Sentry (1/3), both on
    # its site: any share of 0 to 3 for the Lurker, the rest to the Sentry, so 1 and 2
    # is allowed though it kills neither.
    st = blocked_charger(("riptide_lurker", "4a"), ("coral_sentry", "4a"))
    assert st.current_player() == 0 and st.to_dict()["choosing"][-1]["choose"] == "assign"
    assert names(st) == [f"assign {n} damage to riptide_lurker at 4a" for n in range(4)]
    assert st.game.state_from_dict(st.to_dict()) == st
    act(st, "assign 1 damage to riptide_lurker at 4a")
    after = slots(st)
    assert after[1]["damage"] == 1 and after[2]["damage"] == 2
    assert st.to_dict()["act"] == "final" and st.to_dict()["players"][1]["graveyard"] == []
    st = blocked_charger(("riptide_lurker", "4a"), ("coral_sentry", "4a"))
    act(st, "assign 0 damage to riptide_lurker at 4a")
    assert st.to_dict()["players"][1]["graveyard"] == ["coral_sentry"]


def test_further_blockers_get_damage_only_once_every_closer_one_has_its_lethal():
    # (C43) The Charger (pumped to 8/8) on 3a strikes the player, two sites ahead: Coral
    # Sentry (1/3) and Riptide Lurker (3/2) block on 3a, Mistveil Heron (1/2) on 4a.
    # The Sentry's share is free (the Lurker shares its site); the Lurker, last on the
    # closer site, takes at least its lethal 2 for any damage to reach the Heron...
    blockers = (("coral_sentry", "3a"), ("riptide_lurker", "3a"), ("mistveil_heron", "4a"))

    def charge():
        st = blocked_charger(*blockers, site="3a", pump=5)
        return st

    st = charge()
    assert names(st) == [f"assign {n} damage to coral_sentry at 3a" for n in range(9)]
    act(st, "assign 3 damage to coral_sentry at 3a")
    assert names(st) == [f"assign {n} damage to riptide_lurker at 3a" for n in range(2, 6)]
    act(st, "assign 2 damage to riptide_lurker at 3a")
    after = slots(st)
    assert 1 not in after and 2 not in after and 3 not in after
    # ... and once the Sentry got less than its lethal, the Lurker takes all that is
    # left, asked nothing, and the Heron nothing
    st = charge()
    act(st, "assign 2 damage to coral_sentry at 3a")
    after = slots(st)
    assert after[1]["damage"] == 2 and 2 not in after and "damage" not in after[3]
    assert st.to_dict()["players"][1]["graveyard"] == ["riptide_lurker"]


def test_double_attack_shares_its_damage_again_once_the_precombat_blows_fell():
    # (C41, C43) Twinfang Raider (pumped to 4/4) is blocked by Riptide Lurker, Coral
    # Sentry and Mistveil Heron on its site.  Its Precombat share kills the Lurker,
    # which stays on the region, fallen, while the second share is chosen among the
    # two others; then it leaves with them.
    units = [{"slot": 0, "card": "twinfang_raider", "owner": 0, "site": "4a",
              "tapped": True, "target": "player", "pump": 2}]
    blockers = (("riptide_lurker", "4a"), ("coral_sentry", "4a"), ("mistveil_heron", "4a"))
    units += [{"slot": k, "card": card, "owner": 1, "site": site}
              for k, (card, site) in enumerate(blockers, 1)]
    st = position(players=[dict(RED), {}], units=units, turn=2, act="combat")
    act(st, "pass the combat act",
        *[f"block with {card} at {site}" for card, site in blockers])
    assert st.to_dict()["pending"] == "quick"
    act(st, "assign 2 damage to riptide_lurker at 4a", "assign 2 damage to coral_sentry at 4a")
    now = st.to_dict()
    assert now["pending"] == "strike" and slots(st)[1]["fallen"]
    assert names(st) == [f"assign {n} damage to coral_sentry at 4a" for n in range(5)]
    loaded = st.game.state_from_dict(now)
    assert loaded == st
    # The fallen Lurker leaves with the others, from the position read back too.
    for game_on in (st, loaded):
        act(game_on, "assign 1 damage to coral_sentry at 4a")
        assert slots(game_on) == {0: slots(game_on)[0]} and "damage" in slots(game_on)[0]
        assert sorted(game_on.to_dict()["players"][1]["graveyard"]) == [
            "coral_sentry", "mistveil_heron", "riptide_lurker"]


def test_stomp_past_blockers_short_of_their_lethal_shares_freely_and_reaches_no_one():
    # (C3 Stomp, C43) Cinder Brute (4/3) is blocked by Riptide Lurker and Coral Sentry,
    # lethal 2 and 3: its 4 do not cover both, so its player shares them out and none
    # reaches player 1; pumped to 6 they do, each blocker takes its lethal damage, the
    # excess of 1 goes on to the player, and nothing is asked.
    def stomp(**brute):
        units = [{"slot": 0, "card": "cinder_brute", "owner": 0, "site": "4a",
                  "tapped": True, "target": "player", **brute},
                 {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "4a"},
                 {"slot": 2, "card": "coral_sentry", "owner": 1, "site": "4a"}]
        st = position(players=[dict(RED), {}], units=units, turn=2, act="combat")
        return act(st, "pass the combat act", "block with riptide_lurker at 4a",
                   "block with coral_sentry at 4a")

    st = stomp()
    assert names(st) == [f"assign {n} damage to riptide_lurker at 4a" for n in range(5)]
    act(st, "assign 2 damage to riptide_lurker at 4a")
    assert st.to_dict()["players"][1]["life"] == 20
    st = stomp(pump=2)
    assert st.to_dict()["act"] == "final" and st.to_dict()["players"][1]["life"] == 19
    assert sorted(st.to_dict()["players"][1]["graveyard"]) == ["coral_sentry",
                                                                "riptide_lurker"]


def test_the_observation_tells_which_decision_is_pending():
    # The decision block of the observation tensor: the choice of an X and a blocker's
    # share of damage, both player 0's, are told apart from each other and from a
    # decision with no choice on the stack (the defender's blocks, told by the step).
    def decision(st, seat):
        return st.observation_tensor(seat)[st.game.tensor_layout.block("decision")]

    golem = [{"slot": 1, "card": "wandering_golem", "owner": 1, "site": "4a"}]
    x = position(GREEN, [{"sources": {"grove_root": 4}, "hand": ["thorn_barrage"]}, {}],
                 golem, turn=2)
    act(x, "play thorn_barrage")
    share = blocked_charger(("riptide_lurker", "4a"), ("coral_sentry", "4a"))
    block = position(players=[dict(RED), {}],
                     units=[{"slot": 0, "card": "ember_charger", "owner": 0, "site": "4a",
                             "tapped": True, "target": "player"},
                            {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "4a"}],
                     turn=2, act="combat")
    act(block, "pass the combat act")
    assert block.to_dict()["step"] == "block" and not decision(block, 1).any()
    kinds = [np.flatnonzero(decision(st, 0))[0] for st in (x, share)]
    assert kinds[0] != kinds[1]
    for st in (x, share):
        mine, theirs = decision(st, 0), decision(st, 1)
        assert mine.sum() > theirs.sum()          # only the chooser's says it is theirs
        assert np.array_equal(np.flatnonzero(mine)[:1], np.flatnonzero(theirs)[:1])
