"""Hidden information stays hidden, on every registered game: what search samples, what
it decides and what a seat is told never depend on cards that seat cannot see.

OpenSpiel's own games have had each of these bugs: a resampler that returns the true
state, and bots whose choices differ between worlds the player cannot tell apart."""
import json
import os
import re

import orjson
import pytest

import core
import search
from kit.helpers import played, settings

SETTINGS = settings()
GAMES = 4

@pytest.mark.parametrize("game", SETTINGS)
def test_determinization_keeps_what_the_observer_knows(game):
    for seed in range(GAMES):
        for i, state in enumerate(played(game, seed)):
            for observer in range(game.num_players):
                world = state.determinized(observer, seed * 1000 + i)
                assert world.information_state_string(observer) \
                    == state.information_state_string(observer)
                assert world.current_player() == state.current_player()
                assert world.is_terminal() == state.is_terminal()
                if state.current_player() == observer:
                    assert world.legal_actions() == state.legal_actions()
                if not world.is_terminal():
                    assert world.legal_actions(), "a world in which nothing can happen"
                assert state.determinized(observer, seed * 1000 + i) == world


@pytest.mark.parametrize("game", SETTINGS)
def test_determinization_does_not_keep_to_the_truth(game):
    # Two actions or chance outcomes an observer cannot tell apart (one action_view
    # class) lead to two positions it cannot tell apart: in each, another world is
    # possible, and a resampler that returns the truth never finds it.
    possible = strayed = 0
    for seed in range(GAMES):
        for i, state in enumerate(played(game, seed)[::3]):
            if state.is_terminal():
                continue
            for observer in range(game.num_players):
                classes = {}
                for a in state.legal_actions():
                    classes.setdefault(state.action_view(a, observer), []).append(a)
                alike = next((acts for view, acts in classes.items()
                              if view < 0 and len(acts) > 1), None)
                if alike is None:
                    continue
                after = state.clone()
                after.apply_action(alike[0])
                truth = after.to_dict()
                possible += 1
                strayed += any(after.determinized(observer, 100 * i + k).to_dict() != truth
                               for k in range(16))
    assert possible > 0, "no hidden action or outcome: this test tells nothing here"
    assert strayed >= 0.9 * possible, f"only {strayed} of {possible} positions resampled"


@pytest.mark.parametrize("game", SETTINGS)
def test_a_fair_searcher_decides_alike_in_worlds_its_player_cannot_tell_apart(game):
    checked = 0
    for seed in range(2):
        for i, state in enumerate(played(game, seed)[5::9]):
            player = state.current_player()
            if player < 0 or len(state.legal_actions()) < 2:
                continue
            world = state.determinized(player, seed * 1000 + i)
            choices = [search.make_bot("ismcts(iterations=60)", game, player, seed=i).step(s)
                       for s in (state, world)]
            assert choices[0] == choices[1], (state.to_dict(), world.to_dict())
            checked += 1
    assert checked > 0


def words(*views):
    return set(re.findall(r"[\w?]+", orjson.dumps(views).decode()))


@pytest.mark.parametrize("game", SETTINGS)
def test_no_action_shown_to_a_seat_names_a_card_it_cannot_see(game):
    # The names a seat is shown are those of the actions it sees (action_view gives the
    # action itself).  A card such a name holds is one the seat sees before or after the
    # action, or one that then lies nowhere a position names a card (a card leaving
    # play, as Shrine's Joker does).
    cards = set(game.cards.names)
    for seed in range(GAMES):
        for state in played(game, seed)[::2]:
            if state.is_terminal():
                continue
            before = {}  # seat: the cards it sees now, read once for every action
            for a in state.legal_actions():
                named = words(state.action_to_string(a)) & cards
                seats = [seat for seat in range(game.num_players)
                         if state.action_view(a, seat) == a]
                if not named or not seats:
                    continue
                after = state.clone()
                after.apply_action(a)
                placed = words(after.to_dict())
                for seat in seats:
                    if seat not in before:
                        before[seat] = words(state.observation_dict(seat))
                    unseen = named - before[seat] - words(after.observation_dict(seat))
                    assert not unseen & placed, (seat, state.action_to_string(a), unseen)



def own_action_views(state, player, worlds):
    """For each legal action of ``player`` (the one to act), what ``player`` knows once
    it is taken, in the true state and in each of ``worlds``."""
    seen = {}
    for a in state.legal_actions():
        for world in [state] + worlds:
            after = world.clone()
            after.apply_action(a)
            seen.setdefault(a, set()).add(after.information_state_string(player))
    return seen


LEAKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                     "leaks")
POSITIONS = [row for name in sorted(os.listdir(LEAKS)) if name.endswith(".json")
             for row in json.load(open(os.path.join(LEAKS, name)))] \
    if os.path.isdir(LEAKS) else []


@pytest.mark.parametrize("row", POSITIONS, ids=lambda row: f"{row['game']}: {row['why']}")
def test_a_position_that_once_leaked_tells_the_actor_nothing_of_its_worlds(row):
    # The positions of tests/data/leaks/ (one file per ruleset) are ones where a rule
    # once let the game run on by itself, or not, by a card the acting player cannot see.
    # Whatever that player does there, what it then knows must be the same in every
    # world it cannot tell apart from the truth.  (Not a check along random games: an
    # action may rightly reveal a hidden card, as a Trap that springs, or the Shrine
    # card that a top removed after one's own no response uncovers: see
    # tests/shrine/test_shrine_recall.py.)
    state = core.load_game(row["game"]).state_from_dict(row["state"])
    player = state.current_player()
    worlds = [state.determinized(player, k) for k in range(24)]
    assert any(w.to_dict() != state.to_dict() for w in worlds)
    for a, known in own_action_views(state, player, worlds).items():
        assert len(known) == 1, state.action_to_string(a)
