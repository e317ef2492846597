# cython: language_level=3
"""A small network for search: a multilayer perceptron over what the player to move
knows (the game's observation tensor), with a value head, each player's expected return,
and a policy head over the game's actions, of which only the legal ones are computed.

Inference runs in C without the GIL, in float32, on scratch memory the caller brings,
so threads share one model.  Weights live in an ``.npz`` file that names the game string
the model was made for, its layer sizes and its format version; reading one needs only
numpy.  docs/learning.md describes the network and how its sizes were chosen.

The layers, for features ``x`` (the observation tensor, a row vector)::

    h = x;  h = relu(h @ W_i + b_i) for each hidden layer i
    logits[a] = h @ policy_weight[:, a] + policy_bias[a]     for each legal action a
    policy = softmax(logits)                                  over the legal actions
    values[p] = tanh(h @ value_weight[:, p] + value_bias[p])  each player's return,
                rescaled from [min_utility, max_utility] to [-1, 1]
"""
import importlib
import os
import re
import zipfile
import zlib
from pathlib import Path

import numpy as np

cimport cython
from libc.math cimport exp, tanh
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from core.errors import ParameterError
from core.state cimport GameState

cdef extern from *:
    """
    /* One hidden layer: out (holding the biases) += h times the weights, then ReLU.
       Observation tensors are mostly zeros (cards absent, flags off): a zero input's
       row is skipped, and each other row is added whole, which the compiler
       vectorises.  Built twice on x86-64 with GCC, for AVX2 and for any such machine,
       the one the machine can run chosen as the module loads.  AVX2 alone, without
       FMA: each sum is taken in the same order and rounded the same way by both, so a
       seeded search gives the same moves on any machine. */
    #if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    __attribute__((target_clones("avx2", "default")))
    #endif
    static void model_layer(const float* h, int n_in, const float* w, int n_out,
                            float* __restrict out) {
        for (int i = 0; i < n_in; i++) {
            const float x = h[i];
            if (x != 0) {
                const float* __restrict row = w + (size_t)i * n_out;
                for (int j = 0; j < n_out; j++)
                    out[j] += x * row[j];
            }
        }
        for (int j = 0; j < n_out; j++)
            if (out[j] < 0)
                out[j] = 0;
    }
    """
    void model_layer(const float* h, int n_in, const float* w, int n_out,
                     float* out) noexcept nogil

FORMAT = 1
DEFAULT = "default"
FILE_NAME = "model.npz"


class ModelError(ParameterError):
    """A model file that cannot be used: unreadable, not a model, of another format
    version, made for another game, or with weights whose shapes do not fit."""


