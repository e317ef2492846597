# cython: language_level=3
"""Monte Carlo tree search over the contract of core/state.pxd: SO- and MO-ISMCTS,
determinized UCT and cheating UCT, one engine."""
from libc.stdint cimport int32_t

from core.state cimport GameState, Rng
from search.clock cimport Deadline
from search.model cimport Model

# Whose knowledge a model reads at a leaf.
cdef enum:
    VIEW_ACTOR = 0        # the player to move at the leaf, in the sampled world
    VIEW_SEARCHER = 1     # the player the search is for

# How the tree sees the game.
cdef enum:
    SINGLE_OBSERVER = 0   # SO-ISMCTS: one tree, keyed by what the searcher sees
    MULTI_OBSERVER = 1    # MO-ISMCTS: one tree per player, keyed by what each sees
    PERFECT = 2           # UCT on a world whose every card is seen

# How threads share a search.
cdef enum:
    PARALLEL_ROOT = 0     # each thread its own trees, their root statistics summed
    PARALLEL_TREE = 1     # every thread in the same trees, with virtual loss

# The edge into a node, and its statistics.  Children form a linked list, so a node
# grows one child at a time without moving its siblings.  Once a node is linked, its
# key, mover and sibling never change, and its statistics only grow.
ctypedef struct Node:
    int32_t child         # first child, or -1
    int32_t sibling       # next child of the same parent, or -1
    int32_t key           # the action (or its view, see c_action_view) on the edge
    int32_t mover         # who chose the edge: a player, or CHANCE
    int32_t visits        # counted as a walk enters the edge, before its payoff is known
    int32_t avail         # times the edge could have been chosen when its parent was
    double total          # sum of the mover's payoffs in [0, 1] through this edge

ctypedef struct Tree:
    Node* nodes
    float* prior          # searched with a model: each edge's prior, by node id; else NULL
    int size
    int cap

# Where threads sharing trees meet.  A tree's arrays move when they grow, so a thread
# is counted among the readers while it walks the trees, and a growth waits until
# none is; a node is added under the lock.
ctypedef struct Gate:
    int readers
    int growing
    int lock


cdef class Worker:
    """One thread's part of a search: its own random stream, scratch buffers and
    states, and its own trees, or under tree parallelisation the lead worker's."""
    # The search, as the MCTS that owns the worker set it.
    cdef int mode, n_players, n_trees, max_path, n_act, policy, rollout_depth
    cdef double uct_c, epsilon, lo, scale
    cdef bint resample
    cdef bint avail_parent  # a new edge's availability starts at its parent's visits
    # Its own.
    cdef Rng rng
    cdef int stamp, player
    cdef bint out_of_memory, grew
    cdef bint kept          # the trees continue the last search's: no reset
    cdef Tree* own
    cdef Tree* trees         # the trees it searches: its own, or the lead's
    # Shared with other threads: the trees behind the lead's gate, and the iterations
    # of an iteration budget, claimed one at a time from the lead's count.
    cdef Gate* gate          # the lead's gate, or NULL when the trees are its alone
    cdef Gate own_gate
    cdef long claims
    cdef long* claimed
    cdef bint helps          # searches beside the lead, which owes each tree its first walk
    cdef int* path_len
    cdef int* paths          # n_trees rows of max_path node ids
    cdef int* cur
    cdef int* acts
    cdef double* probs
    cdef int* keys
    cdef int* cand_key
    cdef int* cand_child
    cdef int* cand_of        # each legal action's candidate
    cdef int untried         # candidates without an edge yet
    cdef int* slot
    cdef int* slot_stamp
    cdef double* payoff
    cdef GameState source, root, work
    # Its share of one search: units first, first + stride, ... below units, each a
    # tree searched from the source state, or from a world sampled from it.
    cdef bint sample_world
    cdef int units, first, stride
    cdef long iterations
    cdef double seconds, clock
    cdef long budget         # the unit being searched: its iterations, or its end
    cdef double end
    cdef Deadline deadline   # a bound on the whole search whatever its budget, or None
    cdef bint capped         # whether there is one: read without the GIL
    # What its trees found: per root action, the visits, payoffs and votes; and the
    # searched player's payoff summed over every iteration.
    cdef long done, grown, reused
    cdef double root_total
    cdef long* visits
    cdef double* totals
    cdef int* votes
    cdef char* present
    # Guided by a model (docs/learning.md): its policy the prior of PUCT, its value the
    # payoff of a leaf, mixed with a rollout's by value_weight.
    cdef Model model
    cdef bint guided
    cdef int value_view
    cdef double puct_c, value_weight
    cdef float* scratch
    cdef float* hidden       # the last evaluation's activations, inside scratch
    cdef int valued_by       # whose view they read, at the state the tree phase ended in; or -1
    cdef double* cand_prior
    cdef double* leaf_value

    cdef int owner(self, int q) noexcept nogil
    cdef bint reroot(self, int* path, int steps) noexcept nogil
    cdef void search_share(self) noexcept nogil
    cdef void unit_budget(self, int j, int u, int mine) noexcept nogil
    cdef bint open_unit(self) noexcept nogil
    cdef void close_unit(self) noexcept nogil
    cdef void tally(self) noexcept nogil
    cdef long run(self, long budget, double deadline) noexcept nogil
    cdef void iterate(self) noexcept nogil
    cdef bint descend(self) noexcept nogil
    cdef int candidates(self, Tree* t, int parent, int owner, int p, int n) noexcept nogil
    cdef int select(self, int s, int owner, int p) noexcept nogil
    cdef int select_guided(self, int s, int owner, int p) noexcept nogil
    cdef void score_leaf(self) noexcept nogil
    cdef int step(self, int s, int best, int n, bint counted) noexcept nogil
    cdef void enter(self, int q, int node, bint counted) noexcept nogil


cdef class MCTS:
    cdef readonly object game
    cdef readonly int mode
    cdef readonly int worlds
    cdef readonly int threads
    cdef readonly str parallel      # how the threads share the search: "root" or "tree"
    cdef readonly long iterations
    cdef readonly double seconds
    cdef readonly double uct_c
    cdef readonly str avail         # where a new edge's availability count starts
    cdef readonly int policy
    cdef readonly double epsilon
    cdef readonly int rollout_depth
    cdef readonly bint resample     # a new world each iteration (ISMCTS)
    cdef readonly bint cheat        # search the true state, hidden cards and all, never a sampled world
    cdef readonly bint reuse        # continue the last search's trees where it can
    cdef readonly Model model       # a network guiding the search, or None
    cdef readonly double puct_c
    cdef readonly double value_weight
    cdef readonly str value_view
    cdef int player                 # who the last search was for
    cdef list workers
    cdef list path                  # since the last search: (mover, key per tree), or None
    cdef object state_type
