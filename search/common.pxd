# cython: language_level=3
"""Moves every searcher makes the same way: the rollout policy, a rollout's payoffs,
the wall clock, and parallel random streams.  Inline, so they cost nothing to share."""
from libc.stdint cimport uint64_t
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from core.state cimport CHANCE, GameState, Rng, rng_below, rng_next, rng_uniform, sample_chance

cdef enum:
    ROLLOUT_RANDOM = 0
    ROLLOUT_HEURISTIC = 1


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline void rng_jump(Rng* rng) noexcept nogil:
    """Advance ``rng`` by 2**128 draws: xoshiro256**'s jump, which its authors give for
    parallel streams.  Streams seeded alike and jumped a different number of times
    never overlap, so threads searching side by side draw independent numbers."""
    cdef uint64_t jump[4]
    cdef uint64_t t[4]
    cdef int i, b, k
    jump[0] = <uint64_t>0x180ec6d33cfd0aba
    jump[1] = <uint64_t>0xd5a61266f0c9392c
    jump[2] = <uint64_t>0xa9582618e03fc9aa
    jump[3] = <uint64_t>0x39abdc4529b1661c
    for k in range(4):
        t[k] = 0
    for i in range(4):
        for b in range(64):
            if jump[i] & (<uint64_t>1 << b):
                for k in range(4):
                    t[k] ^= rng.s[k]
            rng_next(rng)
    for k in range(4):
        rng.s[k] = t[k]


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