cdef class Model:
    """A network for one game: ``Model(game, layers, policy, value)`` from float arrays,
    ``layers`` a list of ``(weight, bias)`` pairs for the hidden layers (weight shaped
    ``(inputs, outputs)``, possibly none at all), ``policy`` and ``value`` the heads'
    pairs, shaped ``(last width, num_distinct_actions)`` and ``(last width,
    num_players)``.  ``value_weight`` is the weight of its value at a search's leaf
    when the search is not given one (the rest goes to a rollout): the one its training
    used, for a value head that may judge a position worse than a rollout does.
    ``across`` names the game's parameters it was trained across (Creature Shrines'
    ``deck0`` and ``deck1``): it then serves every value of them, and its game string
    leaves them out.  :func:`load_model` reads one from a file and :meth:`save` writes
    one."""

    def __cinit__(self):
        self.sizes = NULL
        self.weight = NULL
        self.bias = NULL

    def __init__(self, game, layers, policy, value, *, value_weight=1.0, path=None,
                 across=()):
        cdef int i
        where = f"model file {path}" if path is not None else "model"
        self.across = tuple(across)
        unknown = [n for n in self.across if n not in getattr(game, "params", {})]
        if unknown:
            raise ModelError(f"{where}: {game} has no parameter {', '.join(unknown)} to "
                             "be trained across")
        self.game, self.game_string, self.path = game, family(game, self.across), path
        if not 0 <= value_weight <= 1:
            raise ModelError(f"{where}: value_weight is from 0 to 1, not {value_weight}")
        self.value_weight = value_weight
        n_in = game.observation_tensor_size
        arrays = []
        sizes = [n_in]
        if n_in < 1:
            raise ModelError(f"{game} has no observation tensor for a model to read")
        for i, pair in enumerate(layers):
            w, b = _pair(where, f"hidden_{i}", pair)
            _shape(where, f"hidden_{i}_weight", w, (sizes[-1], w.shape[1] if w.ndim == 2 else -1))
            _shape(where, f"hidden_{i}_bias", b, (w.shape[1],))
            if w.shape[1] < 1:
                raise ModelError(f"{where}: hidden layer {i} has no units")
            sizes.append(w.shape[1])
            arrays += [w, b]
        pw, pb = _pair(where, "policy", policy)
        vw, vb = _pair(where, "value", value)
        _shape(where, "policy_weight", pw, (sizes[-1], game.num_distinct_actions))
        _shape(where, "policy_bias", pb, (game.num_distinct_actions,))
        _shape(where, "value_weight", vw, (sizes[-1], game.num_players))
        _shape(where, "value_bias", vb, (game.num_players,))
        self.layers = tuple(sizes)
        self.n_in, self.n_hidden, self.width = n_in, len(sizes) - 1, max(sizes)
        self.n_actions, self.n_players = game.num_distinct_actions, game.num_players
        self.lo, self.span = game.min_utility, game.max_utility - game.min_utility
        # The heads are stored transposed, one row per action or player, so that a
        # legal action's logit reads one contiguous row.
        pt, vt = np.ascontiguousarray(pw.T), np.ascontiguousarray(vw.T)
        arrays += [pt, pb, vt, vb]
        for a in arrays + [pw, vw]:
            a.setflags(write=False)
        self.arrays = (tuple(arrays), (pw, vw))
        self.sizes = <int*>malloc(len(sizes) * sizeof(int))
        self.weight = <float**>malloc(max(1, self.n_hidden) * sizeof(float*))
        self.bias = <float**>malloc(max(1, self.n_hidden) * sizeof(float*))
        if self.sizes == NULL or self.weight == NULL or self.bias == NULL:
            raise MemoryError()
        for i in range(len(sizes)):
            self.sizes[i] = sizes[i]
        for i in range(self.n_hidden):
            self.weight[i] = _data(arrays[2 * i])
            self.bias[i] = _data(arrays[2 * i + 1])
        self.policy_w, self.policy_b = _data(pt), _data(pb)
        self.value_w, self.value_b = _data(vt), _data(vb)
        # The features, then two buffers the hidden layers take in turn.
        self.scratch_size = n_in + 2 * self.width

    def __dealloc__(self):
        free(self.sizes)
        free(self.weight)
        free(self.bias)

    # --- without the GIL ------------------------------------------------------------

    cdef float* forward(self, GameState st, int player, float* scratch) noexcept nogil:
        st.c_observation_tensor(player, scratch)
        return self.trunk(scratch)

    cdef float* trunk(self, float* scratch) noexcept nogil:
        cdef float* h = scratch
        cdef float* out = scratch + self.n_in
        cdef int layer, n_out
        for layer in range(self.n_hidden):
            n_out = self.sizes[layer + 1]
            memcpy(out, self.bias[layer], n_out * sizeof(float))
            model_layer(h, self.sizes[layer], self.weight[layer], n_out, out)
            h = out
            out = scratch + self.n_in + (self.width if layer % 2 == 0 else 0)
        return h

    cdef void values(self, float* hidden, double* out) noexcept nogil:
        cdef int p, j, n = self.sizes[self.n_hidden]
        cdef float z
        cdef float* row
        for p in range(self.n_players):
            row = self.value_w + p * n
            z = self.value_b[p]
            for j in range(n):
                z += hidden[j] * row[j]
            out[p] = (tanh(z) + 1.0) * 0.5

    cdef void priors(self, float* hidden, int* acts, int n, double* out) noexcept nogil:
        cdef int i, j, w = self.sizes[self.n_hidden]
        cdef float z
        cdef float* row
        cdef double top = 0.0, total = 0.0
        for i in range(n):
            row = self.policy_w + acts[i] * w
            z = self.policy_b[acts[i]]
            for j in range(w):
                z += hidden[j] * row[j]
            out[i] = z
            if i == 0 or z > top:
                top = z
        for i in range(n):
            out[i] = exp(out[i] - top)
            total += out[i]
        for i in range(n):
            out[i] /= total

    # --- the Python edge ------------------------------------------------------------

    def predict(self, features, legal):
        """``(values, policy)`` for a feature vector (an observation tensor) and a list of
        legal actions: each player's expected return in the game's units, and the
        probability of each legal action, in ``legal``'s order.  Given a batch of
        feature vectors (one per row) with one list of legal actions for all, each is a
        batch too, one row per feature vector: one call for many evaluations."""
        x = np.asarray(features, dtype=np.float32)
        if x.shape[-1:] != (self.n_in,) or x.ndim > 2:
            raise ModelError(f"features are {self.n_in} numbers, or rows of them, not an "
                             f"array shaped {'x'.join(map(str, x.shape)) or 'a scalar'}")
        acts = self._actions(legal)
        values, policy = self._run(np.atleast_2d(x), acts)
        return (values, policy) if x.ndim == 2 else (values[0], policy[0])

    def evaluate(self, GameState state):
        """``(values, policy)`` at ``state`` as the player to move knows it: each
        player's expected return in the game's units, and ``{action: probability}`` over
        the legal actions."""
        cdef float[::1] buf = np.zeros(self.n_in, np.float32)
        cdef int player = state.c_current_player()
        if not self.fits(state.game):
            raise ModelError(f"a model for {self.game_string} was given a state of "
                             f"{state.game}")
        if player < 0:
            raise ModelError("nobody is to move: the model weighs the moves of a player")
        legal = state.legal_actions()
        state.c_observation_tensor(player, &buf[0])
        values, policy = self._run(np.asarray(buf)[None],
                                   np.asarray(legal, dtype=np.intc))
        return values[0], dict(zip(legal, policy[0].tolist()))

    def _actions(self, legal):
        acts = np.asarray(list(legal), dtype=np.intc)
        if acts.ndim != 1 or len(acts) == 0:
            raise ModelError("the legal actions are a non-empty list of action ids")
        if acts.min() < 0 or acts.max() >= self.n_actions:
            raise ModelError(f"an action id is from 0 to {self.n_actions - 1}, not "
                             f"{acts.min() if acts.min() < 0 else acts.max()}")
        return acts

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _run(self, const float[:, ::1] x, int[::1] a):
        # Checked by the callers: rows of n_in features, actions below n_actions.
        cdef float[::1] buf = np.zeros(self.scratch_size, np.float32)
        cdef double[:, ::1] values = np.empty((x.shape[0], self.n_players))
        cdef double[:, ::1] policy = np.empty((x.shape[0], a.shape[0]))
        cdef float* hidden
        cdef Py_ssize_t row
        with nogil:
            for row in range(x.shape[0]):
                memcpy(&buf[0], &x[row, 0], self.n_in * sizeof(float))
                hidden = self.trunk(&buf[0])
                self.values(hidden, &values[row, 0])
                self.priors(hidden, &a[0], a.shape[0], &policy[row, 0])
        return self.lo + np.asarray(values) * self.span, np.asarray(policy)

    def weights(self):
        """The arrays as the constructor takes them: ``{"layers": [(weight, bias), ...],
        "policy": (weight, bias), "value": (weight, bias)}``, float32 and read-only."""
        arrays, (pw, vw) = self.arrays
        hidden = [(arrays[2 * i], arrays[2 * i + 1]) for i in range(self.n_hidden)]
        return {"layers": hidden, "policy": (pw, arrays[-3]), "value": (vw, arrays[-1])}

    def fits(self, game):
        """Whether the model may guide a search of ``game``: its own game, or one that
        differs only in the parameters it was trained across."""
        return game == self.game or (bool(self.across) and type(game) is type(self.game)
                                     and family(game, self.across) == self.game_string)

    def save(self, path):
        """Write the model to ``path`` (an ``.npz``), with the game string, the
        parameters it was trained across if any, the layer sizes, the value's weight
        and the format version."""
        w = self.weights()
        named = {"format": np.array(FORMAT), "game": np.array(self.game_string),
                 "layers": np.array(self.layers, dtype=np.int64),
                 "search_value_weight": np.array(self.value_weight)}
        if self.across:
            named["across"] = np.array(self.across)
        for i, (weight, bias) in enumerate(w["layers"]):
            named[f"hidden_{i}_weight"], named[f"hidden_{i}_bias"] = weight, bias
        named["policy_weight"], named["policy_bias"] = w["policy"]
        named["value_weight"], named["value_bias"] = w["value"]
        with open(path, "wb") as f:
            np.savez(f, **named)

    def __repr__(self):
        return (f"<Model for {self.game_string}, layers "
                f"{'-'.join(map(str, self.layers))}-{self.n_actions}/{self.n_players}>")


