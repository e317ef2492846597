"""The Creature Shrines card set and decks as data (rulings C1-C4): what a card may say,
the effect words it may use, and the checks a card and a deck must pass.

The set lives in ``data/cards.toml`` and the decks in ``data/decks.toml``; the engine
compiles them into static C tables at import.  Every fault is refused with a
:class:`~core.errors.CardDataError` naming the file or deck, the card and why.

>>> CARDSET.decks["red"].shrine.name
'Korrath, Ember Tyrant'
>>> sum(n for _, n in CARDSET.decks["red"].primary)
40
>>> [CARDSET.words.text(e) for e in CARDSET.named["Scry the Depths"].play]
['swap 3 primary', 'draw 1 any']

``python -m core.creature_shrines.cards`` rewrites docs/creature-shrines-cards.md.
"""
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from core.errors import CardDataError
from core.kit.carddata import (VARIABLE, Field, Vocabulary, Word, card_table, load_cards,
                               read_counts, read_toml)

DATA = Path(__file__).parent / "data"
DOC = Path(__file__).parents[2] / "docs" / "creature-shrines-cards.md"

COLOURS = ("blue", "yellow", "red", "green", "purple")
TYPES = ("creature", "structure", "relic", "area", "source", "spell")
SUBTYPES = ("none", "tool", "idol", "terrain", "weather", "trap", "inert", "burst")
# Each type's subtypes: a relic is a Tool or an Idol, an Area Effect a Terrain, Weather
# or Trap, a Spell is played at Inert or Burst speed.
TYPE_SUBTYPES = {"creature": ("none",), "structure": ("none",), "source": ("none",),
                 "relic": ("tool", "idol"), "area": ("terrain", "weather", "trap"),
                 "spell": ("inert", "burst")}
# The static abilities of the rules, each a bit of a design's keyword flags in this
# order; Range (X) and Sprint (X) carry a number, so they are fields of their own.
KEYWORDS = ("armor", "bloodless", "cleave", "deathwish", "haste", "flying", "guard",
            "immoveable", "lunge", "protection", "reach", "saddle", "mount", "stationary",
            "stomp", "quick_attack", "unstoppable", "double_attack")
AREAS = ("none", "site", "row", "pathway")
TRIGGERS = ("none", "enemy_enters", "enemy_attacks")
# What each Trap requirement asks, as the card list and the rules doc say it and the
# engine plays it (C39): a structure meets none.
TRIGGER_TEXT = {"enemy_enters": "springs when an opposing creature comes onto its area",
                "enemy_attacks": "springs when an opposing creature in its area enters "
                                 "combat"}
# The moments a design's effects run: as it is played, at the start of its controller's
# turn, when it is tapped, when it dies (Deathwish), when a Trap's requirement is met.
EVENTS = ("play", "upkeep", "tap", "deathwish", "spring")
# Whom an effect acts on: the card itself, a creature of its controller's, an opposing
# permanent, any permanent, the opposing player, every permanent in an Area Effect's area.
TARGETS = ("self", "ally", "enemy", "permanent", "opponent", "area")
LIBRARIES = ("any", "primary", "secondary")
DIRECTIONS = ("forward", "back", "left", "right")
# The words whose amount may be X, the X paid for the card's cost (C40): a number of
# any size means the same to each of them.
X_WORDS = ("damage", "draw", "life", "pump")
MAX_COPIES = 3
PRIMARY_SIZE = 40
SECONDARY_SIZE = 20

SCHEMA = {
    "type": Field("choice", default=0, choices=TYPES,
                  doc="the card type; a card that names none is a creature"),
    "subtype": Field("choice", default=0, choices=SUBTYPES,
                     doc="Tool or Idol for a relic, Terrain, Weather or Trap for an area "
                         "effect, Inert or Burst speed for a spell"),
    "legendary": Field("bool", doc="a legendary creature, which may be a deck's Shrine"),
    "token": Field("bool", doc="a creature only effects create; never in a deck"),
    "basic": Field("bool", doc="a basic Source, which a deck may hold any number of"),
    "colours": Field("choices", choices=COLOURS,
                     doc="the colours of its mana symbols (a Source's: what it produces)"),
    "cost": Field("counts", choices=("generic",) + COLOURS, hi=9,
                  doc="mana to play it: generic, and of each colour"),
    "x": Field("bool", doc="(X) in its cost: its player chooses X, 0 or more, and pays X "
                           "generic mana more; its effects written with X scale by it (C40)"),
    "strength": Field("int", lo=0, hi=12, doc="combat damage it deals (a Tool: added)"),
    "resilience": Field("int", lo=0, hi=15, doc="damage it takes to die (a Tool: added)"),
    "sprint": Field("int", lo=0, hi=3, doc="Sprint (X): sites added to its travel"),
    "range": Field("int", lo=0, hi=3, doc="Range (X): sites added to its attacking range"),
    "keywords": Field("choices", choices=KEYWORDS, doc="its static abilities"),
    "attach_cost": Field("int", lo=0, hi=9,
                         doc="a Tool's cost to attach; 0: it attaches as it comes in"),
    "area": Field("choice", default=0, choices=AREAS,
                  doc="where an Area Effect lies: a site, a row or a pathway"),
    "trigger": Field("choice", default=0, choices=TRIGGERS,
                     doc="a Trap's requirement to flip face up"),
    "play": Field("effects", doc="effects as it is played"),
    "upkeep": Field("effects", doc="effects at the start of its controller's turn"),
    "tap": Field("effects", doc="effects of tapping it"),
    "deathwish": Field("effects", doc="effects when it dies"),
    "spring": Field("effects", doc="a Trap's effects once its requirement is met"),
    "text": Field("str", doc="flavour, for people"),
}

