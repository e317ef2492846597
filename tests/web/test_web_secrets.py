"""The browser is sent only what the person's seat may see: no response of a whole
game names a card hidden from that seat, and what the page is sent of a position is
the same in every world the seat cannot tell from the true one."""
import collections
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
    with client(db) as web:
        game_id = new_game(web, "relinquish", "greedy", seat, seed, {"players": 3})
        seen = set()
        checked = 0

        def check(text, view):
            nonlocal checked
            truth = _match(db, game_id)
            seen.update(_cards(truth.state.observation_dict(seat)))
            seen.update(m["name"].split()[-1] for m in view["legal"])
            hidden = _cards(truth.state.to_dict()) - seen
            named = [card for card in hidden
                     if re.search(rf"(?<![\w?]){re.escape(card)}(?!\w)", text)]
            assert not named, f"{named} reached the page at step {len(truth.history)}"
            checked += bool(hidden)

        play_out(web, game_id, seen=check)
        page = web.get(f"/play/{game_id}").text
        assert checked > 10, "no card was ever hidden: this test tells nothing here"
        assert "history" not in page


SETTINGS = [("shrine", {}), ("card_duel", {}), ("relinquish", {"players": 3}),
            ("relinquish", {"players": 4, "teams": True}), ("creature_shrines", {})]


# Lists of what a seat knows is hidden somewhere, without where: a card named in one
# is not a card the seat has seen.
UNPLACED = {"unseen", "piles"}


def _names(value):
    """Every card a position dict places, with its copies: the strings of its lists,
    the card of each piece (a dict with a ``card``) and the keys of counts by card,
    "??" and the lists of ``UNPLACED`` aside."""
    found = collections.Counter()
    if isinstance(value, dict):
        if isinstance(value.get("card"), str):
            found[value["card"]] += 1
        for key, v in value.items():
            if key in UNPLACED:
                continue
            if isinstance(v, int) and not isinstance(v, bool):
                found[key] += v
            elif not isinstance(v, str):
                found += _names(v)
    elif isinstance(value, list):
        for v in value:
            found += collections.Counter([v]) if isinstance(v, str) else _names(v)
    found.pop("??", None)
    return found


def _placed(value):
    """``value`` without the lists of ``UNPLACED``, which name cards without placing
    them."""
    if isinstance(value, dict):
        return {k: _placed(v) for k, v in value.items() if k not in UNPLACED}
    if isinstance(value, list):
        return [_placed(v) for v in value]
    return value


# Card Duel and the energy deck-builder are left out: their two decks hold the same
# kinds, so that every kind is placed among the seat's own cards from the start.  The
# test above, that a position sends the same in every world the seat cannot tell
# apart, covers them.
@pytest.mark.parametrize("game, params", [
    ("shrine", {}), ("relinquish", {"players": 4, "teams": True}), ("creature_shrines", {})])
def test_no_response_names_a_card_of_which_the_seat_has_seen_no_copy(tmp_path, game, params):
    # A card may come in several copies, some seen and some hidden: naming it then
    # tells nothing.  A card none of whose copies the seat has ever seen placed, in
    # its observation at any step so far, must not be named by any response.
    db = tmp_path / "web.db"
    with client(db) as web:
        game_id = new_game(web, game, "greedy", 1, 7, params)
        seen = set()
        walked = {"state": None, "steps": 0}
        checked = 0

        def check(text, view):
            nonlocal checked
            truth = _match(db, game_id)
            if walked["state"] is None:
                walked["state"] = truth.game.new_initial_state()
                seen.update(_names(walked["state"].observation_dict(1)))
            for action in truth.history[walked["steps"]:]:
                walked["state"].apply_action(action)
                seen.update(_names(walked["state"].observation_dict(1)))
            walked["steps"] = len(truth.history)
            hidden = set(_names(truth.state.to_dict())) - seen
            # The board's text is drawn from the board alone, which is scanned here.
            # What cards say is the public card list's, for every name the board
            # gives, those it lists as possible included: its words are scanned, not
            # the names it is given under.
            sent = json.dumps(_placed({k: v for k, v in view.items()
                                       if k not in ("text", "cards")})) \
                + json.dumps([{k: v for k, v in text.items() if k != "card"}
                              for text in view["cards"].values()])
            named = [card for card in hidden
                     if re.search(rf"(?<![\w?]){re.escape(card)}(?!\w)", sent)]
            assert not named, f"{named} reached the page at step {len(truth.history)}"
            checked += bool(hidden)

        play_out(web, game_id, seen=check)
        assert checked > 5, "no card was ever hidden: this test tells nothing here"


