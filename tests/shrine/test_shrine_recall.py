"""R32: both players remember the cards of a shuffled pile, and a hidden card is
sampled from the pile it came from.  S24: what they cannot tell apart, they merge.  R5
with R32: a Shrine card turned up leaves its pile, news to its owner too."""
import json
from collections import Counter

import pytest

from core.shrine import CARD_NAMES
from kit.helpers import chi_square_p_ok, names
from shrine_helpers import play, shrine

GRAVE = ["2B", "2B", "3B", "4B"]


def everything_else(*placed):
    """The deck's cards not in ``placed``, in kind order: one player's hand, all
    known to the other, so that the piles hold only the cards a test is about."""
    deck = Counter({name: 2 for name in CARD_NAMES if name != "JOKER"})
    return sorted((deck - Counter(c for cards in placed for c in cards)).elements(),
                  key=CARD_NAMES.index)


def emptied_library(hidden, shrine1, shrine1_seen, active):
    """The Library is empty and the Graveyard holds ``GRAVE``; player 1 holds the
    never-seen cards ``hidden``; player 0's hand holds the rest of the deck, known."""
    shrine0 = ["2R", "3R", "4R", "5R", "6R"]
    rest = everything_else(shrine0, hidden, shrine1, GRAVE)
    return shrine().state_from_dict({
        "players": [{"hand": rest, "hand_seen": rest, "shrine": shrine0,
                     "shrine_seen": [True] * 5},
                    {"hand": hidden, "shrine": shrine1, "shrine_seen": shrine1_seen}],
        "graveyard": GRAVE, "library": [], "active": active, "phase": "start"})


def test_r32_the_cards_shuffled_into_a_new_library_are_known_as_a_set():
    state = emptied_library(["9R", "10R"], ["7R", "8R"], [True, True], active=0)
    play(state, "draw", "3B")
    seen = state.observation_dict(0)
    assert seen["piles"] == [["9R", "10R"], ["2B", "2B", "4B"]]
    assert seen["library_pile"] == 1
    assert seen["players"][1]["hand_piles"] == [["??", "??"], []]
    # Player 1 knows player 0's new card came from the shuffled Graveyard.
    assert state.observation_dict(1)["players"][0]["hand_piles"][1] == ["??"]
    assert state.observation_dict(1)["piles"][1] == ["2B", "2B", "3B", "4B"]
    for seed in range(100):
        world = state.determinized(0, seed).to_dict()
        assert world["players"][1]["hand"] == ["9R", "10R"]
        assert world["library"] == ["2B", "2B", "4B"]


def test_r32_determinization_is_uniform_over_the_worlds_each_pile_allows():
    # Player 1 holds two never-seen cards over a face-down one, 9R 9R and 10B in some
    # order, then draws one of the shuffled Graveyard's four.  Counting the two 9Rs
    # apart, the face-down card is a 9R in 2 of 3 worlds, and the drawn card a 2B in 2
    # of 4; the two piles are dealt independently.
    state = emptied_library(["9R", "9R"], ["10B", "7R", "8R"], [False, True, True],
                            active=1)
    play(state, "draw", "3B")
    shrine_odds = {"9R": 2 / 3, "10B": 1 / 3}
    drawn_odds = {"2B": 1 / 2, "3B": 1 / 4, "4B": 1 / 4}
    expected = {(s, d): ps * pd for s, ps in shrine_odds.items() for d, pd in drawn_odds.items()}
    worlds = Counter()
    samples = 2000
    for seed in range(samples):
        world = state.determinized(0, seed).to_dict()
        bottom = world["players"][1]["shrine"][0]
        hand = Counter(world["players"][1]["hand"])
        never_seen = Counter({"9R": 2, "10B": 1}) - Counter([bottom])
        drawn = hand - never_seen
        assert sum(drawn.values()) == 1, world["players"][1]
        (card,) = drawn
        assert Counter(world["library"]) + drawn == Counter(GRAVE)
        worlds[bottom, card] += 1
    assert set(worlds) <= set(expected)
    ok, stat = chi_square_p_ok(worlds, expected, samples)
    assert ok, (stat, worlds)


def two_piles(top0):
    """Player 1 holds 9R, never seen, and 3B, drawn from a shuffled pile that also left
    9R and 4B in the Library; a never-seen 5B lies face down in their Shrine."""
    shrine0 = ["2R", top0]
    shrine1 = ["5B", "QR"]
    rest = everything_else(shrine0, shrine1, ["9R", "3B", "9R", "4B"])
    return shrine().state_from_dict({
        "players": [{"hand": rest, "hand_seen": rest, "shrine": shrine0,
                     "shrine_seen": [True, True]},
                    {"hand": ["9R", "3B"], "hand_piles": [["9R"], ["3B"]],
                     "shrine": shrine1, "shrine_seen": [False, True],
                     "shrine_piles": [0, None]}],
        "library": ["9R", "4B"], "piles": [["5B", "9R"], ["3B", "4B", "9R"]],
        "library_pile": 1, "active": 1})


