"""The network's training, in JAX with optax: the multilayer perceptron that
``search.Model`` runs in C (docs/learning.md), its loss and its steps, and a
generation's training as a command of its own.  The only module that needs the
``learn`` extra; it runs in a process started for it, never in one that forks
workers (JAX's threads do not survive a fork)."""
import hashlib
import json
import os
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax

from search.model import Model
from tournament.harness import config as configs
from tournament.learn.buffer import Buffer
from tournament.learn.train import Plan, TrainError


class Trainer:
    """A network for ``game`` with ``hidden`` layer sizes, and its optimiser: Adam
    with decoupled weight decay (AdamW) at ``rate``.  ``seed`` draws the first
    weights and every batch; ``across`` names the parameters it learns across, which
    its model then serves every value of."""

    def __init__(self, game, hidden, seed, rate=1e-3, decay=1e-4, value_weight=1.0,
                 across=()):
        self.game, self.value_weight, self.across = game, value_weight, tuple(across)
        sizes = [game.observation_tensor_size, *hidden]
        rng = np.random.default_rng(seed)
        # He-scaled for the ReLU layers; the heads start small, so a new network's
        # policy is near uniform and its values near even.
        self.params = {
            "layers": [_layer(rng, a, b, np.sqrt(2.0 / a)) for a, b in zip(sizes, sizes[1:])],
            "policy": _layer(rng, sizes[-1], game.num_distinct_actions, 0.01),
            "value": _layer(rng, sizes[-1], game.num_players, 0.01)}
        self.optimiser = optax.adamw(rate, weight_decay=decay)
        self.state = self.optimiser.init(self.params)
        self.key = jax.random.PRNGKey(seed)
        self._step = jax.jit(self._update)

    def model(self):
        """The network as a ``search.Model``, for the searchers."""
        p = jax.device_get(self.params)
        return Model(self.game, [tuple(layer) for layer in p["layers"]], tuple(p["policy"]),
                     tuple(p["value"]), value_weight=self.value_weight, across=self.across)

    def train(self, positions, steps, batch):
        """``steps`` Adam steps on batches of ``batch`` positions drawn at random from
        ``positions``; returns the mean policy and value losses over the steps."""
        rng = np.random.default_rng(int(jax.random.randint(
            self._next_key(), (), 0, 2**31 - 1)))
        n_actions = self.game.num_distinct_actions
        total = np.zeros(2)
        for _ in range(steps):
            rows = np.sort(rng.integers(len(positions), size=min(batch, len(positions))))
            target, legal = positions.targets(rows, n_actions)
            self.params, self.state, losses = self._step(
                self.params, self.state, positions.features[rows], target, legal,
                positions.value[rows])
            total += np.asarray(losses)
        return total / max(steps, 1)

    def losses(self, positions):
        """The policy and value losses of the network on all of ``positions``."""
        rows = np.arange(len(positions))
        target, legal = positions.targets(rows, self.game.num_distinct_actions)
        return np.asarray(_losses(self.params, positions.features, target, legal,
                                  positions.value)[1])

    def arrays(self):
        """Everything to resume from, as named numpy arrays."""
        leaves = jax.tree_util.tree_leaves((self.params, self.state))
        named = {f"leaf_{i}": np.asarray(a) for i, a in enumerate(leaves)}
        named["key"] = np.asarray(self.key)
        return named

    def restore(self, named):
        """Take up the weights, the optimiser's state and the random key of
        :meth:`arrays` (``named`` may hold other entries too)."""
        leaves, tree = jax.tree_util.tree_flatten((self.params, self.state))
        if f"leaf_{len(leaves) - 1}" not in named or f"leaf_{len(leaves)}" in named:
            raise ValueError("the saved trainer has another shape")
        restored = [jnp.asarray(named[f"leaf_{i}"]) for i in range(len(leaves))]
        self.params, self.state = jax.tree_util.tree_unflatten(tree, restored)
        self.key = jnp.asarray(named["key"])

    def _next_key(self):
        self.key, used = jax.random.split(self.key)
        return used

    def _update(self, params, state, features, target, legal, value):
        (_, losses), grads = jax.value_and_grad(_losses, has_aux=True)(
            params, features, target, legal, value)
        updates, state = self.optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state, losses


def _layer(rng, n_in, n_out, scale):
    return [jnp.asarray(rng.standard_normal((n_in, n_out), np.float32) * scale),
            jnp.zeros(n_out, jnp.float32)]


def _losses(params, features, target, legal, value):
    """The loss (the policy's cross-entropy with the visit shares, plus the value's
    mean squared error), and the two apart."""
    h = features
    for w, b in params["layers"]:
        h = jax.nn.relu(h @ w + b)
    # Only the legal moves take part in the softmax, as in the search.
    logits = jnp.where(legal, h @ params["policy"][0] + params["policy"][1], -1e9)
    policy = -jnp.mean(jnp.sum(target * jax.nn.log_softmax(logits), axis=-1))
    guess = jnp.tanh(h @ params["value"][0] + params["value"][1])
    values = jnp.mean((guess - value) ** 2)
    return policy + values, jnp.stack([policy, values])


def train_generation(folder, plan, g, steps):
    """Generation ``g``'s training, in the training process: the trainer as the last
    generation left it (new weights for the first), ``steps`` Adam steps on the
    buffer's window, then the network written to ``models/gen-GGGG.npz`` and the
    trainer to ``trainer.npz``.  Returns the mean policy and value losses."""
    folder, plan = Path(folder), Plan.from_dict(plan)
    game = configs.rules(plan.game)
    seed = int.from_bytes(hashlib.sha256(f"{plan.seed}/train".encode()).digest()[:4],
                          "little")
    saved = folder / "trainer.npz"
    trainer = Trainer(game, plan.hidden, seed, value_weight=plan.value_weight,
                      across=plan.across)
    if saved.exists():
        with np.load(saved) as data:
            done = int(data["generation"])
            if done == g:
                # Trained and written already; the run stopped before recording it.
                return [float(x) for x in data["losses"]]
            if done != g - 1:
                raise TrainError(f"{saved} is of generation {done}, not {g - 1}")
            trainer.restore(data)
    positions = Buffer(folder / "buffer").window(plan.window)
    losses = [float(x) for x in trainer.train(positions, steps, plan.batch)]
    (folder / "models").mkdir(exist_ok=True)
    out = folder / "models" / f"gen-{g:04d}.npz"
    part = out.with_suffix(".part")
    trainer.model().save(part)
    os.replace(part, out)
    part = saved.with_suffix(".part")
    with open(part, "wb") as f:
        np.savez(f, generation=g, losses=losses, **trainer.arrays())
    os.replace(part, saved)
    return losses


def main():
    """Train one generation, as ``python -m tournament.learn.net TASK`` (TASK the JSON
    of :func:`train_generation`'s arguments); prints the losses as JSON."""
    task = json.loads(sys.argv[1])
    print(json.dumps(train_generation(task["folder"], task["plan"], task["generation"],
                                      task["steps"])))


if __name__ == "__main__":
    main()
