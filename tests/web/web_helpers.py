"""What the web tests share: an app over a fresh database, the server on a real port,
and games played through the API."""
import contextlib
import itertools
import socket
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("uvicorn", reason="the web extra is not installed")

import uvicorn  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from tournament.harness import config as configs, runner  # noqa: E402
from tournament.harness.store import Store  # noqa: E402
from tournament.web.app import make_app  # noqa: E402

BASE = "http://127.0.0.1"


def dealer(secrets):
    """A source of secrets for the app: the ones in the list ``secrets`` first, taken
    as games are made, then 1, 2, 3...; so that a test deals the games it means to."""
    counter = itertools.count(1)
    return lambda: secrets.pop(0) if secrets else next(counter)


def client(db, **options):
    """A test client of the app over ``db`` (``make_app``'s ``options``); ``new_game``
    chooses each game's secret through its ``secrets``.  Entered (``with``), it serves
    every request from one event loop rather than starting one a request: a whole game's
    requests take a third less time."""
    secrets = []
    web = TestClient(make_app(str(db), secret=dealer(secrets), **options), base_url=BASE)
    web.secrets = secrets
    return web


def new_game(client, game="card_duel", bot="random", seat=0, seed=3, params=None):
    """A new game through the API, dealt from the secret ``seed``; returns its id."""
    client.secrets.append(seed)
    response = client.post("/api/games", json={"game": game, "params": params or {},
                                               "bot": bot, "seat": seat})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def play_out(client, game_id, choose=lambda view: view["legal"][0]["action"], seen=None):
    """Play the game to its end through the API, the person choosing with ``choose``;
    every response body goes to ``seen`` (with the game's view) if given.  Returns the
    last view."""
    response = client.get(f"/api/games/{game_id}")
    view = response.json()
    while True:
        if seen is not None:
            seen(response.text, view)
        if view["waiting"] == "over":
            return view
        if view["waiting"] == "you":
            response = client.post(f"/api/games/{game_id}/move",
                                   json={"version": view["version"], "action": choose(view)})
        else:
            response = client.post(f"/api/games/{game_id}/step",
                                   json={"version": view["version"]})
        assert response.status_code == 200, response.text
        view = response.json()


def to_choice(web, game_id):
    """Play on until the person has a choice of two moves at least; returns the view."""
    view = web.get(f"/api/games/{game_id}").json()
    while view["waiting"] != "you" or len(view["legal"]) < 2:
        if view["waiting"] == "you":
            view = web.post(f"/api/games/{game_id}/move", json={
                "version": view["version"], "action": view["legal"][0]["action"]}).json()
        else:
            view = web.post(f"/api/games/{game_id}/step",
                            json={"version": view["version"]}).json()
    return view


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running(db, secrets=(), **options):
    """The app over ``db`` (``make_app``'s ``options``) served by uvicorn on a free port
    of 127.0.0.1, in a thread, dealing its games from ``secrets`` in turn (then 1, 2,
    3...); yields its address."""
    port = free_port()
    app = make_app(str(db), secret=dealer(list(secrets)), **options)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


TOURNAMENT = {"game": "card_duel", "bots": {"random": "random", "greedy": "greedy"},
              "deals": 3, "seed": 1}


def store_games(db, deals):
    """Play and store the games of ``deals`` of a small Card Duel tournament, as
    ``cardarena tournament`` would; returns its config."""
    config = configs.parse(TOURNAMENT)
    with Store(str(db)) as store:
        store.begin(config)
        rows = [runner.play(runner.job(config, deal, seating))
                for deal in deals for seating in config.seatings()]
        store.add_all(config, rows)
    return config
