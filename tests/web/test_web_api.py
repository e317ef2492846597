"""The web app's API: whole games played through it, records that ``cardarena play``
loads, games kept across a restart and apart from each other, and every malformed or
hostile request answered with a 4xx and a message, changing nothing."""
import json
import re
import sqlite3

import pytest

import core

from web.web_helpers import client, new_game, play_out, to_choice
from tournament.sparring.session import Match


@pytest.fixture
def db(tmp_path):
    return tmp_path / "web.db"


@pytest.mark.parametrize("game, params, seat", [
    ("card_duel", {}, 0), ("shrine", {}, 1), ("relinquish", {"players": 3}, 2),
    ("relinquish", {"players": 4, "teams": True}, 1),
    ("creature_shrines", {"mode": "rush", "deck0": "yellow", "deck1": "purple"}, 1),
    ("energy_deckbuilder", {"second_player_energy": 1}, 0)])
def test_a_whole_game_is_played_through_the_api_and_its_record_loads(db, tmp_path, game,
                                                                      params, seat):
    web = client(db)
    game_id = new_game(web, game, "greedy", seat, 11, params)
    view = play_out(web, game_id)
    assert view["result"] and view["legal"] == []
    # the page lays the board out by the game's layout, which names keys of positions
    layout = view["layout"]
    assert set(layout["status"]) | set(layout["table"]) <= set(core.load_game(game).position_keys)
    assert set(layout["player"]) <= {k for p in view["board"]["players"] for k in p}
    assert any(line.startswith("you: ") for line in view["log"])
    response = web.get(f"/api/games/{game_id}/record")
    assert "attachment" in response.headers["content-disposition"]
    path = tmp_path / "record.json"
    path.write_text(response.text)
    match = Match.load(str(path))
    assert match.state.is_terminal() and match.seat == seat and match.seed == 11


def test_a_restart_loses_no_game_and_two_games_never_mix(db):
    first = client(db)
    a, b = new_game(first, seed=1), new_game(first, seed=2)
    view = first.get(f"/api/games/{a}").json()
    while view["waiting"] != "you":
        view = first.post(f"/api/games/{a}/step", json={"version": view["version"]}).json()
    view = first.post(f"/api/games/{a}/move",
                      json={"version": view["version"],
                            "action": view["legal"][-1]["action"]}).json()
    before_b = first.get(f"/api/games/{b}").json()
    assert before_b["version"] == 0 and before_b["log"] == []
    again = client(db)
    assert again.get(f"/api/games/{a}").json() == view
    assert again.get(f"/api/games/{b}").json() == before_b
    listed = again.get("/").text
    assert f"/play/{a}" in listed and f"/play/{b}" in listed


def test_hint_and_undo_change_nothing_that_follows(db):
    web = client(db)
    game_id = new_game(web, "shrine", "ismcts(iterations=50,rollout_depth=4)", seed=3)
    view = to_choice(web, game_id)
    hint = web.post(f"/api/games/{game_id}/hint", json={"version": view["version"]}).json()
    assert hint["action"] in [m["action"] for m in view["legal"]] and hint["confidence"]
    assert web.get(f"/api/games/{game_id}").json() == view
    moved = web.post(f"/api/games/{game_id}/move", json={
        "version": view["version"], "action": view["legal"][1]["action"]}).json()
    while moved["waiting"] not in ("you", "over"):
        moved = web.post(f"/api/games/{game_id}/step",
                         json={"version": moved["version"]}).json()
    back = web.post(f"/api/games/{game_id}/undo", json={"version": moved["version"]}).json()
    assert {k: back[k] for k in ("board", "legal", "log")} \
        == {k: view[k] for k in ("board", "legal", "log")}
    again = web.post(f"/api/games/{game_id}/move", json={
        "version": back["version"], "action": view["legal"][1]["action"]}).json()
    while again["waiting"] not in ("you", "over"):
        again = web.post(f"/api/games/{game_id}/step",
                         json={"version": again["version"]}).json()
    assert again["log"] == moved["log"] and again["board"] == moved["board"]


def _stored(db):
    with sqlite3.connect(db) as con:
        return con.execute("SELECT id, history, version FROM sparring ORDER BY id").fetchall()


NEW = {"game": "card_duel", "params": {}, "bot": "random", "seat": 0}


