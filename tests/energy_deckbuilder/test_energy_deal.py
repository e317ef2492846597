"""The energy deck-builder's deal rotated through the seats (``GameState.rotate_deal``):
each seat's starting deck, shuffled into a hand and a draw pile, is what it is dealt;
the decks are alike, so a rotation swaps the hands and draw piles, and leaves the
market, lives and energy (player 1's extra cubes stay with seat 1: E4)."""
import pytest

import core
from kit import helpers

MARKET = slice(0, 8)


def game(**params):
    return core.load_game("energy_deckbuilder", **params)


def test_the_deal_is_over_when_player_0s_first_turn_waits_on_its_first_step():
    state, outcomes = helpers.dealt(game(), seed=1)
    assert len(outcomes) == 16  # E23: the market, then each hand
    view = state.to_dict()
    assert (view["turn"], view["active"], view["stage"], view["steps"]) == (1, 0, "main", 0)
    state.apply_action(state.legal_actions()[0])
    assert not state.just_dealt()


def test_a_rotation_swaps_hands_and_draw_piles_and_leaves_the_market():
    state, _ = helpers.dealt(game(), seed=1)
    before = state.to_dict()
    state.rotate_deal(1)
    after = state.to_dict()
    for key in ("hand", "draw", "known"):
        assert [p[key] for p in after["players"]] == [p[key] for p in before["players"][::-1]]
    for key in ("lives", "energy", "discard", "creatures"):
        assert [p[key] for p in after["players"]] == [p[key] for p in before["players"]]
    for key in ("market", "market_deck", "piles", "common", "turn", "active", "stage"):
        assert after[key] == before[key]
    assert state.current_player() == 0 and state.returns() == [0, 0]
    assert state.just_dealt()


@pytest.mark.parametrize("params", [{}, {"hand_size": 6}, {"hand_size": 10}])
def test_a_rotated_deal_is_the_deal_of_the_swapped_hands_for_every_seat(params):
    energy = game(**params)
    state, outcomes = helpers.dealt(energy, seed=2)
    # A hand larger than the starting deck is the whole deck (E18: nothing to draw).
    hand = min(energy.params["hand_size"], 8)
    assert len(outcomes) == 8 + 2 * hand
    market = outcomes[MARKET]
    first, second = outcomes[8:8 + hand], outcomes[8 + hand:]
    state.rotate_deal(1)
    helpers.assert_same_knowledge(state, helpers.redealt(energy, market + second + first))


def test_each_seat_sees_its_new_hand_and_of_the_other_only_its_whole_deck():
    state, _ = helpers.dealt(game(), seed=3)
    players = state.to_dict()["players"]
    state.rotate_deal(1)
    for seat in (0, 1):
        seen = state.observation_dict(seat)["players"]
        assert seen[seat]["hand"] == players[1 - seat]["hand"]
        other = seen[1 - seat]
        assert other["hand"] == ["??"] * 4 and other["draw"] == ["??"] * 4
        assert sorted(other["unseen"]) == sorted(players[seat]["hand"] + players[seat]["draw"])


def test_a_deal_is_rotated_only_where_it_has_just_ended():
    state, _ = helpers.dealt(game(), seed=1)
    state.apply_action(state.legal_actions()[0])
    before = state.to_dict()
    with pytest.raises(core.RotationError, match="just ended"):
        state.rotate_deal(1)
    assert state.to_dict() == before


def test_a_card_drawn_is_its_players_and_a_market_card_the_markets():
    state = game().new_initial_state()
    sources = []
    while not state.just_dealt():
        sources.append(state.chance_source())
        state.apply_action(state.legal_actions()[0])
    assert sources == [(-1, "market")] * 8 + [(0, "draw")] * 4 + [(1, "draw")] * 4
