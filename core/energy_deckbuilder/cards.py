"""The energy deck-builder's card set: what a card may say (the schema and the effect
words, ruling E1), reading ``data/cards.toml`` with the checks E2 asks of the set, and
the card list in Markdown.  The engine compiles :data:`CARDS` into its C tables once,
at import.

    python -m core.energy_deckbuilder > docs/energy-deckbuilder-cards.md

writes the card list that docs/rules/energy-deckbuilder.md points to.
"""
import os
import re

from core.errors import CardDataError
from core.kit.carddata import Field, Vocabulary, Word, card_table, load_cards

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "cards.toml")

COLOURS = ("white", "red", "green", "blue")      # a card's colours
ENERGY = ("red", "green", "blue", "black")       # energy cubes; only black is not a card colour
DECKS = ("starter", "pile", "market")
TYPES = ("creature", "upgrade", "action")
EVENTS = ("play", "upkeep", "produce")
# The struct's room: card designs, upgrade designs, effects per event of one card.
MAX_DESIGNS = 48
MAX_UPGRADE_KINDS = 8
MAX_EFFECTS = 4

WORDS = Vocabulary([
    Word("damage", amount=(1, 9), args=("creature", "player", "all"),
         doc="N damage to an opponent's creature of your choice, to the opponent's "
             "lives, or to each of the opponent's creatures"),
    Word("destroy", amount=(1, 12),
         doc="destroy an opponent's creature of your choice whose toughness is at most N"),
    Word("life", amount=(1, 9), doc="gain N lives"),
    Word("draw", amount=(1, 4), doc="draw N cards"),
    Word("gain", amount=(1, 6), args=ENERGY,
         doc="take N energy of the colour from the common supply into your supply"),
    Word("store", amount=(1, 6), args=ENERGY[:3],
         doc="take N energy of the colour from the common supply onto one of your white "
             "creatures of your choice"),
    Word("untap", amount=(1, 3),
         doc="untap one of your tapped creatures of your choice, N times; never the "
             "creature whose trigger it is"),
    Word("boost", amount=(1, 9),
         doc="one of your creatures of your choice has N more power this turn"),
])

SCHEMA = {
    "deck": Field("choice", default=DECKS.index("market"), choices=DECKS,
                  doc="where the design starts"),
    "copies": Field("int", default=1, lo=1, hi=8,
                    doc="starter: per player; pile: cards in the pile; market: 1"),
    "type": Field("choice", choices=TYPES),
    "colour": Field("choices", choices=COLOURS),
    "cost": Field("counts", choices=("red", "green", "blue", "any"), hi=9),
    "buy": Field("int", lo=0, hi=12),
    "discard": Field("choices", choices=ENERGY),
    "power": Field("int", lo=0, hi=12),
    "toughness": Field("int", lo=0, hi=12),
    "energy": Field("counts", choices=ENERGY, hi=4),
    "play": Field("effects"),
    "upkeep": Field("effects"),
    "produce": Field("effects"),
}
REQUIRED = ("name", "type", "colour", "discard")


def load(path=PATH):
    """The card designs of ``path``, read and checked: every fault raises
    :class:`~core.errors.CardDataError` naming the file, the card and the field."""
    cards = load_cards(path, SCHEMA, WORDS, required=REQUIRED)
    check(cards, path)
    return cards


def _fault(path, card, field, why):
    return CardDataError(f"{path}: card {card.name!r}, field {field!r}: {why}")


def check(cards, path):
    """The rules of the game the card data must keep (E1, E2), beyond the schema's."""
    if len(cards) > MAX_DESIGNS:
        raise CardDataError(f"{path}: {len(cards)} designs; the engine holds at most "
                            f"{MAX_DESIGNS}")
    for card in cards:
        _check_card(card, path)
    upgrades = [c for c in cards if TYPES[c.type] == "upgrade"]
    if len(upgrades) > MAX_UPGRADE_KINDS:
        raise _fault(path, upgrades[MAX_UPGRADE_KINDS], "type",
                     f"at most {MAX_UPGRADE_KINDS} upgrade designs fit a creature's record")
    _check_decks(cards, path)


def _check_card(card, path):
    # Action names and the leak tests read a card's name as one word.
    if not re.fullmatch(r"[A-Z][a-z]+", card.name):
        raise _fault(path, card, "name", "a name is one capitalised word of letters")
    if not card.colour:
        raise _fault(path, card, "colour", "a card has at least one colour")
    if not card.discard:
        raise _fault(path, card, "discard", "discarding a card gains energy of a colour")
    for event in EVENTS:
        if len(getattr(card, event)) > MAX_EFFECTS:
            raise _fault(path, card, event, f"at most {MAX_EFFECTS} effects per event")
    # A produce trigger that untaps would let creatures produce without end (E20).
    if any(WORDS.words[op].name == "untap" for op, *_ in card.produce):
        raise _fault(path, card, "produce", "a produce trigger may not untap")
    kind = TYPES[card.type]
    if kind == "creature":
        if card.toughness < 1:
            raise _fault(path, card, "toughness", "a creature has toughness 1 or more")
        if not sum(card.energy) and not card.produce:
            raise _fault(path, card, "energy", "a creature produces energy or has a "
                                               "produce trigger")
    elif kind == "action":
        for field in ("power", "toughness", "energy", "upkeep", "produce"):
            if getattr(card, field) != SCHEMA[field].empty():
                raise _fault(path, card, field, "an action goes to the discard pile as it "
                                                "is played: only its play effects count")


