"""The server holds against a costly bot and a busy game: a bot's move and a hint stop
at the server's limit whatever the spec, and a request for a game whose bot is thinking
is answered at once, holding none of the workers other games need."""
import concurrent.futures
import re
import threading

import httpx
import pytest

import search
from search.bots import Bot, Kind

from web.web_helpers import client, new_game, running, to_choice


@pytest.fixture
def db(tmp_path):
    return tmp_path / "web.db"


def test_a_hint_stops_at_the_servers_limit_whatever_the_spec(db):
    # With no time at all, a search of 100,000 iterations makes one.
    web = client(db, move_seconds=0)
    game_id = new_game(web, "creature_shrines", "ismcts(iterations=100000)", 0, 3)
    view = to_choice(web, game_id)
    hint = web.post(f"/api/games/{game_id}/hint", json={"version": view["version"]}).json()
    assert re.search(r"\bof 1 visits\b", hint["confidence"]), hint


@pytest.mark.parametrize("bot", ["expectimax(depth=8,worlds=64)",
                                 "openspiel_ismcts(iterations=100000,rollouts=16)"])
def test_a_bots_move_stops_at_the_servers_limit_whatever_the_spec(db, bot):
    web = client(db, move_seconds=0)
    game_id = new_game(web, "creature_shrines", bot, 1, 3)
    view = web.get(f"/api/games/{game_id}").json()
    # Three of the bot's moves, each of which took it over a minute.
    while sum(line.startswith("player 0: ") for line in view["log"]) < 3:
        if view["waiting"] == "you":
            response = web.post(f"/api/games/{game_id}/move", json={
                "version": view["version"], "action": view["legal"][0]["action"]})
        else:
            response = web.post(f"/api/games/{game_id}/step", json={"version": view["version"]})
        assert response.status_code == 200, response.text
        view = response.json()


def test_the_pages_state_the_limit(db):
    web = client(db, move_seconds=4)
    game_id = new_game(web)
    for path in ("/", f"/play/{game_id}"):
        assert "takes at most 4 seconds" in " ".join(web.get(path).text.split()), path
    assert "takes at most 10 seconds" in " ".join(client(db).get("/").text.split())


class _Waiting(Bot):
    """A bot that thinks until the test lets it move: it sets ``thinking``, then waits
    for ``release``."""

    thinking = threading.Event()
    release = threading.Event()

    def _choose(self, state):
        self.thinking.set()
        # Bounded, so that a failing test ends.
        self.release.wait(120)
        action = state.legal_actions()[0]
        return [(action, 1.0)], action


@pytest.fixture
def waiting(monkeypatch):
    _Waiting.thinking.clear()
    _Waiting.release.clear()
    monkeypatch.setitem(search.bots.KINDS, "waiting", Kind(
        "waiting", "moves when the test lets it", {},
        lambda engine, player, spec, seed: _Waiting(engine, player, spec)))
    yield _Waiting
    _Waiting.release.set()


def test_a_request_for_a_game_whose_bot_is_thinking_is_answered_at_once(db, waiting):
    with running(db) as url:
        web = httpx.Client(base_url=url, timeout=30)
        new = {"game": "card_duel", "params": {}, "seat": 1}
        busy = web.post("/api/games", json=dict(new, bot="waiting")).json()["id"]
        quick = web.post("/api/games", json=dict(new, bot="random")).json()["id"]
        # The first step deals, then the bot (player 0) thinks.
        view = web.get(f"/api/games/{busy}").json()
        done = []
        thinking = threading.Thread(target=lambda: done.append(web.post(
            f"/api/games/{busy}/step", json={"version": view["version"]})))
        thinking.start()
        assert waiting.thinking.wait(30)
        # More requests for the thinking game than the server has workers (40): each
        # is answered while the bot still thinks, and none holds a worker.
        paths = ["step"] * 45 + ["undo"] * 10 + ["hint"] * 5

        def send(path):
            return httpx.post(f"{url}/api/games/{busy}/{path}",
                              json={"version": view["version"]}, timeout=30)

        with concurrent.futures.ThreadPoolExecutor(len(paths)) as pool:
            answers = list(pool.map(send, paths))
        assert [a.status_code for a in answers] == [409] * len(paths)
        assert all("the bot is thinking" in a.json()["error"] for a in answers[:55])
        for path in ("/", f"/api/games/{quick}", f"/play/{busy}", f"/api/games/{busy}"):
            assert web.get(path).status_code == 200
        assert web.post(f"/api/games/{quick}/step", json={"version": 0}).status_code == 200
        assert not done
        waiting.release.set()
        thinking.join()
        assert done[0].status_code == 200 and done[0].json()["version"] == view["version"] + 1
