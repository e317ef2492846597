# cython: language_level=3
"""The contract of core/state.pxd over any OpenSpiel game, so every searcher also plays
OpenSpiel's own games: poker, hearts, bridge, tic-tac-toe...

>>> from core import ForeignGame
>>> game = ForeignGame("kuhn_poker")
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 1, 2]
>>> state.apply_action(2); state.apply_action(0)
>>> state.action_to_string(1)
'Bet'

A :class:`ForeignState` holds a ``pyspiel.State``, a Python object: the one state in
cardarena whose position is not a flat C struct, so a copy is a ``clone()`` rather than
a ``memcpy``.  Its hot-path methods take the GIL to call into pyspiel; search runs on
it, only slower than on a native ruleset and without parallel speed-up across threads.

OpenSpiel says nothing of who sees an action, nor offers an evaluator or a move choice,
so those hooks are derived (``c_action_view``) or left at their defaults.  A game is
determinized with its own ``ResampleFromInfostate``; games that lack it have
``ForeignGame.can_determinize`` False.

ForeignGame is not in ``core.GAMES``: that registry holds cardarena's own rulesets.
"""
import functools
import random
import zlib

import numpy as np
import pyspiel

from core.errors import CardArenaError, IllegalActionError, ParameterError, StateFormatError
from core.kit.tensor import TensorLayout

from core.state cimport TERMINAL, GameState, Rng, rng_next, rng_seed, rng_uniform
from core.state import Game

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

# How a third-party resampler may refuse a position: OpenSpiel's own error for a
# missing or failed check, or a C++ exception pybind11 translates.
_SPIEL_FAILURES = (RuntimeError, IndexError, ValueError)
# Worlds drawn before a determinization gives up on a resampler that breaks rules.
_TRIES = 16
# Action views and knowledge tokens remembered per game before the memory is cleared
# and refilled: a few tens of megabytes at most.
_VIEWS = 100_000
# OpenSpiel's partnership games, which it does not declare as such: their sides.
PARTNERS = {"euchre": ((0, 2), (1, 3)), "bridge": ((0, 2), (1, 3)),
            "tiny_bridge_4p": ((0, 2), (1, 3))}


