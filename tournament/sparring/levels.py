"""Strength levels: a bot that plays a game at a chosen Elo, on the scale of the game's
skill ladder (``cardarena play GAME --elo N``; docs/play.md).

A level is a searcher (the skill ladder's searcher, or the one a calibration names,
such as the game's yardstick) at an iteration budget, and at the weakest levels with a
chance of blundering (a random move in place of a search), so it is an ordinary bot
spec, which saves, reviews, the web page and tournaments take as they take any other.
A calibration (made by ``tournament.skill.levels``) gives each rung of a ladder its Elo
with random play at 0 and a 95% interval, and a fit of the searcher's Elo that rises
with the budget.  ``play --elo N`` plays the smallest budget the fit puts at N,
interpolated between two rungs on a log scale (the scale on which the ladder doubles)
with its Elo and interval; the levels a page lists are the cheapest rungs of each
fitted Elo.  Above the searcher's top budget, a calibration may climb on with the same
searcher guided by the game's network (``model=default``), its own budgets doubling:
those levels are stronger than any the plain searcher reached.

Calibrations are JSON files in ``tournament/data``, one per ruleset, written by
``cardarena levels GAME --calibrate``.
"""
import dataclasses
import json
import math
import shlex

from core.errors import CardArenaError
from tournament.calibrations import data_file, ruleset
from search.bots import bot_spec
from tournament.tables import read_json, write_file

FORMAT = "cardarena levels"
# A rate interpolated for a level is kept to this many decimals, as its spec prints it.
BLUNDER_DIGITS = 3


class LevelError(CardArenaError):
    """A level that cannot be had: a game without a calibration, an Elo outside its
    levels, or a calibration that cannot be made or read."""


class UncalibratedError(LevelError):
    """A game with no calibration, shipped or made."""


class EloRangeError(LevelError):
    """An Elo below a game's weakest level or above its strongest."""


@dataclasses.dataclass(frozen=True)
class Rung:
    """A player of a calibration and the Elo it measured, random play at 0, in whole
    points (the intervals are far wider than one)."""

    name: str
    spec: str
    budget: int | None
    """Iterations a move; None for random and greedy."""
    elo: int
    low: int
    """The 2.5th percentile of its Elo over the bootstrap resamples of the deals."""
    high: int
    """The 97.5th percentile."""
    blunder: float = 0.0
    """The searcher's chance of a random move in place of a search."""
    guided: bool = False
    """Whether the game's network guides the searcher: a rung of the climb above the
    plain searcher's top budget."""


@dataclasses.dataclass(frozen=True)
class Level:
    """The searcher at a budget, and its Elo with a 95% interval on the fit that rises
    with the budget."""

    spec: str
    budget: int
    elo: float
    low: float
    high: float
    interpolated: bool = False
    """Whether the budget lies between two rungs, whose figures were interpolated."""
    blunder: float = 0.0
    """The searcher's chance of a random move in place of a search."""
    guided: bool = False
    """Whether the game's network guides the searcher (a level of the climb)."""

    @property
    def place(self):
        """Its place on the ladder, weakest first: the plain searcher's budgets, then
        the guided searcher's, each by budget, then blundering less."""
        return self.guided, self.budget, -self.blunder


