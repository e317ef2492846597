"""Move review: every decision a person made in a game, rated by the expected score it
gave up, and how much the chance events favoured them (docs/review.md).

A reviewer searches each position from the person's own information set: the position
is first replaced by a world drawn from what the person knows, and the search samples
its worlds from the person's view, so no card the person could not see plays a part.
Each search draws from a random stream seeded by the review's seed and the number of
the step, so a review repeats exactly, and the tutor's warning at a step agrees with
the review of that step.

Scores are the person's expected return rescaled from the game's range of returns to
``[0, 1]`` (0 its worst return, 1 its best), so a loss means the same in every game.
"""
import dataclasses
import random

import core
import search
from tournament.harness.deals import Deal
from tournament.sparring import marks as calibrated
from tournament.sparring.marks import mark
from tournament.sparring.narrate import seen_kind

ITERATIONS = 2000

# A decision is marked by the expected score it gave up, at least this much, on the
# [0, 1] scale; the worst mark it reaches.  These are the base thresholds: a game's
# calibration raises them by its reviewer's noise (tournament/skill/marks.py).
MARKS = calibrated.BASE

# The mark whose threshold the tutor warns above unless told another threshold.
TUTOR_MARK = "bad"


class ReviewError(core.CardArenaError):
    """A game that cannot be reviewed: one the searcher cannot sample worlds of, or a
    budget too small to try every move of a decision."""


@dataclasses.dataclass(frozen=True)
class Decision:
    """One decision the person made with a choice: at ``step`` of the history, in
    ``where`` (the turn and phase, if the game says), out of ``choices`` legal moves;
    the move ``chosen`` and the move the reviewer ``preferred``, named, with their
    expected scores, marked by ``thresholds``."""
    step: int
    where: str
    choices: int
    chosen: int
    chosen_name: str
    chosen_value: float
    preferred: int
    preferred_name: str
    preferred_value: float
    thresholds: tuple = dataclasses.field(default=MARKS, repr=False)

    @property
    def loss(self):
        """The expected score given up: never below 0, since the reviewer's own move
        is its measure of what could be had (a move it tried less may show a higher
        mean by chance)."""
        return max(0.0, self.preferred_value - self.chosen_value)

    @property
    def mark(self):
        return mark(self.loss, self.thresholds)


@dataclasses.dataclass(frozen=True)
class ChanceRun:
    """A run of chance events in a row (a deal, a draw), from ``step`` for ``steps``
    steps, of the ``kind`` its first event's name begins with; the person's expected
    score ``before`` and ``after`` it."""
    step: int
    steps: int
    kind: str
    before: float
    after: float

    @property
    def luck(self):
        return self.after - self.before


@dataclasses.dataclass(frozen=True)
class Review:
    """A reviewed game: the person's ``decisions`` with a choice, the ``forced`` moves
    skipped, the ``chance`` runs, and ``result``, the person's return on the [0, 1]
    scale (None if the game is not over); its decisions marked by ``thresholds``."""
    game: str
    seat: int
    iterations: int
    seed: int
    steps: int
    decisions: tuple
    forced: int
    chance: tuple
    result: float | None
    thresholds: tuple = MARKS

    @property
    def error_rate(self):
        """The mean expected score given up per decision (0 with no decision)."""
        return sum(d.loss for d in self.decisions) / len(self.decisions) \
            if self.decisions else 0.0

    def marks(self):
        """How many decisions got each mark, worst first."""
        return {name: sum(d.mark == name for d in self.decisions)
                for name, _ in self.thresholds}

    def costliest(self, n=3):
        """The ``n`` decisions that gave up most, costliest first (those that gave up
        nothing left out)."""
        lost = [d for d in self.decisions if d.loss > 0]
        return sorted(lost, key=lambda d: (-d.loss, d.step))[:n]

    @property
    def luck(self):
        """How much the chance events raised the person's expected score, summed."""
        return sum(run.luck for run in self.chance)

    def luck_by_kind(self):
        """The luck summed over each kind of chance event, in the order they came."""
        kinds = {}
        for run in self.chance:
            kinds[run.kind] = kinds.get(run.kind, 0.0) + run.luck
        return kinds


