"""Shrine's deal rotated through the seats (``GameState.rotate_deal``): the Shrines and
the hands are what the seats are dealt, so a rotation swaps them, with what each seat
knows of them, and leaves the Library, the Graveyard and the turn."""
import pytest

import core
from kit import helpers
from shrine_helpers import pl, play, position, shrine

# The deal's twenty cards, in the order R4 deals them: five to each Shrine (bottom
# first), then five to each hand.
SHRINE0, SHRINE1, HAND0, HAND1 = (slice(k, k + 5) for k in range(0, 20, 5))


def swapped(outcomes):
    """The deal's cards dealt to the other seats: as a rotated deal must look."""
    return outcomes[SHRINE1] + outcomes[SHRINE0] + outcomes[HAND1] + outcomes[HAND0]


def test_the_deal_is_over_when_the_first_turns_draw_waits():
    state, outcomes = helpers.dealt(shrine(), seed=1)
    assert len(outcomes) == 20
    view = state.to_dict()
    assert view["chance"] == {"draw": "hand", "to": 0, "left": 1, "then": "action"}
    state.apply_action(state.legal_actions()[0])
    assert not state.just_dealt()


def test_a_rotation_swaps_shrines_and_hands_and_leaves_the_library_and_the_turn():
    state, _ = helpers.dealt(shrine(), seed=1)
    before = state.to_dict()
    outcomes = state.chance_outcomes()
    state.rotate_deal(1)
    after = state.to_dict()
    assert after["players"] == before["players"][::-1]
    for key in ("library", "graveyard", "piles", "library_pile", "turn", "active",
                "chance", "actions_left", "winner"):
        assert after[key] == before[key]
    # The first turn's card still goes to player 0, from the same Library.
    assert state.chance_outcomes() == outcomes
    assert state.current_player() == core.CHANCE_PLAYER and state.returns() == [0, 0]
    assert state.just_dealt()


@pytest.mark.parametrize("game, seed", [("shrine", 1), ("shrine(alt_heal=true)", 4),
                                        # The Balance card turned up on player 1's
                                        # Shrine in the deal, and played (S14).
                                        ("shrine(balance=true)", 15)])
def test_a_rotated_deal_is_the_deal_of_the_swapped_cards_for_every_seat(game, seed):
    game = core.load_game(game)
    state, outcomes = helpers.dealt(game, seed)
    state.rotate_deal(1)
    helpers.assert_same_knowledge(state, helpers.redealt(game, swapped(outcomes)))


def test_after_a_balance_at_set_up_the_seat_now_holding_the_other_shrine_played_it():
    state, _ = helpers.dealt(shrine(balance=True), seed=15)
    before = state.to_dict()
    assert before["joker_out"] and [len(p["shrine"]) for p in before["players"]] == [4, 4]
    state.rotate_deal(1)
    assert state.to_dict()["players"] == before["players"][::-1]


def test_each_seat_sees_its_new_hand_and_shrine_top_and_nothing_of_the_other_hand():
    state, _ = helpers.dealt(shrine(), seed=2)
    hands = [p["hand"] for p in state.to_dict()["players"]]
    tops = [p["shrine"][-1] for p in state.to_dict()["players"]]
    state.rotate_deal(1)
    for seat in (0, 1):
        seen = state.observation_dict(seat)["players"]
        assert seen[seat]["hand"] == hands[1 - seat]
        assert seen[1 - seat]["hand"] == ["??"] * 5
        assert [p["shrine"] for p in seen] == [["??"] * 4 + [tops[1]], ["??"] * 4 + [tops[0]]]
        # R32: a seat knows which pile its own hidden cards came from, not the other's.
        assert seen[seat]["hand_piles"] == [hands[1 - seat]]
        assert seen[1 - seat]["hand_piles"] == [["??"] * 5]


def test_a_deal_is_rotated_only_where_it_has_just_ended():
    state, _ = helpers.dealt(shrine(), seed=1)
    state.apply_action(state.legal_actions()[0])
    before = state.to_dict()
    with pytest.raises(core.RotationError, match="just ended"):
        state.rotate_deal(1)
    assert state.to_dict() == before


def test_draws_come_from_the_library_and_a_jacks_steal_from_the_opponents_hand():
    game = shrine()
    assert game.new_initial_state().chance_source() == (-1, "library")
    state, _ = helpers.dealt(game, seed=1)
    assert state.chance_source() == (-1, "library")
    steal = position(pl("5B", "2B 6R", "JB"), pl("3R 9B 9B", "3R 9R"))
    play(steal, "jack steal", "no response")
    assert steal.chance_source() == (1, "hand")
