"""What holds in every position of random games of every mode: every card in exactly
one zone, the site limit, mana and life within their bounds."""
import random

import pytest

import core
from core.creature_shrines.cards import CARDSET, SUBTYPES, TYPES, slug
from kit.helpers import random_step

DESIGNS = {slug(c.name): c for c in CARDSET.cards}
# Permanents that count towards a site's limit of 4: not tokens, not tools, and on the
# region (an Idol lies beside it).
LIMITED = {name for name, c in DESIGNS.items()
           if not c.token and TYPES[c.type] in ("creature", "structure", "relic")
           and SUBTYPES[c.subtype] != "tool"}


@pytest.mark.parametrize("mode", ["standard", "rush", "king_of_the_hill", "imperial",
                                  "conquest"])
def test_invariants_in_random_games(mode):
    game = core.load_game("creature_shrines", mode=mode, deck0="purple", deck1="green")
    rng = random.Random(mode)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            view = state.to_dict()
            # Reading a position checks that every card of both decks lies in exactly
            # one zone (hand, library, graveyard, region, Sources, pending choices).
            assert game.state_from_dict(view).to_dict() == view
            per_site = {}
            for unit in view["units"]:
                if unit["card"] in LIMITED and unit["site"] != "side":
                    per_site[unit["site"]] = per_site.get(unit["site"], 0) + 1
            # A fifth permanent may stand on a site only while its sacrifice is chosen:
            # the choice on top, above the effects of a card it answered, if any.
            if max(per_site.values(), default=0) > 4:
                assert [f["choose"] for f in view.get("choosing", [])][-1:] == ["sacrifice"]
            for player in view["players"]:
                assert all(n >= 0 for n in player["pool"].values())
                assert sum(player["tapped"].values()) <= sum(player["sources"].values())
                # While the game goes on, no one has lost their life or won on points;
                # a mode without life keeps it at 0, one without points at 0 (C8).
                if mode == "king_of_the_hill":
                    assert player["life"] == 0
                else:
                    assert player["life"] > 0
                if mode in ("king_of_the_hill", "imperial"):
                    assert 0 <= player["points"] < 20
                else:
                    assert player["points"] == 0
            random_step(state, rng)
            checked += 1
        assert state.returns()[0] == -state.returns()[1]
    assert checked > 300
