# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Monte Carlo tree search over the contract of core/state.pxd.

One engine plays four ways (Cowling, Powley and Whitehouse 2012 for the first two):

- SO-ISMCTS: each iteration samples a world consistent with what the searcher knows
  (``determinize``) and walks one tree whose edges are actions as the searcher sees
  them (``c_action_view``); UCB counts how often each edge was available.
- MO-ISMCTS: the same, with one tree per player, each keyed by what that player sees,
  so an opponent's hidden choice is searched from the opponent's own view.
- Determinized UCT: ``worlds`` independent perfect-information trees, each on one
  sampled world, which vote for the move.
- Cheating UCT: one perfect-information tree on the true state; or, as a control for
  what the information alone is worth, SO-ISMCTS handed the true state at every
  iteration instead of a sampled world.

Chance outcomes are sampled; a chance edge is keyed by what the tree's owner sees of
the outcome.  An edge is named by its mover as well as its key.  Payoffs are rescaled
to ``[0, 1]`` and an edge keeps the payoff of the player who chose it, so any number
of players, zero-sum or not, is handled alike.
The trees live in growable arrays of :c:type:`Node`; an iteration allocates nothing
unless a tree must grow, and runs without the GIL.

A :class:`Worker` is one thread's part of a search: its own trees, random stream and
buffers.  Several search side by side and their root statistics are summed (root
parallelisation); a worker may also keep its trees for the next search, cut down to
where the moves since lead (tree reuse).
"""
import math
import threading
import time

from libc.limits cimport INT_MAX
from libc.math cimport log, sqrt
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

from core.errors import CardArenaError
from core.state cimport CHANCE, GameState, Rng, rng_below, rng_seed, sample_chance
from search.common cimport ROLLOUT_HEURISTIC, ROLLOUT_RANDOM, now, rng_jump, rollout
from search.model cimport Model

from search.model import ModelError

cdef enum:
    ROOT = -2             # the mover recorded on a tree's root
    LEAF = -3             # select_guided: the node is the leaf, no move made from it
    FIRST_CAP = 4096


MODES = {"so": SINGLE_OBSERVER, "mo": MULTI_OBSERVER, "perfect": PERFECT}
VIEWS = {"actor": VIEW_ACTOR, "searcher": VIEW_SEARCHER}
PARALLEL = {"root": PARALLEL_ROOT, "tree": PARALLEL_TREE}


class SearchError(CardArenaError):
    """A search that cannot run: a state of another game, or nobody to move."""


# What threads sharing trees need of the processor: a statistic added to by several
# at once loses no addition, a node is seen whole by a thread that finds it linked,
# and the gate (see Gate) holds a growth until no thread walks the trees.  Alone in
# its trees a worker adds plainly: the same sums in the same order as ever.
cdef extern from *:
    """
    #include <sched.h>
    static inline void mcts_lock(int* lock) {
        while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
            while (__atomic_load_n(lock, __ATOMIC_RELAXED))
                sched_yield();
    }
    static inline void mcts_unlock(int* lock) {
        __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
    }
    /* Counted in as a reader, unless a growth is under way: then wait for its end.
       Either the reader sees the growth's flag, or the growth sees the reader. */
    static inline void mcts_read(int* readers, int* growing) {
        for (;;) {
            while (__atomic_load_n(growing, __ATOMIC_ACQUIRE))
                sched_yield();
            __atomic_fetch_add(readers, 1, __ATOMIC_SEQ_CST);
            if (!__atomic_load_n(growing, __ATOMIC_SEQ_CST))
                return;
            __atomic_fetch_sub(readers, 1, __ATOMIC_SEQ_CST);
        }
    }
    static inline void mcts_unread(int* readers) {
        __atomic_fetch_sub(readers, 1, __ATOMIC_SEQ_CST);
    }
    static inline void mcts_grow_begin(int* readers, int* growing) {
        __atomic_store_n(growing, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(readers, __ATOMIC_SEQ_CST))
            sched_yield();
    }
    static inline void mcts_grow_end(int* growing) {
        __atomic_store_n(growing, 0, __ATOMIC_RELEASE);
    }
    static inline void mcts_count(int32_t* x, int shared) {
        if (shared) __atomic_fetch_add(x, 1, __ATOMIC_RELAXED); else *x += 1;
    }
    static inline void mcts_add(double* x, double v, int shared) {
        double old, sum;
        if (!shared) { *x += v; return; }
        __atomic_load(x, &old, __ATOMIC_RELAXED);
        do sum = old + v;
        while (!__atomic_compare_exchange(x, &old, &sum, 1, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    }
    static inline long mcts_claim(long* counter) {
        return __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
    }
    static inline int32_t mcts_first_child(int32_t* child) {
        return __atomic_load_n(child, __ATOMIC_ACQUIRE);
    }
    static inline void mcts_link(int32_t* child, int32_t node) {
        __atomic_store_n(child, node, __ATOMIC_RELEASE);
    }
    """
    void mcts_lock(int* lock) nogil
    void mcts_unlock(int* lock) nogil
    void mcts_read(int* readers, int* growing) nogil
    void mcts_unread(int* readers) nogil
    void mcts_grow_begin(int* readers, int* growing) nogil
    void mcts_grow_end(int* growing) nogil
    void mcts_count(int32_t* x, bint shared) nogil
    void mcts_add(double* x, double v, bint shared) nogil
    long mcts_claim(long* counter) nogil
    int32_t mcts_first_child(int32_t* child) nogil
    void mcts_link(int32_t* child, int32_t node) nogil


cdef bint tree_reset(Tree* t, bint priors) noexcept nogil:
    cdef Node* root
    if t.cap == 0:
        t.nodes = <Node*>malloc(FIRST_CAP * sizeof(Node))
        if t.nodes == NULL:
            return False
        if priors:
            t.prior = <float*>malloc(FIRST_CAP * sizeof(float))
            if t.prior == NULL:
                free(t.nodes)
                t.nodes = NULL
                return False
        t.cap = FIRST_CAP
    t.size = 1
    root = &t.nodes[0]
    root.child = -1
    root.sibling = -1
    root.key = -1
    root.mover = ROOT
    root.visits = 0
    root.avail = 0
    root.total = 0.0
    return True


cdef bint tree_grow(Tree* t) noexcept nogil:
    cdef Node* grown
    cdef float* more
    if t.cap > INT_MAX // 2:
        return False
    grown = <Node*>realloc(t.nodes, 2 * t.cap * sizeof(Node))
    if grown == NULL:
        return False
    t.nodes = grown
    if t.prior != NULL:
        more = <float*>realloc(t.prior, 2 * t.cap * sizeof(float))
        if more == NULL:
            return False
        t.prior = more
    t.cap *= 2
    return True


cdef int tree_add(Tree* t, int parent, int key, int mover, int visits, float prior,
                  Gate* gate, bint* added) noexcept nogil:
    """Add a child to ``parent`` with ``visits`` and ``prior``; its id, or -1 if memory
    ran out.  Node pointers taken before the call may be stale after it.

    Through a ``gate`` (trees other threads walk too, the caller counted among their
    readers) the child is added under the gate's lock, and if another thread has just
    added one for the same key and mover, that one's id is returned instead:
    ``added`` says which.  A growth of the arrays waits for the other readers to
    leave, and new ones for its end."""
    cdef Node* n
    cdef int i = -1
    cdef bint grown = True
    if gate != NULL:
        # Never wait for the lock as a reader: its holder may be waiting for the
        # readers to leave.  Readers wait only for a growth, which only the lock's
        # holder makes, so reading again does not wait.
        mcts_unread(&gate.readers)
        mcts_lock(&gate.lock)
        mcts_read(&gate.readers, &gate.growing)
        i = find_child(t, parent, key, mover)
    added[0] = i < 0
    if i < 0:
        if t.size == t.cap:
            if gate != NULL:
                mcts_unread(&gate.readers)
                mcts_grow_begin(&gate.readers, &gate.growing)
            grown = tree_grow(t)
            if gate != NULL:
                mcts_grow_end(&gate.growing)
                mcts_read(&gate.readers, &gate.growing)
        if grown:
            i = t.size
            t.size += 1
            n = &t.nodes[i]
            n.child = -1
            n.sibling = t.nodes[parent].child
            n.key = key
            n.mover = mover
            n.visits = visits
            n.avail = 1
            n.total = 0.0
            if t.prior != NULL:
                t.prior[i] = prior
            # Whole before it is linked: a thread that reaches it reads it complete.
            mcts_link(&t.nodes[parent].child, i)
    if gate != NULL:
        mcts_unlock(&gate.lock)
    return i


cdef inline void keep_best(int i, double v, int* best, double* best_v, int* ties,
                           Rng* rng) noexcept nogil:
    """Keep candidate ``i`` if its score ``v`` is the highest so far; among equal
    scores each ends up kept with the same chance (reservoir sampling, one draw a
    tie)."""
    if best[0] < 0 or v > best_v[0]:
        best[0], best_v[0], ties[0] = i, v, 1
    elif v == best_v[0]:
        ties[0] += 1
        if rng_below(rng, ties[0]) == 0:
            best[0] = i


cdef int find_child(Tree* t, int parent, int key, int mover) noexcept nogil:
    # An edge is named by its mover as well as its key: where a tree's owner cannot
    # tell who acts next (a reply that only some hidden hands allow), one node holds
    # the edges of several movers, chance among them, whose ids coincide.
    cdef int c = mcts_first_child(&t.nodes[parent].child)
    while c >= 0 and (t.nodes[c].key != key or t.nodes[c].mover != mover):
        c = t.nodes[c].sibling
    return c


cdef bint tree_reroot(Tree* t, int node) noexcept nogil:
    """Make the subtree under ``node`` the whole tree, its nodes copied breadth first
    into a new array so that the rest is freed; False if memory ran out."""
    cdef Node* kept = <Node*>malloc(t.cap * sizeof(Node))
    cdef float* prior = NULL
    cdef int i = 0, size = 1, c, old
    if kept == NULL:
        return False
    if t.prior != NULL:
        prior = <float*>malloc(t.cap * sizeof(float))
        if prior == NULL:
            free(kept)
            return False
        prior[0] = t.prior[node]
    kept[0] = t.nodes[node]
    kept[0].sibling = -1
    kept[0].mover = ROOT
    kept[0].key = -1
    # Until a copied node is reached, its child field holds its id in the old array.
    kept[0].child = node
    while i < size:
        old = kept[i].child
        kept[i].child = -1
        c = t.nodes[old].child
        while c >= 0:
            kept[size] = t.nodes[c]
            if prior != NULL:
                prior[size] = t.prior[c]
            kept[size].child = c
            kept[size].sibling = kept[i].child
            kept[i].child = size
            size += 1
            c = t.nodes[c].sibling
        i += 1
    free(t.nodes)
    t.nodes = kept
    if prior != NULL:
        free(t.prior)
        t.prior = prior
    t.size = size
    return True


cdef class Worker:
    """One thread's part of a search by an :class:`MCTS`; see its docstring."""

    def __cinit__(self):
        self.own = self.trees = NULL

    def __init__(self, MCTS m, int n_act, uint64_t seed, int index):
        cdef int q, a
        self.mode, self.n_players, self.n_act = m.mode, m.game.num_players, n_act
        self.n_trees = self.n_players if m.mode == MULTI_OBSERVER else 1
        self.max_path = m.game.max_game_length + 2
        self.policy, self.epsilon, self.rollout_depth = m.policy, m.epsilon, m.rollout_depth
        self.uct_c, self.resample = m.uct_c, m.resample
        self.avail_parent = m.avail == "parent"
        self.lo = m.game.min_utility
        self.scale = 1.0 / (m.game.max_utility - m.game.min_utility)
        rng_seed(&self.rng, seed)
        for q in range(index):
            rng_jump(&self.rng)
        self.own = self.trees = <Tree*>malloc(self.n_trees * sizeof(Tree))
        self.path_len = <int*>malloc(self.n_trees * sizeof(int))
        self.paths = <int*>malloc(self.n_trees * self.max_path * sizeof(int))
        self.cur = <int*>malloc(self.n_trees * sizeof(int))
        self.acts = <int*>malloc(n_act * sizeof(int))
        self.probs = <double*>malloc(n_act * sizeof(double))
        self.keys = <int*>malloc(n_act * sizeof(int))
        self.cand_key = <int*>malloc(n_act * sizeof(int))
        self.cand_child = <int*>malloc(n_act * sizeof(int))
        self.cand_of = <int*>malloc(n_act * sizeof(int))
        self.slot = <int*>malloc(n_act * sizeof(int))
        self.slot_stamp = <int*>malloc(n_act * sizeof(int))
        self.payoff = <double*>malloc(self.n_players * sizeof(double))
        self.visits = <long*>malloc(n_act * sizeof(long))
        self.totals = <double*>malloc(n_act * sizeof(double))
        self.votes = <int*>malloc(n_act * sizeof(int))
        self.present = <char*>malloc(n_act * sizeof(char))
        if self.own != NULL:
            for q in range(self.n_trees):
                self.own[q].nodes = NULL
                self.own[q].prior = NULL
                self.own[q].cap = 0
                self.own[q].size = 0
        self.own_gate.readers = self.own_gate.growing = self.own_gate.lock = 0
        if (self.own == NULL or self.path_len == NULL or self.paths == NULL
                or self.cur == NULL or self.acts == NULL or self.probs == NULL
                or self.keys == NULL or self.cand_key == NULL or self.cand_child == NULL
                or self.cand_of == NULL or self.slot == NULL or self.slot_stamp == NULL
                or self.payoff == NULL
                or self.visits == NULL or self.totals == NULL or self.votes == NULL
                or self.present == NULL):
            raise MemoryError()
        for a in range(n_act):
            self.slot_stamp[a] = 0
        self.stamp = 0
        self.model, self.guided = m.model, m.model is not None
        self.puct_c, self.value_weight = m.puct_c, m.value_weight
        self.value_view = VIEWS[m.value_view]
        if self.guided:
            self.scratch = <float*>malloc(m.model.scratch_size * sizeof(float))
            self.cand_prior = <double*>malloc(n_act * sizeof(double))
            self.leaf_value = <double*>malloc(self.n_players * sizeof(double))
            if self.scratch == NULL or self.cand_prior == NULL or self.leaf_value == NULL:
                raise MemoryError()

    def __dealloc__(self):
        if self.own != NULL:
            for q in range(self.n_trees):
                free(self.own[q].nodes)
                free(self.own[q].prior)
        free(self.own)
        free(self.path_len)
        free(self.paths)
        free(self.cur)
        free(self.acts)
        free(self.probs)
        free(self.keys)
        free(self.cand_key)
        free(self.cand_child)
        free(self.cand_of)
        free(self.slot)
        free(self.slot_stamp)
        free(self.payoff)
        free(self.visits)
        free(self.totals)
        free(self.votes)
        free(self.present)
        free(self.scratch)
        free(self.cand_prior)
        free(self.leaf_value)

    def share(self, GameState state, int player, bint sample_world, int units, int first,
              int stride, long iterations, double seconds, double clock,
              Deadline deadline=None, Worker lead=None):
        """Give the worker its part of a search of ``state``: the units ``first``,
        ``first + stride``, ... below ``units``, each cut short at ``deadline``.  Given
        a ``lead`` (itself, for the lead), it searches every unit in the lead's trees
        instead, alongside the other workers given the same lead: see
        ``_run_shared``."""
        if self.root is None or type(self.root) is not type(state):
            self.root = state.blank()
            self.work = state.blank()
        self.source, self.player, self.sample_world = state, player, sample_world
        self.units, self.first, self.stride = units, first, stride
        self.iterations, self.seconds, self.clock = iterations, seconds, clock
        self.deadline, self.capped = deadline, deadline is not None
        self.trees = self.own if lead is None else lead.own
        self.gate = NULL if lead is None else &lead.own_gate
        self.helps = lead is not None and lead is not self
        # Under a time budget every thread searches to the unit's end, uncounted.
        self.claimed = &lead.claims if lead is not None and seconds <= 0 else NULL
        self.done = self.grown = self.reused = 0
        self.root_total = 0.0
        self.out_of_memory = False
        for a in range(self.n_act):
            self.visits[a] = 0
            self.totals[a] = 0.0
            self.votes[a] = 0
            self.present[a] = 0

    def continue_trees(self, path):
        """Start the next search from the node each tree reached along ``path`` (the
        mover and each tree's key of every step since the last search), if every tree
        holds that path; returns whether they do."""
        cdef int steps = len(path), i, q
        cdef int* flat = <int*>malloc((steps * (self.n_trees + 1) + 1) * sizeof(int))
        if flat == NULL:
            raise MemoryError()
        try:
            for i, (mover, keys) in enumerate(path):
                flat[i * (self.n_trees + 1)] = mover
                for q in range(self.n_trees):
                    flat[i * (self.n_trees + 1) + 1 + q] = keys[q]
            self.kept = self.reroot(flat, steps)
        finally:
            free(flat)
        if self.out_of_memory:
            raise MemoryError("the search tree outgrew memory as it was kept")
        return self.kept

    def run_share(self, bint hold=False):
        """Search the worker's share; the GIL is free meanwhile, unless ``hold``."""
        if hold:
            self.search_share()
            return
        with nogil:
            self.search_share()

    def open(self, int u):
        """As the lead: ready unit ``u`` (its state, its trees, its budget) for the
        workers sharing its trees; False if memory ran out."""
        cdef bint ready
        self.claims = 0
        self.unit_budget(u, u, self.units)
        with nogil:
            ready = self.open_unit()
        return ready

    def join(self, Worker lead):
        """Search the unit ``lead`` has opened: the same state, the same budget."""
        lead.root.copy_into(self.root)
        self.budget, self.end = lead.budget, lead.end

    def run_unit(self, bint hold=False):
        """Search the open unit, alongside the other workers; the GIL is free
        meanwhile, unless ``hold``."""
        if hold:
            self.done += self.run(self.budget, self.end)
            return
        with nogil:
            self.done += self.run(self.budget, self.end)

    def close(self):
        """As the lead: count the unit's nodes and tally its root."""
        self.close_unit()

    @property
    def nodes(self):
        return sum(self.own[q].size for q in range(self.n_trees))

    def draw(self, int n):
        """A number below ``n`` from the worker's generator: seeded, so a search under
        an iteration budget on one thread always draws the same."""
        return rng_below(&self.rng, n)

    cdef void search_share(self) noexcept nogil:
        cdef int j, mine = (self.units - self.first + self.stride - 1) // self.stride
        for j in range(mine):
            self.unit_budget(j, self.first + j * self.stride, mine)
            if not self.open_unit():
                return
            self.done += self.run(self.budget, self.end)
            self.close_unit()
            if self.out_of_memory:
                return

    cdef void unit_budget(self, int j, int u, int mine) noexcept nogil:
        # Unit ``u``, the ``j``th of the ``mine`` this worker searches.
        if self.seconds > 0:
            self.budget = 1 << 62
            # Each unit's share ends at a fixed point of the move's time, so the
            # time spent sampling and resetting comes out of the move's time.
            self.end = self.clock + self.seconds * (j + 1) / mine
        else:
            # The first units take the remainder: the move spends its exact budget.
            self.budget = self.iterations // self.units + (u < self.iterations % self.units)
            self.end = 0.0

    cdef bint reroot(self, int* path, int steps) noexcept nogil:
        cdef int q, i, node
        cdef int* found = self.cur
        for q in range(self.n_trees):
            if self.trees[q].size == 0:
                return False
            node = 0
            for i in range(steps):
                node = find_child(&self.trees[q], node, path[i * (self.n_trees + 1) + 1 + q],
                                  path[i * (self.n_trees + 1)])
                if node < 0:
                    return False
            found[q] = node
        for q in range(self.n_trees):
            if not tree_reroot(&self.trees[q], found[q]):
                self.out_of_memory = True
                return False
        return True

    cdef bint open_unit(self) noexcept nogil:
        """Ready one tree (or one per player) to be searched from the source state,
        or a world sampled from it; False if memory ran out.  Trees kept from the
        last search are searched on."""
        cdef int q, c
        cdef Tree* t
        self.source.copy_into(self.root)
        if self.sample_world:
            self.root.determinize(self.player, &self.rng)
        for q in range(self.n_trees):
            if not self.kept and not tree_reset(&self.trees[q], self.guided):
                self.out_of_memory = True
                return False
        self.kept = False
        t = &self.trees[self.player if self.mode == MULTI_OBSERVER else 0]
        c = t.nodes[0].child
        while c >= 0:
            if t.nodes[c].mover == self.player:
                self.reused += t.nodes[c].visits
            c = t.nodes[c].sibling
        return True

    cdef void close_unit(self) noexcept nogil:
        cdef int q
        for q in range(self.n_trees):
            self.grown += self.trees[q].size
        self.tally()

    cdef void tally(self) noexcept nogil:
        # The move is read from the tree of the player to move, whose root edges are
        # that player's actions; the unit votes for its most visited one, among equals
        # the one that scored most, and among those one drawn at random (see
        # SearchResult).
        cdef Tree* t = &self.trees[self.player if self.mode == MULTI_OBSERVER else 0]
        cdef int c = t.nodes[0].child, key, best = -1, most = -1, n, ties = 0
        cdef double total, best_total = 0.0
        while c >= 0:
            key, n, total = t.nodes[c].key, t.nodes[c].visits, t.nodes[c].total
            if t.nodes[c].mover != self.player:
                c = t.nodes[c].sibling
                continue
            self.visits[key] += n
            self.totals[key] += total
            self.present[key] = 1
            if n > most or n == most and total > best_total:
                best, most, best_total, ties = key, n, total, 1
            elif n == most and total == best_total:
                ties += 1
                if rng_below(&self.rng, ties) == 0:
                    best = key
            c = t.nodes[c].sibling
        if best >= 0:
            self.votes[best] += 1

    cdef long run(self, long budget, double deadline) noexcept nogil:
        cdef long it = 0
        cdef double t
        while not self.out_of_memory:
            # The clock is read every iteration: it costs far less than one, and an
            # iteration through a game played in Python may take a millisecond.
            if (it > 0 or self.helps) and (deadline > 0 or self.capped):
                t = now()
                # A unit searches once at least, so that every unit has a move to
                # vote for when the deadline is past.
                if deadline > 0 and t >= deadline or self.capped and t >= self.deadline.at:
                    break
            if self.claimed != NULL:
                if mcts_claim(self.claimed) >= budget:
                    break
            elif it >= budget:
                break
            self.iterate()
            it += 1
        return it

    cdef int owner(self, int q) noexcept nogil:
        # Whose view keys tree q: -1 for a tree that sees everything.
        if self.mode == SINGLE_OBSERVER:
            return self.player
        if self.mode == MULTI_OBSERVER:
            return q
        return -1

    cdef void iterate(self) noexcept nogil:
        cdef int q, i
        cdef bint descended
        cdef Tree* t
        cdef Node* n
        self.root.copy_into(self.work)
        if self.resample:
            self.work.determinize(self.player, &self.rng)
        # A thread walks the trees counted among their readers (see tree_add), but
        # not through its rollout, which a growth need not wait for.
        if self.gate != NULL:
            mcts_read(&self.gate.readers, &self.gate.growing)
        descended = self.descend()
        if self.gate != NULL:
            mcts_unread(&self.gate.readers)
        if not descended:
            self.out_of_memory = True
            return
        if self.guided:
            self.score_leaf()
        else:
            rollout(self.work, self.policy, self.epsilon, self.rollout_depth, self.n_players,
                    self.lo, self.scale, self.acts, self.probs, self.payoff, &self.rng)
        self.root_total += self.payoff[self.player]
        # The walk counted its visits on the way down; its payoffs come now.
        if self.gate != NULL:
            mcts_read(&self.gate.readers, &self.gate.growing)
        for q in range(self.n_trees):
            t = &self.trees[q]
            for i in range(self.path_len[q]):
                n = &t.nodes[self.paths[q * self.max_path + i]]
                if n.mover >= 0:
                    mcts_add(&n.total, self.payoff[n.mover], self.gate != NULL)
        if self.gate != NULL:
            mcts_unread(&self.gate.readers)

    cdef bint descend(self) noexcept nogil:
        """The tree phase of an iteration, in a world sampled into ``work``: down the
        trees to a leaf, expanding it; False if memory ran out."""
        cdef int q, p, a, k, s = -1, o, node
        cdef bint added
        cdef Tree* t
        for q in range(self.n_trees):
            self.path_len[q] = 0
            self.enter(q, 0, False)
        self.grew = False
        self.valued_by = -1
        while not self.grew and not self.work.c_is_terminal() and self.path_len[0] < self.max_path:
            p = self.work.c_current_player()
            if p == CHANCE:
                a = sample_chance(self.work, self.acts, self.probs, &self.rng)
                s = -1
            else:
                s = p if self.mode == MULTI_OBSERVER else 0
                if self.guided:
                    a = self.select_guided(s, self.owner(s), p)
                    if a == LEAF:
                        break
                else:
                    a = self.select(s, self.owner(s), p)
                if a < 0:
                    return False
            for q in range(self.n_trees):
                if q == s:
                    continue
                o = self.owner(q)
                k = a if o < 0 or o == p else self.work.c_action_view(a, o)
                t = &self.trees[q]
                node = find_child(t, self.cur[q], k, p)
                added = False
                if node < 0:
                    node = tree_add(t, self.cur[q], k, p, 1, 0.0, self.gate, &added)
                    if node < 0:
                        return False
                    self.grew = self.grew or added
                self.enter(q, node, added)
            self.work.c_apply_action(a)
        return True

    cdef void enter(self, int q, int node, bint counted) noexcept nogil:
        """Walk tree ``q`` into ``node`` and count its visit now, unless ``counted``
        (a node added with it).  Counted before its payoff is known, the visit is a
        virtual loss to threads sharing the tree: until the payoff comes they see the
        edge as one visit worse, and spread over others."""
        if not counted:
            mcts_count(&self.trees[q].nodes[node].visits, self.gate != NULL)
        self.cur[q] = node
        self.paths[q * self.max_path + self.path_len[q]] = node
        self.path_len[q] += 1

    cdef int candidates(self, Tree* t, int parent, int owner, int p, int n) noexcept nogil:
        """Gather the distinct keys of the ``n`` legal actions in ``acts`` as ``owner``
        sees them (``cand_key``), each one's edge from ``parent`` for ``p`` or -1
        (``cand_child``), and each action's candidate (``cand_of``); an edge found counts
        one more availability.  Returns their count and sets ``untried``."""
        cdef int m = 0, i, j, k, c
        self.untried = 0
        for i in range(n):
            self.keys[i] = self.acts[i] if owner < 0 or owner == p \
                else self.work.c_action_view(self.acts[i], owner)
        # Children with an action for a key are found through a stamped table; class
        # keys (below 0) are few, so they are matched by a scan.
        if self.stamp == INT_MAX:
            # Before the stamp wraps round to values already in the table.
            for i in range(self.n_act):
                self.slot_stamp[i] = 0
            self.stamp = 0
        self.stamp += 1
        c = mcts_first_child(&t.nodes[parent].child)
        while c >= 0:
            k = t.nodes[c].key
            if k >= 0 and t.nodes[c].mover == p:
                self.slot[k] = c
                self.slot_stamp[k] = self.stamp
            c = t.nodes[c].sibling
        for i in range(n):
            k = self.keys[i]
            if k >= 0:
                c = self.slot[k] if self.slot_stamp[k] == self.stamp else -1
            else:
                for j in range(m):
                    if self.cand_key[j] == k:
                        break
                else:
                    j = m
                if j < m:
                    self.cand_of[i] = j
                    continue
                c = find_child(t, parent, k, p)
            self.cand_of[i] = m
            self.cand_key[m] = k
            self.cand_child[m] = c
            m += 1
            if c >= 0:
                mcts_count(&t.nodes[c].avail, self.gate != NULL)
            else:
                self.untried += 1
        return m

    cdef int select(self, int s, int owner, int p) noexcept nogil:
        """Choose the move of ``p`` in tree ``s`` (keyed by ``owner``'s view), step the
        tree, and return the action; -1 if memory ran out."""
        cdef Tree* t = &self.trees[s]
        cdef int parent = self.cur[s]
        cdef int n = self.work.c_legal_actions(self.acts)
        cdef int m = self.candidates(t, parent, owner, p, n)
        cdef int i, j, c, best = -1, ties = 0
        cdef bint added = False
        cdef double v, best_v = 0.0
        cdef Node* node
        if self.untried:
            # Expand: a key without a child, uniformly.  The new edge's first visit
            # is counted as it is made, so that a thread sharing the tree never
            # finds an edge without visits.
            j = rng_below(&self.rng, self.untried)
            for i in range(m):
                if self.cand_child[i] < 0:
                    if j == 0:
                        best = i
                        break
                    j -= 1
            c = tree_add(t, parent, self.cand_key[best], p, 1, 0.0, self.gate, &added)
            if c < 0:
                return -1
            self.cand_child[best] = c
            if added:
                self.grew = True
                if self.avail_parent:
                    # As if the edge had been counted in every visit of its parent.
                    t.nodes[c].avail = t.nodes[parent].visits
            else:
                # Another thread added it first: it was available here too.
                mcts_count(&t.nodes[c].avail, self.gate != NULL)
        else:
            for i in range(m):
                node = &t.nodes[self.cand_child[i]]
                v = node.total / node.visits + self.uct_c * sqrt(log(node.avail) / node.visits)
                keep_best(i, v, &best, &best_v, &ties, &self.rng)
        return self.step(s, best, n, added)

    cdef int select_guided(self, int s, int owner, int p) noexcept nogil:
        """``select`` guided by the model, by PUCT (Silver et al. 2017) with ISMCTS's
        availability counts: an edge scores its mean payoff plus ``puct_c`` times its
        prior times sqrt(its availability) / (1 + its visits), the availability standing
        where AlphaZero has the parent's visits, as it stands in UCB.  At a node where
        some key has no edge yet (a new node, or moves this world offers for the first
        time), the model is evaluated for ``p``, and every missing edge is added with
        its prior.  When the leaf's payoff reads the model's value, that node is the
        leaf and LEAF is returned.  When it reads a rollout alone (``value_weight``
        0), a new node below the root is the leaf unevaluated on its first visit, and
        its evaluation waits for its second, after which a move is chosen: many leaves
        are never visited again, and the tree grows as it would have, the prior only
        read later.  A node that already has edges is the leaf of the walk that
        evaluates it, so that an iteration evaluates once at most.  -1 if memory ran
        out."""
        cdef Tree* t = &self.trees[s]
        cdef int parent = self.cur[s]
        cdef int n = self.work.c_legal_actions(self.acts)
        cdef int m = self.candidates(t, parent, owner, p, n)
        cdef int i, c, best = -1, ties = 0
        cdef bint added, fresh
        cdef long seen = 0
        cdef double v, q, fpu, best_v = 0.0, seen_total = 0.0
        cdef Node* node
        if self.untried:
            fresh = mcts_first_child(&t.nodes[parent].child) < 0
            if self.value_weight == 0 and fresh and parent != 0 \
                    and t.nodes[parent].visits <= 1:
                return LEAF
            self.hidden = self.model.forward(self.work, p, self.scratch)
            self.valued_by = p
            self.model.priors(self.hidden, self.acts, n, self.probs)
            # A class key's prior is its actions' summed.
            for i in range(m):
                self.cand_prior[i] = 0.0
            for i in range(n):
                self.cand_prior[self.cand_of[i]] += self.probs[i]
            for i in range(m):
                if self.cand_child[i] < 0:
                    c = tree_add(t, parent, self.cand_key[i], p, 0,
                                 <float>self.cand_prior[i], self.gate, &added)
                    if c < 0:
                        return -1
                    self.cand_child[i] = c
            if self.value_weight > 0 or not fresh:
                self.grew = True
                return LEAF
        for i in range(m):
            node = &t.nodes[self.cand_child[i]]
            seen += node.visits
            seen_total += node.total
        # An edge not yet visited is valued at its visited siblings' mean payoff: no
        # better and no worse than the moves tried so far, so that its prior alone
        # decides when it is tried.
        fpu = seen_total / seen if seen else 0.5
        for i in range(m):
            c = self.cand_child[i]
            node = &t.nodes[c]
            q = node.total / node.visits if node.visits else fpu
            v = q + self.puct_c * t.prior[c] * sqrt(<double>node.avail) / (1 + node.visits)
            keep_best(i, v, &best, &best_v, &ties, &self.rng)
        return self.step(s, best, n, False)

    cdef int step(self, int s, int best, int n, bint counted) noexcept nogil:
        """Move tree ``s`` down the edge of candidate ``best`` (its visit ``counted``
        already, or not) and return the action it stands for: for a class key, any
        action of the class, uniformly."""
        cdef int c = self.cand_child[best], k = self.cand_key[best], i, chosen
        self.enter(s, c, counted)
        if k >= 0:
            return k
        chosen = 0
        for i in range(n):
            if self.keys[i] == k:
                chosen += 1
        chosen = rng_below(&self.rng, chosen)
        for i in range(n):
            if self.keys[i] == k:
                if chosen == 0:
                    return self.acts[i]
                chosen -= 1
        return -1

    cdef void score_leaf(self) noexcept nogil:
        """The payoffs of the state the tree phase ended in, searched with a model: its
        returns if the game is over; otherwise, chance played on to the next decision,
        the model's values as ``value_view`` knows the state, mixed with a rollout's
        payoffs by ``value_weight``."""
        cdef int p, viewer
        cdef double w = self.value_weight
        while not self.work.c_is_terminal() and self.work.c_current_player() == CHANCE:
            self.work.c_apply_action(sample_chance(self.work, self.acts, self.probs,
                                                   &self.rng))
        if self.work.c_is_terminal():
            for p in range(self.n_players):
                self.payoff[p] = (self.work.c_returns(p) - self.lo) * self.scale
            return
        if w > 0:
            viewer = self.work.c_current_player() if self.value_view == VIEW_ACTOR \
                else self.player
            # The node's evaluation, when the tree phase ended by expanding it, read the
            # same state as the player to move knows it.
            if self.valued_by != viewer:
                self.hidden = self.model.forward(self.work, viewer, self.scratch)
            self.model.values(self.hidden, self.leaf_value)
            if w >= 1:
                for p in range(self.n_players):
                    self.payoff[p] = self.leaf_value[p]
                return
        rollout(self.work, self.policy, self.epsilon, self.rollout_depth, self.n_players,
                self.lo, self.scale, self.acts, self.probs, self.payoff, &self.rng)
        if w > 0:
            for p in range(self.n_players):
                self.payoff[p] = w * self.leaf_value[p] + (1 - w) * self.payoff[p]


cdef class MCTS:
    """A tree searcher for one game; ``search`` picks a move for the player to move.

    ``mode`` is ``"so"`` (SO-ISMCTS), ``"mo"`` (MO-ISMCTS) or ``"perfect"``; under
    ``"perfect"``, ``cheat`` searches the true state and otherwise each of ``worlds``
    sampled worlds gets its own tree, the worlds sharing the budget; under ``"so"`` or
    ``"mo"``, ``cheat`` hands the trees the true state at every iteration, where they
    would sample a world.  The budget is ``iterations`` per move, or ``seconds`` of
    wall time per move when that is positive.  ``policy`` is the rollout policy (``"random"`` or ``"heuristic"``, the
    latter playing the game's heuristic move except with probability ``epsilon``);
    ``rollout_depth`` > 0 cuts rollouts after that many decisions and scores them with
    the game's ``evaluate``.

    ``threads`` > 1 searches on that many threads, each with its own random stream
    (the seed's, jumped once per thread), as ``parallel`` says.  ``"tree"``: the
    threads walk the same trees at once, each walk counting its visits on the way
    down (a virtual loss) so that the others spread over other moves; worlds are
    searched one after another, every thread in each.  ``"root"``: each thread grows
    its own trees, and the root's statistics are summed when all are done; the
    worlds are shared among the threads.  The iterations of a move are shared among
    the threads, or the worlds; under a time budget every thread searches for the
    whole time.  With an iteration budget and a seed a search on one thread, or on
    several at the root, repeats itself whatever the threads' timing; threads in one
    tree spend the budget exactly, but which thread takes which walk depends on
    their timing, and so do the visits.

    ``reuse`` keeps the trees between searches: told every move and chance outcome
    since its last search (``follow``), the searcher starts the next one from the node
    they lead to, as seen by each tree's owner, with its statistics.  Sampled worlds
    are new at every move, so ``"perfect"`` without ``cheat`` always starts afresh.

    ``model`` (a :class:`search.model.Model` of this game) guides the search
    (docs/learning.md): its policy is the prior of PUCT, with exploration constant
    ``puct_c`` in place of UCB's ``uct_c``, and a leaf is scored by its value head,
    mixed with a rollout's payoffs by ``value_weight`` (1: the value alone, 0: the
    rollout alone; None: the model's own, ``Model.value_weight``).  ``value_view`` says whose knowledge the value reads at a leaf of a
    sampled world: ``"actor"``, the player to move there, or ``"searcher"``, the player
    the search is for.  Without a model these three are unused.
    """

    def __init__(self, game, mode="so", *, long iterations=1000,
                 double seconds=0.0, double uct_c=0.7, avail="edge", policy="random",
                 double epsilon=0.1, int rollout_depth=0, int worlds=1, bint cheat=False,
                 int threads=1, parallel="tree", bint reuse=False, seed=0,
                 Model model=None, double puct_c=0.6, value_weight=None,
                 value_view="actor"):
        if iterations < 1:
            raise ValueError(f"iterations is at least 1, not {iterations}")
        if not (seconds >= 0 and math.isfinite(seconds)):
            raise ValueError(f"seconds is a finite number >= 0, not {seconds}")
        # Under a NaN constant UCB ranks no child above another, and a negative one
        # shuns the moves tried least.
        if not (uct_c >= 0 and math.isfinite(uct_c)):
            raise ValueError(f"uct_c is a finite number >= 0, not {uct_c}")
        if avail not in ("edge", "parent"):
            raise ValueError(f"avail is 'edge' or 'parent', not {avail!r}")
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {mode!r}")
        if policy not in ("random", "heuristic"):
            raise ValueError(f"policy is 'random' or 'heuristic', not {policy!r}")
        if threads < 1:
            raise ValueError(f"threads is at least 1, not {threads}")
        if parallel not in PARALLEL:
            raise ValueError(f"parallel is one of {', '.join(PARALLEL)}, not {parallel!r}")
        if model is not None and not model.fits(game):
            raise ModelError(f"a model for {model.game_string} cannot guide a search of "
                             f"{game}")
        if not (puct_c >= 0 and math.isfinite(puct_c)):
            raise ValueError(f"puct_c is a finite number >= 0, not {puct_c}")
        if value_weight is None:
            value_weight = 1.0 if model is None else model.value_weight
        if not 0 <= value_weight <= 1:
            raise ValueError(f"value_weight is from 0 to 1, not {value_weight}")
        if value_view not in VIEWS:
            raise ValueError(f"value_view is one of {', '.join(VIEWS)}, not {value_view!r}")
        mode = MODES[mode]
        self.game = game
        self.mode = mode
        self.iterations = iterations
        self.seconds = seconds
        self.uct_c = uct_c
        self.avail = avail
        self.policy = ROLLOUT_HEURISTIC if policy == "heuristic" else ROLLOUT_RANDOM
        self.epsilon = epsilon
        self.rollout_depth = rollout_depth
        self.cheat = cheat
        self.worlds = 1 if cheat or mode != PERFECT else max(1, worlds)
        self.resample = mode != PERFECT and not cheat
        self.threads, self.parallel = threads, parallel
        self.reuse = reuse and (cheat or mode != PERFECT)
        self.model, self.puct_c = model, puct_c
        self.value_weight, self.value_view = value_weight, value_view
        self.path = None
        self.workers = [Worker(self, game.action_buffer_size,
                               <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF), t)
                        for t in range(threads)]

    @property
    def nodes(self):
        """Nodes in the trees of the last search (the last world's, in each thread)."""
        return sum(w.nodes for w in self.workers)

    @property
    def node_bytes(self):
        """Bytes one tree node takes."""
        return sizeof(Node)

    def search(self, GameState state, player=None, Deadline deadline=None):
        """Search ``state`` (left unchanged) for ``player``, by default the player to
        move; returns a :class:`SearchResult`.  Worlds are sampled from what ``player``
        knows.  Another player, or chance, may be to move: the search then values the
        position for ``player`` and chooses no move.  A ``deadline`` cuts the budget
        short: each tree or world is searched once at least, and no more once it
        passes."""
        cdef bint sample_world = self.mode == PERFECT and not self.cheat
        cdef bint tree = PARALLEL[self.parallel] == PARALLEL_TREE
        cdef int units, busy, t
        cdef Worker w, lead = None
        if state.game != self.game:
            raise SearchError(f"this searcher was made for {self.game}, not {state.game}")
        if state.c_is_terminal():
            raise SearchError("the game is over: there is nothing to search")
        if player is None:
            player = state.c_current_player()
            if player < 0:
                raise SearchError("nobody is to move: chance acts next")
        elif isinstance(player, bool) or not 0 <= player < self.game.num_players:
            raise SearchError(f"player is a seat from 0 to {self.game.num_players - 1}, "
                              f"not {player!r}")
        # A unit is a world, or where one tree is searched, a thread's tree, or the
        # tree the threads share.  A unit with no iteration would have no move to
        # vote for, and a thread with none would idle.
        units = self.worlds if sample_world else 1 if tree else self.threads
        busy = self.threads
        if self.seconds <= 0:
            units = min(units, self.iterations)
            busy = min(busy, self.iterations)
        if not tree:
            busy = min(busy, units)
        elif busy > 1:
            lead = self.workers[0]
        start = time.perf_counter()
        clock = now()
        for t in range(busy):
            if lead is None:
                self.workers[t].share(state, player, sample_world, units, t, busy,
                                      self.iterations, self.seconds, clock, deadline)
            else:
                self.workers[t].share(state, player, sample_world, units, 0, 1,
                                      self.iterations, self.seconds, clock, deadline, lead)
        # Every thread keeps its trees, or none does: summed, old statistics and new
        # would otherwise weigh by chance.
        kept = bool(self.path) and player == self.player
        for w in [lead] if lead is not None else self.workers[:busy]:
            kept = kept and w.continue_trees(self.path)
        if not kept:
            for w in self.workers:
                w.kept = False
        self.player = player
        self.path = [] if self.reuse else None
        if lead is None:
            _run([w.run_share for w in self.workers[:busy]], self.game.steps_in_python)
        else:
            _run_shared(self.workers[:busy], units, self.game.steps_in_python)
        return self._merge(self.workers[:busy], sample_world, time.perf_counter() - start)

    def follow(self, GameState state, int action):
        """Record ``action`` (a move, or a chance outcome) taken at ``state``, so that
        the next search can start where the last one's trees lead."""
        cdef int p = state.c_current_player(), q, o
        cdef Worker w = self.workers[0]
        if self.path is None:
            return
        keys = []
        for q in range(w.n_trees):
            # A tree's owner, as Worker.owner reads it for the last search's player.
            o = q if self.mode == MULTI_OBSERVER else self.player if self.mode == SINGLE_OBSERVER else -1
            keys.append(action if o < 0 or o == p else state.c_action_view(action, o))
        self.path.append((p, keys))

    def forget(self):
        """Start the next search afresh: the moves since the last one are not all
        known."""
        self.path = None

    def _merge(self, workers, bint sample_world, double seconds):
        # Root parallelisation (Chaslot, Winands and van den Herik 2008) sums the
        # threads' visits: one tree's worth of evidence, grown in several.  Sampled
        # worlds each vote, as a single thread's do.  Threads sharing a tree leave
        # its tally to the lead, and the others' at zero.
        cdef Worker w
        cdef int a
        cdef long done = 0, grown = 0, reused = 0
        cdef double root_total = 0.0
        visits, totals, votes = {}, {}, {}
        for w in workers:
            if w.out_of_memory:
                raise MemoryError(f"the search tree outgrew memory at {self.nodes} nodes")
            done += w.done
            grown += w.grown
            reused += w.reused
            root_total += w.root_total
            for a in range(w.n_act):
                if w.present[a]:
                    visits[a] = visits.get(a, 0) + w.visits[a]
                    totals[a] = totals.get(a, 0.0) + w.totals[a]
                    votes[a] = votes.get(a, 0) + w.votes[a]
        # Among moves equal in votes, visits and payoff, one is drawn at random: the
        # lowest id, which the searchers once played, is often a pass, and at a budget
        # near the number of moves, where every move has one visit and 0/1 payoffs tie,
        # a few iterations then played below random play.
        if sample_world:
            rank = lambda a: (votes[a], visits[a], totals[a])
        else:
            rank = lambda a: (visits[a], totals[a])
        best = max(map(rank, visits), default=None)
        tied = sorted(a for a in visits if rank(a) == best)
        action = None if not tied else tied[0] if len(tied) == 1 \
            else tied[(<Worker>workers[0]).draw(len(tied))]
        return SearchResult(action, visits, {a: totals[a] / visits[a] for a in visits if visits[a]},
                            done, grown, seconds, reused, root_total / done if done else None)


def _run(tasks, steps_in_python=False):
    """Each worker's task, the first in this thread and each other in its own; the
    tree engine frees the GIL, so they run side by side.  Alone on a game whose steps
    call into Python, a worker keeps the GIL: taking it again at every step cost about
    a tenth of an oh_hell iteration."""
    if len(tasks) == 1 and steps_in_python:
        tasks[0](True)
        return
    others = [threading.Thread(target=task) for task in tasks[1:]]
    for thread in others:
        thread.start()
    tasks[0]()
    for thread in others:
        thread.join()


def _run_shared(workers, int units, steps_in_python):
    """Tree parallelisation: the units one after another, the lead readying each, then
    every worker searching it in the lead's trees, then the lead tallying it."""
    cdef Worker lead = workers[0], w
    for u in range(units):
        if not lead.open(u):
            return
        for w in workers[1:]:
            w.join(lead)
        _run([w.run_unit for w in workers], steps_in_python)
        lead.close()
        for w in workers:
            if w.out_of_memory:
                return


class SearchResult:
    """What a search found: the chosen ``action``, the most visited root action, among
    equals the one that scored most, and among those one drawn from the search's seeded
    generator (docs/search.md); per root action, ``visits``
    and the mean payoff in ``[0, 1]`` of the player to move (``values``); the
    ``iterations`` run, ``nodes`` grown (over every world's trees), and ``seconds``
    taken.  ``reused``
    counts the root visits a kept tree brought from earlier searches; they are in
    ``visits`` too.  ``value`` is the searched player's mean payoff in ``[0, 1]`` over
    this search's iterations, exploring ones included.  A search for a player who is
    not to move has no root actions of theirs: ``action`` is None, ``visits`` and
    ``values`` empty."""

    __slots__ = ("action", "visits", "values", "iterations", "nodes", "seconds", "reused",
                 "value")

    def __init__(self, action, visits, values, iterations, nodes, seconds, reused=0,
                 value=None):
        self.action = action
        self.visits = visits
        self.values = values
        self.iterations = iterations
        self.nodes = nodes
        self.seconds = seconds
        self.reused = reused
        self.value = value

    def policy(self):
        """Each root action's share of the visits; all of it on ``action`` when no
        action was visited (a guided search whose one iteration evaluated the root)."""
        total = sum(self.visits.values())
        if total == 0:
            return {a: float(a == self.action) for a in sorted(self.visits)}
        return {a: n / total for a, n in sorted(self.visits.items())}

    def __repr__(self):
        return (f"SearchResult(action={self.action}, iterations={self.iterations}, "
                f"nodes={self.nodes}, seconds={self.seconds:.3f})")
