"""Card sets as data: reading a designed card set (and its decks) from TOML, checking
every field, and compiling effect text into opcodes a C table can hold.

A ruleset with designed cards declares what a card may say, and nothing else:

* a schema, ``{field: Field(...)}``: each field's type, bounds or choices, default;
* a :class:`Vocabulary` of effect words, each with its opcode, whether it takes an
  amount, and the names its arguments may take.

:func:`load_cards` reads ``[[card]]`` tables and returns one :class:`Card` per design,
every field filled in and every effect compiled to ``(op, amount, arg, arg2)``; the
engine copies those into its static C tables once, at import.  Any fault raises
:class:`~core.errors.CardDataError` naming the file, the card and the field, so a
designer can fix a card without reading code.

>>> words = Vocabulary([Word("draw", amount=(1, 3)),
...                     Word("damage", amount=(1, 9), args=("creature", "player"))])
>>> words.compile("damage 2 player", "here")
(1, 2, 1, 0)
>>> words.compile("damage 2 planet", "card 'X', field 'play'")
Traceback (most recent call last):
...
core.errors.CardDataError: card 'X', field 'play': effect 'damage 2 planet': 'planet' is not one of creature, player

A vocabulary made with ``variable=True`` also reads the amount ``X``, compiled to
:data:`VARIABLE`: the game says what X is when the effect runs (a cost's X, say).

>>> Vocabulary(words.words, variable=True).compile("damage X player", "here")
(1, -1, 1, 0)
"""
import sys

from core.errors import CardDataError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

VARIABLE = -1
"""The amount of an effect written ``X``, in a vocabulary that reads it."""


class Word:
    """One effect word: ``name [amount] [arg] [arg2]``.  ``amount`` is ``(lo, hi)`` or
    None (the word takes none); ``args`` and ``args2`` are the names each argument may
    take (an empty tuple: no argument); ``default`` is the first argument's name when
    a text leaves it out (None: it must be given)."""

    def __init__(self, name, amount=None, args=(), args2=(), default=None, doc=""):
        self.name, self.amount, self.args, self.args2 = name, amount, tuple(args), tuple(args2)
        self.default, self.doc = default, doc


class Vocabulary:
    """The effect words of a ruleset; a word's opcode is its place in the list.  With
    ``variable``, an amount may be written ``X`` (:data:`VARIABLE`)."""

    def __init__(self, words, variable=False):
        self.words = list(words)
        self.variable = variable
        self.ops = {w.name: op for op, w in enumerate(self.words)}
        if len(self.ops) != len(self.words):
            raise ValueError("an effect word is declared twice")

    def compile(self, text, where):
        """``(op, amount, arg, arg2)`` of one effect written as text: the argument
        indexes are places in the word's lists, 0 where it takes none."""
        fault = f"{where}: effect {text!r}"
        if not isinstance(text, str) or not text.split():
            raise CardDataError(f"{fault}: an effect is a word and its amount and "
                                f"arguments, such as 'draw 1'")
        name, *rest = text.split()
        if name not in self.ops:
            raise CardDataError(f"{fault}: unknown word {name!r}; known: "
                                f"{', '.join(sorted(self.ops))}")
        word = self.words[self.ops[name]]
        amount = 0
        if word.amount is not None:
            lo, hi = word.amount
            if self.variable and rest and rest[0] == "X":
                rest.pop(0)
                amount = VARIABLE
            else:
                if not rest or not rest[0].lstrip("-").isdigit():
                    raise CardDataError(f"{fault}: {name} needs an amount from {lo} to {hi}"
                                        + " or X" * self.variable)
                amount = int(rest.pop(0))
                if not lo <= amount <= hi:
                    raise CardDataError(f"{fault}: the amount must be from {lo} to {hi}, "
                                        f"not {amount}")
        picked = []
        for names in (word.args, word.args2):
            if not names:
                picked.append(0)
            elif rest:
                arg = rest.pop(0)
                if arg not in names:
                    raise CardDataError(f"{fault}: {arg!r} is not one of {', '.join(names)}")
                picked.append(names.index(arg))
            elif word.default is not None and not picked:
                picked.append(names.index(word.default))
            else:
                raise CardDataError(f"{fault}: {name} needs one of {', '.join(names)}")
        if rest:
            raise CardDataError(f"{fault}: unexpected {' '.join(rest)!r}")
        return (self.ops[name], amount, picked[0], picked[1])

    def text(self, effect):
        """The text of a compiled effect (for docs and names), the inverse of
        :meth:`compile`."""
        op, amount, arg, arg2 = effect
        word = self.words[op]
        parts = [word.name]
        if word.amount is not None:
            parts.append("X" if amount == VARIABLE and self.variable else str(amount))
        if word.args:
            parts.append(word.args[arg])
        if word.args2:
            parts.append(word.args2[arg2])
        return " ".join(parts)