cdef float* _data(a):
    # ``a`` outlives the pointer: the model keeps every array it points into.
    cdef const float[::1] view = a.reshape(-1)
    return <float*>&view[0]


def _pair(where, name, pair):
    try:
        w, b = pair
    except (TypeError, ValueError):
        raise ModelError(f"{where}: {name} is a (weight, bias) pair") from None
    return _floats(where, f"{name}_weight", w), _floats(where, f"{name}_bias", b)


def _floats(where, name, a):
    a = np.asarray(a)
    if a.dtype.kind not in "fiu":
        raise ModelError(f"{where}: {name} holds {a.dtype} values, not numbers")
    # A copy of its own: the model marks its arrays read-only.
    a = np.array(a, dtype=np.float32, order="C")
    if not np.isfinite(a).all():
        raise ModelError(f"{where}: {name} holds values that are not finite")
    return a


def _shape(where, name, a, shape):
    if a.shape != shape:
        want = "x".join("?" if n < 0 else str(n) for n in shape)
        raise ModelError(f"{where} does not fit its game: {name} is shaped "
                         f"{'x'.join(map(str, a.shape)) or 'a scalar'}, where "
                         f"{want} was expected")


def random_model(game, hidden=(64,), seed=0):
    """A model of ``game`` with ``hidden`` layer sizes and random weights (He-scaled
    normal, zero biases): untrained, for timings and tests."""
    rng = np.random.default_rng(seed)
    sizes = [game.observation_tensor_size, *hidden]

    def layer(n_in, n_out):
        return (rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in),
                np.zeros(n_out))
    return Model(game, [layer(a, b) for a, b in zip(sizes, sizes[1:])],
                 layer(sizes[-1], game.num_distinct_actions),
                 layer(sizes[-1], game.num_players))