@pytest.mark.parametrize("top0,attack,piles", [
    # 3B can only have come from the shuffled pile: each pile keeps its cards.
    ("3R", "attack 3B -> 3R", [["5B", "9R"], ["4B", "9R"]]),
    # 9R could be either pile's: no one but player 1 can tell, so the piles merge.
    ("9B", "attack 9R -> 9B", [["3B", "4B", "5B", "9R"]]),
])
def test_s24_a_card_that_could_come_from_two_piles_merges_them(top0, attack, piles):
    state = two_piles(top0)
    play(state, attack, "no response")
    assert state.to_dict()["piles"] == piles
    assert state.observation_dict(0)["piles"] == piles


def test_s24_with_every_pile_in_use_a_shuffled_graveyard_joins_the_library_pile():
    hidden = ["9R", "10R", "JR", "KB"]
    shrine0, shrine1 = ["2R", "3R", "4R", "5R", "6R"], ["7R", "8R"]
    rest = everything_else(shrine0, shrine1, hidden, GRAVE)
    state = shrine().state_from_dict({
        "players": [{"hand": rest, "hand_seen": rest, "shrine": shrine0,
                     "shrine_seen": [True] * 5},
                    {"hand": hidden, "hand_piles": [[card] for card in hidden],
                     "shrine": shrine1, "shrine_seen": [True, True]}],
        "piles": [[card] for card in hidden], "library_pile": 3,
        "graveyard": GRAVE, "library": [], "phase": "start"})
    play(state, "draw", "3B")
    assert state.to_dict()["piles"] == [["9R"], ["10R"], ["JR"], ["2B", "2B", "3B", "4B", "KB"]]
    assert state.to_dict()["library_pile"] == 3


def dagger_on_a_face_down_card():
    """Player 1 has declared a Dagger on player 0's Shrine top, 7R, over three cards
    never seen (9B 6R 4B, the 4B just under it).  Player 0 holds 2R 7R and no Ace, so
    the response step (open by S6) offers only no response.  Player 0 cannot see those
    three cards, player 1's KR or the Library's 5B QR; the Graveyard holds the rest."""
    shrine0, hand0, shrine1, hand1 = ["9B", "6R", "4B", "7R"], ["2R", "7R"], ["8B", "3R"], \
        ["AB", "10B", "KR"]
    library = ["5B", "QR"]
    state = shrine().state_from_dict({
        "players": [{"hand": hand0, "shrine": shrine0, "shrine_seen": [False] * 3 + [True]},
                    {"hand": hand1, "shrine": shrine1, "shrine_seen": [True, True]}],
        "library": library, "active": 1, "phase": "action",
        "graveyard": everything_else(shrine0, hand0, shrine1, hand1, library)})
    return play(state, "dagger AB (pay 10B) -> Shrine 7R")


def unseen(view):
    """Player 0's ``view`` as if the top card of their Shrine, just turned up, were
    still face down in its pile."""
    view = json.loads(json.dumps(view))
    up = view["players"][0]["shrine"][-1]
    view["players"][0]["shrine"][-1] = "??"
    view["piles"][0] = sorted(view["piles"][0] + [up], key=CARD_NAMES.index)
    return view


def test_r5_r32_the_card_turned_up_after_ones_own_no_response_is_all_one_learns():
    # A leak check along random games once flagged this: after player 0's no response,
    # the pile player 0 is shown holds different cards in worlds player 0 could not
    # tell apart.  They differ by the card the Dagger's removal turns up, and by nothing
    # else: unknown to its owner too until then (R5), and gone from its pile once seen
    # (R32).  Any card of the pile may be that one, and worlds that turn up the same
    # card give player 0 the same features too.
    state = dagger_on_a_face_down_card()
    assert names(state) == ["no response"]
    before = state.observation_dict(0)
    pile = Counter(before["piles"][0])
    assert pile == Counter(["4B", "5B", "6R", "9B", "QR", "KR"])
    truth = play(state.clone(), "no response")
    assert truth.to_dict()["players"][0]["shrine"] == ["9B", "6R", "4B"]
    tensors = {}
    for seed in range(120):
        world = state.determinized(0, seed)
        assert world.observation_dict(0) == before
        play(world, "no response")
        after = world.observation_dict(0)
        up = after["players"][0]["shrine"][-1]
        assert Counter(after["piles"][0]) == pile - Counter([up])
        assert world.observation_dict(1)["players"][0]["shrine"][-1] == up
        assert unseen(after) == unseen(truth.observation_dict(0))
        tensor = world.observation_tensor(0).tobytes()
        assert tensors.setdefault(up, tensor) == tensor
    assert set(tensors) == set(pile)
