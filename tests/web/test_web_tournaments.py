"""The tournament pages: a stored tournament's ratings with intervals, crosstable and
seats, told again as games are stored, and a stored game replayed step by step."""
import json
import re

import httpx

from web.web_helpers import client, running, store_games
from tournament.harness.store import Store


def test_a_tournament_page_shows_ratings_crosstable_and_seats(tmp_path):
    db = tmp_path / "t.db"
    config = store_games(db, range(2))
    web = client(db)
    listing = web.get("/tournaments").text
    assert f"/tournaments/{config.key}" in listing
    page = web.get(f"/tournaments/{config.key}").text
    for title in ("Ratings", "Crosstable", "Seats", "greedy", "random", "4 games stored"):
        assert title in page
    assert "<svg" in page and "95%" in page
    replays = re.findall(r'href="(/replay/\d+)"', page)
    assert len(replays) == 4 and web.get(replays[0]).status_code == 200
    assert web.get("/tournaments/nothing-here").status_code == 404


def test_a_stored_game_is_replayed_step_by_step(tmp_path):
    db = tmp_path / "t.db"
    store_games(db, range(1))
    with Store(str(db), readonly=True) as store:
        row = store.games(store.tournaments()[0]["key"])[0]
    page = client(db).get(f"/replay/{row.id}").text
    frames = json.loads(re.search(r'id="replay">(.*?)</script>', page, re.S).group(1))["frames"]
    assert frames[0]["text"] == "the start" and frames[1]["text"].startswith("chance: ")
    assert client(db).get("/replay/999999").status_code == 404


def test_the_page_hears_of_each_game_stored_while_a_run_writes(tmp_path):
    db = tmp_path / "t.db"
    config = store_games(db, range(1))
    with running(db) as url, httpx.Client(base_url=url, timeout=20) as web:
        with web.stream("GET", f"/tournaments/{config.key}/events") as events:
            lines = events.iter_lines()
            assert next(lines) == "event: games" and next(lines) == "data: 2"
            store_games(db, range(1, 3))
            data = next(line for line in lines if line.startswith("data:"))
            assert data == "data: 6"
        assert "6 games stored" in web.get(f"/tournaments/{config.key}/report").text
