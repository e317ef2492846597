# cython: language_level=3
"""A small network that values a position for every player and weighs the moves of the
player to move, evaluated without the GIL: the interface the tree search cimports."""
from core.state cimport GameState


cdef class Model:
    # The Game it was made for, and that game's string as the file names it.
    cdef readonly object game
    cdef readonly str game_string
    # The parameters it was trained across (each game drawing its own value), so that
    # it serves every value of them; empty for a model of one variant.
    cdef readonly tuple across
    # Sizes: the observation tensor's, then each hidden layer's.
    cdef readonly tuple layers
    # Where it was read from, or None for one made from arrays.
    cdef readonly object path
    # The weight of its value at a leaf that a search takes when not told one: what
    # its training's self-play and gates used.
    cdef readonly double value_weight
    cdef int n_in, n_hidden, width, n_actions, n_players
    cdef double lo, span
    cdef int* sizes          # n_hidden + 1 entries: layers
    cdef float** weight      # per hidden layer, (inputs, outputs) row-major
    cdef float** bias
    cdef float* policy_w     # (actions, last width) row-major: one row per action
    cdef float* policy_b
    cdef float* value_w      # (players, last width) row-major
    cdef float* value_b
    # The float32 arrays the pointers above point into, kept alive and read-only.
    cdef object arrays
    # Floats of scratch one evaluation needs: each thread brings its own.
    cdef readonly int scratch_size

    # Fill ``scratch`` with what ``player`` knows of ``st`` and run the hidden layers;
    # returns the last layer's activations (inside ``scratch``), which ``values`` and
    # ``priors`` read.
    cdef float* forward(self, GameState st, int player, float* scratch) noexcept nogil
    # The hidden layers over the features at the start of ``scratch``.
    cdef float* trunk(self, float* scratch) noexcept nogil
    # Each player's expected payoff, rescaled to [0, 1] as the search scores payoffs.
    cdef void values(self, float* hidden, double* out) noexcept nogil
    # The policy over the ``n`` actions in ``acts`` (legal ones): their logits only are
    # computed, and their softmax written to ``out``.
    cdef void priors(self, float* hidden, int* acts, int n, double* out) noexcept nogil
