"""Tree reuse: a searcher told every move and chance outcome starts its next search
from where its last tree leads."""
import random

import pytest

import core
import search


def play(game, specs, seed, tell_chance=True):
    """One game between bots made from ``specs``, each told every other move (and
    every chance outcome if ``tell_chance``), as OpenSpiel's ``evaluate_bots`` tells
    them; returns the returns and each seat's search results."""
    rng = random.Random(seed)
    bots = [search.make_bot(spec, game, p, seed=seed * 16 + p) for p, spec in enumerate(specs)]
    results = [[] for _ in specs]
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [q for _, q in outcomes])[0]
        else:
            action = bots[p].step(state)
            if bots[p].last is not None:
                results[p].append(bots[p].last)
        for other, bot in enumerate(bots):
            if other != p and (p >= 0 or tell_chance):
                bot.inform_action(state, p, action)
        state.apply_action(action)
    return state.returns(), results


@pytest.mark.parametrize("threads", ["", ",threads=2", ",threads=2,parallel=root"])
@pytest.mark.parametrize("kind", ["ismcts", "mo_ismcts", "cheater"])
def test_a_bot_told_every_step_continues_its_tree(kind, threads):
    game = core.load_game("shrine")
    _, results = play(game, [f"{kind}(iterations=200,reuse=true{threads})", "random"], seed=1)
    reused = [r.reused for r in results[0]]
    assert reused[0] == 0
    assert sum(n > 0 for n in reused) > len(reused) / 2, reused
    for r in results[0]:
        assert r.iterations == 200
        assert sum(r.visits.values()) == 200 + r.reused


def test_reuse_repeats_under_a_seed():
    game = core.load_game("card_duel")
    specs = ["ismcts(iterations=100,reuse=true,threads=2,parallel=root)",
             "ismcts(iterations=100,reuse=true)"]
    first, second = (play(game, specs, seed=4) for _ in range(2))
    assert [[(r.action, r.visits) for r in seat] for seat in first[1]] == \
        [[(r.action, r.visits) for r in seat] for seat in second[1]]


def test_a_bot_shown_a_state_it_did_not_follow_searches_afresh():
    # Its copy of the game is not the state it is shown, so the search is the one a
    # bot without reuse makes.
    game = core.load_game("shrine")
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.legal_actions()[0])
    other = state.clone()
    other.apply_action(other.legal_actions()[0])
    while other.current_player() != 0:
        other.apply_action(other.legal_actions()[0])
    a = search.make_bot("ismcts(iterations=100,reuse=true)", game, 0, seed=1)
    b = search.make_bot("ismcts(iterations=100)", game, 0, seed=1)
    for st in (state, other):
        a.step(st)
        b.step(st)
    assert a.last.reused == 0 and a.last.visits == b.last.visits


def test_determinized_samples_new_worlds_and_keeps_nothing():
    game = core.load_game("shrine")
    _, results = play(game, ["determinized(iterations=100,reuse=true)", "random"], seed=3)
    assert all(r.reused == 0 for r in results[0])
