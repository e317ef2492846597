# cython: language_level=3
"""The contract's Python edge: checked methods over the ``c_*`` hot path, and
:class:`Game`, the factory every ruleset's game derives from."""
import json
import re

import numpy as np
import orjson

from core.errors import (GameOverError, IllegalActionError, ParameterError, PlayerError,
                         RotationError, StateFormatError)
from core.kit.position import check_current_player, check_keys
from core.kit.tensor import TensorLayout

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc


cdef class GameState:
    """One position of a game.  Subclasses hold the position in one flat C struct.
    States come from their game: ``game.new_initial_state()``,
    ``game.state_from_dict(...)`` or ``game.deserialize_state(...)``."""

    def __init__(self, *args, **kwargs):
        raise TypeError(f"a {type(self).__name__} comes from its game: use "
                        "game.new_initial_state(), game.state_from_dict() or "
                        "game.deserialize_state()")

    # --- the hot path: each ruleset overrides these --------------------------------

    cdef int c_current_player(self) noexcept nogil:
        return TERMINAL

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        return 0

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        return 0

    cdef int c_sample_chance(self, Rng* rng) noexcept nogil:
        return -1

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

    cdef int c_action_view(self, int action, int observer) noexcept nogil:
        return action

    cdef double c_evaluate(self, int player) noexcept nogil:
        return 0.0

    cdef int c_heuristic_action(self, Rng* rng) noexcept nogil:
        return -1

    cdef void c_observation_tensor(self, int player, float* out) noexcept nogil:
        # A game without features keeps the empty layout of ``Game``: nothing to write.
        pass

    cdef GameState blank(self):
        cdef GameState st = type(self).__new__(type(self))
        st.game = self.game
        return st

    # --- the Python edge -----------------------------------------------------------

    def current_player(self):
        """The player to move, ``CHANCE`` (-1) or ``TERMINAL`` (-4)."""
        return self.c_current_player()

    def is_terminal(self):
        """Whether the game is over."""
        return self.c_is_terminal()

    def is_chance_node(self):
        """Whether chance acts next (a draw, a shuffle's outcome, a random steal)."""
        return self.c_current_player() == CHANCE

    def legal_actions(self):
        """The legal actions of the player to move (chance outcomes at a chance
        node), ascending."""
        cdef int n = self.game.action_buffer_size
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
        _check_action_type(action)
        if not self._is_legal(action):
            raise IllegalActionError(self._illegal_message(int(action), self.legal_actions()))
        self.c_apply_action(action)

    def action_to_string(self, action):
        """The readable name of ``action``, an id from 0 to the game's
        ``num_distinct_actions`` (or a chance outcome at a chance node)."""
        _check_action_type(action)
        if not 0 <= action < self.game.action_buffer_size:
            raise IllegalActionError(f"action {action} is out of range: ids run from 0 to "
                                     f"{self.game.action_buffer_size - 1}")
        return self.game._action_name(self, int(action))

    def action_kind(self, action):
        """The kind of move ``action`` (legal here) is, as a designer counts moves: a
        short name shared by every action of that kind, such as ``"summon"`` or
        ``"end turn"``.  A game that groups its actions says how; otherwise the kind
        is the first word of the action's name."""
        _check_action_type(action)
        if not self._is_legal(action):
            raise IllegalActionError(self._illegal_message(int(action), self.legal_actions()))
        return self.game._action_kind(self, int(action))

    def _is_legal(self, action):
        # Scanned in C: building the Python list for every checked step would double
        # the cost of driving a game from Python.
        cdef int n = self.game.action_buffer_size
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
        if not 0 <= action < self.game.action_buffer_size:
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
        return self.game == other.game and self.to_dict() == other.to_dict()

    # A state changes as actions apply, so it cannot be a dict key or set member; its
    # serialize() string can.
    __hash__ = None

    def serialize(self):
        """The whole state as a JSON string; ``game.deserialize_state`` reads it."""
        return canonical_json(self.to_dict())

    def determinized(self, observer, seed):
        """A copy with everything ``observer`` cannot see resampled (see the contract's
        ``determinize``); ``seed`` makes it reproducible."""
        cdef Rng rng
        cdef GameState st
        self._check_player(observer)
        st = self.clone()
        seed_rng(&rng, seed)
        st.determinize(observer, &rng)
        return st

    def action_view(self, action, observer):
        """What ``observer`` sees of ``action`` (legal here): the id itself, or a class
        id below 0 shared by every action ``observer`` cannot tell apart from it."""
        self._check_player(observer)
        if not self._is_legal(action):
            raise IllegalActionError(self._illegal_message(action, self.legal_actions()))
        return self.c_action_view(action, observer)

    def evaluate(self, player):
        """The game's heuristic value of this position for ``player``, in [-1, 1]
        (its returns once the game is over)."""
        self._check_player(player)
        if self.c_is_terminal():
            return self.c_returns(player)
        return self.c_evaluate(player)

    def sample_chance(self, seed=0):
        """At a chance node, one outcome drawn with its probability as search draws it
        (``seed`` fixes the draw); None elsewhere."""
        cdef Rng rng
        cdef int m = self.game.action_buffer_size
        cdef int* acts
        cdef double* probs
        if self.c_current_player() != CHANCE:
            return None
        seed_rng(&rng, seed)
        acts = <int*>malloc(m * sizeof(int))
        probs = <double*>malloc(m * sizeof(double))
        try:
            return sample_chance(self, acts, probs, &rng)
        finally:
            free(acts)
            free(probs)

    def heuristic_action(self, seed=0):
        """The legal action the game's knowledge picks here, or None where the game
        offers no choice (at a chance node, once over, or in a game without one);
        ``seed`` breaks ties."""
        cdef Rng rng
        cdef int a
        if self.c_current_player() < 0:
            return None
        seed_rng(&rng, seed)
        a = self.c_heuristic_action(&rng)
        return None if a < 0 else a

    # --- the deal, rotated through the seats ----------------------------------------

    def just_dealt(self):
        """Whether the opening deal has just ended, the moment ``rotate_deal`` applies:
        every card the seats are dealt from a pile they share is dealt, the rules have
        done what follows by itself, and nothing else has happened (no decision, no
        other draw).  A game whose seats draw only from piles of their own deals
        nothing: its first state.  Always False in a game that cannot rotate its deal
        (``game.rotation_refusal`` says why)."""
        return self.game.rotation_refusal is None and self.game._just_dealt(self)

    def rotate_deal(self, k):
        """Rotate the opening deal by ``k`` seats, in place: what seat ``p`` was dealt,
        seat ``(p + k) % num_players`` now holds, and knows as it would had it been dealt
        it.  The piles the seats share stay, and so does what the rules rather than the
        deal give a seat (in most games, who moves first).  Only where ``just_dealt``;
        each game's rules say what its seats are dealt.  Raises
        :class:`~core.errors.RotationError`, the state unchanged, in a game that cannot
        rotate its deal or a position that is not just dealt."""
        refusal = self.game.rotation_refusal
        if refusal is not None:
            raise RotationError(refusal)
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise RotationError(f"a rotation is a number of seats, an int, not {k!r}")
        if not self.game._just_dealt(self):
            raise RotationError("a deal is rotated where it has just ended, before any "
                                "decision or other draw: see GameState.just_dealt")
        k = int(k) % self.game.num_players
        if k:
            self.game._rotate_deal(self, k)

    def chance_source(self):
        """At a chance node, the pile its outcome is drawn from, as ``(seat, pile)``:
        the seat whose own pile it is (a deck, a library, a hand) and the pile's name,
        or seat -1 for what the seats share; None elsewhere.  Drawn from a stream of
        random numbers of its own, a pile's cards come in one order whenever they are
        drawn, as a shuffled deck's do: the harness plays a rotated deal so, each seat
        drawing from the streams of the seat whose cards it holds."""
        if self.c_current_player() != CHANCE:
            return None
        return self.game._chance_source(self)

    def _check_player(self, player):
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) \
                or not 0 <= player < self.game.num_players:
            raise PlayerError(f"a player is an int from 0 to {self.game.num_players - 1}, "
                              f"not {player!r}")

    # --- built on those --------------------------------------------------------------

    def to_dict(self):
        """The whole position as plain data, hidden cards included; the game's
        ``state_from_dict`` reads it back."""
        return self.game._view(self, None)

    def observation_dict(self, player):
        """What ``player`` sees, in the format of ``to_dict`` with what it cannot see
        hidden."""
        self._check_player(player)
        return self.game._view(self, player)

    def information_state_string(self, player):
        """Everything ``player`` knows, as one canonical string: a summary of
        knowledge (the observation), not the history of the game."""
        self._check_player(player)
        return canonical_json(self.game._view(self, player))

    def observation_tensor(self, player):
        """What ``player`` knows as a flat float32 vector, laid out by the game's
        ``tensor_layout`` (each ruleset's doc describes its blocks)."""
        self._check_player(player)
        out = np.empty(self.game.observation_tensor_size, np.float32)
        cdef float[::1] buf = out
        if buf.shape[0]:
            self.c_observation_tensor(player, &buf[0])
        return out

    def __str__(self):
        return json.dumps(self.to_dict(), indent=1)


