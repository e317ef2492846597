# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Depth-limited expectimax with explicit chance nodes, averaged over sampled worlds.

Each of ``worlds`` worlds is sampled from what the player to move knows and searched
as a perfect-information game to ``depth`` steps (a step is a move or a chance
outcome), with the game's ``evaluate`` at the leaves; each root move's values are
averaged over the worlds.  In a two-player zero-sum game, min and max nodes prune
with alpha-beta, and chance nodes with Ballard's Star1 (bounds from the outcomes
already searched) or Star2 (first a cheap probe of each outcome's first move).
Other games are searched as max-n: each player maximises their own value, unpruned.
"""
import time

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

from core.state cimport CHANCE, GameState, Rng, rng_seed
from search.clock cimport Deadline
from search.common cimport now

from search.mcts import SearchError, SearchResult

cdef double L = -1.0, U = 1.0


cdef class Frame:
    """One level of the search: its state and the buffers its loop walks."""
    cdef GameState st
    cdef Frame next
    cdef int* acts
    cdef double* probs
    cdef double* lb
    cdef double* ub
    cdef double* vals          # max-n: each player's value of this level's best line

    def __cinit__(self, GameState proto, int n_act, int n_players, Frame next_frame):
        self.st = proto.blank()
        self.next = next_frame
        self.acts = <int*>malloc(n_act * sizeof(int))
        self.probs = <double*>malloc(n_act * sizeof(double))
        self.lb = <double*>malloc(n_act * sizeof(double))
        self.ub = <double*>malloc(n_act * sizeof(double))
        self.vals = <double*>malloc(n_players * sizeof(double))
        if not (self.acts and self.probs and self.lb and self.ub and self.vals):
            raise MemoryError()

    def __dealloc__(self):
        free(self.acts)
        free(self.probs)
        free(self.lb)
        free(self.ub)
        free(self.vals)


def _constant_sum(game):
    """Whether the game has two players whose payoffs always sum to one constant, so
    that one player's loss is the other's gain and min and max nodes may prune: as the
    game declares (``zero_sum``; OpenSpiel's utility type for its games)."""
    return game.num_players == 2 and game.zero_sum


cdef class Expectimax:
    """Expectimax for one game: ``search`` picks a move for the player to move.
    ``star`` is 0 (plain), 1 (Star1) or 2 (Star2); pruning applies to two-player
    zero-sum games only."""
    cdef readonly object game
    cdef readonly int depth, worlds, star
    cdef readonly bint zero_sum
    cdef readonly long nodes_searched
    cdef Rng rng
    cdef int root, n_players
    cdef double lo, scale
    cdef Frame top
    cdef object proto_type
    cdef Deadline deadline       # the search's, or None
    cdef bint capped, cut        # it has one; it passed, and the world searched is cut short

    def __init__(self, game, *, int depth=3, int worlds=8, int star=2, seed=0):
        if depth < 1:
            raise ValueError(f"depth is at least 1, not {depth}")
        if worlds < 1:
            raise ValueError(f"worlds is at least 1, not {worlds}")
        if star not in (0, 1, 2):
            raise ValueError(f"star is 0, 1 or 2, not {star}")
        self.game = game
        self.depth = depth
        self.worlds = worlds
        self.star = star
        self.n_players = game.num_players
        self.zero_sum = _constant_sum(game)
        self.lo = game.min_utility
        self.scale = 1.0 / (game.max_utility - game.min_utility)
        rng_seed(&self.rng, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))

    def search(self, GameState state, Deadline deadline=None):
        """Search ``state`` (left unchanged) for its player to move; returns a
        :class:`~search.mcts.SearchResult` whose ``values`` are each root move's mean
        value in ``[0, 1]`` for the player to move, and whose ``visits`` count the
        worlds searched.  Once ``deadline`` passes no more worlds are searched, and the
        world it cuts short is left out; if it cuts the first, that world is searched
        one step deep."""
        cdef int player = state.c_current_player()
        cdef int w
        cdef Frame f
        if state.game != self.game:
            raise SearchError(f"this searcher was made for {self.game}, not {state.game}")
        if player < 0:
            raise SearchError("nobody is to move: the game is over or chance acts next")
        if self.top is None or self.proto_type is not type(state):
            f = None
            for i in range(self.depth + 2):
                f = Frame(state, self.game.action_buffer_size, self.n_players, f)
            self.top = f
            self.proto_type = type(state)
        self.root = player
        self.nodes_searched = 0
        self.deadline, self.capped, self.cut = deadline, deadline is not None, False
        start = time.perf_counter()
        f = self.top
        sums = {}
        done = 0
        for w in range(self.worlds):
            state.copy_into(f.st)
            f.st.determinize(player, &self.rng)
            world = self._world(f, player, self.depth)
            if self.cut:
                break
            for a, v in world.items():
                sums[a] = sums.get(a, 0.0) + v
            done += 1
        if not done:
            # Not one world in time: the last one sampled, searched one step deep,
            # which costs one evaluation a move.
            self.capped = self.cut = False
            sums = self._world(f, player, 1)
            done = 1
        values = {a: s / done for a, s in sums.items()}
        action = max(sorted(values), key=values.get)
        return SearchResult(action, {a: done for a in values}, values,
                            done, self.nodes_searched, time.perf_counter() - start)

    def _world(self, Frame f, int player, int depth):
        """Each root move's value in ``[0, 1]`` for ``player`` in the world ``f.st``,
        searched ``depth`` steps deep."""
        cdef int n = f.st.c_legal_actions(f.acts), i
        cdef double v
        values = {}
        for i in range(n):
            f.st.copy_into(f.next.st)
            f.next.st.c_apply_action(f.acts[i])
            with nogil:
                if self.zero_sum:
                    v = (self.value(f.next, depth - 1, L, U) + 1.0) * 0.5
                else:
                    self.value_n(f.next, depth - 1)
                    v = f.next.vals[player]
            values[f.acts[i]] = v
        return values

    cdef bint out_of_time(self) noexcept nogil:
        # The clock is read every 256 nodes: a node costs far less than reading it.
        if not self.cut and self.capped and (self.nodes_searched & 255) == 0 \
                and now() >= self.deadline.at:
            self.cut = True
        return self.cut

    cdef double leaf(self, GameState st) noexcept nogil:
        # The root player's value in [-1, 1].
        if st.c_is_terminal():
            return 2.0 * (st.c_returns(self.root) - self.lo) * self.scale - 1.0
        return st.c_evaluate(self.root)

    cdef double value(self, Frame f, int depth, double alpha, double beta) noexcept nogil:
        """The root player's value of ``f.st`` in [-1, 1], fail-soft: a value at or
        below ``alpha`` is an upper bound, one at or above ``beta`` a lower bound."""
        cdef int n, i, p
        cdef double v, best
        cdef bint maxing
        self.nodes_searched += 1
        if self.out_of_time() or depth == 0 or f.st.c_is_terminal():
            return self.leaf(f.st)
        p = f.st.c_current_player()
        if p == CHANCE:
            return self.chance(f, depth, alpha, beta)
        n = f.st.c_legal_actions(f.acts)
        maxing = p == self.root
        best = L - 1.0 if maxing else U + 1.0
        for i in range(n):
            f.st.copy_into(f.next.st)
            f.next.st.c_apply_action(f.acts[i])
            v = self.value(f.next, depth - 1, alpha, beta)
            if maxing:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    cdef double chance(self, Frame f, int depth, double alpha, double beta) noexcept nogil:
        cdef int n = f.st.c_chance_outcomes(f.acts, f.probs), i
        cdef double total = 0.0, p, v, a_i, b_i, rest_lb = 0.0, rest_ub = 0.0
        if self.star == 0:
            for i in range(n):
                f.st.copy_into(f.next.st)
                f.next.st.c_apply_action(f.acts[i])
                total += f.probs[i] * self.value(f.next, depth - 1, L, U)
            return total
        for i in range(n):
            f.lb[i] = L
            f.ub[i] = U
        if self.star == 2 and depth >= 2 and self.probe(f, n, depth, alpha, beta, &v):
            return v
        for i in range(n):
            rest_lb += f.probs[i] * f.lb[i]
            rest_ub += f.probs[i] * f.ub[i]
        # Star1: outcome i is searched in the window that could still move the
        # weighted sum across (alpha, beta), given the bounds of the outcomes after it.
        for i in range(n):
            p = f.probs[i]
            rest_lb -= p * f.lb[i]
            rest_ub -= p * f.ub[i]
            a_i = (alpha - total - rest_ub) / p
            b_i = (beta - total - rest_lb) / p
            if a_i >= f.ub[i]:
                return total + p * f.ub[i] + rest_ub
            if b_i <= f.lb[i]:
                return total + p * f.lb[i] + rest_lb
            f.st.copy_into(f.next.st)
            f.next.st.c_apply_action(f.acts[i])
            v = self.value(f.next, depth - 1, max(a_i, f.lb[i]), min(b_i, f.ub[i]))
            if v <= a_i:
                return total + p * v + rest_ub
            if v >= b_i:
                return total + p * v + rest_lb
            total += p * v
        return total

    cdef bint probe(self, Frame f, int n, int depth, double alpha, double beta,
                    double* out) noexcept nogil:
        """Star2's probing: search only the first move after each outcome, which
        bounds the outcome's value from one side (below where the root player moves,
        above where the opponent does).  If the bounds settle the chance node against
        (alpha, beta), put that bound in ``out`` and return True; either way leave each
        outcome's bounds in ``f.lb`` and ``f.ub``."""
        cdef int i, p
        cdef double sum_lb = 0.0, sum_ub = 0.0, v
        for i in range(n):
            f.st.copy_into(f.next.st)
            f.next.st.c_apply_action(f.acts[i])
            p = f.next.st.c_current_player()
            if p < 0:
                continue
            f.next.st.c_legal_actions(f.next.acts)
            f.next.st.copy_into(f.next.next.st)
            f.next.next.st.c_apply_action(f.next.acts[0])
            v = self.value(f.next.next, depth - 2, L, U)
            if p == self.root:
                f.lb[i] = v
            else:
                f.ub[i] = v
        for i in range(n):
            sum_lb += f.probs[i] * f.lb[i]
            sum_ub += f.probs[i] * f.ub[i]
        if sum_lb >= beta:
            out[0] = sum_lb
            return True
        if sum_ub <= alpha:
            out[0] = sum_ub
            return True
        return False

    cdef void value_n(self, Frame f, int depth) noexcept nogil:
        """Max-n: each player's value of ``f.st`` in [0, 1], into ``f.vals``."""
        cdef int n, i, q, p
        cdef double best = -1.0
        cdef bint cut
        self.nodes_searched += 1
        cut = self.out_of_time()
        if f.st.c_is_terminal():
            for q in range(self.n_players):
                f.vals[q] = (f.st.c_returns(q) - self.lo) * self.scale
            return
        if cut or depth == 0:
            for q in range(self.n_players):
                f.vals[q] = (f.st.c_evaluate(q) + 1.0) * 0.5
            return
        p = f.st.c_current_player()
        if p == CHANCE:
            n = f.st.c_chance_outcomes(f.acts, f.probs)
            for q in range(self.n_players):
                f.vals[q] = 0.0
            for i in range(n):
                f.st.copy_into(f.next.st)
                f.next.st.c_apply_action(f.acts[i])
                self.value_n(f.next, depth - 1)
                for q in range(self.n_players):
                    f.vals[q] += f.probs[i] * f.next.vals[q]
            return
        n = f.st.c_legal_actions(f.acts)
        for i in range(n):
            f.st.copy_into(f.next.st)
            f.next.st.c_apply_action(f.acts[i])
            self.value_n(f.next, depth - 1)
            if f.next.vals[p] > best:
                best = f.next.vals[p]
                for q in range(self.n_players):
                    f.vals[q] = f.next.vals[q]
