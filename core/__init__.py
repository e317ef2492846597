"""cardarena's rules engines.

>>> import core
>>> game = core.load_game("shrine(alt_heal=true)")
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Importing ``core`` also registers every game with OpenSpiel, so
``pyspiel.load_game("shrine")`` works.  The other way round, ``ForeignGame`` makes any
OpenSpiel game one of ours, for search: ``ForeignGame("leduc_poker")``.
"""
import importlib
import pkgutil
import re

from core.errors import (CardArenaError, GameOverError, IllegalActionError, ParameterError,
                         PlayerError, RotationError, StateFormatError)
from core.state import CHANCE_PLAYER, TERMINAL_PLAYER, Game, GameState
from core.foreign import ForeignGame

from core import spiel


def _rulesets():
    """Every ruleset: each package of ``core`` whose ``GAME`` is its Game class, so a
    new ruleset is a new folder and no list to edit."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            game = getattr(importlib.import_module(f"core.{info.name}"), "GAME", None)
            if game is not None:
                found[game.name] = game
    return dict(sorted(found.items()))


GAMES = _rulesets()
for _game in GAMES.values():
    spiel.register(_game)
del _game


def parse_spec(spec, what="game", example="shrine(alt_heal=true)"):
    """Split an OpenSpiel-style string such as ``"shrine(alt_heal=true)"`` into its name
    and a dict of its parameters' texts; ``what`` it names and an ``example`` of one
    appear in errors."""
    if not isinstance(spec, str):
        raise ParameterError(f"a {what} is named by a string, not {spec!r}")
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:\(([^()]*)\))?\s*", spec)
    if not m:
        raise ParameterError(f"cannot read {what} string {spec!r}; write e.g. {example}")
    name, args = m.group(1), m.group(2)
    parsed = {}
    if args and args.strip():
        for part in args.split(","):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or not key:
                raise ParameterError(f"in {spec!r}: {part!r} is not key=value")
            if key in parsed:
                raise ParameterError(f"in {spec!r}: {key} is given twice")
            parsed[key] = value.strip()
    return name, parsed


def load_game(spec, **params):
    """A game from an OpenSpiel-style string such as ``"shrine(alt_heal=true)"``, or a
    name and keyword parameters; a parameter may be given once, in one of the two."""
    name, parsed = parse_spec(spec)
    if name not in GAMES:
        raise ParameterError(f"unknown game {name!r}; games: {', '.join(sorted(GAMES))}")
    twice = sorted(set(parsed) & set(params))
    if twice:
        raise ParameterError(f"{', '.join(twice)} given both in {spec!r} and as a keyword")
    parsed.update(params)
    return GAMES[name](**parsed)


__all__ = ["GAMES", "load_game", "parse_spec", "Game", "GameState", "CHANCE_PLAYER", "TERMINAL_PLAYER", "CardArenaError", "IllegalActionError",
           "GameOverError", "ParameterError", "PlayerError", "RotationError", "StateFormatError",
           "ForeignGame"]