PERMANENTS = ("creature", "structure", "relic")


def slug(name):
    """A token's name as an effect writes it: ``Dawn Squire`` is ``dawn_squire``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def vocabulary(tokens):
    """The effect words (C1), given the tokens' names as effects write them."""
    return Vocabulary([
        Word("damage", (1, 9), TARGETS, doc="deal damage"),
        Word("draw", (1, 3), LIBRARIES, default="any",
             doc="draw cards, from a library of its controller's choice unless named"),
        Word("move", (1, 4), TARGETS, DIRECTIONS, doc="move a permanent sites that way"),
        Word("bounce", None, TARGETS, doc="return a permanent to its owner's hand"),
        Word("freeze", None, TARGETS, doc="it can no longer tap or travel"),
        Word("ground", None, TARGETS, doc="it loses Flying, Lunge and Sprint, and moves "
                                          "only by travelling"),
        Word("poison", None, TARGETS, doc="it deals no combat damage"),
        Word("weaken", None, TARGETS, doc="any damage destroys it"),
        Word("swap", (1, 3), LIBRARIES[1:], default="primary",
             doc="look at the top cards of a library, keep or put each at the bottom"),
        Word("mana", (1, 3), COLOURS, doc="add mana to its controller's pool"),
        Word("token", (1, 3), tuple(tokens), doc="create tokens"),
        Word("armor", (1, 3), TARGETS, doc="give Armor"),
        Word("life", (1, 9), doc="its controller gains life"),
        Word("pump", (1, 5), TARGETS, doc="+N strength and resilience this turn"),
        Word("destroy", None, TARGETS, doc="destroy a permanent"),
        Word("banish", None, TARGETS, doc="put a permanent in its owner's Banishment pile, "
                                          "out of the game (C42)"),
    ], variable=True)


@dataclass(frozen=True)
class Deck:
    """A shipped deck."""
    name: str
    """What a game parameter calls it: ``deck0=red``."""
    shrine: object
    """The legendary creature that starts in the Shrine Zone."""
    primary: list
    """``(card, copies)`` of the 40-card Primary Library."""
    secondary: list
    """``(card, copies)`` of the 20-card Secondary Library."""

    @property
    def colours(self):
        """The colours the deck may use: its Shrine's."""
        return self.shrine.colours


class CardSet:
    """The card designs and the decks, read and checked."""

    def __init__(self, cards_path, decks_path):
        data = read_toml(cards_path)
        tokens = [slug(c["name"]) for c in data.get("card", [])
                  if isinstance(c, dict) and c.get("token") is True
                  and isinstance(c.get("name"), str)]
        self.words = vocabulary(tokens)
        self.cards = load_cards(cards_path, SCHEMA, self.words)
        self.named = {c.name: c for c in self.cards}
        self.tokens = {slug(c.name): c for c in self.cards if c.token}
        for card in self.cards:
            check_card(card, self.words, f"{cards_path}: card {card.name!r}")
        self.decks = read_decks(decks_path, self.named)

    def token_design(self, index):
        """The card a ``token`` effect's argument names."""
        return self.tokens[self.words.words[self.words.ops["token"]].args[index]]


def type_of(card):
    return TYPES[card.type]


def subtype_of(card):
    return SUBTYPES[card.subtype]


def colour_bits(cost):
    return sum(1 << i for i, n in enumerate(cost[1:]) if n)


