"""``cardarena serve``: it serves the app, warns when it listens beyond this machine,
and refuses a database that is not cardarena's."""
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import httpx

from web.web_helpers import free_port

CARDARENA = os.path.join(os.path.dirname(sys.executable), "cardarena")


def _serve(*args, cwd):
    return subprocess.Popen([CARDARENA, "serve", *args], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for(url):
    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)


def test_serve_binds_this_machine_and_keeps_its_games_in_the_db(tmp_path):
    port = free_port()
    server = _serve("--port", str(port), "--db", "games.db", cwd=tmp_path)
    try:
        assert _wait_for(f"http://127.0.0.1:{port}/").status_code == 200
    finally:
        server.terminate()
        out, err = server.communicate(timeout=20)
    assert "Warning" not in out + err and f"http://localhost:{port}/" in out
    assert (tmp_path / "games.db").exists()


def test_a_host_beyond_this_machine_gets_a_warning(tmp_path):
    port = free_port()
    server = _serve("--host", "0.0.0.0", "--port", str(port), cwd=tmp_path)
    try:
        _wait_for(f"http://127.0.0.1:{port}/")
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=20)
    assert "Warning: serving on 0.0.0.0: anyone who can reach this machine" in out
    assert "read cardarena.db" in out


def test_a_database_of_another_program_is_refused(tmp_path):
    with sqlite3.connect(tmp_path / "other.db") as con:
        con.execute("CREATE TABLE notes (text TEXT)")
    result = subprocess.run([CARDARENA, "serve", "--db", "other.db"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "not a cardarena database" in result.stderr
    # A file that is not SQLite, a folder and a folder that is not there: one line each.
    (tmp_path / "notes.db").write_text("not a database")
    (tmp_path / "games").mkdir()
    for db, said in (("notes.db", "notes.db: not a cardarena database"),
                     ("games", "games: a folder, not a database file"),
                     ("missing/web.db", "missing/web.db: cannot open")):
        result = subprocess.run([CARDARENA, "serve", "--db", db], cwd=tmp_path,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith(f"cardarena serve: {said}"), result.stderr


def _stored(db):
    with sqlite3.connect(db) as con:
        return con.execute("SELECT id, history, version FROM sparring ORDER BY id").fetchall()


def test_sigterm_during_a_bots_move_stops_it_and_keeps_nothing_unanswered(tmp_path):
    port = free_port()
    server = _serve("--port", str(port), "--db", "games.db", cwd=tmp_path)
    answers = []
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_for(url + "/")
        web = httpx.Client(base_url=url, timeout=60)
        # Ten seconds a move; the first step deals, then the bot (player 0) thinks.
        game = web.post("/api/games", json={"game": "card_duel", "params": {},
                                            "bot": "ismcts(seconds=10)", "seat": 1}).json()
        before = _stored(tmp_path / "games.db")

        def step():
            try:
                # Sent again while the undos below hold the game for a moment.
                while "the bot is thinking" in (answer := web.post(
                        f"/api/games/{game['id']}/step", json={"version": 0})).text:
                    pass
                answers.append(answer.status_code)
            except httpx.TransportError as e:
                answers.append(e)

        thinking = threading.Thread(target=step)
        thinking.start()
        # Once another request finds the game busy, the step holds it.  An undo asks,
        # which changes nothing here when it is first.
        while "the bot is thinking" not in web.post(f"/api/games/{game['id']}/undo",
                                                    json={"version": 0}).text:
            assert thinking.is_alive(), answers
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        thinking.join(60)
    finally:
        if server.poll() is None:
            server.kill()
        server.communicate()
    assert _stored(tmp_path / "games.db") == before
    assert answers and answers[0] != 200, answers
