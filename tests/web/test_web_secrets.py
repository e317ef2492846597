"""The browser is sent only what the person's seat may see: no response of a whole
game names a card hidden from that seat, and what the page is sent of a position is
the same in every world the seat cannot tell from the true one."""
import json
import re
import sqlite3

import pytest

from web.web_helpers import client, new_game, play_out
from tournament.sparring.session import Match
from tournament.web import sessions


def _cards(value):
    """Every card name in a position dict: the strings in its lists."""
    if isinstance(value, dict):
        return {c for v in value.values() for c in _cards(v)}
    if isinstance(value, list):
        return {c for v in value for c in _cards(v)} | {v for v in value if isinstance(v, str)}
    return set()


def _match(db, game_id):
    with sqlite3.connect(db) as con:
        game, bot, seat, seed, history = con.execute(
            "SELECT game, bot, seat, seed, history FROM sparring WHERE id = ?",
            (game_id,)).fetchone()
    return Match(game, bot, seat, seed, json.loads(history))


# Seat 0, seed 1 hides the last card of the deal, the one outcome left, whose name
# begins with the card: a step the seat cannot see is told by its kind, not its name.
@pytest.mark.parametrize("seat, seed", [(0, 1), (1, 2), (2, 3)])
def test_no_response_of_a_whole_game_names_a_card_the_seat_never_saw(tmp_path, seat, seed):
    # In Relinquish every card is one of a kind and an observation names no card it
    # hides, so a hidden card's name in a response is a leak.
    db = tmp_path / "web.db"
    web = client(db)
    game_id = new_game(web, "relinquish", "greedy", seat, seed, {"players": 3})
    seen = set()
    checked = 0

    def check(text, view):
        nonlocal checked
        truth = _match(db, game_id)
        seen.update(_cards(truth.state.observation_dict(seat)))
        seen.update(m["name"].split()[-1] for m in view["legal"])
        hidden = _cards(truth.state.to_dict()) - seen
        named = [card for card in hidden if re.search(rf"(?<![\w?]){re.escape(card)}(?!\w)", text)]
        assert not named, f"{named} reached the page at step {len(truth.history)}"
        checked += bool(hidden)

    play_out(web, game_id, seen=check)
    page = web.get(f"/play/{game_id}").text
    assert checked > 10, "no card was ever hidden: this test tells nothing here"
    assert "history" not in page


SETTINGS = [("shrine", {}), ("card_duel", {}), ("relinquish", {"players": 3}),
            ("relinquish", {"players": 4, "teams": True}), ("creature_shrines", {})]


@pytest.mark.parametrize("game, params", SETTINGS)
def test_what_a_position_sends_is_the_same_in_every_world_the_seat_cannot_tell_apart(
        tmp_path, game, params):
    db = tmp_path / "web.db"
    web = client(db)
    game_id = new_game(web, game, "greedy", 1, 5, params)
    compared = 0

    def check(text, view):
        nonlocal compared
        state = _match(db, game_id).state
        sent = sessions.position(state, 1)
        assert {k: view[k] for k in ("board", "text", "legal")} \
            == {k: sent[k] for k in ("board", "text", "legal")}
        for k in range(3):
            world = state.determinized(1, 100 * len(view["log"]) + k)
            assert sessions.position(world, 1) == sessions.position(state, 1)
            compared += world.to_dict() != state.to_dict()

    play_out(web, game_id, seen=check)
    assert compared > 10, "no world differed from the truth: this test tells nothing here"
