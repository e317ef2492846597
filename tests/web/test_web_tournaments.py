"""The tournament pages: a stored tournament's ratings with intervals, crosstable and
seats, told again as games are stored (a replay: test_web_words.py)."""
import re

import httpx

from web.web_helpers import client, running, store_games


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
