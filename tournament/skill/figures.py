"""The figures of a skill analysis, as types: what ``analysis.measure`` returns, what
``skill.json`` holds and what the report, ``compare`` and the yardstick read.

Each type writes itself as plain data (``to_dict``) in the order and under the names
``skill.json`` has always used, and reads itself back (``from_dict``), so a file read
and written again is the same file byte for byte.  A field marked ``OPTIONAL`` is one
that files written before it existed lack: it reads as None there, and None is not
written.  Intervals are 95% unless a field says otherwise; ``low`` and ``high`` are
None where no resample or game gives them.
"""
from __future__ import annotations

import dataclasses
import typing

OPTIONAL = {"optional": True}
"""A field's metadata when files written before it existed lack it."""


def _key(name):
    """A field's metadata when ``skill.json`` names it ``name``."""
    return {"key": name}


class Figures:
    """Plain data by field, in field order, and back."""

    def to_dict(self):
        """The figures as ``skill.json`` writes them."""
        data = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is None and field.metadata.get("optional"):
                continue
            data[field.metadata.get("key", field.name)] = _plain(value)
        return data

    @classmethod
    def from_dict(cls, data):
        """The figures of ``data``, as ``to_dict`` gives them."""
        hints = typing.get_type_hints(cls)
        found = {}
        for field in dataclasses.fields(cls):
            key = field.metadata.get("key", field.name)
            if key in data:
                found[field.name] = _typed(hints[field.name], data[key])
        return cls(**found)


def _plain(value):
    if isinstance(value, Figures):
        return value.to_dict()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _typed(hint, value):
    """``value``, read from plain data, as the type ``hint`` says."""
    if value is None:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, type(int | None)):
        hint = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list and args:
        return [_typed(args[0], v) for v in value]
    if origin is dict and args:
        return {k: _typed(args[1], v) for k, v in value.items()}
    if isinstance(hint, type) and issubclass(hint, Figures):
        return hint.from_dict(value)
    return value


def _games_last(data):
    """``data`` with ``games`` moved to the end: a figure measured on no game was
    written so (its other fields None, then ``games``: 0)."""
    games = data.pop("games")
    data["games"] = games
    return data


frozen = dataclasses.dataclass(frozen=True, kw_only=True)


# --- figures with an interval --------------------------------------------------


@frozen
class Clear(Figures):
    """An Elo figure, its interval over the resamples, and whether the interval is
    clear of zero."""

    elo: float
    """The figure, in Elo."""
    low: float | None
    """The 2.5th percentile over the resamples of the deals."""
    high: float | None
    """The 97.5th percentile."""
    clear: bool
    """Whether ``low`` is above zero."""


@frozen
class Span(Figures):
    """The Elo a variant's searcher gains from its lowest budget to its highest: the
    variant's depth."""

    elo: float
    """The top rung's Elo less the lowest searcher rung's."""
    low: float | None
    """The 2.5th percentile over the resamples of the deals."""
    high: float | None
    """The 97.5th percentile."""
    lowest: str = dataclasses.field(metadata=_key("from"))
    """The lowest searcher rung's name."""
    top: str = dataclasses.field(metadata=_key("to"))
    """The top searcher rung's name."""


@frozen
class Chain(Figures):
    """The length of the longest skill chain at one threshold (steps, not rungs), and
    the bounds of the lengths the resamples found."""

    length: int
    """The longest chain's steps, each rung scoring at least the threshold against
    the one before it."""
    low: int
    """The 2.5th percentile of the resamples' lengths, taken as a length one of them
    found."""
    high: int
    """The 97.5th percentile, likewise."""


