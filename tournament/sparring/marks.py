"""The thresholds that mark a reviewed decision doubtful, bad or very bad, calibrated
per game (``cardarena marks GAME``; docs/review.md).

A mark should mean the same in every game.  The scale already does: a loss is a share
of a win given up, in every game.  The reviewer's noise does not: its scores are Monte
Carlo estimates, and how far they wander depends on the game (how long its playouts
run, how many moves a decision offers), so a loss that is a clear error in one game is
within the noise in another.  A calibration measures that noise where it shows: the
reviewer's own move, judged by the reviewer again under another seed, should give up
nothing, and whatever it is found to give up is noise.
The noise floor is the loss that the reviewer's own moves reach or pass at no more
than ``FALSE_MARKS`` of positions.  A game's thresholds are the base thresholds
(``BASE``) raised by its floor: a move is marked only if it gave up its mark's share
of a win beyond what the reviewer's noise alone gives, so a mark claims the same loss
in every game and noise alone gives the least mark to at most ``FALSE_MARKS`` of the
reviewer's own moves.

Calibrations are JSON files in ``tournament/data``, ``marks-GAME.json``, one per
ruleset, written by ``cardarena marks GAME --calibrate``.
"""
import dataclasses
import json

import search
from core.errors import CardArenaError
from tournament.calibrations import data_file
from tournament.tables import read_json, write_file

FORMAT = "cardarena marks"
# Expected score given up, on the [0, 1] scale, worst mark first: GNU Backgammon's
# thresholds (docs/review.md), where noise does not ask for more.
BASE = (("very bad", 0.10), ("bad", 0.05), ("doubtful", 0.02))
# The share of the reviewer's own moves that the least mark may fall on.
FALSE_MARKS = 0.05


class MarksError(CardArenaError):
    """A calibration of marks that cannot be made or read."""


@dataclasses.dataclass(frozen=True)
class Marks:
    """A game's mark thresholds and the measure of the reviewer's noise behind them."""

    game: str
    """The game string, naming only the parameters that differ from the defaults."""
    iterations: int
    """The reviewer's budget the noise was measured at."""
    positions: int
    """Decisions measured: one of a seat, sampled from each of as many games."""
    seed: int
    command: str
    """The command that made it."""
    agree: float
    """The share of positions at which the reviewer under the second seed prefers the
    first seed's move."""
    noise: float
    """The mean loss the second seed gives the first seed's move."""
    floor: float
    """The least loss that the first seed's moves reach or pass at no more than a share
    ``FALSE_MARKS`` of the positions (an order statistic of the losses)."""
    thresholds: tuple
    """``(mark, least loss)`` pairs, worst mark first."""

    def mark(self, loss):
        """The mark a decision that gave up ``loss`` gets, or None below every
        threshold."""
        return mark(loss, self.thresholds)

    def to_dict(self):
        data = dataclasses.asdict(self)
        data["thresholds"] = {name: value for name, value in self.thresholds}
        return {"format": FORMAT, **data}

    @classmethod
    def from_dict(cls, data):
        """The calibration ``data`` (as ``to_dict`` gives it) holds; raises
        ``ValueError``, ``KeyError`` or ``TypeError`` if it holds none."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a calibration of {FORMAT}")
        thresholds = tuple((name, float(data["thresholds"][name])) for name, _ in BASE)
        if any(a <= b for (_, a), (_, b) in zip(thresholds, thresholds[1:])) \
                or thresholds[-1][1] <= 0:
            raise ValueError("the thresholds do not fall from very bad to doubtful above 0")
        fields = {f.name for f in dataclasses.fields(cls)} - {"thresholds"}
        return cls(**{k: data[k] for k in fields}, thresholds=thresholds)

    def save(self, file):
        """Write the calibration to ``file`` as JSON; raises ``OSError`` if it
        cannot."""
        write_file(file, json.dumps(self.to_dict(), indent=1) + "\n")


def mark(loss, thresholds=BASE):
    """The mark a decision that gave up ``loss`` gets under ``thresholds``, or None
    below every one."""
    return next((name for name, threshold in thresholds if loss >= threshold), None)


def path(game, data=None):
    """The file that holds the marks of ``game`` in ``data`` (``calibrations.DATA``,
    beside the strength levels, unless given), made or not."""
    return data_file("marks", game, data)


def load(game):
    """The marks of ``game``: its own calibration, else that of its game's default
    rules (the reviewer's noise is a matter of the game far more than of a
    parameter), else the base thresholds uncalibrated.  Raises :class:`MarksError` if
    a file is there but cannot be read."""
    engine = search.engine_game(game)
    for file in dict.fromkeys([path(engine), path(engine.name)]):
        try:
            data = read_json(file, MarksError)
        except FileNotFoundError:
            continue
        try:
            return Marks.from_dict(data)
        except (ValueError, KeyError, TypeError) as e:
            raise MarksError(f"{file} is not a calibration of marks: {e}") from None
    return None


def thresholds(floor):
    """The base thresholds raised by ``floor``."""
    return tuple((name, round(value + floor, 4)) for name, value in BASE)


def describe(marks):
    """``marks`` in a paragraph: the thresholds and the noise behind them."""
    rules = ", ".join(f"{name} {value:g}" for name, value in marks.thresholds)
    return "\n".join([
        f"Marks of {marks.game}: {rules} of expected score given up, or more.",
        f"The reviewer at {marks.iterations} iterations, judging its own move again "
        f"under another seed at {marks.positions} positions, agreed with itself at "
        f"{marks.agree:.0%} of them and gave its own move up {marks.noise:.4f} on "
        f"average; at {FALSE_MARKS:.0%} of positions it gave up {marks.floor:.4f} or "
        "more (the noise floor).",
        f"Made by: {marks.command}"])