class ForeignGame(Game):
    """An OpenSpiel game, from a ``pyspiel.Game`` or a game string, as a cardarena game.

    Sizes follow OpenSpiel's, except ``max_game_length``, which counts chance outcomes
    as well, as cardarena's does.  ``spiel_game`` is the pyspiel.Game.

    ``teams()`` are the partnerships of the games in ``PARTNERS``, every seat alone
    elsewhere; ``zero_sum`` is OpenSpiel's utility type; returns are ``scored`` unless
    they are a two-sided win or loss of one (each of 1, 0, -1).

    ``can_determinize`` says whether ``determinize`` resamples hidden information: True
    for a perfect-information game (there is none) and for a game whose OpenSpiel
    ``ResampleFromInfostate`` works throughout a game; not for liars_dice, skat, spades
    or phantom_ttt, which lack it, nor for gin_rummy, whose worlds keep the true
    history.  Searchers that determinize check it first.

    >>> game = ForeignGame("leduc_poker(players=3)")
    >>> game.num_players, game.action_buffer_size, game.can_determinize
    (3, 8, True)
    >>> ForeignGame("liars_dice").can_determinize
    False
    """

    steps_in_python = True

    def __init__(self, game):
        if isinstance(game, str):
            try:
                game = pyspiel.load_game(game)
            except pyspiel.SpielError as e:
                raise ParameterError(f"OpenSpiel cannot load {game!r}: {e}") from None
        elif not isinstance(game, pyspiel.Game):
            raise ParameterError(f"a ForeignGame is made from a pyspiel.Game or a game "
                                 f"string, not {type(game).__name__}")
        kind = game.get_type()
        if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ParameterError(f"{kind.short_name} is a simultaneous-move game; the "
                                 "contract is sequential: wrap "
                                 "pyspiel.convert_to_turn_based(game) instead")
        if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
            raise ParameterError(f"{kind.short_name} samples chance without listing its "
                                 "outcomes; the contract needs them listed")
        self.spiel_game = game
        self.name = kind.short_name
        self.long_name = kind.long_name
        self.parameters = dict(kind.parameter_specification)
        self.params = game.get_parameters()
        self.num_players = game.num_players()
        self.num_distinct_actions = game.num_distinct_actions()
        self.max_chance_outcomes = game.max_chance_outcomes()
        self.max_game_length = game.max_game_length() + game.max_chance_nodes_in_history()
        self.min_utility = game.min_utility()
        self.max_utility = game.max_utility()
        self.zero_sum = kind.utility in (pyspiel.GameType.Utility.ZERO_SUM,
                                         pyspiel.GameType.Utility.CONSTANT_SUM)
        self.scored = (self.min_utility, self.max_utility) != (-1.0, 1.0)
        self._teams = PARTNERS.get(self.name)
        self.perfect_information = (
            kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION)

        self._knowledge = _knowledge_of(kind)
        if self._knowledge is None:
            raise ParameterError(f"{self.name} offers neither an information state nor "
                                 "an observation string, so no player's view can be told")
        # An information state has perfect recall: what its player knows after an
        # action follows from what they knew before and what they saw of it.  Where
        # what they see of an action is the same in every world, each view is computed
        # once and remembered by the information state before it.  An observation
        # string forgets, and an action may show each world differently (bridge's
        # opening lead shows dummy's hand): those views are asked every time.
        self._memory = _Memory(kind.provides_information_state_string
                               and _views_follow_actions(str(game)),
                               max(self.num_distinct_actions, self.max_chance_outcomes))
        if kind.provides_observation_tensor:
            self._tensor = pyspiel.State.observation_tensor
            size = game.observation_tensor_size()
        elif kind.provides_information_state_tensor:
            self._tensor = pyspiel.State.information_state_tensor
            size = game.information_state_tensor_size()
        else:
            self._tensor = None
            size = 0
        self.tensor_layout = TensorLayout(("observation", size))

        self._flaw = None if self.perfect_information else _resampler_flaw(str(game))
        self.can_determinize = self._flaw is None
        # Some resamplers (hearts' during the pass, in OpenSpiel 2.0.2) sometimes
        # return worlds that break the game's rules further on; each world is then
        # played out once before it is used, and another drawn if it fails.
        self.checks_worlds = self.can_determinize and _breaks_rules(str(game))
        # Determinizations that found no playable world and kept the true state.
        self.unsampled = 0
        # What pyspiel raised at actions search applied (see ForeignState.broken).
        self.errors = []

    def __str__(self):
        return written(str(self.spiel_game))

    def teams(self):
        if self._teams is not None and self.num_players == 4:
            return self._teams
        return super().teams()

    def __reduce__(self):
        return (ForeignGame, (str(self),))

    @property
    def rotation_refusal(self):
        # OpenSpiel says nothing of which chance outcomes deal to which seat.
        return (f"{self} is OpenSpiel's game, which does not say what its seats are "
                "dealt, so its deal cannot be rotated")

    def new_initial_state(self):
        """The state in which a game begins."""
        return _wrapping(self, self.spiel_game.new_initial_state())

    def wrap(self, spiel_state):
        """A ForeignState at the position of ``spiel_state``, a ``pyspiel.State`` of
        this game; it plays on a clone, so ``spiel_state`` is never changed."""
        if not isinstance(spiel_state, pyspiel.State):
            raise StateFormatError(f"wrap takes a pyspiel.State, not "
                                   f"{type(spiel_state).__name__}")
        other = str(spiel_state.get_game())
        if other != str(self.spiel_game):
            raise StateFormatError(f"a state of {written(other)} cannot be wrapped as one "
                                   f"of {self}")
        return _wrapping(self, spiel_state.clone())

    def state_from_dict(self, desc):
        """The state reached by replaying ``desc["history"]`` (the format of
        ``ForeignState.to_dict``), each step checked to be legal."""
        if not isinstance(desc, dict) or set(desc) != {"game", "history"}:
            raise StateFormatError('a state of an OpenSpiel game is {"game": ..., '
                                   f'"history": [...]}}, not {desc!r}')
        # A state written before games were named as people write them holds the name
        # with OpenSpiel's empty brackets.
        if not isinstance(desc["game"], str) or written(desc["game"]) != str(self):
            raise StateFormatError(f"a state of {desc['game']!r} is not one of {self}")
        history = desc["history"]
        if not isinstance(history, list) or any(
                isinstance(a, bool) or not isinstance(a, int) for a in history):
            raise StateFormatError(f"a history is a list of action ids, not {history!r}")
        ps = self.spiel_game.new_initial_state()
        for i, action in enumerate(history):
            if ps.is_terminal():
                raise StateFormatError(f"the game is over after step {i}, but the history "
                                       f"goes on to {len(history)} steps")
            if action not in ps.legal_actions():
                raise StateFormatError(f"step {i}: action {action} is not legal after "
                                       f"{history[:i]}")
            ps.apply_action(action)
        return _wrapping(self, ps)

    def _action_name(self, ForeignState state, int action):
        try:
            return state.ps.action_to_string(state.ps.current_player(), action)
        except _SPIEL_FAILURES:
            # An id in range that means nothing here, such as a card's, above every
            # bet's, at a poker decision.
            raise IllegalActionError(f"{self.name} has no action {action} "
                                     "here") from None