@frozen
class SkillTrace(Figures):
    """Ludii's SkillTrace and the parts it is computed from (``analysis.skill_trace``)."""

    levels: list
    """The stronger searcher's mean utility (-1 to +1) at each doubling, weakest
    first."""
    slope: float
    """The least-squares line through the levels: its slope per level."""
    intercept: float
    """The line's value at the first level."""
    predicted: float
    """The line read two levels past the last."""
    y: float
    """``predicted`` clamped to [0, 1]."""
    area: float
    """The sum of the positive levels."""
    trace: float
    """y + (1 - y) * area / levels."""
    low: float | None = None
    """The trace's 2.5th percentile over the resamples of the deals; None for the
    trace of one resample."""
    high: float | None = None
    """The 97.5th percentile."""


@frozen
class Step(Figures):
    """One match of the ladder: ``upper``'s score against ``lower``."""

    lower: str
    """The weaker rung's name."""
    upper: str
    """The stronger rung's name."""
    games: int
    """Matches played (a game of more than two sides holds several)."""
    score: float
    """The upper rung's mean match score, a draw half."""
    se: float
    """TAG's standard error: the standard deviation of the match scores over the
    square root of their number."""
    low: float
    """The score's 95% interval: from the spread between deals (``deal_wilson``), or
    in results made before, Wilson's over the games."""
    high: float
    """The interval's upper bound."""


@frozen
class Edge(Step):
    """The cheater's step over the searcher at the same budget, and the Elo its score
    implies (``analysis.elo_of``, capped at +-800)."""

    elo: float
    """The Elo of ``score``."""
    elo_low: float
    """The Elo of ``low``."""
    elo_high: float
    """The Elo of ``high``."""


@frozen
class Seat(Figures):
    """The first side's results in self-play over the games that ended (no bot
    failed, the length limit did not stop them).  Every figure but ``games`` is None
    without such a game."""

    games: int
    """Self-play games that ended."""
    wins: float | None
    """The share of games it alone tops."""
    draws: float | None
    """The share of games it tops with others."""
    score: float | None
    """Its mean finishing place from 1 (alone on top) to 0 (last)."""
    low: float | None
    """The score's 95% interval (``rotated`` says how it is read)."""
    high: float | None
    """The interval's upper bound."""
    balance: float | None
    """Ludii's Balance of the seats: 1 is perfectly fair."""
    rotated: bool | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """Whether each deal was played with its dealt cards in every seat (the game can
    rotate its deal), so that its luck falls to every seat alike, the interval then
    from resamples of whole deals; False for games as dealt, with the interval read
    from the spread between deals (``deal_wilson``; Wilson's over the games in results
    made before it)."""

    def to_dict(self):
        data = super().to_dict()
        return data if self.games else _games_last(data)


@frozen
class Shape(Figures):
    """How games that no bot failed went.  Every figure but ``games`` is None without
    such a game."""

    games: int
    """Games no bot failed."""
    draws: float | None
    """The share of games that ended level (a stopped game is no draw)."""
    stopped: float | None
    """The share stopped at the harness's length limit."""
    decisions_mean: float | None
    """Decisions a game, the mean."""
    decisions_median: float | None
    """Decisions a game, the median."""
    turns_mean: float | None
    """Turns a game (runs of decisions by one player), the mean."""
    turns_median: float | None
    """Turns a game, the median."""
    branching: float | None
    """The mean number of legal moves at a decision."""

    def to_dict(self):
        data = super().to_dict()
        return data if self.games else _games_last(data)


@frozen
class Shapes(Figures):
    """A variant's shape under random play and under its top rung's self-play."""

    random: Shape
    """Random play against itself."""
    strong: Shape
    """The top searcher rung against itself."""


# --- how a rung chose its moves ------------------------------------------------


@frozen
class MeanScore(Figures):
    """A mean score over some games (1 alone on top, 0 last, draws half) with its 95%
    Wilson interval; None without a game."""

    games: int
    """The games the mean is over."""
    score: float | None
    """The mean score."""
    low: float | None
    """The score's 95% Wilson interval."""
    high: float | None
    """The interval's upper bound."""


@frozen
class Share(Figures):
    """The share of ``games`` in which something happened, with its 95% Wilson
    interval."""

    games: int
    """The games counted."""
    share: float
    """The share of them in which it happened."""
    low: float
    """The share's 95% Wilson interval."""
    high: float
    """The interval's upper bound."""


