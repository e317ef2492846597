"""``cardarena serve``: it serves the app, warns when it listens beyond this machine,
and refuses a database that is not cardarena's."""
import os
import sqlite3
import subprocess
import sys
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
