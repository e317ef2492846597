"""Calibrating the marks of reviewed decisions (``cardarena marks GAME --calibrate``):
the reviewer's noise, measured where it shows.  At each of ``count`` decisions from
games the greedy player plays, the reviewer picks its move, and the reviewer under the
next seed judges that move: whatever it gives up is noise.  What the marks mean, and
how a review reads them, is ``tournament.sparring.marks``."""
import random

import search
from tournament.calibrations import ruleset
from tournament.skill.defaults import MARK_POSITIONS as POSITIONS
from tournament.sparring import review
from tournament.sparring.marks import FALSE_MARKS, Marks, MarksError, thresholds


def positions(game, count, seed):
    """``count`` decisions with a choice, ``(state, step, seat)``: one of seat ``k % n``
    sampled from game ``k``, which the greedy player plays in every seat, chance by
    the seed."""
    engine = search.engine_game(game)
    found = []
    for k in range(count):
        rng = random.Random(f"{seed} marks {k}")
        seat = k % engine.num_players
        bots = [search.make_bot("greedy", engine, p, rng.getrandbits(32))
                for p in range(engine.num_players)]
        state, choices, step = engine.new_initial_state(), [], 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                action = rng.choices(outcomes, weights)[0]
            else:
                player = state.current_player()
                if player == seat and len(state.legal_actions()) > 1:
                    choices.append((state.clone(), step))
                action = bots[player].step(state)
            state.apply_action(action)
            step += 1
        if choices:
            found.append((*rng.choice(choices), seat))
    return found


def calibrate(game, iterations, count=POSITIONS, seed=0, command=""):
    """Measure the reviewer's noise on ``game`` at ``iterations`` over ``count``
    positions, and the :class:`Marks` it asks for."""
    losses = []
    agree = 0
    for state, step, seat in positions(game, count, seed):
        first = review.Reviewer(game, seat, iterations, seed)
        again = review.Reviewer(game, seat, iterations, seed + 1)
        decision = again.judge(state, step, first.preferred(state, step))
        agree += decision.chosen == decision.preferred
        losses.append(decision.loss)
    if not losses:
        raise MarksError(f"{game} gave no decision with a choice to measure")
    losses.sort()
    # The least loss that no more than FALSE_MARKS of the positions reach or pass.
    floor = losses[min(len(losses) - 1, int(len(losses) * (1 - FALSE_MARKS)))]
    return Marks(ruleset(game), iterations, len(losses), seed, command,
                 round(agree / len(losses), 4), round(sum(losses) / len(losses), 4),
                 round(floor, 4), thresholds(floor))