class Field:
    """What one card field may hold.  ``kind`` is ``int`` (``lo .. hi``), ``str``,
    ``bool``, ``choice`` (one of ``choices``), ``choices`` (a list of them, kept as a
    bit set), ``counts`` (a table of ``choices`` to counts ``lo .. hi``, kept as a list
    in the order of ``choices``) or ``effects`` (a list of effect texts)."""

    KINDS = ("int", "str", "bool", "choice", "choices", "counts", "effects")

    def __init__(self, kind, default=None, lo=0, hi=99, choices=(), doc=""):
        if kind not in self.KINDS:
            raise ValueError(f"unknown field kind {kind!r}")
        self.kind, self.default, self.lo, self.hi = kind, default, lo, hi
        self.choices, self.doc = tuple(choices), doc

    def read(self, value, words, where):
        """The value as the engine keeps it, or a CardDataError saying why not."""
        kind = self.kind
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not self.lo <= value <= self.hi:
                raise CardDataError(f"{where}: must be an integer from {self.lo} to "
                                    f"{self.hi}, not {value!r}")
            return value
        if kind == "str":
            if not isinstance(value, str):
                raise CardDataError(f"{where}: must be text, not {value!r}")
            return value
        if kind == "bool":
            if not isinstance(value, bool):
                raise CardDataError(f"{where}: must be true or false, not {value!r}")
            return value
        if kind == "choice":
            if value not in self.choices:
                raise CardDataError(f"{where}: must be one of {', '.join(self.choices)}, "
                                    f"not {value!r}")
            return self.choices.index(value)
        if kind == "choices":
            if not isinstance(value, list):
                raise CardDataError(f"{where}: must be a list of {', '.join(self.choices)}")
            bits = 0
            for item in value:
                if item not in self.choices:
                    raise CardDataError(f"{where}: {item!r} is not one of "
                                        f"{', '.join(self.choices)}")
                bits |= 1 << self.choices.index(item)
            return bits
        if kind == "counts":
            if not isinstance(value, dict):
                raise CardDataError(f"{where}: must be a table such as "
                                    f"{{ {self.choices[0]} = 1 }}")
            counts = [0] * len(self.choices)
            for key, n in value.items():
                if key not in self.choices:
                    raise CardDataError(f"{where}: {key!r} is not one of "
                                        f"{', '.join(self.choices)}")
                if isinstance(n, bool) or not isinstance(n, int) or not self.lo <= n <= self.hi:
                    raise CardDataError(f"{where}: {key} must be an integer from "
                                        f"{self.lo} to {self.hi}, not {n!r}")
                counts[self.choices.index(key)] = n
            return counts
        if not isinstance(value, list):
            raise CardDataError(f"{where}: must be a list of effects, such as [\"draw 1\"]")
        return [words.compile(text, where) for text in value]

    def empty(self):
        """The value of a field a card leaves out."""
        if self.default is not None:
            return self.default
        return {"int": 0, "str": "", "bool": False, "choice": None, "choices": 0,
                "counts": [0] * len(self.choices), "effects": []}[self.kind]


class Card:
    """One card design as read: ``id`` (its place in the set), ``name`` and one
    attribute per schema field."""

    def __init__(self, id, fields):
        self.id = id
        self.__dict__.update(fields)

    def __repr__(self):
        return f"Card({self.id}, {self.name!r})"


def read_toml(path):
    """The tables of a TOML file, or a CardDataError naming the file and the fault."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise CardDataError(f"{path}: cannot read it ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise CardDataError(f"{path}: not valid TOML ({e})") from None


def load_cards(path, schema, words, required=("name",)):
    """The card designs of the TOML file ``path`` (its ``[[card]]`` tables), each field
    read by ``schema`` and each ``effects`` field compiled by ``words``.  A card that
    leaves out a ``required`` field, names a field the schema lacks, or repeats
    another's name is refused."""
    data = read_toml(path)
    unknown = set(data) - {"card"}
    if unknown or not isinstance(data.get("card"), list):
        raise CardDataError(f"{path}: a card set is a list of [[card]] tables"
                            + (f"; unknown tables {sorted(unknown)}" if unknown else ""))
    cards, names = [], set()
    for i, table in enumerate(data["card"]):
        name = table.get("name")
        where = f"{path}: card {name!r}" if isinstance(name, str) else f"{path}: card {i + 1}"
        for key in required:
            if key not in table:
                raise CardDataError(f"{where}: the field {key!r} is missing")
        extra = set(table) - set(schema) - {"name"}
        if extra:
            raise CardDataError(f"{where}: unknown fields {sorted(extra)}; known: "
                                f"{', '.join(sorted(schema))}")
        if not isinstance(name, str) or not name.strip():
            raise CardDataError(f"{where}: the name must be text")
        if name in names:
            raise CardDataError(f"{where}: another card has this name")
        names.add(name)
        fields = {"name": name}
        for key, field in schema.items():
            fields[key] = (field.read(table[key], words, f"{where}, field {key!r}")
                           if key in table else field.empty())
        cards.append(Card(i, fields))
    return cards


def read_counts(table, cards, where):
    """``{card name: copies}`` as a list of ``(card, copies)``, every name a card of
    ``cards`` (a name to :class:`Card` mapping): how decks and piles are written."""
    if not isinstance(table, dict):
        raise CardDataError(f"{where}: must be a table of card names and copies, "
                            f"such as {{ \"Card name\" = 2 }}")
    out = []
    for name, n in table.items():
        if name not in cards:
            raise CardDataError(f"{where}: {name!r} is not a card of the set")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise CardDataError(f"{where}: {name!r} must have a number of copies of "
                                f"at least 1, not {n!r}")
        out.append((cards[name], n))
    return out


def card_table(rows, columns):
    """A Markdown table: ``columns`` are headings, ``rows`` lists of cells; a ``|`` in a
    cell is escaped.  Generated card lists use it."""
    def cell(x):
        return str(x).replace("|", "\\|")
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def effect_table(cards, events):
    """One flat list of every card's compiled effects, and per card a list of
    ``(start, end)`` per field in ``events`` (say ``("play", "upkeep")``): the shape of
    the engine's static effect table and each design's spans into it."""
    table, spans = [], []
    for card in cards:
        row = []
        for event in events:
            start = len(table)
            table.extend(getattr(card, event))
            row.append((start, len(table)))
        spans.append(row)
    return table, spans
