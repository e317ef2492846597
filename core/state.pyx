# cython: language_level=3
"""The contract's Python edge: checked methods over the ``c_*`` hot path, and
:class:`Game`, the factory every ruleset's game derives from."""
import json
import re

import numpy as np

from core.errors import GameOverError, IllegalActionError, ParameterError, StateFormatError

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc


cdef class GameState:
    """One position of a game.  Subclasses hold the position in one flat C struct."""

    # --- the hot path: each ruleset overrides these --------------------------------

    cdef int c_current_player(self) noexcept nogil:
        return TERMINAL

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        return 0

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        return 0

    cdef void c_apply_action(self, int action) noexcept nogil:
        pass

    cdef double c_returns(self, int player) noexcept nogil:
        return 0.0

    cdef bint c_is_terminal(self) noexcept nogil:
        return True

    cdef void copy_into(self, GameState dst) noexcept nogil:
        pass

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        pass

    cdef int action_view(self, int action, int observer) noexcept nogil:
        return action

    cdef double evaluate(self, int player) noexcept nogil:
        return 0.0

    cdef int heuristic_action(self, Rng* rng) noexcept nogil:
        return -1

    cdef GameState blank(self):
        cdef GameState st = type(self).__new__(type(self))
        st.game = self.game
        return st

    # --- the Python edge -----------------------------------------------------------

    def current_player(self):
        """The player to move, ``CHANCE`` (-1) or ``TERMINAL`` (-4)."""
        return self.c_current_player()

    def is_terminal(self):
        return self.c_is_terminal()

    def is_chance_node(self):
        return self.c_current_player() == CHANCE

    def legal_actions(self):
        """The legal actions of the player to move (chance outcomes at a chance
        node), ascending."""
        cdef int n = self.game.num_distinct_actions
        if self.game.max_chance_outcomes > n:
            n = self.game.max_chance_outcomes
        cdef int* buf = <int*>malloc(n * sizeof(int))
        try:
            n = self.c_legal_actions(buf)
            return [buf[i] for i in range(n)]
        finally:
            free(buf)

    def chance_outcomes(self):
        """``[(outcome, probability), ...]`` at a chance node, else ``[]``."""
        if self.c_current_player() != CHANCE:
            return []
        cdef int m = self.game.max_chance_outcomes
        cdef int* acts = <int*>malloc(m * sizeof(int))
        cdef double* probs = <double*>malloc(m * sizeof(double))
        try:
            m = self.c_chance_outcomes(acts, probs)
            return [(acts[i], probs[i]) for i in range(m)]
        finally:
            free(acts)
            free(probs)

    def apply_action(self, action):
        """Apply a legal action (or chance outcome).  Raises
        :class:`~core.errors.IllegalActionError` and leaves the state unchanged if it
        is not legal here."""
        if self.c_is_terminal():
            raise GameOverError(f"the game is over; cannot apply action {action!r}")
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"an action is an int, not {type(action).__name__}")
        if not self._is_legal(action):
            raise IllegalActionError(self._illegal_message(int(action), self.legal_actions()))
        self.c_apply_action(action)

    def _is_legal(self, action):
        # Scanned in C: building the Python list for every checked step would double
        # the cost of driving a game from Python.
        cdef int n = max(self.game.num_distinct_actions, self.game.max_chance_outcomes)
        cdef int* buf
        cdef int i, a
        if not 0 <= action < n:
            return False
        a = action
        buf = <int*>malloc(n * sizeof(int))
        try:
            n = self.c_legal_actions(buf)
            for i in range(n):
                if buf[i] == a:
                    return True
            return False
        finally:
            free(buf)

    def _illegal_message(self, action, legal):
        if not 0 <= action < max(self.game.num_distinct_actions,
                                 self.game.max_chance_outcomes):
            what = "out of range"
        else:
            what = f"({self.action_to_string(action)}) not legal here"
        names = ", ".join(f"{a} {self.action_to_string(a)}" for a in legal[:12])
        more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
        return f"action {action} is {what}; legal: {names}{more}"

    def returns(self):
        """Each player's payoff so far (+1 win, -1 loss, 0 draw once terminal)."""
        return [self.c_returns(p) for p in range(self.game.num_players)]

    def clone(self):
        """An independent copy (one memcpy)."""
        cdef GameState st = self.blank()
        self.copy_into(st)
        return st

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (_from_serialized, (str(self.game), self.serialize()))

    def __eq__(self, other):
        if not isinstance(other, GameState):
            return NotImplemented
        return str(self.game) == str(other.game) and self.to_dict() == other.to_dict()

    def __hash__(self):
        return hash(self.serialize())

    def serialize(self):
        """The whole state as a JSON string; ``game.deserialize_state`` reads it."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    def determinized(self, int observer, seed):
        """A copy with everything ``observer`` cannot see resampled (see the contract's
        ``determinize``); ``seed`` makes it reproducible."""
        cdef Rng rng
        cdef GameState st
        if not 0 <= observer < self.game.num_players:
            raise ValueError(f"observer must be a player from 0 to "
                             f"{self.game.num_players - 1}, not {observer}")
        st = self.clone()
        rng_seed(&rng, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
        st.determinize(observer, &rng)
        return st

    def action_to_string(self, action):
        raise NotImplementedError

    def to_dict(self):
        raise NotImplementedError

    def observation_dict(self, player):
        raise NotImplementedError

    def information_state_string(self, player):
        raise NotImplementedError

    def observation_tensor(self, player):
        raise NotImplementedError

    def __str__(self):
        return json.dumps(self.to_dict(), indent=1)


def _from_serialized(game_string, data):
    from core import load_game
    return load_game(game_string).deserialize_state(data)


def random_playouts(GameState state, int games, seed):
    """Play ``games`` uniformly random games to the end from ``state`` (which is left
    unchanged), in C.  Returns ``(steps, sum of player 0's returns)``; a step is one
    action or chance outcome."""
    cdef Rng rng
    cdef GameState work = state.blank()
    cdef int n_actions = max(state.game.num_distinct_actions, state.game.max_chance_outcomes)
    cdef int* buf = <int*>malloc(n_actions * sizeof(int))
    cdef double* probs = <double*>malloc(n_actions * sizeof(double))
    cdef long long steps = 0
    cdef double total = 0.0
    cdef int g
    rng_seed(&rng, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    try:
        with nogil:
            for g in range(games):
                state.copy_into(work)
                steps += playout(work, &rng, buf, probs)
                total += work.c_returns(0)
    finally:
        free(buf)
        free(probs)
    return steps, total


cdef long long playout(GameState st, Rng* rng, int* buf, double* probs) noexcept nogil:
    """Play uniformly at random (chance by its probabilities) to the end."""
    cdef long long steps = 0
    cdef int n, i
    cdef double u
    while not st.c_is_terminal():
        if st.c_current_player() == CHANCE:
            n = st.c_chance_outcomes(buf, probs)
            u = rng_uniform(rng)
            i = 0
            while i < n - 1 and u >= probs[i]:
                u -= probs[i]
                i += 1
            st.c_apply_action(buf[i])
        else:
            n = st.c_legal_actions(buf)
            st.c_apply_action(buf[rng_below(rng, n)])
        steps += 1
    return steps


def copy_into_ns(GameState state, int repeats):
    """Time ``copy_into`` over ``repeats`` copies; returns nanoseconds per copy."""
    import time
    cdef GameState dst = state.blank()
    cdef int i
    t0 = time.perf_counter_ns()
    with nogil:
        for i in range(repeats):
            state.copy_into(dst)
    return (time.perf_counter_ns() - t0) / repeats


_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no"}


class Game:
    """A ruleset with its parameters: the factory of its states.

    Subclasses set ``name``, ``long_name``, ``num_players``, ``num_distinct_actions``,
    ``max_chance_outcomes``, ``max_game_length`` and ``parameters`` (the defaults of
    every game parameter, whose types they also fix), and implement ``_check`` (reject
    values that make no sense) and ``new_initial_state``."""

    name = ""
    long_name = ""
    parameters = {}
    num_players = 2
    min_utility = -1.0
    max_utility = 1.0

    def __init__(self, **params):
        values = dict(self.parameters)
        for key, value in params.items():
            if key not in self.parameters:
                raise ParameterError(
                    f"{self.name} has no parameter {key!r}; its parameters are: "
                    + ", ".join(f"{k} (default {_fmt(v)})" for k, v in self.parameters.items()))
            values[key] = _coerce(self.name, key, value, self.parameters[key])
        self.params = values
        self._check()

    def _check(self):
        pass

    def __str__(self):
        changed = [f"{k}={_fmt(v)}" for k, v in self.params.items()
                   if v != self.parameters[k]]
        return f"{self.name}({','.join(changed)})" if changed else self.name

    def __repr__(self):
        return f"<{type(self).__name__} {self}>"

    def __eq__(self, other):
        return isinstance(other, Game) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def render(self, view):
        """Text for a position dict; rulesets offer a compact one of their own."""
        return json.dumps(view, indent=1)

    def deserialize_state(self, data):
        """Read a state written by ``GameState.serialize``."""
        try:
            desc = json.loads(data)
        except (TypeError, ValueError) as e:
            raise StateFormatError(f"not a serialized {self.name} state: {e}") from None
        return self.state_from_dict(desc)


def _fmt(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _coerce(game, key, value, default):
    """``value`` as the type of ``default``; strings from a game string are parsed."""
    kind = type(default)
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
    elif kind is int:
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
            return int(value)
    elif isinstance(value, kind):
        return value
    raise ParameterError(f"{game} parameter {key} must be {kind.__name__} "
                         f"(default {_fmt(default)}), not {value!r}")


CHANCE_PLAYER = CHANCE
TERMINAL_PLAYER = TERMINAL