def default_path(game):
    """Where ``game``'s own model lives, in its ruleset's package: ``model.npz`` for the
    game with its default parameters, ``model-players-3.npz`` for ``relinquish(players=3)``
    (each parameter given, its name and value, in the game string's order)."""
    import core
    if isinstance(game, core.ForeignGame):
        raise ModelError(f"{game} is an OpenSpiel game with no model of its own: give "
                         "model=PATH")
    given = str(game)[len(game.name):].strip("()")
    name = FILE_NAME if not given else \
        f"model-{re.sub(r'[^A-Za-z0-9._]+', '-', given).strip('-')}.npz"
    return _package(type(game)) / name


def family(game, across):
    """The string of ``game`` with its parameters ``across`` at their defaults: the
    game a model trained across them names.

    >>> import core
    >>> family(core.load_game("creature_shrines(deck0=blue,max_turns=40)"), ("deck0",))
    'creature_shrines(max_turns=40)'
    """
    if not across:
        return str(game)
    return str(type(game)(**{k: v for k, v in game.params.items() if k not in across}))


def shipped(kind):
    """The models shipped in the package of ``kind`` (a ruleset's game class), sorted:
    each its game string and the parameters it was trained across, ``[("relinquish",
    ()), ("relinquish(players=3)", ()), ...]``."""
    return sorted(_read_shipped(path)[1:]
                  for path in _package(kind).glob("model*.npz"))


def _package(kind):
    return Path(importlib.import_module(kind.__module__.rpartition(".")[0]).__file__).parent


def _read_shipped(path):
    with np.load(path, allow_pickle=False) as archive:
        across = tuple(str(n) for n in archive["across"]) if "across" in archive else ()
        return path, str(archive["game"]), across


def _shipped_across(game):
    """The file of the model shipped for ``game`` by being trained across some of its
    parameters; None if there is none."""
    for path, trained, across in sorted(map(_read_shipped, _package(type(game)).glob(
            "model*.npz"))):
        if across and all(n in game.params for n in across) \
                and family(game, across) == trained:
            return path
    return None


