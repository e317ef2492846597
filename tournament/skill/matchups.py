"""Match-ups: how each choice of a per-seat parameter (a deck, a colour, a faction)
fares against each other, as a designer asks "is any colour strongest, is any pairing
lopsided?".

A game whose parameters include ``NAME0`` and ``NAME1`` with the same list of
``choices`` (Creature Shrines' ``deck0`` and ``deck1``) has a match-up for every pair
of those values.  One bot plays both seats, so only the choices differ; each pair
``(a, b)`` is played from both sides, ``a`` as seat 0 and then as seat 1, on the same
deal seeds, so the first player's edge cancels out of the table.  A mirror ``(a, a)``
measures that edge for ``a`` alone: both seats play the same choice, so where the game
can rotate its deal, each deal is played with its cards in both seats, and the deal's
luck is no seat's (``Config.rotations``).  The games run through the tournament harness: a
store resumes a stopped run, and more deals extend it.
"""
import dataclasses
import itertools
import re

import core
from tournament.harness import config as configs
from tournament.skill.analysis import seat_advantage, utilities
from tournament.stats.intervals import wilson
from tournament.tables import markdown_table


class MatchupError(core.CardArenaError):
    """A game with no per-seat parameter to compare, or a bad request."""


def sided(game):
    """``(name, choices)`` of ``game``'s per-seat parameter (a loaded game): the
    ``NAME0`` and ``NAME1`` of its ``choices`` with the same values.  Raises
    MatchupError if it has none, or more than one."""
    found = {}
    for key, values in game.choices.items():
        m = re.fullmatch(r"(.+)0", key)
        if m and game.choices.get(m.group(1) + "1") == values:
            found[m.group(1)] = tuple(values)
    if not found:
        raise MatchupError(f"{game.name} has no parameter chosen per seat (a pair such as "
                           "deck0 and deck1 with the same choices) to compare")
    if len(found) > 1:
        raise MatchupError(f"{game.name} has several per-seat parameters: "
                           f"{', '.join(found)}")
    return next(iter(found.items()))


class Plan:
    """Every match-up of ``game``'s per-seat choices (all of them, or ``chosen``)
    played by ``bot`` in both seats over ``deals`` deals from ``seed``; or, given
    ``pairs``, those pairs alone, each from both sides and no mirror (a designer
    checking the pairs a change was meant to move).  ``game`` is a name or a game
    string whose other parameters every match-up keeps (``creature_shrines(mode=rush)``,
    or a designer's ``decks=FILE``)."""

    def __init__(self, game, bot, deals, seed=0, chosen=None, pairs=None):
        self.game, self.bot, self.deals, self.seed = game, bot, deals, seed
        name, self.params = core.parse_spec(game)
        if name not in core.GAMES:
            raise MatchupError(f"unknown game {name!r}; games: {', '.join(core.GAMES)}")
        self.name, allowed = sided(core.load_game(game))
        given = [k for k in (self.name + "0", self.name + "1") if k in self.params]
        if given:
            raise MatchupError(f"the match-ups choose {' and '.join(given)} themselves; "
                               f"leave {'them' if len(given) > 1 else 'it'} out of {game!r}")
        self.kind = name
        if chosen and pairs:
            raise MatchupError("choose the choices or the pairs, not both")
        self.pairs = tuple(tuple(p) for p in pairs or ())
        if any(len(p) != 2 or p[0] == p[1] for p in self.pairs):
            raise MatchupError("a pair is two different choices, as red:blue")
        named = [c for p in self.pairs for c in p]
        self.choices = tuple(chosen or dict.fromkeys(named) or allowed)
        bad = [c for c in self.choices if c not in allowed]
        if bad:
            raise MatchupError(f"{name} {self.name} is one of {', '.join(allowed)}; "
                               f"not {', '.join(bad)}")
        if deals < 1:
            raise MatchupError("deals is at least 1")

    def config(self, a, b):
        """The harness config of ``a`` in seat 0 against ``b`` in seat 1."""
        # The game string as given, then the seats': the store keys games by it.
        given = "".join(f"{k}={v}," for k, v in self.params.items())
        game = f"{self.kind}({given}{self.name}0={a},{self.name}1={b})"
        rotations = a == b and core.load_game(game).rotation_refusal is None
        return configs.Config(game=game, bots={"bot": self.bot}, deals=self.deals,
                              seed=self.seed, kind="matchup", rotations=rotations)

    def configs(self):
        """One config per ordered pair of choices, mirrors included; with ``pairs``,
        each pair's two orders alone."""
        if self.pairs:
            return [self.config(*order) for a, b in self.pairs for order in ((a, b), (b, a))]
        return [self.config(a, b) for a, b in itertools.product(self.choices, repeat=2)]


