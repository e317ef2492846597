"""What a skill analysis plays: the variants of a game, the ladder of players from
random play to the searcher at doubling budgets and the cheater, and the :class:`Plan`
that turns them into the harness's configs, with what it would cost.
``tournament.skill.analysis`` measures what was played.  Nothing here names a game."""
import dataclasses
import itertools
import random
import statistics
import time

import pyspiel

import core
import search
from core.errors import CardArenaError
from tournament.harness import config as configs
from tournament.skill.defaults import PLAYER
from tournament.sparring import levels
from tournament.tables import count

# Kinds of bot whose strength grows with their iteration budget, any of which can be
# the ladder's searcher.
SEARCHERS = ("ismcts", "mo_ismcts", "determinized")


class SkillError(CardArenaError):
    """A skill analysis that cannot be run: a bad variant, ladder or option."""


@dataclasses.dataclass(frozen=True)
class Variant:
    """One ruleset: a name for people (``default``, or its parameters) and the game
    string the harness loads."""

    name: str
    game: str
    params: dict


@dataclasses.dataclass(frozen=True)
class Rung:
    name: str
    spec: str
    budget: int | None
    """Iterations per move; None for random and greedy."""
    blunder: float = 0.0
    """The searcher's chance of a random move in place of a search."""


@dataclasses.dataclass(frozen=True)
class Ladder:
    """The players of the analysis, weakest first: random, greedy, the searcher at each
    budget, and the cheater at the top budget (kept off the chain: it sees too much)."""

    player: str
    budgets: tuple
    blunders: tuple = ()
    """More rungs, as ``(budget, blunder)`` pairs: the searcher at that budget
    playing a random move in place of a search with the chance ``blunder``."""

    @property
    def chain(self):
        """The rungs the skill chain climbs, weakest first (of two rungs at a budget,
        the one that blunders more first)."""
        points = sorted({(b, 0.0) for b in self.budgets} | set(self.blunders),
                        key=lambda point: (point[0], -point[1]))
        return [Rung("random", "random", None), Rung("greedy", "greedy", None)] \
            + [rung(self.player, budget, blunder) for budget, blunder in points]

    @property
    def searchers(self):
        """The searcher's rungs, weakest first."""
        return [r for r in self.chain if r.budget is not None]

    @property
    def top(self):
        return self.searchers[-1]

    @property
    def cheater(self):
        return cheater(self.player, self.budgets[-1])

    @property
    def rungs(self):
        return self.chain + [self.cheater]


def rung(player, budget, blunder=0.0):
    """The rung of ``player`` (a searcher's spec without a budget) at ``budget``
    iterations a move, playing a random move in place of a search with the chance
    ``blunder``."""
    kind, _ = search.parse_bot(player)
    name = f"{kind}-{budget}" + (f"-blunder{blunder:g}" if blunder else "")
    return Rung(name, levels.spec(player, budget, blunder), budget, blunder)


def cheater(player, budget):
    """The cheater's rung at ``budget``: it searches the true state with the parameters
    of ``player`` (a searcher's spec without a budget) that a cheater takes."""
    _, values = search.parse_bot(player)
    values = {k: v for k, v in values.items() if k in search.KINDS["cheater"].params}
    return Rung(f"cheater-{budget}", _spec("cheater", values, budget), budget)


def check_player(player):
    """Raise SkillError unless ``player`` is the spec of one of ``SEARCHERS`` without a
    budget, which a ladder sets."""
    try:
        kind, values = search.parse_bot(player)
    except CardArenaError as e:
        raise SkillError(f"--player: {e}") from None
    if kind not in SEARCHERS:
        raise SkillError(f"--player is a searcher whose budget the ladder doubles "
                         f"({', '.join(SEARCHERS)}), not {kind}")
    if "iterations" in values or values.get("seconds"):
        raise SkillError("--player: the ladder sets the iterations; leave out "
                         "iterations and seconds")


def doublings(low, high):
    """``low`` and its doublings up to at most ``high``.

    >>> doublings(8, 100)
    (8, 16, 32, 64)
    """
    budgets = []
    while low <= high:
        budgets.append(low)
        low *= 2
    return tuple(budgets)


def ladder(player=PLAYER, low=8, high=1024):
    """The ladder of ``player`` (a spec of one of ``SEARCHERS``, without a budget) at
    the doubling budgets from ``low`` up to at most ``high``."""
    check_player(player)
    if low < 1:
        raise SkillError(f"--min-budget is at least 1, not {low}")
    budgets = doublings(low, high)
    if len(budgets) < 3:
        raise SkillError("the ladder needs at least three budgets, so that SkillTrace "
                         "has two levels to fit a line to: --max-budget must be at least "
                         f"4 times --min-budget ({low})")
    return Ladder(player, budgets)


def _spec(kind, values, budget):
    return search.bot_spec(kind, dict(iterations=budget, **values))