@pytest.mark.parametrize("game, params", SETTINGS)
def test_what_a_position_sends_is_the_same_in_every_world_the_seat_cannot_tell_apart(
        tmp_path, game, params):
    db = tmp_path / "web.db"
    with client(db) as web:
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


def _seen(match, seat):
    """Every step of ``match`` as ``seat`` saw it, in order: the action, or what
    ``action_view`` shows of it."""
    state = match.game.new_initial_state()
    seen = []
    for action in match.history:
        seen.append(state.action_view(action, seat))
        state.apply_action(action)
    return seen


def _alike_until_a_hidden_card_is_shown(web, db, games, seat):
    """Send the two games of ``games`` the same requests, the person choosing the
    first move offered, while the seat sees the same in both: every answer is the same
    (the games' ids aside).  Returns the number of answers compared while the two
    games' true states differed."""
    views = [web.get(f"/api/games/{g}").json() for g in games]
    compared = 0
    for _ in range(60):
        matches = [_match(db, g) for g in games]
        if _seen(matches[0], seat) != _seen(matches[1], seat):
            return compared
        truths = [m.state for m in matches]
        pages = [web.get(f"/play/{g}").text.replace(g, "ID") for g in games]
        assert pages[0] == pages[1]
        answers = [json.dumps(dict(v, id="ID"), sort_keys=True) for v in views]
        assert answers[0] == answers[1], f"the answers differ at version {views[0]['version']}"
        compared += truths[0].to_dict() != truths[1].to_dict()
        view = views[0]
        if view["waiting"] == "over":
            return compared
        if view["waiting"] == "you":
            path, body = "move", {"version": view["version"], "action": view["legal"][0]["action"]}
        else:
            path, body = "step", {"version": view["version"]}
        views = [web.post(f"/api/games/{g}/{path}", json=body).json() for g in games]
    return compared


def test_two_games_dealt_from_different_secrets_answer_alike_until_the_seat_sees_a_difference(
        tmp_path):
    # Creature Shrines from secrets 25 and 350 (found among the first 400) deal player 0
    # the same cards in the same order and the bot different ones: the two games stay
    # alike to the seat for the steps of their opening.
    db = tmp_path / "web.db"
    with client(db) as web:
        games = [new_game(web, "creature_shrines", "random", 0, secret) for secret in (25, 350)]
        assert _alike_until_a_hidden_card_is_shown(web, db, games, 0) > 5


def test_the_seed_is_shown_once_the_game_is_over_and_replays_its_record(tmp_path):
    db = tmp_path / "web.db"
    with client(db) as web:
        game_id = new_game(web, "shrine", "random", 1, 12345)
        first = web.get(f"/api/games/{game_id}").json()
        record = web.get(f"/api/games/{game_id}/record")
        assert "seed" not in first and "seed" not in record.json()
        assert "12345" not in record.headers["content-disposition"] + web.get("/").text
        last = play_out(web, game_id)
        assert last["seed"] == 12345
        record = web.get(f"/api/games/{game_id}/record").json()
        replayed = Match(record["game"], record["bot"], record["seat"], record["seed"])
        while not replayed.state.is_terminal():
            if replayed.state.is_chance_node():
                replayed.apply(replayed.chance_outcome())
            elif replayed.state.current_player() != replayed.seat:
                replayed.apply(replayed.bot_action())
            else:
                replayed.apply(record["history"][len(replayed.history)])
        assert replayed.history == record["history"]