def check_card(card, words, where):
    """The rules a design must keep beyond its fields' own bounds."""
    kind, sub = type_of(card), subtype_of(card)

    def fault(why):
        raise CardDataError(f"{where}: {why}")

    if sub not in TYPE_SUBTYPES[kind]:
        fault(f"a {kind} has subtype {' or '.join(TYPE_SUBTYPES[kind])}, not {sub}")
    if (card.legendary or card.token) and kind != "creature":
        fault("only a creature may be legendary or a token")
    if card.legendary and card.token:
        fault("a token cannot be legendary")
    if card.basic != (kind == "source"):
        fault("every Source is basic, and only a Source is")
    if kind == "source":
        if sum(card.cost) or bin(card.colours).count("1") != 1:
            fault("a basic Source costs nothing and produces one colour")
    elif not card.token and card.colours != colour_bits(card.cost):
        fault("its colours must be those of the mana symbols in its cost")
    if kind in ("creature", "structure") and card.resilience < 1:
        fault(f"a {kind} needs a resilience of at least 1")
    if kind == "structure" and (card.strength or card.sprint or card.range):
        fault("a structure deals no damage and never travels")
    if kind not in PERMANENTS and (card.strength or card.resilience or card.sprint
                                   or card.range or card.keywords):
        fault(f"a {kind} is not a permanent: no strength, resilience or abilities")
    if card.attach_cost and sub != "tool":
        fault("only a Tool has an attach cost")
    if (kind == "area") != (card.area != 0):
        fault("an area effect, and only one, names its area")
    if (sub == "trap") != (card.trigger != 0):
        fault("a Trap, and only one, names its trigger")
    if sub == "trap" and sum(card.cost) != 3:
        fault("a Trap always costs 3")
    if card.x and kind != "spell":
        fault("only a spell has (X) in its cost: the engine pays X as a spell is played")
    has_deathwish = bool(card.keywords >> KEYWORDS.index("deathwish") & 1)
    if has_deathwish != bool(card.deathwish):
        fault("the Deathwish ability and deathwish effects go together")
    if card.spring and sub != "trap" or sub == "trap" and not card.spring:
        fault("a Trap, and only one, has spring effects")
    if card.tap and kind not in PERMANENTS:
        fault("only a permanent can be tapped")
    if card.upkeep and kind not in PERMANENTS + ("area",):
        fault("only a permanent or an area effect has upkeep effects")
    if kind == "spell" and not card.play:
        fault("a spell needs play effects")
    for event in EVENTS:
        for op, amount, arg, arg2 in getattr(card, event):
            if amount == VARIABLE and not (card.x and event == "play"
                                           and words.words[op].name in X_WORDS):
                fault(f"{event}: an amount X is the X of the card's cost, in its play "
                      f"effects, for one of {', '.join(X_WORDS)}")
            if words.words[op].args == TARGETS:
                target = TARGETS[arg]
                if target == "area" and kind != "area":
                    fault(f"{event}: only an area effect acts on its area")
                if target == "self" and kind not in PERMANENTS:
                    fault(f"{event}: only a permanent acts on itself")
                if target == "opponent" and words.words[op].name != "damage":
                    fault(f"{event}: of the words, only damage acts on the opposing player")


def read_decks(path, named):
    """Every ``[deck.NAME]`` of the file ``path``, each checked (C2, C4)."""
    data = read_toml(path)
    if set(data) != {"deck"} or not isinstance(data["deck"], dict) or not data["deck"]:
        raise CardDataError(f"{path}: a deck file is a set of [deck.NAME] tables")
    decks = {}
    for name, table in data["deck"].items():
        where = f"{path}: deck {name!r}"
        if not isinstance(table, dict) or set(table) != {"shrine", "primary", "secondary"}:
            raise CardDataError(f"{where}: a deck names its shrine, primary and secondary")
        shrine = named.get(table["shrine"])
        if shrine is None:
            raise CardDataError(f"{where}: the shrine {table['shrine']!r} is not a card "
                                f"of the set")
        deck = Deck(name, shrine, read_counts(table["primary"], named, f"{where}, primary"),
                    read_counts(table["secondary"], named, f"{where}, secondary"))
        check_deck(deck, where)
        decks[name] = deck
    return decks


def check_deck(deck, where):
    """A deck is legal: the sizes, the copies, the colours and the Shrine."""
    def fault(why):
        raise CardDataError(f"{where}: {why}")

    shrine = deck.shrine
    if not shrine.legendary or type_of(shrine) != "creature":
        fault(f"the shrine {shrine.name!r} must be a legendary creature")
    for library, cards, size in (("primary", deck.primary, PRIMARY_SIZE),
                                 ("secondary", deck.secondary, SECONDARY_SIZE)):
        total = sum(n for _, n in cards)
        if total != size:
            fault(f"the {library} library holds {total} cards, not {size}")
        for card, n in cards:
            if card.token:
                fault(f"{card.name!r} is a token, made by effects, never in a library")
            if card is shrine:
                fault(f"{card.name!r} is the deck's Shrine, so no copy of it may be in "
                      f"the {library} library")
            if card.colours & ~shrine.colours:
                fault(f"{card.name!r} is not of the Shrine's colours "
                      f"({', '.join(c for i, c in enumerate(COLOURS) if shrine.colours >> i & 1)})")
            if library == "primary" and type_of(card) == "source":
                fault(f"{card.name!r} is a Source: Sources belong to the secondary library")
    copies = {}
    for card, n in deck.primary + deck.secondary:
        copies[card.name] = copies.get(card.name, 0) + n
    for card, n in deck.primary + deck.secondary:
        if not card.basic and copies[card.name] > MAX_COPIES:
            fault(f"{card.name!r} has {copies[card.name]} copies; at most {MAX_COPIES} "
                  f"of a card but a basic Source")


