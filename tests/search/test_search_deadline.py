"""A deadline bounds a move whatever the bot's budget: once it has passed, every
searcher answers after the least work that still gives a move, and a deadline that
does not pass changes nothing."""
import pytest
from test_search import midgame

import search
from search.expectimax import Expectimax
from search.mcts import MCTS


def _halted():
    deadline = search.Deadline(3600)
    deadline.halt()
    return deadline


@pytest.mark.parametrize("mode, extra, units", [
    ("so", {}, 1), ("mo", {}, 1), ("so", {"threads": 2, "parallel": "root"}, 2),
    ("so", {"threads": 2}, 1), ("perfect", {"worlds": 8}, 8),
    ("perfect", {"worlds": 8, "threads": 2, "parallel": "root"}, 8),
    ("perfect", {"worlds": 8, "threads": 2}, 8), ("so", {"cheat": True}, 1),
    ("so", {"seconds": 5.0}, 1), ("mo", {"seconds": 5.0, "threads": 2}, 1)])
def test_a_passed_deadline_leaves_each_tree_one_iteration(mode, extra, units):
    game, state = midgame("creature_shrines", seed=2, steps=30)
    result = MCTS(game, mode, iterations=100_000, seed=1, **extra).search(
        state, deadline=_halted())
    assert result.iterations == units and result.action in state.legal_actions()


def test_a_deadline_that_does_not_pass_changes_no_search():
    game, state = midgame()
    for mode, extra in [("so", {}), ("perfect", {"worlds": 4, "threads": 2, "parallel": "root"})]:
        free = MCTS(game, mode, iterations=400, seed=5, **extra).search(state)
        bounded = MCTS(game, mode, iterations=400, seed=5, **extra).search(
            state, deadline=search.Deadline(3600))
        assert (bounded.action, bounded.visits, bounded.iterations) \
            == (free.action, free.visits, free.iterations)


def test_expectimax_past_its_deadline_answers_from_one_world_one_step_deep():
    game, state = midgame("creature_shrines", seed=2, steps=30)
    result = Expectimax(game, depth=8, worlds=64, seed=1).search(state, deadline=_halted())
    shallow = Expectimax(game, depth=1, worlds=1, seed=1).search(state)
    assert (result.action, result.values, result.iterations) \
        == (shallow.action, shallow.values, 1)
    free = Expectimax(game, depth=3, worlds=4, seed=1).search(state)
    bounded = Expectimax(game, depth=3, worlds=4, seed=1).search(
        state, deadline=search.Deadline(3600))
    assert (bounded.action, bounded.values, bounded.iterations) \
        == (free.action, free.values, 4)


@pytest.mark.parametrize("spec", [
    "ismcts(iterations=100000)", "mo_ismcts(iterations=100000,threads=4)",
    "determinized(worlds=64,iterations=100000,threads=4)", "cheater(iterations=100000)",
    "expectimax(depth=8,worlds=64)", "openspiel_ismcts(iterations=100000,rollouts=16)",
    "openspiel_mcts(iterations=100000,rollouts=16)", "ismcts(seconds=3600)",
    "openspiel_ismcts(seconds=3600)"])
def test_every_bot_moves_at_once_past_its_deadline(spec):
    # Each of these specs took 30 s to over 100 s a move of Creature Shrines.
    game, state = midgame("creature_shrines", seed=2, steps=30)
    bot = search.make_bot(spec, game, state.current_player(), seed=1, deadline=_halted())
    assert bot.step(state) in state.legal_actions()


def test_openspiel_ismcts_stops_after_two_simulations():
    game, state = midgame("creature_shrines", seed=2, steps=30)
    bot = search.make_bot("openspiel_ismcts(iterations=100000)", game,
                          state.current_player(), seed=1, deadline=_halted())
    bot.step(state)
    # OpenSpiel's bot keeps the root of its last search.
    assert bot.bot._root_node.total_visits <= 2


def test_a_deadline_is_a_time_from_now_that_halting_ends():
    deadline = search.Deadline(3600)
    assert not deadline.passed and deadline.left > 3000
    deadline.halt()
    assert deadline.passed and deadline.left == 0.0
    with pytest.raises(ValueError):
        search.Deadline(-1)
