"""What the page is sent to show a player: where the game stands in words, what each
card on the board says, a tournament's games as a table a page at a time, and a replay
a step a move with each run of chance events one step."""
import json
import re

import core
from tournament.harness.store import Store

from web.web_helpers import client, new_game, store_games, to_choice


def test_the_page_is_sent_the_status_in_words_and_what_each_card_says(tmp_path):
    web = client(tmp_path / "web.db")
    game_id = new_game(web, "creature_shrines", "random", 0, 3)
    view = to_choice(web, game_id)
    game = core.load_game("creature_shrines")
    assert view["status"] == game.status(view["board"])
    hand = view["board"]["players"][0]["hand"]
    assert hand and all(view["cards"][name] == game.card_text(name) for name in hand)
    # Only cards the board shows: the card list of the decks stays out of the answer.
    shown = json.dumps(view["board"])
    assert all(f'"{name}"' in shown for name in view["cards"])
    duel = to_choice(web, new_game(web, "card_duel", "random", 0, 3))
    assert duel["cards"] == {} and "wait" not in duel["status"]
    shrine = to_choice(web, new_game(web, "shrine", "random", 0, 3))
    assert "wait" not in shrine["status"]
    assert all(shrine["cards"][name] == core.load_game("shrine").card_text(name)
               for name in shrine["board"]["players"][0]["hand"])


def test_the_deckbuilders_market_cards_say_what_they_are(tmp_path):
    web = client(tmp_path / "web.db")
    view = to_choice(web, new_game(web, "energy_deckbuilder", "random", 0, 3))
    market = [name for name in view["board"]["market"] if name]
    assert market and all("buy" in view["cards"][name] for name in market)


def test_a_tournaments_games_are_a_table_in_order_a_page_at_a_time(tmp_path):
    db = tmp_path / "t.db"
    config = store_games(db, range(30))
    web = client(db)
    first = web.get(f"/tournaments/{config.key}").text
    rows = re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td>\s*<td>(.*?)</td>\s*"
                      r'<td class="result">(.*?)</td><td>(.*?)</td><td>(\d+)</td>', first)
    assert len(rows) == 50
    assert [int(r[0]) for r in rows] == list(range(1, 51))
    assert [int(r[1]) for r in rows] == sorted(int(r[1]) for r in rows)
    assert all(re.fullmatch(r"0: \w+, 1: \w+", r[2]) for r in rows)
    assert all(re.fullmatch(r"(random|greedy) wins|a draw", r[3]) for r in rows)
    assert 'href="?page=2"' in first
    last = web.get(f"/tournaments/{config.key}?page=2").text
    assert "Games 51 to 60 of 60." in last
    assert len(re.findall(r'href="/replay/\d+"', last)) == 10
    assert web.get(f"/tournaments/{config.key}?page=3").status_code == 404
    assert web.get(f"/tournaments/{config.key}/report?page=2").text.count("/replay/") == 10


def test_a_replay_is_drawn_as_the_play_page_draws_a_game_a_step_a_move(tmp_path):
    db = tmp_path / "t.db"
    store_games(db, range(1))
    with Store(str(db), readonly=True) as store:
        row = store.games(store.tournaments()[0]["key"])[0]
    page = client(db).get(f"/replay/{row.id}").text
    replay = json.loads(re.search(r'id="replay">(.*?)</script>', page, re.S).group(1))
    frames = replay["frames"]
    # The deal is one step: step 2 is a player's first move.
    assert frames[1]["text"].startswith("chance: deal")
    assert frames[2]["text"].startswith("player ")
    moves = sum(not t["text"].startswith("chance: ") for t in frames[1:])
    assert moves == row.length
    assert replay["layout"] == json.loads(json.dumps(core.load_game(row.game).layout))
    assert all(f["view"]["players"] and f["status"] for f in frames)
    assert frames[0]["text"] == "the start"
    assert client(db).get("/replay/999999").status_code == 404