def describe(card, words):
    """One row of the card list."""
    kind, sub = type_of(card), subtype_of(card)
    what = kind if sub == "none" else f"{kind} ({sub})"
    if card.legendary:
        what = f"legendary {what}"
    if card.token:
        what = f"token {what}"
    cost = " ".join(["X"] * card.x + [f"{n} {name}" for name, n
                                      in zip(("generic",) + COLOURS, card.cost) if n]) or "-"
    stats = f"{card.strength}/{card.resilience}" if kind in PERMANENTS else "-"
    abilities = [KEYWORDS[i].replace("_", " ") for i in range(len(KEYWORDS))
                 if card.keywords >> i & 1]
    abilities += [f"sprint {card.sprint}"] * bool(card.sprint)
    abilities += [f"range {card.range}"] * bool(card.range)
    abilities += [f"attach {card.attach_cost}"] * (sub == "tool")
    abilities += [f"area: {AREAS[card.area]}"] * bool(card.area)
    if card.trigger:
        trigger = TRIGGERS[card.trigger]
        abilities.append(f"trigger: {trigger} ({TRIGGER_TEXT[trigger]})")
    effects = "; ".join(f"{event}: " + ", ".join(words.text(e) for e in getattr(card, event))
                        for event in EVENTS if getattr(card, event))
    return [card.name, what, cost, stats, ", ".join(abilities) or "-", effects or "-"]


def card_doc(cardset):
    """docs/creature-shrines-cards.md, generated from the data."""
    columns = ["Card", "Type", "Cost", "S/R", "Abilities", "Effects"]
    parts = ["# Creature Shrines: the card set\n\n"
             "Generated from `core/creature_shrines/data/` by "
             "`python -m core.creature_shrines.cards`; do not edit by hand.  The rules: "
             "[rules/creature-shrines.md](rules/creature-shrines.md).\n"]
    for i, colour in enumerate(COLOURS + ("colourless",)):
        bit = 1 << i if i < len(COLOURS) else 0
        rows = [describe(c, cardset.words) for c in cardset.cards
                if c.colours == bit]
        parts.append(f"\n## {colour.capitalize()}\n\n" + card_table(rows, columns))
    parts.append("\n## Decks\n")
    for deck in cardset.decks.values():
        cards = ", ".join(f"{n} {c.name}" for c, n in deck.primary)
        sources = ", ".join(f"{n} {c.name}" for c, n in deck.secondary)
        parts.append(f"\n**{deck.name}** (`deck0={deck.name}`): Shrine {deck.shrine.name}. "
                     f"Primary: {cards}. Secondary: {sources}.\n")
    return "".join(parts)


FILES = (DATA / "cards.toml", DATA / "decks.toml")
CARDSET = CardSet(*FILES)
_BY_SLUG = {slug(c.name): c for c in CARDSET.cards}
_READ = {}


def decks_of(path):
    """The decks of a designer's deck file ``path``, built from the shipped card set
    and checked as the shipped decks are (C2, C4); the shipped decks for "".  A file
    is read again when it changes, so an edited deck is never played from memory."""
    if not path:
        return CARDSET.decks
    try:
        stamp = Path(path).stat().st_mtime_ns
    except OSError as e:
        raise CardDataError(f"{path}: cannot read it ({e.strerror})") from None
    if _READ.get(path, (None,))[0] != stamp:
        _READ[path] = (stamp, read_decks(path, CARDSET.named))
    return _READ[path][1]


def card_text(name):
    """What is printed on the card ``name`` (as a position writes it, ``blaze_hound``,
    or as printed, ``Blaze Hound``): its name, then its type, cost, strength and
    resilience, abilities and effects as the card list gives them, leaving out what
    it has none of; None for no card of the set.  The page and ``cardarena play``'s
    ``card`` command read it.

    >>> card_text("Blaze Hound")["abilities"]
    'haste'
    """
    card = _BY_SLUG.get(slug(name))
    if card is None:
        return None
    columns = ("card", "type", "cost", "strength/resilience", "abilities", "effects")
    return {key: value for key, value in zip(columns, describe(card, CARDSET.words))
            if value != "-"}

if __name__ == "__main__":
    DOC.write_text(card_doc(CARDSET))
    print(f"wrote {DOC}", file=sys.stderr)
