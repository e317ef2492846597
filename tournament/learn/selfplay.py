"""Self-play: one game of the searcher against itself, recording at each decision what
the player to move knew (its observation tensor), the moves it had and the share of the
search's visits each one got, and at the end what every player got.

A game is made from plain data (:func:`job`), so that any worker process plays it,
and from its own seed alone, so that it comes out the same in any worker and order."""
import numpy as np

from search.bots import engine_game, make_bot

# Each worker process loads a game once, however many games it plays.
_GAMES = {}


def job(game, searcher, explore, seed):
    """The plain data :func:`play` needs: the game string, the searcher's bot spec
    (a tree searcher's, its budget in iterations and any model in it, which brings its
    own ``value_weight``), how many of each game's first decisions are drawn in
    proportion to the visits rather than the most visited (``explore``), and the
    game's ``seed``."""
    return {"game": game, "searcher": searcher, "explore": explore, "seed": seed}


def play(job):
    """Play one self-play game; returns its :class:`Positions`."""
    game = _game(job["game"])
    rng = np.random.default_rng(job["seed"])
    # One searcher for every seat: it searches for whoever is to move.
    searcher = make_bot(job["searcher"], game, 0, seed=int(rng.integers(2**63))).searcher
    state = game.new_initial_state()
    features, movers, acts, shares, counts = [], [], [], [], []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(int(rng.integers(2**63))))
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            # Nothing to choose: no target for the policy, and no search to spend.
            state.apply_action(legal[0])
            continue
        player = state.current_player()
        visits = searcher.search(state).visits
        total = sum(visits.values())
        features.append(state.observation_tensor(player))
        movers.append(player)
        acts.extend(legal)
        shares.extend(visits.get(a, 0) / total for a in legal)
        counts.append(len(legal))
        if len(movers) <= job["explore"]:
            # Exploration, as AlphaZero's first moves: the visits' proportions, so that
            # self-play meets positions the most visited move would never lead to.
            share = np.array([visits.get(a, 0) for a in legal], float) / total
            action = legal[rng.choice(len(legal), p=share)]
        else:
            action = max(legal, key=lambda a: (visits.get(a, 0), -a))
        state.apply_action(action)
    lo, span = game.min_utility, game.max_utility - game.min_utility
    # The value head's target: each player's return, from [lo, lo + span] to [-1, 1].
    value = (2 * (np.asarray(state.returns(), np.float32) - lo) / span - 1)
    n = len(movers)
    return Positions(
        features=np.array(features, np.float32).reshape(n, game.observation_tensor_size),
        value=np.tile(value, (n, 1)).astype(np.float32),
        acts=np.array(acts, np.int32), shares=np.array(shares, np.float32),
        counts=np.array(counts, np.int32), games=1)


def play_all(jobs):
    """Play ``jobs`` in turn, as one worker's task; returns their positions together."""
    return Positions.join([play(j) for j in jobs])


class Positions:
    """Decisions from self-play, one row each: ``features`` (the player to move's
    observation tensor), ``value`` (every player's final return, scaled to [-1, 1]),
    and the legal moves with their shares of the search's visits, ``acts`` and
    ``shares`` flat, ``counts[i]`` of them for row ``i``; ``games`` played."""

    FIELDS = ("features", "value", "acts", "shares", "counts")

    def __init__(self, features, value, acts, shares, counts, games):
        self.features, self.value = features, value
        self.acts, self.shares, self.counts = acts, shares, counts
        self.games = games

    def __len__(self):
        return len(self.counts)

    @classmethod
    def join(cls, parts):
        parts = list(parts)
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in cls.FIELDS),
                   games=sum(p.games for p in parts))

    def take(self, rows):
        """The positions of ``rows`` (indices in order), with this one's count of games."""
        start = np.concatenate([[0], np.cumsum(self.counts)])
        moves = np.concatenate([np.arange(start[r], start[r + 1]) for r in rows])
        return Positions(self.features[rows], self.value[rows], self.acts[moves],
                         self.shares[moves], self.counts[rows], self.games)

    def targets(self, rows, n_actions):
        """The policy targets and legal-move masks of ``rows``, dense: two arrays
        shaped ``(len(rows), n_actions)``."""
        start = np.concatenate([[0], np.cumsum(self.counts)])
        target = np.zeros((len(rows), n_actions), np.float32)
        legal = np.zeros((len(rows), n_actions), bool)
        for i, r in enumerate(rows):
            span = slice(start[r], start[r + 1])
            target[i, self.acts[span]] = self.shares[span]
            legal[i, self.acts[span]] = True
        return target, legal


def _game(name):
    game = _GAMES.get(name)
    if game is None:
        game = _GAMES[name] = engine_game(name)
    return game

