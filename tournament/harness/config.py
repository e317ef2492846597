"""A tournament's configuration: read from TOML, checked whole before any game starts,
and turned into the list of games it asks for.

A config file looks like this (``examples/`` has more)::

    game = "shrine"                 # any game string pyspiel can load
    deals = 20                      # each deal is played in every seating
    seed = 1
    seconds_per_move = 5.0          # a longer move is a timeout, lost by the bot
    max_length = 2000               # decisions; a longer game stops as it stands
    rotations = false               # true: each deal also with its cards in every seat

    [bots]
    random = "random"
    greedy = "greedy"
    ismcts = "ismcts(iterations=300,rollout_depth=8)"
    mine = { python = "mypackage.bots:make", args = { depth = 2 } }

A bot is a spec (``cardarena bots`` lists the kinds) or a Python factory
``module:callable`` called as ``callable(game, player, seed, **args)`` that returns
any ``pyspiel.Bot``.
"""
import contextlib
import dataclasses
import difflib
import functools
import hashlib
import importlib
import itertools
import json
import math
import os
import pathlib
import re
import sys

import pyspiel

import core
import search
from core.errors import CardArenaError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

FIELDS = {
    "game": "the game string, e.g. \"shrine\" or \"card_duel(life=15)\" or \"leduc_poker\"",
    "deals": "how many deals; each is played in every seating",
    "seed": "the seed that fixes every deal and every bot's random choices",
    "seconds_per_move": "the time limit of one move; a longer move loses the game",
    "max_length": "the most decisions a game may take before it stops as it stands",
    "bots": "a table of name = spec",
    "rotations": "true to play each deal, in every seating, with the cards it deals "
                 "rotated through every seat too, so that no seat keeps the deal's luck",
}
DEFAULTS = {"seed": 0, "seconds_per_move": 10.0, "max_length": 10_000, "rotations": False}
# A day: far beyond any move a tournament waits for, and within what the move timer
# can be set to (a limit of 1e300 made every first move fail).
MOST_SECONDS_PER_MOVE = 86_400


class ConfigError(CardArenaError):
    """A tournament config that cannot be run; the message names the field."""


@dataclasses.dataclass(frozen=True)
class Config:
    """A checked tournament config.  ``bots`` maps each name to its spec: a spec
    string, or ``{"python": "module:callable", "args": {...}}``."""

    game: str
    bots: dict
    deals: int
    seed: int = DEFAULTS["seed"]
    seconds_per_move: float = DEFAULTS["seconds_per_move"]
    max_length: int = DEFAULTS["max_length"]
    rotations: bool = DEFAULTS["rotations"]
    """Whether each deal is played in every rotation of its dealt cards as well as in
    every seating: the cards seat p was dealt held by seat p + k, for each k
    (``tournament.harness.deals``).  Only for a game that says what its seats are
    dealt."""
    kind: str = "tournament"
    """The command that asks for the games: ``tournament``, ``sprt`` (a test's pair of
    bots), ``skill`` (a match of a skill analysis), ``levels`` (a match of a
    calibration of strength levels) or ``train`` (a training run's gate).  ``cardarena ratings`` rates the
    latest tournament unless told otherwise."""

    @functools.cached_property
    def key(self):
        """What identifies this tournament's games in a store.  ``deals`` is left out,
        so raising it extends a run instead of starting a new one, and so is ``kind``:
        the same games are the same games, whichever command asked for them.
        ``rotations`` counts only when on, so the keys of the tournaments before it
        stay.  A bot's network file and the game's card files count by their contents
        (``networks``, ``cards``)."""
        fields = dataclasses.asdict(self)
        del fields["deals"], fields["kind"]
        if not self.rotations:
            del fields["rotations"]
        networks = self.networks()
        if networks:
            fields["networks"] = networks
        cards = self.cards()
        if cards:
            fields["cards"] = cards
        text = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def cards(self):
        """A digest of the files the game reads its cards and decks from (its rules'
        ``data_files``), so that a designer's edit to them never resumes the games of
        the old cards; None for a game with none."""
        kind = core.GAMES.get(re.match(r"\s*(\w*)", self.game).group(1))
        if not getattr(kind, "data_files", ()):
            return None
        # The game's own files: a parameter may name a designer's deck file.
        files = core.load_game(self.game).data_files
        digest = hashlib.sha256()
        for path in files:
            digest.update(pathlib.Path(path).read_bytes())
        return digest.hexdigest()[:16]

    def networks(self):
        """A digest of the network file each bot plays with, by bot name, for the bots
        given one: ``model=default`` names whatever file the game ships, so a retrained
        network must not resume the games of the one it replaced.  None for a file
        that cannot be read (the bot then fails when it is made)."""
        found = {}
        for name, spec in self.bots.items():
            if not isinstance(spec, str):  # a Python bot: its code is its own
                continue
            model = search.parse_bot(spec)[1].get("model", "none")
            if model == "none":
                continue
            try:
                path = pathlib.Path(model) if model != "default" else \
                    search.model.default_path(search.engine_game(self.game))
                found[name] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
            except (OSError, CardArenaError):
                found[name] = None
        return found

    @property
    def seats(self):
        return pyspiel.load_game(self.game).num_players()

    @property
    def sides(self):
        """The game's sides, each a tuple of seats: a seat alone, or a team's seats."""
        return sides(self.game)

    def seatings(self):
        """Every seating a deal is played in, as tuples of bot names by seat.  A bot
        holds a whole side, so partners are never rivals.  With at least as many bots
        as sides, every table (a set of bots) in every order; with fewer, every way to
        give them the sides that leaves no bot out."""
        names, sides = list(self.bots), self.sides
        if len(names) >= len(sides):
            orders = [order for table in itertools.combinations(names, len(sides))
                      for order in itertools.permutations(table)]
        else:
            orders = [s for s in itertools.product(names, repeat=len(sides))
                      if set(s) == set(names)]
        return [_seated(sides, order) for order in orders]

    def deal_rotations(self):
        """The rotations of its dealt cards each deal is played in, in seats: every one
        with ``rotations``, else the deal as dealt (0)."""
        return tuple(range(self.seats)) if self.rotations else (0,)

    @property
    def games_per_deal(self):
        """How many games a deal is played in: every seating in every rotation."""
        return len(self.seatings()) * len(self.deal_rotations())

    def deal_seed(self, deal):
        """The seed of deal number ``deal``: its chance outcomes, whoever sits where."""
        digest = hashlib.sha256(f"{self.seed}/{deal}".encode()).digest()
        return int.from_bytes(digest[:8], "little") >> 1

    def games(self, deals=None):
        """The games of deals ``0..deals-1`` (all of them by default), deal by deal, as
        ``(deal, seating, rotation)``, made as they are asked for: a config may have
        more deals than memory could list."""
        seatings, rotations = self.seatings(), self.deal_rotations()
        return ((deal, seating, rotation)
                for deal in range(self.deals if deals is None else deals)
                for seating in seatings for rotation in rotations)

    def only(self, names):
        """This config with only the bots ``names``."""
        return dataclasses.replace(self, bots={n: self.bots[n] for n in names})