@dataclasses.dataclass(frozen=True)
class Cell:
    """One choice's results against another over the games of both orders; in a
    mirror, the first seat's."""

    score: float | None
    """The mean score, 1 a win and 0.5 a draw; None without a game."""
    low: float | None
    """The score's 95% interval: Wilson's, or in a mirror of rotated deals the deal
    bootstrap's (``analysis.seat_advantage``)."""
    high: float | None
    """The interval's upper bound."""
    games: int
    """The games the score is over."""
    rotated: bool = False
    """A mirror whose deals were played with their cards in both seats."""

    def to_dict(self):
        """The cell as ``matchups.json`` holds it (``rotated`` only where true, as
        files written before rotations have it)."""
        data = dataclasses.asdict(self)
        if not self.rotated:
            del data["rotated"]
        return data

    @classmethod
    def from_dict(cls, data):
        return cls(**data)


def measure(store, plan):
    """``{a: {b: cell}}``: ``a``'s :class:`Cell` against ``b``.  Games a bot failed or
    the length limit stopped are left out."""
    scores = {(a, b): [] for a in plan.choices for b in plan.choices}
    mirrors = {}
    for a, b in scores:
        rows = store.games(plan.config(a, b).key)
        if a == b and any(r.rotation for r in rows):
            mirrors[a] = seat_advantage(rows, seed=plan.seed)
            continue
        for row in rows:
            if row.status != "ok":
                continue
            first, second = ((u + 1) / 2 for u in utilities(row.returns))
            scores[a, b].append(first)
            if a != b:
                scores[b, a].append(second)
    table = {}
    for (a, b), found in scores.items():
        if a == b and a in mirrors:
            seat = mirrors[a]
            table.setdefault(a, {})[b] = Cell(score=seat.score, low=seat.low,
                                              high=seat.high, games=seat.games,
                                              rotated=True)
            continue
        n = len(found)
        mean = sum(found) / n if n else None
        low, high = wilson(mean, n) if n else (None, None)
        table.setdefault(a, {})[b] = Cell(score=mean, low=low, high=high, games=n)
    return table


def lopsided(table):
    """The pairs whose interval lies clear of one half, as ``(winner, loser, cell)``,
    the most lopsided first."""
    found = [(a, b, cell) for a, row in table.items() for b, cell in row.items()
             if a != b and cell.games and cell.low > 0.5]
    return sorted(found, key=lambda x: -x[2].score)


def report(table, plan, command):
    """The match-up table and what a designer reads from it, as Markdown."""
    names = list(plan.choices)

    def cell(c):
        if not c.games:
            return "-"
        return f"{100 * c.score:.0f} [{100 * c.low:.0f}, {100 * c.high:.0f}]"

    rows = [[a] + [cell(table[a][b]) for b in names] for a in names]
    field = []
    for a in names:
        found = [table[a][b] for b in names if b != a and table[a][b].games]
        games = sum(c.games for c in found)
        if games:
            field.append((sum(c.score * c.games for c in found) / games, games, a))
    overall = []
    for mean, n, a in sorted(field, key=lambda f: -f[0]):
        low, high = wilson(mean, n)
        overall.append([a, f"{100 * mean:.1f} [{100 * low:.1f}, {100 * high:.1f}]", str(n)])
    uneven = lopsided(table)
    who = (f"the pairs asked for ({', '.join(f'{a} and {b}' for a, b in plan.pairs)}) meet"
           if plan.pairs else f"each {plan.name} meets each other")
    if plan.pairs:
        blank = "a pair not asked for is left blank."
    else:
        blank = ("on the diagonal, the first seat's score in the mirror"
                 + (", each deal played with its cards in both seats (its interval from "
                    "resampling whole deals)." if any(table[c][c].rotated for c in plan.choices)
                    else "."))
    met = (f"{who} on {plan.deals} deals from both seats, so the first player's edge "
           f"cancels. A cell is the row's score against the column, in percent (a draw "
           f"half), with its 95% Wilson interval; {blank}")
    lines = [
        f"`{command}`",
        f"One bot, `{plan.bot}`, plays both seats; " + met,
        markdown_table([f"{plan.name} \\ against"] + names, rows, "l" + "r" * len(names)),
        "Each against the others it met, pooled:" if plan.pairs
        else "Each against all the others, pooled:",
        markdown_table([plan.name, "score % [95%]", "games"], overall, "lrr"),
    ]
    if uneven:
        lines.append("Lopsided (the interval clear of 50%): " + "; ".join(
            f"{a} over {b} {cell(c)}" for a, b, c in uneven) + ".")
    else:
        lines.append("No match-up is lopsided: every interval holds 50%.")
    return "\n\n".join(lines) + "\n"