@frozen
class KindFigures(Figures):
    """How often a rung chose one kind of move (the game's ``action_kind``) and how it
    scored when it did."""

    kind: str
    """The kind of move, as the game's ``action_kind`` names it."""
    times: int
    """Decisions at which it was chosen."""
    per_game: float
    """``times`` over the games."""
    share: float
    """``times`` over every decision of the rung."""
    used: MeanScore
    """The score of the games in which it was chosen at least once."""
    unused: MeanScore
    """The score of the games in which it was not."""
    taken: Share
    """Of the games in which it was offered, the share in which it was chosen."""


@frozen
class MoveFigures(Figures):
    """A rung's moves over the games that ended, each side it held a sample."""

    games: int
    """The samples: each side the rung held in a game that ended."""
    decisions: int
    """The rung's decisions over them."""
    kinds: list[KindFigures]
    """Each kind offered, the most chosen first."""


# --- the ladder ------------------------------------------------------------------


@frozen
class LadderRung(Figures):
    """A rung of the ladder as the results list it."""

    name: str
    """The rung's name in the store (``ismcts-64``)."""
    spec: str
    """The bot's spec."""
    budget: int | None
    """Iterations per move; None for random and greedy."""
    blunder: float | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The chance of a random move in place of a search."""


@frozen
class RatedRung(LadderRung):
    """A rung and its Elo relative to random play, with its interval."""

    elo: float
    """Elo relative to random play."""
    low: float | None
    """The 2.5th percentile over the resamples of the deals."""
    high: float | None
    """The 97.5th percentile."""


# --- the yardstick -----------------------------------------------------------------


@frozen
class Evidence(Figures):
    """A challenger's games against the incumbent in the yardstick's trial."""

    player: str
    """The challenger's spec, without a budget."""
    games: int
    """Matches against the incumbent."""
    score: float
    """Its mean match score against the incumbent."""
    low: float
    """The score's Wilson interval, at the level that makes the intervals of all the
    trial's challengers together 95%."""
    high: float
    """The interval's upper bound."""
    elo: float
    """The Elo the score implies."""
    clear: bool
    """Whether ``low`` is above 50%: it beat the incumbent clearly."""
    seconds: float | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """Its thinking time a game, all its seats together."""


@frozen
class Choice(Figures):
    """A yardstick's choice: the searcher a variant's ladder climbs with, and the
    trial that chose it."""

    variant: str
    """The name of the variant whose trial it is."""
    budget: int
    """The trial's iterations a move (the ladder's top budget)."""
    deals: int
    """The deals each challenger played against the incumbent."""
    incumbent: str
    """The searcher challenged, as a spec without a budget."""
    player: str
    """The searcher chosen."""
    challengers: list[Evidence]
    """This variant's own trial, one per challenger."""
    pooled: list[Evidence] | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """Every variant's trials pooled, when the choice was made on them."""


# --- the climb ------------------------------------------------------------------------


@frozen
class ClimbStep(Figures):
    """A climbing rung's match against the rung below it."""

    lower: str
    """The rung below, by name."""
    upper: str
    """The climbing rung, by name."""
    budget: int
    """The climbing rung's iterations a move."""
    doubling: bool
    """Whether it doubles the budget below; the first step adds the network instead."""
    games: int
    """Matches played."""
    score: float
    """The climbing rung's mean match score."""
    low: float
    """The 2.5th percentile of the score over resamples of the deals."""
    high: float
    """The 97.5th percentile."""
    undecided: bool
    """Whether the interval holds 50%: the games do not tell the step from no gain."""

    @property
    def gains(self):
        """Whether the interval lies above 50%: the games show the step gains."""
        return self.low > 0.5


