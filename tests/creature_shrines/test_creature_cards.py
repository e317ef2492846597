"""The card set and decks as data (rulings C1-C4): every colour has its Shrine and a
legal deck, every ability, condition, type and subtype is on some card, every fault a
designer can make is refused naming the deck or card and why, and the card list in
docs/ is the one the data gives."""
import doctest

import pytest

from core.creature_shrines import cards as cardmod
from core.creature_shrines.cards import (CARDSET, COLOURS, DOC, KEYWORDS, TYPE_SUBTYPES,
                                         CardSet, card_doc, subtype_of, type_of)
from core.errors import CardDataError

CARDS_TOML = cardmod.DATA / "cards.toml"


def test_the_module_examples_run():
    failed, attempted = doctest.testmod(cardmod)
    assert failed == 0 and attempted > 0


def test_each_colour_has_a_shrine_and_a_shipped_deck_of_its_colour():
    # (C2, C4)
    for i, colour in enumerate(COLOURS):
        deck = CARDSET.decks[colour]
        assert deck.shrine.legendary and deck.shrine.colours == 1 << i
        assert sum(n for _, n in deck.primary) == 40
        assert sum(n for _, n in deck.secondary) == 20
        assert all(c.colours in (0, 1 << i) for c, _ in deck.primary + deck.secondary)


def test_every_ability_condition_type_and_subtype_is_on_a_card():
    # (C3)
    keywords = 0
    for card in CARDSET.cards:
        keywords |= card.keywords
    assert keywords == (1 << len(KEYWORDS)) - 1
    assert any(c.sprint for c in CARDSET.cards) and any(c.range for c in CARDSET.cards)
    words = {CARDSET.words.words[op].name for c in CARDSET.cards
             for event in cardmod.EVENTS for op, *_ in getattr(c, event)}
    assert {"freeze", "ground", "poison", "weaken", "bounce", "swap", "damage", "draw",
            "move", "mana", "token", "armor", "life"} <= words
    kinds = {(type_of(c), subtype_of(c)) for c in CARDSET.cards}
    assert kinds == {(t, s) for t, subs in TYPE_SUBTYPES.items() for s in subs}


def test_the_card_list_in_docs_is_generated_from_the_data():
    assert DOC.read_text() == card_doc(CARDSET), \
        "regenerate it: python -m core.creature_shrines.cards"


def write_set(tmp_path, extra="", decks=None):
    cards = tmp_path / "cards.toml"
    cards.write_text(CARDS_TOML.read_text() + extra)
    deck_path = tmp_path / "decks.toml"
    deck_path.write_text(decks if decks is not None else (cardmod.DATA / "decks.toml").read_text())
    return cards, deck_path


@pytest.mark.parametrize("card, message", [
    ('type = "spell"\nsubtype = "tool"\nplay = ["draw 1"]',
     "card 'X': a spell has subtype inert or burst, not tool"),
    ('type = "structure"\nlegendary = true\nresilience = 2',
     "only a creature may be legendary or a token"),
    ('type = "source"\ncolours = ["red"]', "every Source is basic, and only a Source is"),
    ('colours = ["red"]\ncost = { blue = 1 }\nresilience = 1',
     "its colours must be those of the mana symbols in its cost"),
    ("strength = 2", "a creature needs a resilience of at least 1"),
    ('type = "structure"\nresilience = 3\nstrength = 1', "a structure deals no damage"),
    ('type = "area"\nsubtype = "trap"\narea = "site"\ntrigger = "enemy_enters"\n'
     'cost = { generic = 2 }\nspring = ["damage 1 area"]', "a Trap always costs 3"),
    ('resilience = 1\nkeywords = ["deathwish"]',
     "the Deathwish ability and deathwish effects go together"),
    ('resilience = 1\nplay = ["damage 1 area"]', "only an area effect acts on its area"),
    ('resilience = 1\nplay = ["token 1 goblin"]', "'goblin' is not one of dawn_squire"),
    ('resilience = 1\nx = true', "only a spell has \\(X\\) in its cost"),
    ('type = "spell"\nsubtype = "inert"\nplay = ["damage X enemy"]',
     "play: an amount X is the X of the card's cost"),
    ('type = "spell"\nsubtype = "inert"\nx = true\nplay = ["swap X"]',
     "for one of damage, draw, life, pump"),
])
def test_a_bad_card_is_refused_naming_it_and_why(tmp_path, card, message):
    cards, decks = write_set(tmp_path, f'\n[[card]]\nname = "X"\n{card}\n')
    with pytest.raises(CardDataError, match=message):
        CardSet(cards, decks)


def red_deck(**change):
    table = {"shrine": '"Korrath, Ember Tyrant"',
             "secondary": '{ "Ember Vent" = 20 }',
             "primary": '{ "Blaze Hound" = 3, "Cinder Brute" = 3, "Ash Cleaver" = 3, '
                        '"Ironhide Ogre" = 3, "Ember Charger" = 3, "Magma Bulwark" = 3, '
                        '"Firebolt" = 3, "Warcry" = 3, "Battle Standard" = 3, '
                        '"Wandering Golem" = 3, "Stone Wall" = 3, "Iron Spear" = 3, '
                        '"Thunderstorm" = 3, "Pitfall" = 1 }'}
    table.update(change)
    return "[deck.mine]\n" + "".join(f"{k} = {v}\n" for k, v in table.items())


def test_the_model_deck_is_legal(tmp_path):
    assert "mine" in CardSet(*write_set(tmp_path, decks=red_deck())).decks


@pytest.mark.parametrize("change, message", [
    ({"shrine": '"Blaze Hound"'}, "the shrine 'Blaze Hound' must be a legendary creature"),
    ({"shrine": '"Nobody"'}, "the shrine 'Nobody' is not a card of the set"),
    ({"secondary": '{ "Ember Vent" = 19 }'}, "the secondary library holds 19 cards, not 20"),
    ({"primary": '{ "Blaze Hound" = 40 }'}, "'Blaze Hound' has 40 copies; at most 3"),
    ({"secondary": '{ "Ember Vent" = 17, "Blaze Hound" = 3 }'},
     "'Blaze Hound' has 6 copies"),
    ({"secondary": '{ "Ember Vent" = 19, "Tidepool" = 1 }'},
     "'Tidepool' is not of the Shrine's colours \\(red\\)"),
    ({"secondary": '{ "Ember Vent" = 19, "Korrath, Ember Tyrant" = 1 }'},
     "is the deck's Shrine"),
    ({"secondary": '{ "Ember Vent" = 19, "Dawn Squire" = 1 }'}, "'Dawn Squire' is a token"),
    ({"primary": '{ "Ember Vent" = 40 }'}, "Sources belong to the secondary library"),
])
def test_a_bad_deck_is_refused_naming_the_deck_card_and_why(tmp_path, change, message):
    cards, decks = write_set(tmp_path, decks=red_deck(**change))
    with pytest.raises(CardDataError, match=f"deck 'mine'.*{message}"):
        CardSet(cards, decks)
