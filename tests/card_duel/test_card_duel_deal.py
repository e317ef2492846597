"""Card Duel's deal rotated through the seats (``GameState.rotate_deal``): the pools are
what the seats are dealt, so a rotation swaps them and nothing else."""
import pytest

import core
from card_duel_helpers import duel, pl, position
from core.card_duel import CARD_CLASSES
from kit import helpers


def test_the_pools_are_dealt_when_the_first_hand_building_choice_waits():
    state, outcomes = helpers.dealt(duel(), seed=3)
    assert len(outcomes) == 26
    assert state.to_dict()["phase"] == "build" and state.current_player() == 0
    state.apply_action(state.legal_actions()[0])
    assert not state.just_dealt()


def test_a_rotation_swaps_the_pools_and_leaves_the_rest():
    state, _ = helpers.dealt(duel(), seed=3)
    before = state.to_dict()
    state.rotate_deal(1)
    after = state.to_dict()
    assert [p["deck"] for p in after["players"]] == [p["deck"] for p in
                                                     reversed(before["players"])]
    for key in ("hand", "discard", "damage", "hand_points_spent", "hand_known"):
        assert [p[key] for p in after["players"]] == [p[key] for p in before["players"]]
    for key in ("exchange", "offense", "table", "winner", "builder"):
        assert after[key] == before[key]
    assert state.current_player() == 0 and state.returns() == [0, 0]
    assert state.just_dealt()


def test_a_rotated_deal_is_the_deal_of_the_swapped_pools_for_every_seat():
    game = duel()
    state, _ = helpers.dealt(game, seed=3)
    other = state.to_dict()["players"][1]["deck"]
    state.rotate_deal(1)
    helpers.assert_same_knowledge(state, helpers.redealt(game, [CARD_CLASSES[c]
                                                                for c in other]))


def test_the_first_choice_is_the_new_pools_highest_class():
    # Player 0 was dealt no Ace, player 1 all four: after the swap, player 0 builds
    # from the Ace down.
    aces = "A A A A"
    state = position(pl(deck="2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8"),
                     pl(deck=f"{aces} 8 8 9 9 9 9 " + "10 " * 16), phase="build")
    assert state.to_dict()["building"] == "8"
    state.rotate_deal(1)
    view = state.to_dict()
    assert view["building"] == "A" and view["builder"] == 0
    assert view["players"][0]["deck"][-4:] == aces.split()


def test_each_seat_sees_its_new_pool_and_the_others_only_as_cards_it_cannot_place():
    state, _ = helpers.dealt(duel(), seed=5)
    pools = [p["deck"] for p in state.to_dict()["players"]]
    state.rotate_deal(1)
    # Each seat sees its own new pool, and the other's as the cards it cannot see
    # (the pools are public, D2; how the other splits it between hand and deck is not).
    for seat in (0, 1):
        seen = state.observation_dict(seat)["players"]
        assert seen[seat]["deck"] == pools[1 - seat]
        assert seen[1 - seat]["unseen"] == pools[seat]
    # Seat 0 builds first, so seat 1 sees nothing of its hand, not even its size (C1).
    assert state.observation_dict(0)["players"][1]["deck"] == ["??"] * 26
    assert state.observation_dict(1)["players"][0]["deck"] is None


def test_two_rotations_of_two_seats_are_none_and_any_number_of_seats_turns_round():
    state, _ = helpers.dealt(duel(), seed=3)
    before = state.to_dict()
    for k in (0, 2, -2):
        state.rotate_deal(k)
        assert state.to_dict() == before
    state.rotate_deal(-1)
    assert state.to_dict()["players"][0]["deck"] == before["players"][1]["deck"]


def test_a_deal_is_rotated_only_where_it_has_just_ended():
    game = duel()
    fresh = game.new_initial_state()
    assert not fresh.just_dealt()
    with pytest.raises(core.RotationError, match="just ended"):
        fresh.rotate_deal(1)
    state, _ = helpers.dealt(game, seed=3)
    state.apply_action(state.legal_actions()[0])
    before = state.to_dict()
    with pytest.raises(core.RotationError, match="just ended"):
        state.rotate_deal(1)
    assert state.to_dict() == before
    with pytest.raises(core.RotationError, match="an int"):
        helpers.dealt(game, seed=3)[0].rotate_deal(1.0)


def test_a_game_with_no_hand_to_build_is_dealt_at_its_first_attack():
    state, _ = helpers.dealt(duel(hand_points=1), seed=3)
    assert state.to_dict()["phase"] == "attack"
    state.rotate_deal(1)
    assert state.to_dict()["phase"] == "attack" and state.current_player() == 0


def test_the_deal_draws_from_the_stock_and_a_draw_from_its_players_deck():
    game = duel()
    assert game.new_initial_state().chance_source() == (-1, "stock")
    state = position(pl(), pl(), phase="attack", offense=1)
    assert state.chance_source() is None
    state.apply_action(state.legal_actions()[-1])   # player 1 attacks from the deck
    assert state.chance_source() == (1, "deck")