def variants(game, given=(), grid=()):
    """The variants of ``game`` to compare: each of ``given`` (``"default"`` or
    ``"name=value,..."``), then every combination of the ``grid`` lines
    (``"name=v1,v2,..."``); the default rules alone when both are empty."""
    try:
        name, base = core.parse_spec(game)
    except CardArenaError as e:
        raise SkillError(str(e)) from None
    if name not in pyspiel.registered_names():
        raise SkillError(configs.unknown_game(name))
    wanted = []
    for text in given:
        text = text.strip()
        if text in ("", "default"):
            wanted.append({})
            continue
        try:
            _, params = core.parse_spec(f"{name}({text})")
        except CardArenaError:
            raise SkillError(f"--variant {text!r}: write name=value pairs separated by "
                             "commas, e.g. alt_heal=true") from None
        wanted.append(params)
    axes = []
    for line in grid:
        key, eq, values = line.partition("=")
        key, values = key.strip(), [v.strip() for v in values.split(",") if v.strip()]
        if not eq or not key or not values:
            raise SkillError(f"--grid {line!r}: write one parameter and its values, "
                             "e.g. life=15,22,30")
        if any(axis[0][0] == key for axis in axes):
            raise SkillError(f"--grid: {key} is given twice; list all its values in "
                             "one line")
        axes.append([(key, v) for v in values])
    wanted += [dict(combination) for combination in itertools.product(*axes)] if axes \
        else []
    if not wanted:
        wanted = [{}]
    found, seen = [], []
    for params in wanted:
        merged = dict(base, **params)
        text = name + (f"({','.join(f'{k}={v}' for k, v in merged.items())})"
                       if merged else "")
        label = ",".join(f"{k}={v}" for k, v in params.items()) or "default"
        if any(v.name == label for v in found):
            raise SkillError(f"the variant {label} is asked for twice")
        try:
            loaded = configs.load_game(text)
        except pyspiel.SpielError as e:
            raise SkillError(f"variant {label}: cannot load {text!r}: "
                             f"{str(e).splitlines()[0]}") from None
        # Rules are the same when the loaded games' parameters are, defaults filled
        # in, however the variants spell them.
        rules = loaded.get_parameters()
        same = [v.name for v, other in zip(found, seen) if other == rules]
        if same:
            raise SkillError(f"the variants {same[0]} and {label} are the same rules")
        found.append(Variant(label, text, params))
        seen.append(rules)
    return found