def load(path):
    """Read and check the config at ``path``; raises :class:`ConfigError`."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    try:
        # TOML is UTF-8; editors on Windows may start it with a byte-order mark,
        # which tomllib takes for a statement.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text (byte {raw[e.start]:#04x} at offset "
                          f"{e.start}): TOML files are UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    try:
        return parse(data)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None


def parse(data):
    """A :class:`Config` from the dict a TOML file reads as, every field checked."""
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ConfigError(f"unknown field {unknown[0]!r}; the fields are: "
                          + "; ".join(f"{k} ({v})" for k, v in FIELDS.items()))
    for field in ("game", "bots", "deals"):
        if field not in data:
            raise ConfigError(f"{field} is missing: {FIELDS[field]}")
    game = data["game"]
    if not isinstance(game, str):
        raise ConfigError(f"game is a string such as \"shrine\", not {game!r}")
    game = game.strip()
    name = game.partition("(")[0].strip()
    try:
        spiel_game = _loadable(game)
    except CardArenaError as e:
        raise ConfigError(f"game: {e}") from None
    if spiel_game.num_players() < 2:
        raise ConfigError(f"game: {name} is a one-player game; bots meet only in games "
                          "of two or more players")
    if spiel_game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        turns = game if "(" in game else f"{game}()"
        raise ConfigError(f"game: {name} is a simultaneous-move game; the harness plays "
                          f"games in turns, as turn_based_simultaneous_game(game={turns})")
    if spiel_game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise ConfigError(f"game: {name} draws its own chance outcomes, from a generator "
                          "inside the game, so no seed can fix a deal: the harness plays "
                          "games that list their chance outcomes")
    deals = _number(data, "deals", int, low=1)
    seed = _number(data, "seed", int, low=0)
    seconds = _number(data, "seconds_per_move", float, low=0, strict=True,
                      high=MOST_SECONDS_PER_MOVE)
    max_length = _number(data, "max_length", int, low=1)
    rotations = data.get("rotations", DEFAULTS["rotations"])
    if not isinstance(rotations, bool):
        raise ConfigError(f"rotations is true or false, not {rotations!r}: "
                          f"{FIELDS['rotations']}")
    refusal = rules(game).rotation_refusal
    if rotations and refusal is not None:
        raise ConfigError(f"rotations: {refusal}")
    bots = data["bots"]
    if not isinstance(bots, dict) or len(bots) < 2:
        raise ConfigError("bots is a table of at least two name = spec lines, e.g. "
                          "[bots] / a = \"random\" / b = \"greedy\"")
    for name, spec in bots.items():
        if not re.fullmatch(r"[A-Za-z0-9_.+-]+", name):
            raise ConfigError(f"bots: the name {name!r} may hold only letters, digits "
                              "and _ . + -")
        _check_bot(spiel_game, name, spec)
    return Config(game=game, bots=dict(bots), deals=deals, seed=seed,
                  seconds_per_move=seconds, max_length=max_length, rotations=rotations)


@functools.lru_cache(maxsize=None)
def rules(game):
    """The game string ``game`` as search plays it, ours or OpenSpiel's through
    ``core.ForeignGame``: it declares the game's sides and whether returns are scores."""
    # Through OpenSpiel, which reads every game string (game strings holding game
    # strings too), quietly: a game lacking a resampler says so on the standard error.
    with _quiet_stderr():
        return search.engine_game(pyspiel.load_game(game))