@dataclasses.dataclass(frozen=True)
class Calibration:
    """The measured strength of a game's ladder: what was played, and each rung's Elo
    in the ladder's order (random, greedy, then the searcher's budgets upward)."""

    game: str
    """The game string, naming only the parameters that differ from the defaults."""
    player: str
    """The searcher, without a budget."""
    deals: int
    """Deals per match, each played in every seating."""
    seed: int
    reach: int
    command: str
    """The command that made it."""
    rungs: tuple
    """Every rung's :class:`Rung`, as measured."""
    fit: tuple
    """A :class:`Level` at each of the searcher's budgets from its weakest up, on the
    fit that rises with the budget."""
    climb: str | None = None
    """The searcher guided by the game's network, without a budget, whose rungs climb
    above ``player``'s top budget; None where the levels stop at that top."""

    @property
    def levels(self):
        """The cheapest of the fit's levels at each of its Elo, weakest first."""
        return [p for k, p in enumerate(self.fit) if k == 0 or p.elo > self.fit[k - 1].elo]

    @property
    def outplayed(self):
        """The places ``(guided, budget)`` the fit leaves out above its weakest: each
        measured clearly below a rung before it, so no level plays them."""
        fitted = {p.place[:2] for p in self.fit if not p.blunder}
        weakest = self.fit[0].place[:2]
        return {(r.guided, r.budget) for r in self.rungs
                if r.budget is not None and not r.blunder
                and (r.guided, r.budget) > weakest and (r.guided, r.budget) not in fitted}

    def level(self, elo):
        """The :class:`Level` of the smallest budget that plays at ``elo``, or as near
        as a whole budget comes; raises :class:`EloRangeError` outside the fit."""
        weakest, strongest = self.fit[0].elo, self.fit[-1].elo
        if not weakest <= elo <= strongest:
            raise EloRangeError(f"{self.game}'s levels run from {weakest} to {strongest} "
                                f"Elo (random play is 0), not {elo:g}")
        k = next(k for k, p in enumerate(self.fit) if p.elo >= elo)
        above = self.fit[k]
        if above.elo == elo:
            return above
        below = self.fit[k - 1]
        if below.guided != above.guided:
            # No level lies between the plain searcher's top and the guided one's
            # first: they are different players, and no budget is half-way.
            return below if elo - below.elo < above.elo - elo else above
        share = (elo - below.elo) / (above.elo - below.elo)
        if above.blunder or above.budget == below.budget:
            # Between two blunder rates at one budget, the rate is interpolated; one
            # iteration below plays at random, as the budget above does at rate 1.
            start = below.blunder if below.budget == above.budget else 1.0
            budget, blunder = above.budget, round(start + share * (above.blunder - start),
                                                  BLUNDER_DIGITS)
            if blunder in (start, above.blunder):
                return above if blunder == above.blunder else below
            share = (blunder - start) / (above.blunder - start)
        else:
            octaves = math.log2(above.budget / below.budget)
            budget, blunder = round(below.budget * 2 ** (share * octaves)), 0.0
            if (above.guided, budget) in self.outplayed:
                budget = below.budget if elo - below.elo < above.elo - elo else above.budget
            if budget in (below.budget, above.budget):
                return below if budget == below.budget else above
            # The share the whole budget gives, so that the figures are its own.
            share = math.log2(budget / below.budget) / octaves

        def between(a, b):
            return a + share * (b - a)

        player = self.climb if above.guided else self.player
        return Level(spec(player, budget, blunder), budget,
                     between(below.elo, above.elo), between(below.low, above.low),
                     between(below.high, above.high), interpolated=True, blunder=blunder,
                     guided=above.guided)

    def to_dict(self):
        # A calibration without a climb is written as before the climb existed.
        data = {"format": FORMAT, **dataclasses.asdict(self)}
        if self.climb is None:
            del data["climb"]
        for point in data["rungs"] + data["fit"]:
            if not point["guided"]:
                del point["guided"]
        return data

    @classmethod
    def from_dict(cls, data):
        """The calibration ``data`` (as ``to_dict`` gives it) holds; raises
        ``ValueError``, ``KeyError`` or ``TypeError`` if it holds none."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a calibration of {FORMAT}")
        fields = {f.name for f in dataclasses.fields(cls)} - {"rungs", "fit", "climb"}
        fit = tuple(Level(**p) for p in data["fit"])
        if not fit or any(a.elo > b.elo or a.place >= b.place
                          for a, b in zip(fit, fit[1:])):
            raise ValueError("the fit is empty, or does not rise with the budget")
        # Calibrations made before the climb existed have no "climb".
        return cls(**{k: data[k] for k in fields}, climb=data.get("climb"),
                   rungs=tuple(Rung(**r) for r in data["rungs"]), fit=fit)

    def save(self, file):
        """Write the calibration to ``file`` as JSON, a rung a line; raises ``OSError``
        if it cannot."""
        data = self.to_dict()
        lines = [f" {json.dumps(k)}: " + (
            "[\n" + ",\n".join(f"  {json.dumps(x)}" for x in v) + "\n ]"
            if isinstance(v, (list, tuple)) else json.dumps(v)) for k, v in data.items()]
        write_file(file, "{\n" + ",\n".join(lines) + "\n}\n")


def spec(player, budget, blunder=0.0):
    """The bot spec of ``player`` (a searcher's spec without a budget) at ``budget``
    iterations a move, playing a random move in place of a search with the chance
    ``blunder``.

    >>> spec("ismcts(rollout_depth=8)", 4, 0.5)
    'ismcts(iterations=4,rollout_depth=8,blunder=0.5)'
    """
    import search
    kind, values = search.parse_bot(player)
    if blunder:
        values = {**values, "blunder": blunder}
    return bot_spec(kind, {"iterations": budget, **values})


def path(game, data=None):
    """The file that holds the calibration of ``game``'s levels."""
    return data_file("levels", game, data)


def load(game):
    """The calibration of ``game`` (a string or a game); raises
    :class:`UncalibratedError` if it has none, and :class:`LevelError` if its file
    cannot be read."""
    file = path(game)
    try:
        data = read_json(file, LevelError)
    except FileNotFoundError:
        name = ruleset(game)
        raise UncalibratedError(f"{name} has no strength levels: cardarena levels "
                                f"{shlex.quote(name)} --calibrate makes them") from None
    try:
        return Calibration.from_dict(data)
    except (ValueError, KeyError, TypeError) as e:
        raise LevelError(f"{file} is not a calibration of strength levels: {e}") from None


def describe(level, game):
    """What ``level`` is, in a line: its spec, Elo and interval, and where they come
    from."""
    how = "interpolated between the rungs beside it" if level.interpolated \
        else "a calibrated rung"
    return (f"{level.spec} plays {ruleset(game)} at about {level.elo:.0f} Elo "
            f"[{level.low:.0f}, {level.high:.0f}] ({how}; random play is 0).")
