"""Reading a position from plain data: the checks every ruleset's ``state_from_dict``
makes.  Each raises :class:`~core.errors.StateFormatError` naming where in the dict the
fault lies (``players[1].hand[2]``), so a person can find and fix it."""
from core.errors import StateFormatError


def check_keys(desc, known, where=""):
    """Refuse a ``desc`` that is not a dict, or that holds keys outside ``known``;
    ``where`` prefixes the message (``"players[0]: "``), and the top level lists the
    known keys."""
    if not isinstance(desc, dict):
        what = where.rstrip(": ") or "a position"
        raise StateFormatError(f"{what} is a dict, not {type(desc).__name__}")
    unknown = set(desc) - set(known)
    if unknown:
        hint = "" if where else f"; known: {sorted(known)}"
        raise StateFormatError(f"{where}unknown keys {sorted(unknown)}{hint}")


def read_int(desc, key, lo, hi, default, where=""):
    """``desc[key]`` (``default`` if absent), an integer from ``lo`` to ``hi``."""
    value = desc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StateFormatError(f"{where}{key} must be an integer from {lo} to {hi}, "
                               f"not {value!r}")
    return value


def read_bool(desc, key, default, where=""):
    """``desc[key]`` (``default`` if absent), true or false."""
    value = desc.get(key, default)
    if not isinstance(value, bool):
        raise StateFormatError(f"{where}{key} must be true or false, not {value!r}")
    return value


def read_name(value, names, where):
    """The index of ``value`` in the list ``names`` (a phase, a step, a role)."""
    if value not in names:
        raise StateFormatError(f"{where} must be one of {', '.join(names)}; not {value!r}")
    return names.index(value)


def read_players(desc, count, keys):
    """``desc["players"]``: a list of ``count`` dicts (empty ones if absent), each with
    keys among ``keys``."""
    players = desc.get("players", [{} for _ in range(count)])
    if not isinstance(players, list) or len(players) != count \
            or not all(isinstance(x, dict) for x in players):
        raise StateFormatError(f"players must be a list of {_number(count)} dicts")
    for p, player in enumerate(players):
        check_keys(player, keys, f"players[{p}]: ")
    return players


def read_winner(desc, num_players):
    """``desc["winner"]``: a player, ``"draw"`` or None (still playing)."""
    winner = desc.get("winner")
    if not (winner is None or winner == "draw"
            or type(winner) is int and 0 <= winner < num_players):
        seats = ", ".join(str(p) for p in range(num_players))
        raise StateFormatError(f"winner must be {seats}, \"draw\" or null, not {winner!r}")
    return winner


class Cards:
    """The card names of a ruleset, each standing for one card kind, and reading lists
    of them: ``names[kind]`` is the name, ``hint`` ends the message for a bad name."""

    def __init__(self, names, hint):
        self.names = list(names)
        self.kinds = {name: k for k, name in enumerate(self.names)}
        self.hint = hint

    def kind(self, name, where):
        """The kind of one card name (any case)."""
        if not isinstance(name, str) or name.upper() not in self.kinds:
            raise StateFormatError(f"{where}: {name!r} is not a card ({self.hint})")
        return self.kinds[name.upper()]

    def kinds_of(self, names, where):
        """The kinds of a list of card names, in order."""
        if not isinstance(names, (list, tuple)):
            raise StateFormatError(f"{where} must be a list of cards, not {names!r}")
        return [self.kind(n, f"{where}[{i}]") for i, n in enumerate(names)]

    def counts(self, names, where):
        """Counts by kind of a list of card names."""
        counts = [0] * len(self.names)
        for k in self.kinds_of(names, where):
            counts[k] += 1
        return counts

    def named(self, counts):
        """Card names from counts by kind, in the order of the kinds."""
        return [name for name, n in zip(self.names, counts) if n for _ in range(n)]

    def check_all(self, total, full, what):
        """Every card of the game, ``full[k]`` of kind ``k``, is in the position exactly
        once: ``total`` counts what the position holds; ``what`` says what the full set
        is, for the message of an excess."""
        over = [self.names[k] for k in range(len(full)) if total[k] > full[k]]
        if over:
            raise StateFormatError(f"more cards than the deck holds: {', '.join(over)} "
                                   f"({what})")
        missing = [self.names[k] for k in range(len(full)) for _ in range(full[k] - total[k])]
        if missing:
            raise StateFormatError(f"cards missing from the position: {' '.join(missing)}")


def check_current_player(desc, state):
    """A ``current_player`` given in ``desc`` agrees with the position built."""
    if "current_player" in desc and (type(desc["current_player"]) is not int
                                     or desc["current_player"] != state.current_player()):
        raise StateFormatError(f"current_player {desc['current_player']!r} does not match "
                               f"the phase ({state.current_player()})")


def _number(n):
    return ["no", "one", "two", "three", "four", "five", "six"][n] if n <= 6 else str(n)