class Reviewer:
    """Rates the decisions of the person in ``seat`` of ``game`` with a search of
    ``iterations`` per position, seeded by ``seed``, and marks them by the game's
    calibrated ``thresholds`` (the base ones where it has none).  With ``model`` (a
    model file, or ``"default"`` for the game's own network), the search takes the
    network's policy as its prior; its playouts still run to the end, so the values
    it gives are the game's own returns, as without a network."""

    def __init__(self, game, seat, iterations=ITERATIONS, seed=0, model=None):
        self.game = search.engine_game(game)
        players = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise core.PlayerError(f"a seat of {self.game.name} is from 0 to {players - 1}, "
                                   f"not {seat!r}")
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise core.ParameterError(f"iterations is a whole number of at least 1, "
                                      f"not {iterations!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise core.ParameterError(f"a seed is an integer, not {seed!r}")
        if not self.game.can_determinize:
            raise ReviewError(f"{self.game} cannot sample worlds from what a player knows, "
                              "so its games cannot be reviewed without reading hidden cards")
        self.seat, self.iterations, self.seed = seat, iterations, seed
        self.model = None if model is None else search.load_model(model, self.game)
        found = calibrated.load(self.game)
        self.thresholds = found.thresholds if found is not None else MARKS

    def _search(self, state, step):
        seed = random.Random(f"{self.seed} review {step}").getrandbits(63)
        # A world drawn from what the person knows, as a hint is worked out: the
        # searcher then never holds a hidden card of the true position.
        world = state.determinized(self.seat, seed)
        # Playouts run to the end of the game: cut short, they would be scored by the
        # game's evaluation, whose bias drifts with the depth a position is searched to
        # and would show up as luck and loss.
        if self.model is not None:
            # A network's value at a leaf would bias the values as cut playouts do:
            # the network guides which moves are tried, and the playouts score them.
            result = search.MCTS(self.game, "so", iterations=self.iterations, seed=seed,
                                 model=self.model, value_weight=0.0).search(world, self.seat)
            # Its prior may leave a move untried, which a review cannot rate: such a
            # position is searched as without a network.
            if world.current_player() != self.seat or \
                    all(a in result.values for a in world.legal_actions()):
                return result
        searcher = search.MCTS(self.game, "so", iterations=self.iterations, seed=seed)
        return searcher.search(world, self.seat)

    def value(self, state, step):
        """The person's expected score at ``state``, reached at ``step``: their return
        once the game is over, else the mean of a search's playouts."""
        if state.is_terminal():
            return self.score(state)
        return self._search(state, step).value

    def score(self, state):
        """The person's return in finished ``state``, on the [0, 1] scale."""
        low, high = self.game.min_utility, self.game.max_utility
        return (state.returns()[self.seat] - low) / (high - low)

    def judge(self, state, step, action):
        """The :class:`Decision` of playing ``action`` at ``state``, the person's
        decision at ``step`` of the history, with more than one legal move."""
        (decision,), _ = self._judge(state, step, (action,))
        return decision

    def judge_each(self, state, step, actions):
        """The :class:`Decision` of each of ``actions`` at ``state``, as ``judge`` gives
        them, from one search: moves compared at one position are rated by the same
        playouts."""
        decisions, _ = self._judge(state, step, tuple(actions))
        return decisions

    def preferred(self, state, step):
        """The move the reviewer prefers at the person's decision ``state``."""
        return self._search(state, step).action

    def _judge(self, state, step, actions):
        """The decision of each of ``actions``, and the search's mean score at
        ``state``."""
        legal = state.legal_actions()
        for action in actions:
            if action not in legal:
                raise core.IllegalActionError(f"action {action!r} is not legal at step "
                                              f"{step + 1}")
        result = self._search(state, step)
        untried = [a for a in (*actions, result.action) if a not in result.values]
        if untried:
            raise ReviewError(f"step {step + 1}: {self.iterations} iterations did not try "
                              f"all {len(legal)} legal moves; give more")
        place = where(state, self.seat)
        decisions = tuple(Decision(step, place, len(legal),
                                   action, state.action_to_string(action),
                                   result.values[action],
                                   result.action, state.action_to_string(result.action),
                                   result.values[result.action], self.thresholds)
                          for action in actions)
        return decisions, result.value

    def review(self, history, rotation=0):
        """The :class:`Review` of the game that ``history`` (every action and chance
        outcome, from the start) plays, its deal rotated by ``rotation`` seats as the
        harness played it."""
        state = self.game.new_initial_state()
        decisions, runs = [], []
        forced = 0
        run = None  # (first step, kind, score before) of the chance run under way
        deal = Deal(None, rotation)
        for step, action in enumerate(history):
            deal.step(state)
            if action not in (state.legal_actions() if not state.is_chance_node()
                              else [a for a, _ in state.chance_outcomes()]):
                # Not the engine's message, which lists the legal moves: at another
                # player's step or a draw they name cards the person may not see.
                raise ReviewError(f"step {step + 1} of the history: action {action!r} is "
                                  "not legal there")
            if state.is_chance_node():
                if run is None:
                    # Named as the reviewed seat was told it: a name's first word may
                    # be the card it hides.
                    run = (step, seen_kind(state, action, self.seat) or "chance",
                           self.value(state, step))
            else:
                mover_value = None
                if state.current_player() == self.seat:
                    if len(state.legal_actions()) == 1:
                        forced += 1
                    else:
                        (decision,), mover_value = self._judge(state, step, (action,))
                        decisions.append(decision)
                if run is not None:
                    # The search that judged a decision here also values the position.
                    after = mover_value if mover_value is not None else self.value(state, step)
                    runs.append(ChanceRun(run[0], step - run[0], run[1], run[2], after))
                    run = None
            state.apply_action(action)
        if run is not None:
            end = len(history)
            runs.append(ChanceRun(run[0], end - run[0], run[1], run[2], self.value(state, end)))
        return Review(str(self.game), self.seat, self.iterations, self.seed, len(history),
                      tuple(decisions), forced, tuple(runs),
                      self.score(state) if state.is_terminal() else None, self.thresholds)


def where(state, seat):
    """Where ``state`` stands as ``seat`` is told it, in the game's words (its
    ``status``): the line the page shows above the board too."""
    return state.game.status(state.observation_dict(seat))


def report(review):
    """``review`` in words: a line per decision, then the summary."""
    lines = [f"Review of player {review.seat} in {review.game}: {review.steps} steps, "
             f"each position searched {review.iterations} iterations (review seed "
             f"{review.seed}).",
             "Scores are expected scores from 0 (the worst return) to 1 (the best)."]
    for d in review.decisions:
        where = f" ({d.where})" if d.where else ""
        if d.chosen == d.preferred:
            verdict = f"the reviewer's move too, {d.chosen_value:.2f}"
        elif not d.loss:
            # The reviewer's move is its most searched, and another's mean may come out
            # higher by chance: then the person's move gave nothing up.
            verdict = (f"{d.chosen_value:.2f}, no worse than the reviewer's move, "
                       f"{d.preferred_name}, {d.preferred_value:.2f}")
        else:
            verdict = (f"{d.chosen_value:.2f}; the reviewer prefers {d.preferred_name}, "
                       f"{d.preferred_value:.2f}: gives up {d.loss:.3f}"
                       + (f", {d.mark}" if d.mark else ""))
        lines.append(f"  step {d.step + 1}{where}: {d.chosen_name}: {verdict}")
    lines.append("")
    lines.append(f"Decisions: {len(review.decisions)} ({review.forced} forced moves "
                 f"skipped). Error rate: {review.error_rate:.3f} given up per decision.")
    marks = review.marks()
    lines.append("Marks: " + ", ".join(f"{name} {n}" for name, n in marks.items())
                 + " (" + ", ".join(f"{name} {threshold:g} or more"
                                    for name, threshold in review.thresholds) + ").")
    costly = review.costliest()
    if costly:
        lines.append("Costliest:")
        lines += [f"  step {d.step + 1}: {d.chosen_name} for {d.preferred_name}, "
                  f"{d.loss:.3f}" for d in costly]
    else:
        lines.append("Costliest: none; no decision gave anything up.")
    kinds = ", ".join(f"{kind} {luck:+.3f}" for kind, luck in review.luck_by_kind().items())
    lines.append(f"Luck: {review.luck:+.3f}" + (f" ({kinds})" if kinds else "")
                 + ", the chance events' effect on your expected score.")
    if review.result is not None:
        lines.append(f"Result: {review.result:.2f}.")
    return "\n".join(lines)
