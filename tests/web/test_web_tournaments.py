"""The tournament pages: a stored tournament's ratings with intervals, crosstable and
seats, told again as games are stored (a replay: test_web_words.py)."""
import dataclasses
import re

import httpx

from tournament.harness import config as configs
from tournament.harness import runner
from tournament.harness.store import Store
from web.web_helpers import TOURNAMENT, client, running, store_games


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


def test_a_bot_that_won_nothing_keeps_its_row_and_column_in_the_crosstable(tmp_path):
    # One deal both ways, greedy winning both: random's score is 0, not missing.
    db = tmp_path / "t.db"
    config = configs.parse(TOURNAMENT)
    with Store(str(db)) as store:
        store.begin(config)
        played = [runner.play(runner.job(config, 0, s)) for s in config.seatings()]
        store.add_all(config, [dataclasses.replace(row, returns=[
            1 if bot == "greedy" else -1 for bot in row.seating]) for row in played])
    page = client(db).get(f"/tournaments/{config.key}").text
    table = page[page.index('<table class="cross">'):]
    table = table[:table.index("</table>")]
    assert "<th>random</th>" in table and "<td>0.0 (2)</td>" in table, table


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