@frozen
class Climb(Figures):
    """The climb above the fixed rungs, with the game's network where every variant
    has one, and the ceiling it reached."""

    player: str
    """The climbing searcher without a budget: the ladder's, with the network unless
    ``unguided`` says why not."""
    cap: int
    """The most iterations a move the climb may reach."""
    unguided: str | None
    """Why the climb goes without the network (a variant of the analysis has none
    shipped); None when it has it."""
    steps: list[ClimbStep]
    """Each climbing rung's match, lowest first."""
    ended: str
    """``ceiling`` (two doublings in a row that gain nothing the games show) or
    ``cap``."""
    ceiling: RatedRung
    """The rung below the doublings at the top of the climb that gain nothing the games
    show (the top climbing rung where the last doubling gains), with its Elo above
    random play: the ladder's top fixed rung where no climbing rung gains."""
    over_greedy: Clear
    """The ceiling's Elo above greedy play."""
    cheater_edge: Edge
    """The cheater's score against the top climbing rung at its budget."""
    below: bool | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """True: a clearly worse doubling counts toward the end as an undecided one does,
    and the ceiling is read below the doublings that gain nothing.  Files written
    before lack it: their climbs ended on undecided doublings alone, and their
    ceiling is the top rung reached."""


# --- a variant, and the verdicts ------------------------------------------------------


@frozen
class VariantFigures(Figures):
    """Every figure of one variant."""

    name: str
    """``default``, or the variant's parameters."""
    game: str
    """The game string played."""
    params: dict
    """The parameters it sets over the game's own."""
    games: int
    """Every game of its ladder's matches and self-play."""
    rungs: list[RatedRung]
    """Every rung with its Elo, weakest first, the cheater last."""
    span: Span
    """The depth: the Elo from the lowest searcher rung to the top one."""
    over_greedy: Clear
    """The top rung's Elo over greedy play: a searcher that does not clearly beat it
    is a weak yardstick."""
    chain: dict[str, Chain]
    """The skill chain at each threshold, by its percentage (``"60%"``)."""
    skill_trace: SkillTrace
    """Ludii's SkillTrace over the searcher's doublings."""
    gain: Clear
    """The Elo the searcher's doubling steps imply, added up."""
    steps: list[Step]
    """Every match of the chain, weakest first."""
    seat: Seat
    """The first side in the top rung's self-play."""
    seat_random: Seat
    """The first side in random self-play."""
    shape: Shapes
    """How games went under random and under strong play."""
    cheater_edge: Edge
    """The cheater's score against the top searcher at its budget."""
    failures: dict
    """Games a bot failed: ``{bot: {status: games}}``."""
    usage: dict[str, MoveFigures]
    """How each rung, by name, chose its moves."""
    player: str
    """The searcher the ladder climbs with."""
    yardstick: Choice | None
    """The trial that chose ``player``; None when it was given."""
    climb: Climb | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The climb above the ladder with the network; None when none was asked for."""


@frozen
class Lead(Figures):
    """How far one variant leads ``variant``, with the interval of the differences of
    their resamples taken in step, and whether it is clear of zero."""

    variant: str
    """The variant led."""
    lead: float
    """How far ahead: in Elo for a span, in score for a seat's distance from 50%."""
    low: float | None
    """The 2.5th percentile of the differences."""
    high: float | None
    """The 97.5th percentile."""
    clear: bool
    """Whether ``low`` is above zero."""


@frozen
class RunnerUp(Lead):
    """The lead over the runner-up, and the runner-up's span."""

    span: Span
    """The runner-up's span."""


@frozen
class Deepest(Figures):
    """The variant with the widest Elo span and its lead over every other."""

    variant: str
    """The variant with the widest span (ties go to the one listed first)."""
    span: Span
    """Its span."""
    runner_up: RunnerUp | None
    """None with one variant."""
    behind: list[Lead]
    """The lead over every other variant, the runner-up first."""
    clear: bool
    """Whether every lead is clear: only then do the games tell it is the deepest."""