def written(name):
    """OpenSpiel's string of a game as a person writes it: a game loaded without
    parameters, ``leduc_poker()`` to OpenSpiel, is ``leduc_poker``, as our own games
    name themselves; a game with parameters keeps them as given."""
    return name[:-2] if name.endswith("()") else name


def _knowledge_of(kind):
    """What a player knows, as one string: its information state, else what it observes
    now; a perfect-information game without either string is known whole, by the
    state's own text.  None for a game that tells no player's view."""
    if kind.provides_information_state_string:
        return pyspiel.State.information_state_string
    if kind.provides_observation_string:
        return pyspiel.State.observation_string
    if kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return _whole_state
    return None


def _whole_state(ps, player):
    return str(ps)


def _plays_out(world, uniform):
    """Whether random play, drawn from ``uniform`` (a callable returning a number in
    [0, 1)), takes ``world`` (left unchanged) to its end within the rules."""
    world = world.clone()
    try:
        while not world.is_terminal():
            if world.is_chance_node():
                u = uniform()
                for action, prob in world.chance_outcomes():
                    u -= prob
                    if u < 0:
                        break
            else:
                legal = world.legal_actions()
                action = legal[int(uniform() * len(legal))]
            world.apply_action(action)
    except _SPIEL_FAILURES:
        return False
    return True


@functools.lru_cache(maxsize=None)
def _breaks_rules(game_string):
    """Whether any world resampled at the decisions of a few seeded random games
    cannot be played to its end."""
    rng = random.Random(1)
    for ps in _decisions(pyspiel.load_game(game_string), rng, 3):
        try:
            world = ps.resample_from_infostate(ps.current_player(), rng.random)
        except _SPIEL_FAILURES:
            return True
        if not _plays_out(world, rng.random):
            return True
    return False


def _decisions(game, rng, games):
    """Each decision of ``games`` random games drawn from ``rng``, as it is reached;
    the caller may draw from ``rng`` in between but leaves the state as it is."""
    for _ in range(games):
        ps = game.new_initial_state()
        while not ps.is_terminal():
            if ps.is_chance_node():
                actions, probs = zip(*ps.chance_outcomes())
                ps.apply_action(rng.choices(actions, probs)[0])
                continue
            yield ps
            ps.apply_action(rng.choice(ps.legal_actions()))


