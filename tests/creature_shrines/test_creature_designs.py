"""One test per card design, generated from the card data: the card is played (or
tapped, or its upkeep comes, or it dies, or its Trap is sprung) in a position where its
effect shows, and each of its effect words is checked by what that word changes."""
import pytest

import core
from core.creature_shrines import CARDSET
from core.creature_shrines.cards import EVENTS, slug, subtype_of, type_of
from creature_positions import carries, position

WORDS = CARDSET.words


def deck_of(card, decks=CARDSET.decks):
    return next((name for name, deck in decks.items() if carries(deck, card)), None)


def colour_source(deck):
    return slug(CARDSET.decks[deck].secondary[0][0].name)


def other(deck):
    return "green" if deck != "green" else "red"


def settle(st, player):
    """Answer every pending choice with its first option and draw what chance draws,
    until ``player`` is back at an act, or the game is over."""
    for _ in range(60):
        d = st.to_dict()
        if st.is_terminal() or d["step"] == "act" and "choosing" not in d \
                and st.current_player() == player:
            return st
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        elif d["step"] in ("priority", "block"):
            st.apply_action(0)
        else:
            st.apply_action(st.legal_actions()[-1] if d["step"] == "act"
                            else st.legal_actions()[0])
    raise AssertionError("no end to the choices")


def units_of(d, owner=None):
    return [u for u in d["units"] if owner is None or u["owner"] == owner]


def shows(word, amount, target, before, after, me):
    """Whether ``after`` shows the effect word ``word`` of player ``me``'s card."""
    mine, theirs = after["players"][me], after["players"][1 - me]
    was = before["players"]
    hurt = any(u.get("damage", 0) > v.get("damage", 0)
               for u in after["units"] for v in before["units"] if u["slot"] == v["slot"])
    fallen = sum(len(p["graveyard"]) for p in after["players"]) \
        > sum(len(p["graveyard"]) for p in was)
    flag = {"freeze": "frozen", "ground": "grounded", "poison": "poisoned",
            "weaken": "weakened"}
    if word == "damage":
        return theirs["life"] < was[1 - me]["life"] or hurt or fallen
    if word == "draw":
        return mine["hand_size"] >= was[me]["hand_size"]
    if word == "move":
        # a unit off the site it had, or a new one off the Melee row it is played on
        start = {v["slot"]: v["site"] for v in before["units"]}
        return any(u["site"] != start.get(u["slot"], "0" + u["site"][1])
                   for u in units_of(after, me))
    if word == "bounce":
        return len(theirs["hand_known"]) > len(was[1 - me]["hand_known"])
    if word in flag:
        return any(u.get(flag[word]) for u in after["units"])
    if word == "swap":
        return mine["top"] or mine["bottom"]
    if word == "mana":
        return sum(mine["pool"].values()) >= amount
    if word == "token":
        made = slug(CARDSET.token_design(target).name)
        return sum(u["card"] == made for u in units_of(after, me)) \
            >= amount + sum(u["card"] == made for u in units_of(before, me))
    if word == "armor":
        return any(u.get("armor", 0) >= amount for u in units_of(after))
    if word == "life":
        return mine["life"] > was[me]["life"]
    if word == "pump":
        return any(u.get("pump", 0) >= amount for u in units_of(after, me))
    return fallen


FIELD = [{"slot": 40, "card": "wandering_golem", "owner": 0, "site": "1a"},
         {"slot": 41, "card": "wandering_golem", "owner": 1, "site": "2a"},
         {"slot": 42, "card": "stone_wall", "owner": 1, "site": "3b"}]