@pytest.mark.parametrize("body, status", [
    (dict(NEW, game="chess"), 400),
    (dict(NEW, game=["shrine"]), 400),
    (dict(NEW, params={"life": 100000}), 400),
    (dict(NEW, params={"lives": 3}), 400),
    (dict(NEW, params={"life": "lots"}), 400),
    (dict(NEW, params=[1]), 400),
    (dict(NEW, game="creature_shrines", params={"mode": "chess"}), 400),
    (dict(NEW, game="creature_shrines", params={"deck0": ["red"]}), 400),
    (dict(NEW, bot="ismcts(iterations=-1)"), 400),
    (dict(NEW, bot="deep_blue"), 400),
    (dict(NEW, bot="ismcts(iterations=100000000)"), 400),
    (dict(NEW, bot="ismcts(seconds=3600)"), 400),
    (dict(NEW, bot="expectimax(depth=40)"), 400),
    (dict(NEW, bot=None), 400),
    (dict(NEW, seat=2), 400),
    (dict(NEW, seat=True), 400),
    (dict(NEW, seed=1), 400),
    ([1, 2], 400),
])
def test_a_bad_new_game_is_refused_with_a_message(db, body, status):
    web = client(db)
    response = web.post("/api/games", json=body)
    assert response.status_code == status and response.json()["error"]
    assert _stored(db) == []


@pytest.fixture
def game(db):
    """A game at the person's first choice, and what is stored of it."""
    web = client(db)
    game_id = new_game(web)
    view = web.get(f"/api/games/{game_id}").json()
    while view["waiting"] != "you":
        view = web.post(f"/api/games/{game_id}/step", json={"version": view["version"]}).json()
    other = new_game(web, seed=9)
    return web, game_id, view, other


def _hostile(game_id, view, other):
    legal = view["legal"][0]["action"]
    illegal = max(m["action"] for m in view["legal"]) + 1000
    v = view["version"]
    json_ = {"content-type": "application/json"}
    moved = json.dumps({"version": v, "action": legal})
    return [
        ("POST", f"/api/games/{game_id}/move", {"version": v, "action": illegal}, 409),
        ("POST", f"/api/games/{game_id}/move", {"version": v, "action": str(legal)}, 409),
        ("POST", f"/api/games/{game_id}/move", {"version": v, "action": True}, 409),
        ("POST", f"/api/games/{game_id}/move", {"version": v - 1, "action": legal}, 409),
        ("POST", f"/api/games/{game_id}/move", {"action": legal}, 400),
        ("POST", f"/api/games/{game_id}/step", {"version": v}, 409),
        ("POST", f"/api/games/{other}/move", {"version": v, "action": legal}, 409),
        ("POST", f"/api/games/{other}/hint", {"version": 0}, 409),
        ("POST", f"/api/games/{other}/undo", {"version": 0}, 409),
        ("POST", "/api/games/no-such-game/move", {"version": v, "action": legal}, 404),
        ("GET", "/api/games/no-such-game", None, 404),
        ("GET", "/play/no-such-game", None, 404),
        ("POST", f"/api/games/{game_id}/move", b"{not json", 400, json_),
        ("POST", f"/api/games/{game_id}/move", b"[]", 400, json_),
        ("POST", f"/api/games/{game_id}/move", b'{"version": 1e999}', 400, json_),
        ("POST", f"/api/games/{game_id}/move", f"version={v}&action={legal}".encode(), 415,
         {"content-type": "application/x-www-form-urlencoded"}),
        ("POST", f"/api/games/{game_id}/move", b'{"a": "' + b"x" * 100_000 + b'"}', 413, json_),
        ("POST", "/api/games", b'{"a": "' + b"x" * 100_000 + b'"}', 413, json_),
        ("POST", f"/api/games/{game_id}/move", b"[" * 8000 + b"]" * 8000, 400, json_),
        ("POST", "/api/games", b'{"a": ' * 2000 + b"1" + b"}" * 2000, 400, json_),
        # One encoding, UTF-8 without a byte-order mark, for every body.
        ("POST", f"/api/games/{game_id}/move", moved.encode("utf-16"), 400, json_),
        ("POST", f"/api/games/{game_id}/move", moved.encode("utf-32"), 400, json_),
        ("POST", f"/api/games/{game_id}/move", moved.encode("utf-8-sig"), 400, json_),
        ("POST", f"/api/games/{game_id}/move", b'{"version": "\xff"}', 400, json_),
    ]


def test_a_hostile_request_gets_a_4xx_with_a_message_and_changes_nothing(game, db):
    web, game_id, view, other = game
    before = _stored(db)
    for method, path, body, status, *headers in _hostile(game_id, view, other):
        if isinstance(body, bytes):
            response = web.request(method, path, content=body, headers=headers[0])
        else:
            response = web.request(method, path, json=body)
        assert response.status_code == status, (path, body, response.text)
        assert response.json()["error"], (path, body)
        assert _stored(db) == before, (path, body)
    assert web.get(f"/api/games/{game_id}").json() == view


