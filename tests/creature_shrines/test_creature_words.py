"""Creature Shrines in its own words: a permanent named by its card and its site
(``attack with blaze_hound at 3a``), not by its slot (``attacker blaze_hound#0@3a``),
and the region drawn with its pathways lettered and every card's whole name."""
import re

from creature_positions import names, position
from kit.helpers import walk


def test_creature_shrines_names_its_permanents_by_card_and_site():
    # Not "traveller blaze_hound#0@0c": a permanent by its card and site, two alike on
    # one site told apart by whose they are and which came first.
    names = set()
    for seed in range(4):
        for state in walk("creature_shrines", seed, 1500):
            if not state.is_terminal() and not state.is_chance_node():
                names.update(state.action_to_string(a) for a in state.legal_actions())
    assert not [n for n in names if "#" in n or "@" in n]
    for verb in ("travel with", "attack with"):
        assert any(re.fullmatch(verb + r" [a-z_]+ at [0-4][abc]( \(\w+\))?", n) for n in names)
    assert not [n for n in names if n.split()[0] in ("traveller", "attacker", "blocker")]


def test_two_alike_permanents_on_a_site_are_told_apart():
    mine = [{"slot": s, "card": "blaze_hound", "owner": 0, "site": "3a", "age": a}
            for s, a in ((0, 2), (1, 1))]
    theirs = [{"slot": 2, "card": "blaze_hound", "owner": 1, "site": "3a", "age": 3}]
    wall = [{"slot": 3, "card": "tidewall", "owner": 1, "site": "3a"}]
    st = position(units=mine + wall, turn=2, active=0, act="combat")
    assert names(st)[1:] == ["attack with blaze_hound at 3a (second)",
                             "attack with blaze_hound at 3a (first)"]
    st = position("creature_shrines(deck1=red)", units=mine[:1] + theirs, turn=2, active=0,
                  act="combat")
    assert names(st)[1:] == ["attack with player 0's blaze_hound at 3a"]


def test_creature_shrines_region_is_drawn_with_column_letters_and_whole_names():
    for state in walk("creature_shrines", 2, 900):
        view = state.observation_dict(0)
        if len(view["units"]) >= 3:
            break
    text = state.game.render(view)
    assert re.match(r" +a +b +c$", text.splitlines()[0])
    for unit in view["units"]:
        if unit["site"] != "side":
            assert f"{unit['owner']}:{unit['card']}" in text