@dataclasses.dataclass(frozen=True)
class Plan:
    """Everything an analysis plays: which games, which players, how many deals."""

    variants: list
    ladder: Ladder
    deals: int
    seed: int = 0
    reach: int = 1
    seconds_per_move: float = 60.0
    max_length: int = configs.DEFAULTS["max_length"]
    yardsticks: tuple = ()
    """Each variant's yardstick :class:`~tournament.skill.figures.Choice`
    (``yardstick.choose``), in the variants' order:
    its chosen player climbs that variant's ladder.  Without them, ``ladder``'s player
    climbs every variant's."""
    decide_to: int | None = None
    """The most deals a match may play to decide an open question
    (``verdicts.wanted``); None to play every match ``deals``."""
    more: tuple = ()
    """Matches played beyond ``deals``, as ``(variant, bots, deals)``: a variant's name,
    the match's rung names (one for self-play) and its deals (``run.decide``
    adds them for the questions the first deals left open)."""

    def deals_of(self, variant, bots):
        """The deals the match of ``bots`` (rung names) in ``variant`` plays."""
        for name, match, deals in self.more:
            if name == variant.name and match == tuple(bots):
                return deals
        return self.deals

    def extended(self, deals):
        """This plan with the matches of ``deals`` (``(variant, bots)`` to deals) played to
        those deals."""
        kept = tuple(m for m in self.more if m[:2] not in deals)
        return dataclasses.replace(self, more=kept + tuple(
            (name, tuple(bots), n) for (name, bots), n in deals.items()))

    def ladder_of(self, variant):
        """The ladder ``variant`` is measured on."""
        for choice in self.yardsticks:
            if choice.variant == variant.name:
                return Ladder(choice.player, self.ladder.budgets)
        return self.ladder

    def alone(self, variant):
        """The plan of ``variant`` alone, on its own ladder."""
        return dataclasses.replace(self, variants=[variant], ladder=self.ladder_of(variant),
                                   yardsticks=())

    def pairs(self):
        """The matches between rungs as (weaker, stronger) names: every chain rung
        against the ``reach`` rungs above it, and the cheater against the top
        searcher."""
        chain = [r.name for r in self.ladder.chain]
        pairs = [(chain[i], chain[j]) for i in range(len(chain))
                 for j in range(i + 1, min(len(chain), i + 1 + self.reach))]
        return pairs + [(self.ladder.top.name, self.ladder.cheater.name)]

    def self_play(self):
        """The rungs that play themselves: random play, and the strongest fair play."""
        return ["random", self.ladder.top.name]

    def configs(self, variant):
        """The harness configs of ``variant``: one per pair, one per self-play."""
        if self.yardsticks:
            return self.alone(variant).configs(variant)
        specs = {r.name: r.spec for r in self.ladder.rungs}
        base = configs.Config(game=variant.game, bots=specs, deals=self.deals,
                              seed=self.seed, seconds_per_move=self.seconds_per_move,
                              max_length=self.max_length, kind="skill")
        # A self-play match seats one bot in every seat, so a deal is one game as
        # dealt.  Where the game can rotate its deal, each deal is played in every
        # rotation of its cards, so that its luck falls to every seat alike; else it
        # plays twice the deals, as many games as a pair.
        rotated = rotates(variant.game)
        return [dataclasses.replace(base.only(pair), deals=self.deals_of(variant, pair))
                for pair in self.pairs()] \
            + [dataclasses.replace(base.only([name]), rotations=rotated,
                                   deals=self.deals_of(variant, [name]) * (1 if rotated else 2))
               for name in self.self_play()]

    def check(self):
        """Raise SkillError unless every variant can seat every rung."""
        if self.deals < 2:
            raise SkillError("--deals is at least 2: the intervals come from resampling "
                             "the deals")
        for variant in self.variants:
            data = {"game": variant.game, "deals": self.deals, "seed": self.seed,
                    "seconds_per_move": self.seconds_per_move, "max_length": self.max_length,
                    "bots": {r.name: r.spec for r in self.ladder_of(variant).rungs}}
            try:
                configs.parse(data)
            except configs.ConfigError as e:
                raise SkillError(f"variant {variant.name}: {e}") from None

    def check_cost(self, workers):
        """Raise SkillError if the plan would take longer than ``MOST_SECONDS`` on
        ``workers`` processes, every match played to ``decide_to`` deals if set; the
        line says how long, from the length of random games and the searcher's time per
        iteration, measured here."""
        if self.decide_to is not None:
            return dataclasses.replace(self, deals=self.decide_to, decide_to=None,
                                       more=())._check_cost(
                workers, f"--decide-to {self.decide_to}", "--decide-to")
        return self._check_cost(workers, f"--deals {self.deals}", "--deals")

    def _check_cost(self, workers, deals, lower):
        seconds = 0.0
        for v in self.variants:
            ladder = self.ladder_of(v)
            decisions, per_iteration = measure_cost(v.game, ladder.player)
            budget = {r.name: r.budget or 0 for r in ladder.rungs}
            seconds += sum(c.deals * len(c.deal_rotations()) * decisions * per_iteration
                           * sum(sum(budget[n] for n in s) / len(s) for s in c.seatings())
                           for c in self.configs(v))
        top = self.ladder.budgets[-1]
        if seconds / workers > MOST_SECONDS:
            raise SkillError(f"--max-budget {top}, {deals}: the analysis "
                             f"would take about {duration(seconds / workers)} on "
                             f"{count(workers, 'worker')} ({decisions:.0f} decisions a "
                             f"game, {1e6 * per_iteration:.1f} µs an iteration), beyond "
                             f"the {duration(MOST_SECONDS)} this runs: lower "
                             f"--max-budget or {lower}")

    def schedule(self):
        """Every config of every variant, the costliest first, so that the long games
        are not left for the end of a run, when workers would idle."""
        budget = {r.name: r.budget or 0 for v in self.variants
                  for r in self.ladder_of(v).rungs}
        every = [c for v in self.variants for c in self.configs(v)]
        return sorted(every, key=lambda c: -sum(budget[n] * (2 if len(c.bots) == 1 else 1)
                                               for n in c.bots))


def rotates(game):
    """Whether the game string ``game`` can rotate its deal (``GameState.rotate_deal``):
    then its self-play matches play each deal with its cards in every seat."""
    return configs.rules(game).rotation_refusal is None


# The longest analysis ``Plan.check_cost`` lets start: a typo in --max-budget (10^11)
# would otherwise run for years, its workers' trees growing past the machine's memory.
MOST_SECONDS = 7 * 86400
# The budget of the searcher timed to estimate an analysis's cost, and the random games
# whose length is taken.
PROBE_BUDGET = 256
PROBE_GAMES = 3


def measure_cost(game, player):
    """The mean number of decisions in a few seeded random games of ``game`` (a game
    string or a loaded game), and the seconds an iteration of ``player`` takes at
    decisions across them."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    rng = random.Random(0)
    decisions, positions = [], []
    for _ in range(PROBE_GAMES):
        state = game.new_initial_state()
        played = []
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                played.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
        decisions.append(len(played))
        if played:
            positions.append(played[len(played) // 2])
    kind, values = search.parse_bot(player)
    spec = _spec(kind, values, PROBE_BUDGET)
    start = time.perf_counter()
    for k, state in enumerate(positions):
        search.make_bot(spec, game, state.current_player(), seed=k).step(state)
    per_iteration = (time.perf_counter() - start) / max(1, len(positions)) / PROBE_BUDGET
    return statistics.fmean(decisions), per_iteration


def duration(seconds):
    """A length of time in the largest unit that keeps it above 1."""
    for unit, size in (("year", 365 * 86400), ("day", 86400), ("hour", 3600),
                       ("minute", 60)):
        if seconds >= size:
            return count(round(seconds / size), unit)
    return f"{seconds:.2g} s"