def _check_decks(cards, path):
    """E2: the starting deck, the three zero-cost piles, and the distinct market cards."""
    starters = [c for c in cards if DECKS[c.deck] == "starter"]
    piles = [c for c in cards if DECKS[c.deck] == "pile"]
    market = [c for c in cards if DECKS[c.deck] == "market"]
    for card in starters + piles:
        if card.buy:
            raise _fault(path, card, "buy", f"a {DECKS[card.deck]} card costs nothing to buy")
    by_colour = {}
    for card in starters:
        if bin(card.colour).count("1") != 1:
            raise _fault(path, card, "colour", "a starting card has one colour")
        colour = COLOURS[card.colour.bit_length() - 1]
        by_colour[colour] = by_colour.get(colour, 0) + card.copies
    wanted = {"white": 5, "red": 1, "green": 1, "blue": 1}
    if by_colour != wanted:
        raise CardDataError(f"{path}: the starting deck holds {by_colour}; E2 asks for "
                            f"{wanted} per player")
    pairs = sorted(tuple(COLOURS[i] for i in range(4) if c.colour >> i & 1) for c in piles)
    if pairs != sorted([("red", "green"), ("red", "blue"), ("green", "blue")]):
        raise CardDataError(f"{path}: the zero-cost piles are {pairs}; E2 asks for three, "
                            f"red/green, red/blue and green/blue")
    for card in piles:
        if card.copies != 4:
            raise _fault(path, card, "copies", "each zero-cost pile holds 4 cards")
    for card in market:
        if card.copies != 1:
            raise _fault(path, card, "copies", "the market cards are all distinct (E2)")
        if card.buy < 1:
            raise _fault(path, card, "buy", "a market card costs at least 1 to buy")
    if len(market) < 32:
        raise CardDataError(f"{path}: {len(market)} market cards; E2 asks for at least 32")


CARDS = load()


# --- the card list -----------------------------------------------------------------

def _counts(values, names):
    return ", ".join(f"{n} {name}" for n, name in zip(values, names) if n) or "-"


def _colours(bits, names):
    return "/".join(names[i] for i in range(len(names)) if bits >> i & 1)


def _effects(card):
    parts = []
    played = "" if TYPES[card.type] == "action" else "enters: "
    for event, mark in zip(EVENTS, (played, "U: ", "produce: ")):
        texts = [WORDS.text(e) for e in getattr(card, event)]
        if texts:
            parts.append(mark + ", ".join(texts))
    return "; ".join(parts) or "-"


COLUMNS = ["Card", "Type", "Colour", "Play cost", "Buy", "Discard for", "Power",
           "Toughness", "Produces", "Effects"]


def _row(c):
    """A card's row of the card list, one value per column of ``COLUMNS``."""
    deck = DECKS[c.deck]
    creature = TYPES[c.type] == "creature"
    return [c.name, TYPES[c.type], _colours(c.colour, COLOURS),
            _counts(c.cost, ("red", "green", "blue", "any")),
            "-" if deck == "starter" else c.buy,
            " or ".join(ENERGY[i] for i in range(4) if c.discard >> i & 1),
            c.power if creature else (f"+{c.power}" if c.power else "-"),
            c.toughness if creature else (f"+{c.toughness}" if c.toughness else "-"),
            _counts(c.energy, ENERGY), _effects(c)]


def markdown(cards=CARDS):
    """The card list as Markdown, from the data alone."""
    out = ["# Energy deck-builder: the card set", "",
           "Generated from `core/energy_deckbuilder/data/cards.toml` by "
           "`python -m core.energy_deckbuilder`; do not edit by hand. The rules and "
           "rulings are in [rules/energy-deckbuilder.md](rules/energy-deckbuilder.md).", ""]
    for deck, title in zip(DECKS, ("The starting deck (per player)",
                                   "The zero-cost piles", "The market deck")):
        rows = []
        for c in cards:
            if DECKS[c.deck] != deck:
                continue
            row = _row(c)
            if deck != "market":
                row[0] = f"{c.name} ×{c.copies}"
            rows.append(row)
        out += [f"## {title}", "", card_table(rows, COLUMNS)]
    out += ["## Effect words", ""]
    out.append(card_table([[f"`{w.name}`", w.doc] for w in WORDS.words], ["Word", "Meaning"]))
    return "\n".join(out)


_NAMED = {c.name.lower(): c for c in CARDS}


def card_text(name):
    """What is printed on the card ``name`` (as a position writes it, ``Emberling``,
    in any case): its name, then each column of the card list it has something in;
    None for no card of the set.  The page and ``cardarena play``'s ``card`` command
    read it.

    >>> card_text("emberling")["type"]
    'creature'
    """
    card = _NAMED.get(" ".join(name.replace("_", " ").split()).lower())
    if card is None:
        return None
    return {key.lower(): str(value) for key, value in zip(COLUMNS, _row(card))
            if value not in ("-", "")}