def _check_action_type(action):
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"an action is an int, not {type(action).__name__}")


cdef void seed_rng(Rng* rng, seed) except *:
    rng_seed(rng, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))


def canonical_json(value):
    """``value`` as compact JSON with sorted keys, as ``json.dumps`` writes it.

    orjson writes the same text about ten times faster, and searchers that key on
    information states ask for it at every step.  Where the two differ, json writes
    it: other characters than ASCII, which orjson writes as they are and json escapes,
    and small floats' exponents (orjson's ``1e-7``, json's ``1e-07``).  Those are
    found by looking for ``e-`` anywhere, so a word such as "one-eyed" sends its text
    to json too: slower, never different."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        if text.isascii() and b"e-" not in text:
            return text.decode()
    except TypeError:  # a key other than a string, which json turns into one
        pass
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _from_serialized(game_string, data):
    from core import load_game
    return load_game(game_string).deserialize_state(data)


def random_playouts(GameState state, int games, seed):
    """Play ``games`` uniformly random games to the end from ``state`` (which is left
    unchanged), in C.  Returns ``(steps, sum of player 0's returns)``; a step is one
    action or chance outcome."""
    cdef Rng rng
    cdef GameState work = state.blank()
    cdef int n_actions = state.game.action_buffer_size
    cdef int* buf = <int*>malloc(n_actions * sizeof(int))
    cdef double* probs = <double*>malloc(n_actions * sizeof(double))
    cdef long long steps = 0
    cdef double total = 0.0
    cdef int g
    seed_rng(&rng, seed)
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
    cdef int n
    while not st.c_is_terminal():
        if st.c_current_player() == CHANCE:
            st.c_apply_action(sample_chance(st, buf, probs, rng))
        else:
            n = st.c_legal_actions(buf)
            st.c_apply_action(buf[rng_below(rng, n)])
        steps += 1
    return steps


def fill_observation_tensor(GameState state, player, float[::1] out):
    """Fill ``out`` (a float32 buffer of ``game.observation_tensor_size``, such as a row
    of a batch) with ``state.observation_tensor(player)``, through the C fill with the
    GIL released, as a search inside a thread reads it."""
    state._check_player(player)
    cdef int p = player
    if out.shape[0] != state.game.observation_tensor_size:
        raise ValueError(f"the buffer holds {out.shape[0]} floats; {state.game} fills "
                         f"{state.game.observation_tensor_size}")
    if out.shape[0]:
        with nogil:
            state.c_observation_tensor(p, &out[0])


def observation_tensor_ns(GameState state, player, int repeats):
    """Time the C fill of ``player``'s observation tensor over ``repeats`` fills into
    one buffer; returns nanoseconds per fill.  Compiled here for the same reason as
    ``copy_into_ns``."""
    import time
    cdef int i, p
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats}")
    state._check_player(player)
    p = player
    cdef float[::1] buf = np.empty(max(1, state.game.observation_tensor_size), np.float32)
    t0 = time.perf_counter_ns()
    with nogil:
        for i in range(repeats):
            state.c_observation_tensor(p, &buf[0])
    return (time.perf_counter_ns() - t0) / repeats


def copy_into_ns(GameState state, int repeats):
    """Time ``copy_into`` over ``repeats`` copies; returns nanoseconds per copy.  It is
    here, not in bench/, because the loop must be compiled to time a memcpy."""
    import time
    cdef GameState dst = state.blank()
    cdef int i
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats}")
    t0 = time.perf_counter_ns()
    with nogil:
        for i in range(repeats):
            state.copy_into(dst)
    return (time.perf_counter_ns() - t0) / repeats


def determinize_ns(GameState state, int observer, int repeats):
    """Time a copy and ``determinize`` for ``observer`` over ``repeats`` rounds, as a
    searcher pays them once per iteration; returns nanoseconds per round.  Compiled
    here for the same reason as ``copy_into_ns``."""
    import time
    cdef GameState dst = state.blank()
    cdef Rng rng
    cdef int i
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats}")
    state._check_player(observer)
    seed_rng(&rng, 0)
    t0 = time.perf_counter_ns()
    with nogil:
        for i in range(repeats):
            state.copy_into(dst)
            dst.determinize(observer, &rng)
    return (time.perf_counter_ns() - t0) / repeats


_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no"}


class Game:
    """A ruleset with its parameters: the factory of its states.

    Subclasses set ``name``, ``long_name``, ``num_players``, ``num_distinct_actions``,
    ``max_chance_outcomes``, ``max_game_length``, ``cards`` (a :class:`core.kit.Cards`:
    the names of its card kinds), ``tensor_layout`` (a
    :class:`core.kit.TensorLayout`: the observation tensor's size follows from it;
    empty for a game without features),
    ``parameters`` (the default of every game parameter, whose type it also fixes) and
    ``limits`` (for a numeric parameter, its lowest and highest values and why the
    highest); they implement ``new_initial_state`` and ``_from_dict``, and may implement
    ``_check`` (reject combinations that make no sense, or normalise them) and
    ``render``.

    ``params`` holds this game's values.  A parameter given as a string, as in a game
    string, is read by the default's type: an integer in decimal digits, a bool as
    true/false, 1/0 or yes/no."""

    name = ""
    long_name = ""
    parameters = {}
    # name: (lowest, highest, why the highest)
    limits = {}
    # name: the values a text parameter may take (a mode, a deck)
    choices = {}
    # The text parameters that name a file on the machine playing (a designer's deck
    # file): a web page neither offers them nor takes them from its visitors.
    file_parameters = ()
    tensor_layout = TensorLayout()
    # The card kinds by name (a core.kit.Cards), as positions and action names write them.
    cards = None
    # The files the rules read their cards and decks from: a store keys a game's
    # results by their contents too, so that edited cards never resume the games
    # played with the old ones.
    data_files = ()
    # The keys a position dict may hold at its top level; ``state_from_dict`` refuses
    # others before the ruleset reads it.
    position_keys = ()
    # The seats.  Where the rules allow several counts, a ``players`` parameter (with
    # its limits) sets it, and ``num_players`` follows the parameter.
    num_players = 2
    min_utility = -1.0
    max_utility = 1.0
    # Returns are win, draw or loss (False), or scores such as points taken (True):
    # ratings count finishing order either way, and report the mean score of a scored
    # game.
    scored = False
    # Every outcome's returns sum to zero, so one side's gain is another's loss.
    zero_sum = True
    # Each step of a state calls into Python (a game played through another library):
    # search on one thread then keeps the GIL rather than taking it at every step.
    steps_in_python = False
    # How a page lays out a position dict (an ``observation_dict``): ``status``, the
    # keys the game's ``status`` line tells above the board, kept off it; ``player``, each seat's keys in order;
    # ``table``, the keys of the middle of the table; ``red``, a pattern of the card
    # names drawn in red; ``grid``, where the table is a board of cells: ``key`` names
    # the list of pieces, each a dict with its ``card`` and its cell in the key ``at``
    # (a row name then a column name), ``rows`` from the top as seat 0 sees them,
    # ``columns`` from the left, and ``flip`` turns the board for the other seat;
    # ``glossary``, what a key means, in a player's words, told where its name is
    # pointed at.  Every key not named is folded away under "more".  None: all keys shown as they
    # come.
    layout = None
    # Whether ``determinize`` can sample worlds from a player's knowledge: searchers
    # that need it refuse a game that cannot.
    can_determinize = True

    def __init__(self, **params):
        values = dict(self.parameters)
        for key, value in params.items():
            if key not in self.parameters:
                raise ParameterError(
                    f"{self.name} has no parameter {key!r}; its parameters are: "
                    + ", ".join(f"{k} (default {_fmt(v)})" for k, v in self.parameters.items()))
            values[key] = _coerce(self.name, key, value, self.parameters[key])
        self.params = values
        for key, (lo, hi, why) in self.limits.items():
            if not lo <= values[key] <= hi:
                raise ParameterError(f"{self.name} parameter {key} must be from {lo} to {hi} "
                                     f"({hi}: {why}), not {values[key]}")
        for key, allowed in self.choices.items():
            if values[key] not in allowed:
                raise ParameterError(f"{self.name} parameter {key} must be one of "
                                     f"{', '.join(allowed)}; not {values[key]!r}")
        if "players" in values:
            self.num_players = values["players"]
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

    @classmethod
    def player_counts(cls):
        """The fewest and the most seats the rules allow."""
        if "players" in cls.parameters:
            return cls.limits["players"][:2]
        return cls.num_players, cls.num_players

    def teams(self):
        """The sides, each a tuple of seats that win or lose together: partners are
        never scored against each other.  Every seat is its own side unless the rules
        say otherwise."""
        return tuple((p,) for p in range(self.num_players))

    @property
    def observation_tensor_size(self):
        """The length of ``observation_tensor``, from the tensor's layout."""
        return self.tensor_layout.size

    @property
    def action_buffer_size(self):
        """The room a buffer needs for the legal actions or the chance outcomes."""
        return max(self.num_distinct_actions, self.max_chance_outcomes)

    def render(self, view):
        """Text for a position dict; rulesets offer a compact one of their own."""
        return json.dumps(view, indent=1)

    def status(self, view):
        """Where the game stands in a position dict, in a player's words, for the line
        above a board on the page and the terminal's heading: turns counted from 1,
        whose turn it is and what happens now.  Rulesets say it in their own words;
        this one tells the turn alone."""
        turn = view.get("turn")
        return f"turn {turn + 1}" if isinstance(turn, int) else ""

    def card_text(self, name):
        """What is printed on the card ``name`` (as a position writes it), as a dict
        from each thing the card says (its name first, then type, cost...) to its
        words, for a player to read; None for a card that says nothing beyond its
        name, as in this game, or for no card of the game."""
        return None

    def new_initial_state(self):
        """The state in which a game begins."""
        raise NotImplementedError

    def state_from_dict(self, desc):
        """A state built from plain data in the format of ``GameState.to_dict`` (most
        keys optional: see the ruleset's doc).  Raises
        :class:`~core.errors.StateFormatError` saying where ``desc`` is wrong."""
        check_keys(desc, self.position_keys)
        state = self._from_dict(desc)
        check_current_player(desc, state)
        return state

    def _from_dict(self, desc):
        """The state ``desc`` describes, its top-level keys known to be valid."""
        raise NotImplementedError

    # --- the Python edge of its states: what GameState's checked methods call ------
    # Here, not on the state, so that a ruleset's engine (its state class) never
    # imports the module holding its names and views (its game.pyx): that module
    # imports the engine.

    def _action_name(self, state, action):
        """The readable name of ``action`` in ``state``, known to be in range."""
        raise NotImplementedError

    def _action_kind(self, state, action):
        """The kind of ``action``, known to be legal in ``state``: see
        ``GameState.action_kind``.  The first word of its name, as ``"play"`` of
        ``"play W7 from hand"``, trailing punctuation dropped, groups most games'
        actions well enough; a game overrides this to group them by its rules."""
        return self._action_name(state, action).split()[0].rstrip(":,.;")

    def _view(self, state, viewer):
        """``state`` as plain data: all of it for ``viewer`` None, else what that player
        sees, with the cards it does not know hidden."""
        raise NotImplementedError

    # --- the deal, for ``GameState.rotate_deal``: a game that says what its seats are
    # dealt sets ``rotation_refusal`` to None and implements the first two.

    @property
    def rotation_refusal(self):
        """Why this game's deal cannot be rotated (``GameState.rotate_deal``), in one
        line; None where it can."""
        return f"{self} does not say what its seats are dealt, so its deal cannot be rotated"

    def _just_dealt(self, state):
        """Whether ``state`` has just been dealt: see ``GameState.just_dealt``."""
        return False

    def _rotate_deal(self, state, k):
        """Rotate ``state``'s deal by ``k`` seats (from 1 to ``num_players - 1``), in
        place; ``state`` is known to be just dealt."""
        raise NotImplementedError

    def _chance_source(self, state):
        """The pile the chance event of ``state`` draws from: see
        ``GameState.chance_source``.  A game whose every draw is from what the seats
        share keeps this one."""
        return (-1, "")

    def deserialize_state(self, data):
        """Read a state written by ``GameState.serialize``."""
        try:
            desc = orjson.loads(data)
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
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
    elif kind is int:
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", value.strip()):
            return int(value)
    elif isinstance(value, kind):
        return value
    raise ParameterError(f"{game} parameter {key} must be {kind.__name__} "
                         f"(default {_fmt(default)}), not {value!r}")


CHANCE_PLAYER = CHANCE
TERMINAL_PLAYER = TERMINAL
