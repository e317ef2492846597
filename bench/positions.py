"""The positions bench/search.py times its searchers on, and how long a rollout from
each plays: the same for every searcher of a game, whatever state class it plays on."""
import random

from core.state import random_playouts

POSITIONS = 5
MIN_LEGAL = 3                 # a position offers at least this many moves


def random_game(new_state, seed):
    """The steps of one seeded random game, and which of them are decisions with at
    least MIN_LEGAL legal moves."""
    rand = random.Random(seed).random
    st, steps, rich = new_state(), [], []
    while not st.is_terminal():
        if st.is_chance_node():
            u = rand()
            for a, prob in st.chance_outcomes():
                if u < prob:
                    break
                u -= prob
        else:
            legal = st.legal_actions()
            if len(legal) >= MIN_LEGAL:
                rich.append(len(steps))
            a = legal[int(rand() * len(legal))]
        st.apply_action(a)
        steps.append(a)
    return steps, rich


def positions(new_state, seed, at=0.5):
    """POSITIONS mid-game positions, as histories: each seeded random game is cut at
    its first decision with several legal moves from the fraction ``at`` of its length
    on.  The same for every searcher of a game, whatever state class it plays on."""
    out = []
    game_seed = seed * 1000
    while len(out) < POSITIONS:
        steps, rich = random_game(new_state, game_seed)
        game_seed += 1
        later = [i for i in rich if i >= len(steps) * at]
        if later:
            out.append(steps[:later[0]])
    return out


def replay(new_state, history):
    st = new_state()
    for a in history:
        st.apply_action(a)
    return st


# --- rollout lengths -------------------------------------------------------------------

def random_steps(state, games, seed):
    """Mean steps of a uniformly random game from ``state`` to its end."""
    return random_playouts(state, games, seed)[0] / games


def heuristic_steps(state, games, seed, epsilon=0.1):
    """Mean steps of a game from ``state`` to its end played as heuristic rollouts play
    it: the game's heuristic move, or a random one with probability ``epsilon``."""
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        st = state.clone()
        while not st.is_terminal():
            if st.is_chance_node():
                actions, probs = zip(*st.chance_outcomes())
                a = rng.choices(actions, probs)[0]
            else:
                a = None if rng.random() < epsilon else st.heuristic_action(rng.getrandbits(63))
                if a is None:
                    a = rng.choice(st.legal_actions())
            st.apply_action(a)
            steps += 1
    return steps / games