def test_a_body_streamed_past_the_limit_is_refused(game, db):
    web, game_id, view, _ = game
    before = _stored(db)

    def chunks():
        for _ in range(40):
            yield b" " * 1024

    response = web.post(f"/api/games/{game_id}/move", content=chunks(),
                        headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["error"]
    assert _stored(db) == before


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py",
    "/static/%2e%2e%2fsessions.py", "/static//etc/passwd", "/static/..%5capp.py",
    "/static/%2fetc%2fpasswd"])
def test_path_tricks_on_the_static_files_find_nothing(db, path):
    response = client(db).get(path)
    assert 400 <= response.status_code < 500
    assert "import" not in response.text and "root:" not in response.text


def test_a_request_for_another_host_name_is_refused(db):
    # A page elsewhere could point a name of its own at 127.0.0.1 (DNS rebinding).
    response = client(db).get("/", headers={"host": "attacker.example"})
    assert response.status_code == 400


def test_every_page_names_an_icon_that_is_served(db):
    web = client(db)
    game_id = new_game(web)
    for path in ("/", f"/play/{game_id}", "/tournaments"):
        icon = re.search(r'<link rel="icon"[^>]* href="([^"]+)"', web.get(path).text)
        assert icon, path
        response = web.get(icon.group(1))
        assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    # A browser that asks for the old name, as it does of a page naming no icon.
    assert web.get("/favicon.ico").status_code == 200


def test_the_guided_search_is_offered_for_the_variants_whose_model_is_shipped(db,
                                                                               monkeypatch):
    from tournament.web import app
    monkeypatch.setattr(app, "shipped", lambda kind: {
        "relinquish": [("relinquish", ()), ("relinquish(players=3)", ())],
        "creature_shrines": [("creature_shrines", ("deck0", "deck1"))]}.get(kind().name, []))
    games = {g["name"]: g for g in app._games()}
    relinquish = core.load_game("relinquish").params
    assert games["relinquish"]["models"] == [relinquish, {**relinquish, "players": 3}]
    # A model trained across the decks leaves them out: it serves every pair.
    shrines = core.load_game("creature_shrines").params
    assert games["creature_shrines"]["models"] == [
        {k: v for k, v in shrines.items() if k not in ("deck0", "deck1")}]
    assert all(games[name]["models"] == [] for name in games
               if name not in ("relinquish", "creature_shrines"))
    page = client(db).get("/").text
    assert f'value="{app.GUIDED[0]}"' in page and 'id="model-choice"' in page
    # The page's own list matches what it offers.
    assert json.loads(page.split('id="games">')[1].split("</script>")[0])[
        list(games).index("relinquish")]["models"] == games["relinquish"]["models"]


def test_a_parameter_naming_a_file_is_neither_offered_nor_taken(db, tmp_path):
    # A deck file is a designer's, on their own machine: a visitor could otherwise make
    # the server read any path it can.
    from tournament.web import app
    shrines = next(g for g in app._games() if g["name"] == "creature_shrines")
    assert [p["name"] for p in shrines["params"]] == ["mode", "deck0", "deck1", "max_turns"]
    response = client(db).post("/api/games", json={
        "game": "creature_shrines", "params": {"decks": "/etc/passwd"}, "bot": "random"})
    assert response.status_code == 400
    assert "decks names a file on the server's machine" in response.json()["error"]
    # Nor does a bot's model, whose refusal would tell whether a path exists.
    for spec in ("ismcts(model=/etc/passwd)", "policy(model=/nonexistent.npz)"):
        response = client(db).post("/api/games", json={
            "game": "card_duel", "params": {}, "bot": spec, "seat": 0})
        assert response.status_code == 400
        error = response.json()["error"]
        assert "model names a file on the server's machine" in error and "/" not in error


def test_a_game_over_is_not_taken_back_and_requests_for_no_game_hold_nothing(db):
    # Undone, a game over would go on with its seed, so every card to come, shown.
    web = client(db)
    game_id = new_game(web)
    over = play_out(web, game_id)
    assert over["waiting"] == "over" and "seed" in over
    response = web.post(f"/api/games/{game_id}/undo", json={"version": over["version"]})
    assert response.status_code == 409 and "the game is over" in response.json()["error"]
    assert web.get(f"/api/games/{game_id}").json() == over
    for n in range(20):
        assert web.post(f"/api/games/no-such-game-{n}/step",
                        json={"version": 0}).status_code == 404
    assert web.app.state.sparring.sessions._locks == {}
