"""Creature Shrines' deal rotated through the seats (``GameState.rotate_deal``).

Nothing is dealt from a pile the seats share: each seat draws its opening hand from its
own libraries, around its own mulligans (C10).  So where both seats play one deck, the
deal is over before the first draw and a rotation moves nothing in the state; what a
rotated deal moves is the order of each seat's libraries, which the harness draws from
streams of their own (``chance_source``, tests/tournament/test_rotations.py).  Seats
with different decks refuse: rotating them would change the match-up."""
import random

import pytest

import core


def test_seats_with_different_decks_refuse_a_rotation_in_one_line():
    game = core.load_game("creature_shrines")  # red against blue
    assert game.rotation_refusal == ("creature_shrines: the seats play different decks "
                                     "(red and blue), so rotating them would change the "
                                     "match-up, not the luck of the draw")
    state = game.new_initial_state()
    assert not state.just_dealt()
    with pytest.raises(core.RotationError, match="different decks"):
        state.rotate_deal(1)


@pytest.mark.parametrize("deck", ["red", "purple"])
def test_a_mirror_is_dealt_before_its_first_draw_and_a_rotation_moves_nothing(deck):
    game = core.load_game("creature_shrines", deck0=deck, deck1=deck)
    assert game.rotation_refusal is None
    state = game.new_initial_state()
    assert state.just_dealt()
    before = state.to_dict()
    state.rotate_deal(1)
    assert state.to_dict() == before
    for seat in (0, 1):
        assert state.information_state_string(seat) == \
            game.new_initial_state().information_state_string(seat)
    state.apply_action(state.legal_actions()[0])
    assert not state.just_dealt()
    with pytest.raises(core.RotationError, match="just ended"):
        state.rotate_deal(1)


def test_every_draw_is_from_a_library_of_the_seat_drawing():
    game = core.load_game("creature_shrines", deck0="red", deck1="red")
    state, rng = game.new_initial_state(), random.Random(1)
    sources = []
    while state.to_dict()["step"] != "act":  # the first turn's first act
        if state.is_chance_node():
            sources.append(state.chance_source())
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            assert state.chance_source() is None
            state.apply_action(rng.choice(state.legal_actions()))
    # Each seat's opening hand: three from the Primary Library (more for a mulligan),
    # then three from the Secondary; seat 0 first.
    seats = [seat for seat, _ in sources]
    assert seats == sorted(seats) and set(seats) == {0, 1}
    for seat in (0, 1):
        piles = [pile for s, pile in sources if s == seat]
        assert piles[:3] == ["primary"] * 3 and piles[-3:] == ["secondary"] * 3