def load_model(path, game):
    """The model in ``path`` (or, for ``"default"``, ``game``'s own, else one shipped
    trained across the parameters ``game`` sets), checked to be made for ``game``: its
    game, or one that differs only in the parameters it was trained across.  Raises
    :class:`ModelError`, in one line, for a file that is missing or unreadable, not a
    model, of another format, for another game, or whose shapes do not fit the game."""
    if path == DEFAULT:
        path = default_path(game)
        if not path.is_file():
            path = _shipped_across(game) or path
        if not path.is_file():
            raise ModelError(f"no model is shipped for {game} (none at "
                             f"{Path(*path.parts[-3:])}): give model=PATH")
    shown = os.fspath(path)
    try:
        archive = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise ModelError(f"no model file {shown}") from None
    except IsADirectoryError:
        raise ModelError(f"model file {shown} is a folder") from None
    except PermissionError:
        raise ModelError(f"cannot read model file {shown}: permission denied") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise ModelError(f"cannot read model file {shown}: not an .npz archive "
                         f"({type(e).__name__})") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise ModelError(f"cannot read model file {shown}: an .npy array, not an .npz "
                         "archive")
    try:
        with archive:
            named = {k: archive[k] for k in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError, zlib.error,
            NotImplementedError) as e:
        # NotImplementedError: zipfile's word for a compression method it lacks.
        what = "damaged compressed data" if isinstance(e, zlib.error) else type(e).__name__
        raise ModelError(f"model file {shown} is corrupt: {what}") from None
    if "format" not in named:
        raise ModelError(f"model file {shown} is not a cardarena model: it has no "
                         "format entry")
    version = _scalar(shown, named, "format", "i")
    if version != FORMAT:
        raise ModelError(f"model file {shown} has format version {version}; this "
                         f"cardarena reads version {FORMAT}")
    trained = _scalar(shown, named, "game", "U")
    across = _names(shown, named, "across")
    fits = all(n in getattr(game, "params", {}) for n in across) \
        and family(game, across) == trained
    if not fits:
        every = f" (any {', '.join(across)})" if across else ""
        raise ModelError(f"model file {shown} was made for {trained}{every}, not {game}")
    layers = named.get("layers")
    if layers is None or layers.ndim != 1 or layers.dtype.kind not in "iu" or len(layers) < 1:
        raise ModelError(f"model file {shown} has no list of layer sizes")
    if layers[0] != game.observation_tensor_size:
        raise ModelError(f"model file {shown} does not fit {game}: it reads "
                         f"{layers[0]} features, the game's observation tensor has "
                         f"{game.observation_tensor_size}")

    def entry(name):
        if name not in named:
            raise ModelError(f"model file {shown} is not a cardarena model: it has no "
                             f"{name} entry")
        return named[name]
    hidden = []
    for i, size in enumerate(layers[1:]):
        w, b = entry(f"hidden_{i}_weight"), entry(f"hidden_{i}_bias")
        if w.ndim != 2 or w.shape[1] != size:
            raise ModelError(f"model file {shown} is corrupt: hidden_{i}_weight is shaped "
                             f"{'x'.join(map(str, w.shape))}, its layer sizes say "
                             f"{layers[i]}x{size}")
        hidden.append((w, b))
    # Files written before models carried it: the value alone, as searches then took.
    weight = _scalar(shown, named, "search_value_weight", "f") \
        if "search_value_weight" in named else 1.0
    return Model(game, hidden, (entry("policy_weight"), entry("policy_bias")),
                 (entry("value_weight"), entry("value_bias")), value_weight=weight,
                 path=shown, across=across)


def _names(shown, named, name):
    """The names in the optional entry ``name``: a list of strings; none if absent."""
    a = named.get(name)
    if a is None:
        return ()
    if a.ndim != 1 or a.dtype.kind != "U":
        raise ModelError(f"model file {shown} is corrupt: {name} is not a list of names")
    return tuple(str(n) for n in a)


def _scalar(shown, named, name, kind):
    a = named.get(name)
    if a is None or a.shape != () or a.dtype.kind != kind:
        raise ModelError(f"model file {shown} is corrupt: its {name} entry is not a "
                         f"{'string' if kind == 'U' else 'number'}")
    return a.item()