@functools.lru_cache(maxsize=None)
def _views_follow_actions(game_string):
    """Whether each player's information state after an action follows from the one
    before and the action alone, in every world: tried at every decision of a few
    seeded random games, for each other player, on two worlds resampled for them and
    every action legal in both.  A game without a resampler is not tried: the
    searchers that ask views resample, and refuse it.  Cached by game string."""
    game = pyspiel.load_game(game_string)
    rng = random.Random(0)
    for ps in _decisions(game, rng, 3):
        same = _same_views(game, ps, rng)
        if same is None:
            return True
        if not same:
            return False
    return True


def _same_views(game, ps, rng):
    """Whether the views of the mover's actions at ``ps`` are alike in two worlds of
    each other player; None where the game cannot resample."""
    mover = ps.current_player()
    for observer in range(game.num_players()):
        if observer == mover:
            continue
        try:
            worlds = [ps.resample_from_infostate(observer, rng.random) for _ in "ab"]
        except _SPIEL_FAILURES:
            return None
        if any(w.current_player() != mover for w in worlds):
            continue
        for action in set(worlds[0].legal_actions()) & set(worlds[1].legal_actions()):
            try:
                seen = {w.child(action).information_state_string(observer) for w in worlds}
            except _SPIEL_FAILURES:
                continue
            if len(seen) > 1:
                return False
    return True


@functools.lru_cache(maxsize=None)
def _resampler_flaw(game_string):
    """Why the game's ResampleFromInfostate cannot determinize it, or None when it
    keeps the mover's knowledge and legal actions at every decision of one seeded random
    game.  Some games implement it for one phase only, so one position is no proof; the
    decisions are tried last first, where such a game fails at once.  Cached by game
    string, which fixes the game, so unpickling a state does not try again."""
    game = pyspiel.load_game(game_string)
    know = _knowledge_of(game.get_type())
    rng = random.Random(0)
    decisions = [ps.clone() for ps in _decisions(game, rng, 1)]
    for ps in reversed(decisions):
        player = ps.current_player()
        try:
            world = ps.resample_from_infostate(player, rng.random)
        except _SPIEL_FAILURES as e:
            return f"its ResampleFromInfostate fails ({str(e).strip()})"
        if know(world, player) != know(ps, player) \
                or world.legal_actions() != ps.legal_actions():
            return "its ResampleFromInfostate returns worlds the player can tell apart"
        # A state is its history here (equality, serialization, pickling): a world
        # that keeps the true history but not the true cards would read back as the
        # truth.
        if world.history() == ps.history() and str(world) != str(ps):
            return "its ResampleFromInfostate changes hidden cards but not the history"
    return None


cdef class _Memory:
    """What a game's states remember between them: the views of actions, by the
    token of the observer's information state before and the action (None where
    views are computed afresh), and the knowledge tokens (see ForeignState.tokens):
    a small int for each observer's information state, read once as a string and
    then followed move by move.  A token stands for one observer's information state,
    so an int of token and action keys both tables."""
    cdef dict views
    cdef dict tokens
    cdef long long next_token
    cdef long long actions   # above every action id and chance outcome

    def __cinit__(self, bint remember_views, long long actions):
        self.views = {} if remember_views else None
        self.tokens = {}
        self.actions = actions

    cdef object interned(self, key):
        token = self.tokens.get(key)
        if token is None:
            token = self.tokens[key] = self.next_token
            self.next_token += 1
        return token

    cdef object follow(self, object token, list actions):
        for action in actions:
            token = self.interned(token * self.actions + action)
        return token


cdef ForeignState _wrapping(game, ps):
    cdef ForeignState st = ForeignState.__new__(ForeignState)
    st.game = game
    st.memory = game._memory
    st.ps = ps
    st.player = ps.current_player()
    return st


