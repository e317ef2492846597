"""Relinquish's deal rotated through the seats (``GameState.rotate_deal``): the hands and
the first-player flips are what the seats are dealt (L3), so a rotation moves them, and
with the flips the first player; the Scry pile and the exile stay."""
import pytest

import core
from kit import helpers

# The deal's chance outcomes are where each card goes: a hand (0-3), a flip (4-7), the
# Scry pile (8) or exile (9).
HANDS, FLIPS = 0, 4


def moved(outcomes, k, n):
    """The deal's outcomes with every hand and flip ``k`` seats on, of ``n``."""
    def place(d):
        for first in (HANDS, FLIPS):
            if first <= d < first + n:
                return first + (d - first + k) % n
        return d
    return [place(d) for d in outcomes]


GAMES = ["relinquish", "relinquish(players=3)", "relinquish(players=4,teams=true)",
         "relinquish(short_game=true)"]


def test_the_deal_is_over_at_the_first_players_first_decision():
    state, outcomes = helpers.dealt(core.load_game("relinquish"), seed=0)
    assert len(outcomes) == 78
    view = state.to_dict()
    assert view["phase"] == "main" and view["turn"] == 0
    assert state.current_player() == view["first"]
    state.apply_action(state.legal_actions()[-1])
    assert not state.just_dealt()


@pytest.mark.parametrize("game", GAMES)
def test_a_rotation_moves_hands_flips_and_the_first_player_and_leaves_the_piles(game):
    game = core.load_game(game)
    n = game.num_players
    for k in range(1, n):
        state, _ = helpers.dealt(game, seed=k)
        before = state.to_dict()
        state.rotate_deal(k)
        after = state.to_dict()
        for p in range(n):
            assert after["players"][(p + k) % n] == before["players"][p]
        for key in ("scry", "discard", "exile", "set_aside", "turn", "phase", "passes"):
            assert after.get(key) == before.get(key)
        assert after["first"] == after["active"] == (before["first"] + k) % n
        assert state.current_player() == after["first"]
        assert state.returns() == [0] * n
        assert state.just_dealt()


@pytest.mark.parametrize("game", GAMES)
def test_a_rotated_deal_is_the_deal_of_the_moved_cards_for_every_seat(game):
    game = core.load_game(game)
    n = game.num_players
    for k in range(1, n):
        state, outcomes = helpers.dealt(game, seed=k)
        assert len(outcomes) == 78  # no tie to flip again
        state.rotate_deal(k)
        helpers.assert_same_knowledge(state, helpers.redealt(game, moved(outcomes, k, n)))


def test_after_a_tie_the_latest_flips_move_and_the_winner_with_them():
    state, outcomes = helpers.dealt(core.load_game("relinquish"), seed=26)
    assert len(outcomes) == 80  # both flipped again from the Scry pile
    before = state.to_dict()
    state.rotate_deal(1)
    after = state.to_dict()
    assert [p["flip"] for p in after["players"]] == ["P2", "W6"]
    assert after["first"] == 1 - before["first"]
    assert after["exile"] == before["exile"]


def test_each_seat_sees_its_new_hand_and_the_others_only_by_their_size():
    game = core.load_game("relinquish(players=3)")
    state, _ = helpers.dealt(game, seed=4)
    hands = [p["hand"] for p in state.to_dict()["players"]]
    state.rotate_deal(2)
    for seat in range(3):
        seen = state.observation_dict(seat)["players"]
        assert seen[seat]["hand"] == hands[(seat - 2) % 3]
        assert [p["hand"] for q, p in enumerate(seen) if q != seat] == [None, None]
        assert [p["hand_size"] for p in seen] == [13, 13, 13]
        assert state.observation_dict(seat)["scry"] is None


def test_a_deal_is_rotated_only_where_it_has_just_ended():
    game = core.load_game("relinquish")
    state, _ = helpers.dealt(game, seed=0)
    state.apply_action(state.legal_actions()[-1])
    before = state.to_dict()
    with pytest.raises(core.RotationError, match="just ended"):
        state.rotate_deal(1)
    assert state.to_dict() == before


def test_every_draw_is_from_what_the_seats_share():
    state = core.load_game("relinquish").new_initial_state()
    assert state.chance_source() == (-1, "")
