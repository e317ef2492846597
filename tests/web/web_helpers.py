"""What the web tests share: an app over a fresh database, the server on a real port,
and games played through the API."""
import contextlib
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


def client(db):
    return TestClient(make_app(str(db)), base_url=BASE)


def new_game(client, game="card_duel", bot="random", seat=0, seed=3, params=None):
    response = client.post("/api/games", json={"game": game, "params": params or {},
                                               "bot": bot, "seat": seat, "seed": seed})
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running(db):
    """The app over ``db`` served by uvicorn on a free port of 127.0.0.1, in a thread;
    yields its address."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(make_app(str(db)), host="127.0.0.1", port=port,
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
