# cython: language_level=3
"""The contract every ruleset implements, and the RNG search uses without the GIL.

A ruleset is a ``cdef class`` deriving from :class:`GameState` whose whole game state
is one flat C struct holding no Python object, so copying a state is a ``memcpy``.
Search (``search/``) drives states only through the ``cdef`` methods below.  All but
``blank`` need no GIL, never allocate, and never raise; ``blank`` makes a new state, so
search calls it once per buffer, never per step.  A ``c_`` prefix marks a method whose
checked twin of the same name is a Python method of ``core.state.GameState``
(``c_legal_actions`` and ``legal_actions``); the Python methods check what they are
given, for tests, tools and people.

Names follow OpenSpiel's.  Player ids are ``0 .. num_players - 1``, or :data:`CHANCE`
at a chance node and :data:`TERMINAL` once the game is over.

Action ids are stable: within one information set of the acting player an id means the
same decision in every determinization.  Cards the rules make interchangeable are one
card kind, never two actions.

tests/test_contract.py holds every game registered in ``core.GAMES`` to this contract.
"""
from libc.stdint cimport uint64_t

cdef enum:
    CHANCE = -1
    TERMINAL = -4


# xoshiro256** (Blackman and Vigna): small, fast, and good enough for search.
ctypedef struct Rng:
    uint64_t s[4]


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    """Fill the state from ``seed`` with splitmix64, as the xoshiro authors advise."""
    cdef int i
    cdef uint64_t z
    for i in range(4):
        seed += <uint64_t>0x9E3779B97F4A7C15
        z = seed
        z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
        rng.s[i] = z ^ (z >> 31)


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    cdef uint64_t result = _rotl(rng.s[1] * 5, 7) * 9
    cdef uint64_t t = rng.s[1] << 17
    rng.s[2] ^= rng.s[0]
    rng.s[3] ^= rng.s[1]
    rng.s[1] ^= rng.s[2]
    rng.s[0] ^= rng.s[3]
    rng.s[2] ^= t
    rng.s[3] = _rotl(rng.s[3], 45)
    return result


cdef inline int rng_below(Rng* rng, int n) noexcept nogil:
    """A uniform integer in ``[0, n)``; ``n`` must be positive."""
    # Lemire's multiply-shift: the bias is below 2**-32 for the small n used here.
    return <int>(((rng_next(rng) >> 32) * <uint64_t>n) >> 32)


cdef inline double rng_uniform(Rng* rng) noexcept nogil:
    """A uniform double in ``[0, 1)``."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef class GameState:
    # The Game that made this state: rules parameters, sizes, names.  Never used on
    # the hot path; the parameters a rule needs are also inside the C struct.
    cdef readonly object game

    # --- hot path: no GIL, no allocation, no checks -------------------------------

    # A player id, CHANCE or TERMINAL.
    cdef int c_current_player(self) noexcept nogil

    # Fill ``out`` (room for ``game.action_buffer_size``: the larger of
    # ``num_distinct_actions`` and ``max_chance_outcomes``) with the legal actions of
    # the player to move, ascending; return their count.  At a chance node, fill the
    # chance outcomes instead; at a terminal state, return 0.
    cdef int c_legal_actions(self, int* out) noexcept nogil

    # At a chance node, fill the outcomes (ascending) and their probabilities (summing
    # to 1), room for ``game.max_chance_outcomes``; return the count.
    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil

    # At a chance node, one outcome drawn with its probability, or -1 where the game
    # has no sampler of its own (callers then draw from c_chance_outcomes, as
    # ``sample_chance`` below does).  A sampler spares rollouts listing every outcome.
    cdef int c_sample_chance(self, Rng* rng) noexcept nogil

    # Apply a legal action or chance outcome.  Unchecked: an illegal one leaves the
    # state undefined.
    cdef void c_apply_action(self, int action) noexcept nogil

    # The payoff of ``player`` so far, between the game's ``min_utility`` and
    # ``max_utility`` (in a two-player win-or-lose game: +1 win, -1 loss, 0 draw).
    cdef double c_returns(self, int player) noexcept nogil

    cdef bint c_is_terminal(self) noexcept nogil

    # Make ``dst`` (a state of the same game) equal to this one: one memcpy.
    cdef void copy_into(self, GameState dst) noexcept nogil

    # Resample, in place, everything ``observer`` cannot see, uniformly over the
    # worlds consistent with what ``observer`` knows.  The observer's information state,
    # and every public fact, are left unchanged.
    cdef void determinize(self, int observer, Rng* rng) noexcept nogil

    # What ``observer`` sees of ``action`` taken by the player to move, or of a chance
    # outcome at a chance node: the id itself when ``observer`` sees it, otherwise a
    # class id (``-1 - k``) shared by every action or outcome ``observer`` cannot tell
    # apart from it.  The player to move always sees its own action.
    cdef int c_action_view(self, int action, int observer) noexcept nogil

    # A heuristic value in ``[-1, 1]`` of this non-terminal state for ``player``.  A
    # game without such knowledge keeps the default, 0: every position looks even.
    cdef double c_evaluate(self, int player) noexcept nogil

    # A legal action chosen with the game's knowledge, for rollouts and the greedy
    # player; ``rng`` breaks ties.  The default, -1, says the game offers no move
    # choice, and callers then pick uniformly at random.
    cdef int c_heuristic_action(self, Rng* rng) noexcept nogil

    # Fill ``out`` (room for ``game.observation_tensor_size`` floats) with what
    # ``player`` knows, laid out by ``game.tensor_layout``: the features a learned
    # player reads inside a search.  Identical in every determinization of the
    # player's information set.  Every entry is written, zeros included, so a caller
    # reuses one buffer.  The default writes nothing: a game without features keeps
    # the empty layout of ``Game``.
    cdef void c_observation_tensor(self, int player, float* out) noexcept nogil

    # A new state of the same game and class, to be filled by ``copy_into``.
    cdef GameState blank(self)


cdef inline int sample_chance(GameState st, int* acts, double* probs, Rng* rng) noexcept nogil:
    """A chance outcome of ``st`` drawn with its probability: by the game's own sampler
    where it has one, else from its listed outcomes (``acts`` and ``probs`` are scratch
    buffers with room for ``game.max_chance_outcomes``)."""
    cdef int a = st.c_sample_chance(rng), n, i
    cdef double u
    if a >= 0:
        return a
    n = st.c_chance_outcomes(acts, probs)
    u = rng_uniform(rng)
    for i in range(n - 1):
        u -= probs[i]
        if u < 0:
            return acts[i]
    return acts[n - 1]
