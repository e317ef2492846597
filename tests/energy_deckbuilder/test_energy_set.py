"""The card set as data (E1, E2): what the shipped set holds, every fault a designer can
make refused with the card and field it lies in, and the card list generated from it."""
import os
import tomllib

import pytest

from core.energy_deckbuilder import cards
from core.energy_deckbuilder.cards import CARDS, DECKS, TYPES, WORDS, load
from core.errors import CardDataError

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "energy-deckbuilder-cards.md")


def of(deck):
    return [c for c in CARDS if DECKS[c.deck] == deck]


def colours(card):
    return {name for i, name in enumerate(cards.COLOURS) if card.colour >> i & 1}


def words(card, event):
    return {WORDS.words[op].name for op, *_ in getattr(card, event)}


def test_the_set_holds_the_starting_deck_three_zero_cost_piles_and_32_market_cards():
    # (E2)
    starting = {}
    for c in of("starter"):
        (colour,) = colours(c)
        starting[colour] = starting.get(colour, 0) + c.copies
    assert starting == {"white": 5, "red": 1, "green": 1, "blue": 1}
    piles = of("pile")
    assert sorted(sorted(colours(c)) for c in piles) == [["blue", "green"], ["blue", "red"],
                                                         ["green", "red"]]
    assert all(c.copies == 4 and c.buy == 0 for c in piles)
    market = of("market")
    assert len(market) >= 32 and len({c.name for c in market}) == len(market)
    assert all(c.copies == 1 and c.buy >= 1 for c in market)


def test_every_mechanic_of_the_text_is_on_a_card():
    # (E2)
    kinds = [TYPES[c.type] for c in CARDS]
    assert {"creature", "upgrade", "action"} <= set(kinds)
    assert any(c.upkeep for c in CARDS) and any(c.produce for c in CARDS)
    assert any("store" in words(c, e) for c in CARDS for e in ("play", "upkeep", "produce"))
    assert any(TYPES[c.type] == "creature" and "white" in colours(c) for c in CARDS)
    assert any(TYPES[c.type] == "upgrade" and (c.upkeep or c.produce) for c in CARDS)
    # Gaining a colour is where the black fallback shows.
    assert any("gain" in words(c, "play") for c in CARDS)
    assert any(c.discard == 0b11 << i for c in CARDS for i in range(3))


def write(tmp_path, edit):
    """The shipped set with ``edit`` applied to its list of card tables, written back
    as TOML."""
    with open(cards.PATH, "rb") as f:
        tables = tomllib.load(f)["card"]
    edit(tables)

    def value(v):
        if isinstance(v, str):
            return f'"{v}"'
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        return str(v)

    path = tmp_path / "cards.toml"
    path.write_text("".join("[[card]]\n" + "".join(f"{k} = {value(v)}\n" for k, v in t.items())
                            + "\n" for t in tables))
    return path


def card(tables, name):
    return next(t for t in tables if t["name"] == name)


@pytest.mark.parametrize("edit, message", [
    (lambda t: card(t, "Scorch").update(name="Fire Ball"),
     r"card 'Fire Ball', field 'name': a name is one capitalised word"),
    (lambda t: card(t, "Wisp").update(copies=6), r"the starting deck holds .*'white': 6"),
    (lambda t: card(t, "Ashbloom").update(copies=3),
     r"card 'Ashbloom', field 'copies': each zero-cost pile holds 4 cards"),
    (lambda t: card(t, "Mossmere").update(colour=["red", "blue"]),
     r"the zero-cost piles are .*red/green, red/blue and green/blue"),
    (lambda t: card(t, "Scorch").update(copies=2),
     r"card 'Scorch', field 'copies': the market cards are all distinct"),
    (lambda t: card(t, "Scorch").update(buy=0),
     r"card 'Scorch', field 'buy': a market card costs at least 1"),
    (lambda t: card(t, "Ashbloom").update(buy=1),
     r"card 'Ashbloom', field 'buy': a pile card costs nothing to buy"),
    (lambda t: [t.remove(card(t, n)) for n in ("Scorch", "Firebolt", "Warcry", "Wildfire",
                                               "Regrowth")],
     r"31 market cards; E2 asks for at least 32"),
    (lambda t: card(t, "Kindler").update(produce=["untap 1"]),
     r"card 'Kindler', field 'produce': a produce trigger may not untap"),
    (lambda t: card(t, "Scorch").update(power=2),
     r"card 'Scorch', field 'power': an action goes to the discard pile"),
    (lambda t: card(t, "Lantern").update(energy={}),
     r"card 'Lantern', field 'energy': a creature produces energy"),
    (lambda t: card(t, "Lantern").update(toughness=0),
     r"card 'Lantern', field 'toughness': a creature has toughness 1 or more"),
    (lambda t: card(t, "Scorch").update(discard=[]),
     r"card 'Scorch', field 'discard': discarding a card gains energy"),
    (lambda t: card(t, "Scorch").update(play=["damage 3 planet"]),
     r"card 'Scorch', field 'play': effect 'damage 3 planet': 'planet' is not one of"),
    (lambda t: card(t, "Scorch").update(play=["store 1 black"]),
     r"'black' is not one of red, green, blue"),
    (lambda t: card(t, "Scorch").update(play=["draw 1"] * 5),
     r"card 'Scorch', field 'play': at most 4 effects per event"),
    (lambda t: card(t, "Scorch").update(cost={"white": 1}),
     r"card 'Scorch', field 'cost': 'white' is not one of red, green, blue, any"),
    (lambda t: card(t, "Emberling").pop("type"), r"card 'Emberling': the field 'type' is missing"),
])
def test_a_fault_in_the_set_is_refused_naming_the_card_and_field(tmp_path, edit, message):
    # (E1)
    with pytest.raises(CardDataError, match=message):
        load(write(tmp_path, edit))


def test_the_set_written_back_unchanged_loads_as_shipped(tmp_path):
    loaded = load(write(tmp_path, lambda tables: None))
    assert [vars(c) for c in loaded] == [vars(c) for c in CARDS]


def test_the_card_list_is_generated_from_the_data():
    with open(DOC) as f:
        assert f.read() == cards.markdown(), \
            "python -m core.energy_deckbuilder > docs/energy-deckbuilder-cards.md"
    text = cards.markdown()
    for c in CARDS:
        assert f"| {c.name}" in text
    assert all(f"`{w.name}`" in text for w in WORDS.words)
