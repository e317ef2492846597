"""A position's dict is the whole position and nothing more: a copy rebuilt from it plays
as the original does, and two identical positions reached by different ways give one
dict (and one information-state string for each player)."""
import pickle

import pytest

import core
from creature_positions import act, names, position, unit

RED = {"sources": {"ember_vent": 5}}


def copies(state):
    game = state.game
    return {"to_dict": game.state_from_dict(state.to_dict()),
            "serialize": game.deserialize_state(state.serialize()),
            "pickle": pickle.loads(pickle.dumps(state))}


def test_a_copy_of_a_declared_attack_still_offers_blocks():
    # Blaze Hound has entered combat with player 1, whose Riptide Lurker stands in the
    # way: once the combat act is passed, player 1 may block, in every copy as in the
    # original, and the block keeps the hound's 2 damage off player 1.
    st = position(players=[dict(RED), {}],
                  units=[{"slot": 0, "card": "blaze_hound", "owner": 0, "site": "4b",
                          "tapped": True, "target": "player"},
                         {"slot": 1, "card": "riptide_lurker", "owner": 1, "site": "4b"}],
                  turn=2, act="combat")
    for how, twin in copies(st).items():
        assert twin == st, how
        act(twin, "pass the combat act")
        assert "block with riptide_lurker at 4b" in names(twin), how
        act(twin, "block with riptide_lurker at 4b")
        assert twin.to_dict()["players"][1]["life"] == 20, how


def test_an_attacker_whose_target_left_the_region_round_trips():
    # Riptide Lurker attacks Blaze Hound, then Undertow bounces the hound: the lurker
    # is still in combat with nothing to strike, and its dict says so in a form the
    # game reads back.
    game = core.load_game("creature_shrines(deck0=blue,deck1=red)")
    st = position(game=str(game),
                  players=[{"sources": {"tidepool": 3}, "hand": ["undertow"]}, {}],
                  units=[{"slot": 0, "card": "riptide_lurker", "owner": 0, "site": "3b",
                          "tapped": True, "target": 1},
                         {"slot": 1, "card": "blaze_hound", "owner": 1, "site": "4b"}],
                  turn=2, act="combat")
    act(st, "play undertow")
    assert unit(st, 0).get("attacking") and "target" not in unit(st, 0)
    for how, twin in copies(st).items():
        assert twin == st and twin.to_dict() == st.to_dict(), how
        assert twin.legal_actions() == st.legal_actions(), how


def test_a_position_reached_by_play_has_the_dict_of_the_same_position_built_fresh():
    # Player 0 ends the first turn drawing from the Secondary Library, and player 1's
    # turn begins with the choice of a library: nothing of player 0's draw, nor of the
    # act that ended, stays in the position, which is the one a dict describes fresh.
    st = position(players=[dict(RED), {}], turn=0)
    act(st, "pass the first act", "pass the travel act", "pass the combat act",
        "pass the final act", "draw from the secondary library")
    st.apply_action(st.game.cards.names.index("ember_vent"))
    assert names(st) == ["draw from the primary library", "draw from the secondary library"]
    desc = st.to_dict()
    fresh = st.game.state_from_dict({**desc, "act": "first",
                                     "drawing": {"player": 1, "then": "turn"}})
    assert fresh.to_dict() == desc
    for p in range(2):
        assert fresh.information_state_string(p) == st.information_state_string(p)


def test_an_upkeep_leaves_no_cursor_behind():
    # Sylvara's upkeep adds green mana; once it has run, the position holds no trace of
    # which slot the upkeep looked at last, even while a card waits for its site.
    game = core.load_game("creature_shrines(deck0=green,deck1=red)")
    st = position(game=str(game), players=[{"hand": ["bloom_tender"]}, {}],
                  units=[{"slot": 5, "card": "sylvara_rootmother", "owner": 0, "site": "0a"}],
                  turn=1, active=1)
    act(st, "pass the first act", "pass the travel act", "pass the combat act",
        "pass the final act", "draw from the secondary library")
    st.apply_action(game.cards.names.index("grove_root"))
    assert st.to_dict()["players"][0]["pool"] == {"green": 1}
    act(st, "play bloom_tender")
    desc = st.to_dict()
    assert desc["pending"] == "action" and "cursor" not in desc


def _deck_cards(library, deck="red"):
    """Every card of a shipped deck's library, by the names positions write."""
    from core.creature_shrines.cards import slug
    cards = core.load_game("creature_shrines").decks[deck]
    return [slug(c.name) for c, n in getattr(cards, library) for _ in range(n)]


def _refused(said, **desc):
    with pytest.raises(core.StateFormatError, match=said):
        position(**desc)


def test_a_position_the_engine_would_write_past_its_arrays_from_is_refused():
    # Each of these read back once, and play from it wrote past a fixed array of the
    # state: a library 2 (there are two), a Swap keeping more on top than the top
    # holds, mulligans putting more under the Primary than it holds, a card to place
    # with every place of the region taken.
    _refused(r"choosing\[0\]\.data\[1\]: from 0 to 1 in a draw frame, not 2",
             players=[{}, {}], turn=3, choosing=[
                 {"choose": "draw", "player": 1, "source": -1, "pc": 0, "end": 0,
                  "data": [1, 2, 0, 0]}])
    tidepool = core.load_game("creature_shrines").cards.names.index("tidepool")
    sources = _deck_cards("secondary", "blue")
    _refused(r"choosing\[0\]\.data: a Swap looks at 3 cards at most",
             players=[{}, {"top_secondary": sources[:3], "secondary": sources[6:]}],
             turn=3, choosing=[{"choose": "swap", "player": 1, "source": 0, "pc": 0,
                                "end": 0, "data": [1, tidepool, tidepool, tidepool]}])
    primary, secondary = _deck_cards("primary"), _deck_cards("secondary")
    _refused(r"mulligan\.left: each mulligan puts a card under the Primary Library",
             players=[{"hand": primary[:3], "bottom": primary[3:11],
                       "bottom_secondary": secondary[:2], "secondary": secondary[2:]}, {}],
             step="mulligan", mulligan={"player": 0, "left": 4}, turn=0)
    hound = core.load_game("creature_shrines").cards.names.index("blaze_hound")
    tokens = [{"slot": u, "card": "dawn_squire", "owner": 1, "site": "4" + "abc"[u % 3]}
              for u in range(48)]
    _refused(r"choosing\[0\]: a card to be placed, with every one of the region's 48 "
             "places taken", players=[{}, {}], units=tokens, turn=2, choosing=[
                 {"choose": "site", "player": 0, "source": hound, "pc": 0, "end": 0,
                  "data": [hound, 0, 0, 0]}])