cdef class _Facts:
    """What a ForeignState read of its pyspiel.State, kept while the state stands
    still: search copies one state (the root of a search) again and again, and asks
    each copy the same questions."""
    cdef object legal        # the legal actions, or None
    cdef int known_to        # the observer whose knowledge is read, or -1
    cdef object known        # that observer's knowledge string
    cdef object steps        # the length of the history, or None
    cdef int token_to        # the observer whose token is read, or -1
    cdef object token        # that observer's token (see ForeignState.tokens)

    def __cinit__(self):
        self.known_to = self.token_to = -1


cdef class _Uniform:
    """A seeded stream of uniform numbers in [0, 1), called as OpenSpiel's resamplers
    call their sampler: seeding one costs a few nanoseconds, where seeding a
    ``random.Random`` costs more than the resampling it serves."""
    cdef Rng rng

    def __cinit__(self, uint64_t seed):
        rng_seed(&self.rng, seed)

    def __call__(self):
        return rng_uniform(&self.rng)


cdef inline void _sort_outcomes(int* actions, double* probs, int n) noexcept nogil:
    # OpenSpiel does not promise chance outcomes in order; the contract does.  An
    # insertion sort costs one pass over the lists that come ordered, as most do.
    cdef int i, j, a
    cdef double p
    for i in range(1, n):
        a, p = actions[i], probs[i]
        j = i - 1
        while j >= 0 and actions[j] > a:
            actions[j + 1], probs[j + 1] = actions[j], probs[j]
            j -= 1
        actions[j + 1], probs[j + 1] = a, p


