"""Seeded matches between bots, and the exact binomial tail the statistical tests use."""
import math
import random

import search


def play(game, specs, seed):
    """One game of ``game`` (a core game) between bots made from ``specs``, seat by
    seat; chance and every bot are seeded from ``seed``.  Returns the returns."""
    rng = random.Random(seed)
    bots = [search.make_bot(spec, game, p, seed=seed * 16 + p) for p, spec in enumerate(specs)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes],
                                           [p for _, p in outcomes])[0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


class Tally:
    """Wins, losses and draws of bot A against bot B over a two-player match in which
    each deal (seed) is played twice, once from each seat."""

    def __init__(self, game, a, b, deals, first_seed=0):
        self.wins = self.losses = self.draws = 0
        for deal in range(first_seed, first_seed + deals):
            for a_seat in (0, 1):
                specs = [a, b] if a_seat == 0 else [b, a]
                r = play(game, specs, deal)
                margin = r[a_seat] - r[1 - a_seat]
                if margin > 0:
                    self.wins += 1
                elif margin < 0:
                    self.losses += 1
                else:
                    self.draws += 1

    @property
    def games(self):
        return self.wins + self.losses + self.draws

    @property
    def score(self):
        """A's score rate, a draw counting half."""
        return (self.wins + 0.5 * self.draws) / self.games

    def p_value(self):
        """One-sided sign test on the decisive games: the chance of A winning at
        least this many of them if each were a fair coin."""
        n, k = self.wins + self.losses, self.wins
        return sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n

    def __repr__(self):
        return f"+{self.wins} -{self.losses} ={self.draws} (score {self.score:.3f})"