def scene(card, event, every):
    """(state, player, action names) with ``card``'s ``event`` about to happen; a design
    no shipped deck carries is played from the deck file ``every``."""
    deck = deck_of(card)
    decks = "" if deck else f"decks={every},"
    deck = deck or deck_of(card, core.load_game(f"creature_shrines(decks={every})").decks)
    name = slug(card.name)
    game = f"creature_shrines({decks}deck0={deck},deck1={other(deck)})"
    rich = {"sources": {colour_source(deck): 9}}
    if event == "play":
        me = dict(rich)
        if card is CARDSET.decks[deck].shrine:
            return position(game, [me, {}], FIELD, turn=2), 0, [f"play the shrine {name}"]
        me["hand_secondary" if type_of(card) == "source" else "hand"] = [name]
        return position(game, [me, {}], FIELD, turn=2), 0, [f"play {name}"]
    if event == "tap":
        site = "side" if subtype_of(card) == "idol" else "0c"
        here = FIELD + [{"slot": 0, "card": name, "owner": 0, "site": site}]
        where = "beside the region" if site == "side" else f"at {site}"
        return position(game, [rich, {}], here, turn=2), 0, [f"tap {name} {where}"]
    if event == "upkeep":
        here = FIELD + [{"slot": 0, "card": name, "owner": 0, "site": "2a"}]
        return position(game, [rich, {}], here, turn=3, active=1, act="final"), 0, \
            ["pass the final act"]
    if event == "deathwish":
        here = FIELD[:2] + [{"slot": 0, "card": name, "owner": 0, "site": "2c",
                             "damage": card.resilience - 1},
                            {"slot": 1, "card": "watchtower", "owner": 1, "site": "3c"}]
        game = f"creature_shrines({decks}deck0={deck},deck1=green)"
        return position(game, [{}, {}], here, turn=3, active=1), 1, \
            ["tap watchtower at 3c", f"target {name} at 2c"]
    here = FIELD[:1] + [{"slot": 0, "card": name, "owner": 0, "site": "2a",
                         "face_down": True},
                        {"slot": 1, "card": "wandering_golem", "owner": 1, "site": "3a"}]
    return position(game, [{}, {}], here, turn=3, active=1, act="travel"), 1, \
        ["travel with wandering_golem at 3a", "pass the travel act"]


CASES = [(c, e) for c in CARDSET.cards if not c.token for e in EVENTS if getattr(c, e)]
PLAIN = [c for c in CARDSET.cards if not c.token and not any(getattr(c, e) for e in EVENTS)]


@pytest.mark.parametrize("card, event", CASES,
                         ids=[f"{slug(c.name)}-{e}" for c, e in CASES])
def test_each_effect_of_each_design_shows(card, event, every):
    st, me, steps = scene(card, event, every)
    before = st.to_dict()
    for step in steps:
        legal = {st.action_to_string(a): a for a in st.legal_actions()}
        if step in legal:
            st.apply_action(legal[step])
        else:
            assert step.startswith("target "), (step, sorted(legal))
    settle(st, me if event != "upkeep" else 0)
    after = st.to_dict()
    owner = 0
    for op, amount, arg, arg2 in getattr(card, event):
        word = WORDS.words[op].name
        assert shows(word, amount, arg, before, after, owner), \
            (WORDS.text((op, amount, arg, arg2)), after)


@pytest.mark.parametrize("card", PLAIN, ids=[slug(c.name) for c in PLAIN])
def test_each_design_without_effects_is_played_and_lands(card, every):
    st, me, steps = scene(card, "play", every)
    name = slug(card.name)
    legal = {st.action_to_string(a): a for a in st.legal_actions()}
    assert steps[0] in legal, sorted(legal)
    st.apply_action(legal[steps[0]])
    settle(st, 0)
    d = st.to_dict()
    if type_of(card) == "source":
        assert d["players"][0]["sources"][name] == 10
    else:
        assert any(u["card"] == name for u in d["units"]), d["units"]


@pytest.mark.parametrize("card", [c for c in CARDSET.cards if c.token],
                         ids=[slug(c.name) for c in CARDSET.cards if c.token])
def test_each_token_is_made_by_a_card_with_its_stats(card):
    makers = [c for c in CARDSET.cards for e in EVENTS for op, _, arg, _ in getattr(c, e)
              if WORDS.words[op].name == "token"
              and CARDSET.token_design(arg) is card]
    assert makers
    game = core.load_game("creature_shrines")
    assert game.cards.names[card.id] == slug(card.name)