cdef class ForeignState(GameState):
    """A position of an OpenSpiel game.  States come from their ForeignGame:
    ``new_initial_state()``, ``wrap(spiel_state)``, ``state_from_dict(...)`` or
    ``deserialize_state(...)``."""

    # The pyspiel.State; never shared with a caller, so no one else changes it.  Copies
    # share it until one of them applies an action (copy on write): search copies a
    # state and then resamples it or plays on it, and a resampled world is new anyway.
    cdef object ps
    cdef bint shared
    # Set when pyspiel refused an action search applied: the state then reads as over,
    # so a rollout cannot spin on it, and the game's ``errors`` says what went wrong.
    cdef bint broken
    # Read from ``ps`` once each time it changes, for search asks at every step.
    cdef int player
    # What was read of ``ps`` while it stands still, shared by the copies that share
    # it; None until a copy or a question needs it, and after every action.
    cdef _Facts facts
    # Knowledge tokens: ``tokens`` maps an observer to a small int that stands for its
    # information state at some earlier step, and ``since`` lists the actions applied
    # after that step (None when no token is held).  Perfect recall makes an
    # information state follow from the one before and the action, in every world, so
    # a token is followed action by action through the game's memory instead of reading
    # the string again: a view then costs a string only the first time it is met.
    cdef object tokens
    cdef list since
    cdef _Memory memory

    # --- the hot path --------------------------------------------------------------

    cdef int c_current_player(self) noexcept nogil:
        return TERMINAL if self.broken else self.player

    cdef int c_legal_actions(self, int* out) noexcept nogil:
        cdef int n = 0
        with gil:
            if self.facts is None:
                legal = self.ps.legal_actions()
            else:
                if self.facts.legal is None:
                    self.facts.legal = self.ps.legal_actions()
                legal = self.facts.legal
            for action in legal:
                out[n] = action
                n += 1
        return n

    cdef int c_chance_outcomes(self, int* actions, double* probs) noexcept nogil:
        cdef int n = 0
        with gil:
            for action, prob in self.ps.chance_outcomes():
                actions[n] = action
                probs[n] = prob
                n += 1
        _sort_outcomes(actions, probs, n)
        return n

    cdef void c_apply_action(self, int action) noexcept nogil:
        with gil:
            if self.shared:
                self.ps = self.ps.clone()
                self.shared = False
            self.facts = None
            if self.tokens is not None:
                self.since.append(action)
            try:
                self.ps.apply_action(action)
            except _SPIEL_FAILURES as e:
                self.broken = True
                self.game.errors.append(f"{self.ps.history()} + {action}: {e}")
            self.player = self.ps.current_player()

    cdef double c_returns(self, int player) noexcept nogil:
        if self.broken:
            return 0.0
        with gil:
            return self.ps.player_return(player)

    cdef bint c_is_terminal(self) noexcept nogil:
        # OpenSpiel names the player to move kTerminalPlayerId exactly when a game is
        # over.
        return self.broken or self.player == TERMINAL

    cdef void copy_into(self, GameState dst) noexcept nogil:
        with gil:
            self._copy_into(<ForeignState>dst)

    cdef void _copy_into(self, ForeignState dst):
        if self.facts is None:
            self.facts = _Facts()
        dst.ps, dst.facts, dst.broken, dst.player = self.ps, self.facts, self.broken, self.player
        dst.shared = self.shared = True
        dst.tokens, dst.memory = self.tokens, self.memory
        dst.since = None if self.tokens is None else list(self.since)

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        """OpenSpiel's ResampleFromInfostate, its sampler seeded from ``rng``.  A
        perfect-information game has nothing to resample.  Where the resampler does not
        apply (chance nodes, finished games, a game whose ``can_determinize`` is False,
        a phase it refuses) or returns a world ``observer`` could tell from this one,
        or, in a game whose ``checks_worlds`` is set, no world that plays out within
        the rules in a few tries, the state is left as it is and the game's
        ``unsampled`` counts it: the true world is always consistent with what
        ``observer`` knows, though search then learns from that one world alone."""
        cdef uint64_t seed = rng_next(rng)
        with gil:
            self._resample(observer, seed)

    cdef _Facts _facts(self):
        if self.facts is None:
            self.facts = _Facts()
        return self.facts

    cdef object _knows(self, int observer):
        """What ``observer`` knows of ``ps``, read once while it stands still."""
        cdef _Facts facts = self._facts()
        if facts.known_to != observer:
            facts.known = self.game._knowledge(self.ps, observer)
            facts.known_to = observer
        return facts.known

    cdef _resample(self, int observer, uint64_t seed):
        cdef _Facts facts, seen
        game, ps = self.game, self.ps
        player = self.player
        if game.perfect_information or not game.can_determinize or player < 0:
            return
        facts = self._facts()
        known = self._knows(observer)
        if player == observer and facts.legal is None:
            facts.legal = ps.legal_actions()
        uniform = _Uniform(seed)
        for _ in range(_TRIES if game.checks_worlds else 1):
            try:
                world = ps.resample_from_infostate(observer, uniform)
            except _SPIEL_FAILURES:
                continue
            if world.current_player() != player or game._knowledge(world, observer) != known:
                continue
            if player == observer and world.legal_actions() != facts.legal:
                continue
            if game.checks_worlds and not _plays_out(world, uniform):
                continue
            # The world keeps what the observer knows, and the mover's legal actions
            # where the observer moves; the mover's may differ where they do not.
            seen = _Facts()
            seen.known_to, seen.known = observer, known
            if player == observer:
                seen.legal = facts.legal
            # Only the observer's information state is the same in the new world.
            tokens = None if self.memory.views is None else {observer: self._token(observer)}
            self.ps, self.shared, self.facts = world, False, seen
            self.tokens, self.since = tokens, [] if tokens is not None else None
            return
        game.unsampled += 1

    cdef int c_action_view(self, int action, int observer) noexcept nogil:
        # The observer's information state after the action, hashed, is what it sees of
        # the action: equal for actions it cannot tell apart, and the same in every
        # world of its information set.  crc32, not hash(), so keys repeat across runs.
        if self.player == observer:
            return action
        with gil:
            return self._view(action, observer)

    cdef void c_observation_tensor(self, int player, float* out) noexcept nogil:
        # pyspiel hands its tensor over as a Python list: read under the GIL, as every
        # other step of an OpenSpiel game is.
        cdef float[::1] values
        with gil:
            if self.game._tensor is not None:
                values = np.asarray(self.game._tensor(self.ps, player), dtype=np.float32)
                memcpy(out, &values[0], values.shape[0] * sizeof(float))

    cdef int _view(self, int action, int observer):
        game = self.game
        if game.perfect_information:
            return action
        views = self.memory.views
        if views is None:
            return _hashed(game._knowledge(self.ps.child(action), observer))
        key = self._token(observer) * self.memory.actions + action
        view = views.get(key)
        if view is None:
            if len(views) >= _VIEWS:
                views.clear()
            view = views[key] = _hashed(game._knowledge(self.ps.child(action), observer))
        return view

    cdef object _token(self, int observer):
        """The token of ``observer``'s information state now: followed from the one
        held through the actions since, or read from its string."""
        cdef _Facts facts
        cdef _Memory memory = self.memory
        if len(memory.tokens) >= _VIEWS:
            # Tokens are never reused, so one held from before still means what it did.
            memory.tokens.clear()
        if self.tokens is not None and self.since:
            self.tokens = {o: memory.follow(t, self.since) for o, t in self.tokens.items()}
            self.since = []
        if self.tokens is not None and observer in self.tokens:
            return self.tokens[observer]
        facts = self._facts()
        if facts.token_to != observer:
            # The step count joins the string: some games' strings leave it out
            # (hearts' during the deal), though it says who a dealt card goes to.
            if facts.steps is None:
                facts.steps = len(self.ps.history())
            facts.token = memory.interned((observer, self._knows(observer), facts.steps))
            facts.token_to = observer
        if self.tokens is None:
            self.tokens, self.since = {}, []
        else:
            self.tokens = dict(self.tokens)
        self.tokens[observer] = facts.token
        return facts.token

    # --- the Python edge -----------------------------------------------------------

    def determinized(self, observer, seed):
        """A copy with everything ``observer`` cannot see resampled (see
        ``determinize``); ``seed`` makes it reproducible.  Raises
        :class:`~core.errors.CardArenaError` for a game that cannot be determinized."""
        if not self.game.can_determinize:
            raise CardArenaError(f"OpenSpiel's {self.game.name} cannot be determinized: "
                                 f"{self.game._flaw}")
        return super().determinized(observer, seed)

    def to_dict(self):
        """The game string and every action and chance outcome so far."""
        return {"game": str(self.game), "history": self.ps.history()}

    def observation_dict(self, player):
        """What ``player`` sees, in the strings the game offers."""
        self._check_player(player)
        kind = self.game.spiel_game.get_type()
        view = {"game": str(self.game), "player": player}
        if kind.provides_information_state_string:
            view["information_state"] = self.ps.information_state_string(player)
        if kind.provides_observation_string:
            view["observation"] = self.ps.observation_string(player)
        return view

    def information_state_string(self, player):
        """Everything ``player`` knows: the game's information state string, or its
        observation string where it has none."""
        self._check_player(player)
        return self.game._knowledge(self.ps, player)

    def observation_tensor(self, player):
        """The game's observation tensor for ``player``, or its information state
        tensor where it has none."""
        self._check_player(player)
        if self.game._tensor is None:
            raise NotImplementedError(f"OpenSpiel's {self.game.name} offers no "
                                      "observation or information state tensor")
        return GameState.observation_tensor(self, player)

    def __reduce__(self):
        return (_replayed, (self.game, self.ps.history()))

    def __str__(self):
        return str(self.ps)


cdef int _hashed(seen):
    return -1 - <int>(zlib.crc32(seen.encode()) & 0x3FFFFFFF)


def _replayed(game, history):
    return game.state_from_dict({"game": str(game), "history": history})