def sides(game):
    """The sides of the game string ``game``: each a tuple of seats, a team's or one."""
    return tuple(rules(game).teams())


def _seated(sides, order):
    """Bot names by seat, the bot ``order[k]`` on every seat of side ``k``."""
    seating = [None] * sum(len(side) for side in sides)
    for side, bot in zip(sides, order):
        for seat in side:
            seating[seat] = bot
    return tuple(seating)


def check_game(text):
    """The game string ``text`` as search plays it (:func:`rules`), or ParameterError
    saying what is wrong in the project's words, for every command alike: an unknown
    name gets the closest names (OpenSpiel's own error lists every game it has), and a
    bad parameter of one of ours what the parameter takes."""
    _loadable(text)
    return rules(text)


def _loadable(text):
    """``pyspiel.load_game(text)``, or ParameterError in :func:`check_game`'s words."""
    name = text.partition("(")[0].strip()
    if name not in pyspiel.registered_names():
        raise core.ParameterError(unknown_game(name))
    if name in core.GAMES:
        core.load_game(text)
    try:
        return load_game(text)
    except pyspiel.SpielError as e:
        raise core.ParameterError(f"cannot load {text!r}: {str(e).splitlines()[0]}") \
            from None


def unknown_game(name):
    """What to say of a game name pyspiel does not know: the names it knows that are
    closest, and ours."""
    close = difflib.get_close_matches(name, pyspiel.registered_names(), n=3)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return (f"unknown game {name!r}{hint}; ours are {', '.join(sorted(core.GAMES))}, and "
            "every game OpenSpiel registers (pyspiel.registered_names()) can be played")


def load_game(text):
    """``pyspiel.load_game(text)``, without the line OpenSpiel prints to the standard
    error stream before it raises SpielError: the caller says what went wrong."""
    with _quiet_stderr():
        return pyspiel.load_game(text)


@contextlib.contextmanager
def _quiet_stderr():
    """The standard error stream, file descriptor and all, sent nowhere: OpenSpiel's
    C++ prints there before it raises SpielError, in words that are not ours."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _number(data, field, kind, low, strict=False, high=None):
    value = data.get(field, DEFAULTS.get(field))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not kind or kind is float and not math.isfinite(value) \
            or value < low or strict and value == low or high is not None and value > high:
        what = "an integer" if kind is int else "a number"
        bound = f"above {low}" if strict else f"at least {low}"
        if high is not None:
            bound += f" and at most {high:g}"
        raise ConfigError(f"{field} is {what} {bound}, not {value!r}: {FIELDS[field]}")
    return value


def _check_bot(spiel_game, name, spec):
    where = f"bots.{name}"
    try:
        for player in range(spiel_game.num_players()):
            make_bot(spec, spiel_game, player, seed=0)
    except CardArenaError as e:
        raise ConfigError(f"{where}: {e}") from None
    except Exception as e:  # a spec that passes its checks may still fail to build
        raise ConfigError(f"{where}: cannot make the bot: {type(e).__name__}: {e}") \
            from None


def make_bot(spec, game, player, seed):
    """The ``pyspiel.Bot`` a config's bot spec describes, for seat ``player``."""
    if isinstance(spec, str):
        # A bot on another library's game tries the game's resampler, whose failure
        # (goofspiel has none) OpenSpiel announces before the bot says what it means.
        with _quiet_stderr():
            return search.make_bot(spec, game, player, seed)
    if not isinstance(spec, dict) or "python" not in spec \
            or not set(spec) <= {"python", "args"}:
        raise ConfigError("a bot is a spec string, or { python = \"module:callable\", "
                          f"args = {{...}} }}, not {spec!r}")
    target, args = spec["python"], spec.get("args", {})
    if not isinstance(args, dict):
        raise ConfigError(f"args is a table of keyword arguments, not {args!r}")
    # The spec is stored, and keys the tournament, as JSON.
    try:
        json.dumps(args)
    except TypeError as e:
        raise ConfigError(f"args hold strings, numbers, booleans, arrays and tables: {e}") \
            from None
    module, _, attr = str(target).partition(":")
    # A bot's module in the current directory is found as ``python -m`` would find it:
    # an installed command's path holds only the command's own folder.  Put last, it
    # shadows no installed module.
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        factory = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError, ValueError) as e:
        raise ConfigError(f"cannot find {target!r} (write module:callable): {e}") from None
    try:
        bot = factory(game, player, seed, **args)
    except Exception as e:  # a user's factory may fail in any way; say how
        raise ConfigError(f"{target} failed: {type(e).__name__}: {e}") from None
    if not isinstance(bot, pyspiel.Bot):
        raise ConfigError(f"{target} returned {type(bot).__name__}, not a pyspiel.Bot")
    return bot