@frozen
class Fairest(Figures):
    """The variant whose first seat scores nearest 50% in strong self-play."""

    variant: str
    """The variant nearest 50% (ties go to the one listed first)."""
    seat: Seat
    """Its first side's figures."""
    even: bool
    """Whether its interval holds 50%."""
    uneven: list
    """The variants whose intervals do not hold 50%."""
    behind: list[Lead]
    """How much nearer 50% it is than every other variant (in score), the runner-up
    first."""
    clear: bool
    """Whether it is clearly nearer than every other."""


@frozen
class Reading(Figures):
    """One variant's x% of the reference (``analysis.chess_share``)."""

    variant: str
    """The variant read."""
    x: float
    """Its x%: 100 (1 - p) for the share p of the reference's games a fair coin would
    decide before the reference's gain fell to this variant's."""
    low: float | None
    """The 2.5th percentile over the resamples."""
    high: float | None
    """The 97.5th percentile."""
    wider: bool
    """Whether its doubling gain is at least the reference's."""


@frozen
class Chess(Figures):
    """Each variant's x% of the deepest, or why none is given."""

    reference: str
    """The deepest variant, which the others are read against."""
    gain: Clear
    """The reference's doubling gain."""
    readings: list[Reading] | None
    """None when the reference's gain is not clear of zero."""
    reason: str | None
    """Why no reading is given; None when they are."""


@frozen
class Verdict(Figures):
    """One question the analysis answers (``verdicts``), and its answer."""

    question: str
    """``step``, ``depth``, ``deeper``, ``seat`` or ``cheater``."""
    variants: list
    """The variants it reads: one, or two for ``deeper``."""
    reads: str
    """What it sets against no difference, such as ``ismcts-16 over ismcts-8``."""
    decided: bool
    """Whether the 95% interval leaves no difference out, or lies within ``margin`` of
    it."""
    answer: str
    """What the games tell, or ``not told apart``."""
    games: int
    """The matches it reads (a game of more than two sides holds several)."""
    matches: list
    """The matches it reads, each as its variant and its rungs' names."""
    value: float | None
    """The figure it reads: a score, or an Elo span or difference."""
    low: float | None
    """The figure's 95% interval."""
    high: float | None
    """The interval's upper bound."""
    null: float
    """No difference: 0.5 for a score, 0 for Elo."""
    margin: float
    """How near ``null`` an interval must lie to decide that no difference matters."""
    needs: int | None
    """For an open question, about how many deals its matches would need to decide it,
    were the difference seen so far the true one; None when decided, or when the
    figure sits on no difference."""


@frozen
class Results(Figures):
    """Every figure of an analysis: ``skill.json``."""

    deals: int
    """Deals a match of two rungs played, each in every seating."""
    seed: int
    """The seed of every deal, every bot and the bootstrap."""
    reach: int
    """How many rungs above it each rung met."""
    bootstrap: int
    """Resamples of the deals behind the intervals."""
    player: str
    """The ladder's searcher unless a yardstick chose another."""
    budgets: list
    """The searcher's budgets, doubling, lowest first."""
    top: str
    """The top searcher rung's name."""
    rungs: list[LadderRung]
    """The ladder's rungs, weakest first, the cheater last."""
    variants: list[VariantFigures]
    """Each variant's figures, in the order asked."""
    deepest: Deepest
    """The verdict on depth."""
    depth_differences: dict[str, dict[str, Lead]]
    """``[a][b]``: how much wider a's span is than b's."""
    fairest: Fairest | None
    """None if no variant has a self-play game that ended."""
    chess: Chess
    """Each variant's x% of the deepest."""
    verdicts: list[Verdict] | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """Every question the analysis answers, decided or not (``verdicts``)."""
    decide_to: int | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The most deals a match may play to decide a question its first ``deals`` left
    open; None when every match plays ``deals``."""
    command: str | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The command that made them, as the written files give it."""
    by_deal: bool | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """Whether the scores' intervals (steps, the cheater's edge, a first seat over
    deals as dealt) are read from the spread between deals (``deal_wilson``); None in
    results made before, whose intervals are Wilson's over the games."""

