# cython: language_level=3
"""Moves every searcher makes the same way: the rollout policy, a rollout's payoffs,
and the wall clock.  Inline, so they cost nothing to share."""
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from core.state cimport CHANCE, GameState, Rng, rng_below, rng_uniform, sample_chance

cdef enum:
    ROLLOUT_RANDOM = 0
    ROLLOUT_HEURISTIC = 1


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int policy_action(GameState st, int policy, double epsilon, int* acts,
                              Rng* rng) noexcept nogil:
    """The rollout policy's move for the player to move: uniformly random, or the
    game's heuristic choice except with probability ``epsilon``.  A game without a
    heuristic choice is played at random."""
    cdef int a
    if policy == ROLLOUT_HEURISTIC and (epsilon <= 0 or rng_uniform(rng) >= epsilon):
        a = st.c_heuristic_action(rng)
        if a >= 0:
            return a
    return acts[rng_below(rng, st.c_legal_actions(acts))]


cdef inline void rollout(GameState st, int policy, double epsilon, int depth, int n_players,
                         double lo, double scale, int* acts, double* probs, double* out,
                         Rng* rng) noexcept nogil:
    """Play ``st`` on with the rollout policy, and write each player's payoff in
    ``[0, 1]`` to ``out``: the game's returns rescaled, or, once ``depth`` decisions
    have been made (if ``depth`` > 0), the game's ``evaluate`` rescaled."""
    cdef int p, steps = 0
    while not st.c_is_terminal():
        p = st.c_current_player()
        if p == CHANCE:
            st.c_apply_action(sample_chance(st, acts, probs, rng))
            continue
        if depth > 0 and steps >= depth:
            for p in range(n_players):
                out[p] = (st.c_evaluate(p) + 1.0) * 0.5
            return
        st.c_apply_action(policy_action(st, policy, epsilon, acts, rng))
        steps += 1
    for p in range(n_players):
        out[p] = (st.c_returns(p) - lo) * scale
