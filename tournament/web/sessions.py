"""Sparring games of the web page, kept in SQLite: each is a ``play.Match`` (game, bot,
seat, seed and history) under an id of its own, so a server restart loses none and two
tabs' games never mix.

What the page is sent of a game is ``view``: the person's observation, their legal
moves when they are to choose, and every step told as their seat sees it, the very
words of ``cardarena play``.  Nothing else about the position leaves the server.
"""
import json
import secrets
import sqlite3
import threading
import time

import core
from tournament.harness import store
from tournament.sparring.narrate import ChanceRuns
from tournament.sparring.session import Match, describe

SCHEMA = """
CREATE TABLE IF NOT EXISTS sparring (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    bot TEXT NOT NULL,
    seat INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    history TEXT NOT NULL,     -- JSON: every action, chance outcomes included
    version INTEGER NOT NULL,  -- one more at every change: a move sent for an older one is stale
    over INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
"""

# A seed is stored as an SQLite integer.
MAX_SEED = 2 ** 63 - 1


class WebError(core.CardArenaError):
    """A request the server refuses, with the HTTP status that says why."""

    status = 400


class UnknownGameError(WebError):
    """No sparring game has this id."""

    status = 404


class StaleError(WebError):
    """A request made for a position the game has left, or not the person's to make
    there: another tab or a double click got there first."""

    status = 409


class SessionStore:
    """The sparring games in the SQLite file at ``path``, which may also hold
    tournaments: a new file is made a tournament store too, so that ``cardarena
    tournament`` can write to it, and a file that is neither is refused."""

    def __init__(self, path):
        self.path = path
        self._locks = {}
        self._locks_lock = threading.Lock()
        with self._connect() as db:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if not tables:
                db.executescript(store.SCHEMA)
            elif not set(store.COLUMNS) <= tables:
                raise store.StoreContentError(f"{path}: not a cardarena database: it has no "
                                       "tournaments and games tables")
            db.executescript(SCHEMA)
            # As the tournament store does: readers never wait for a writer.
            db.execute("PRAGMA journal_mode=WAL")

    def _connect(self):
        # One connection per call: calls come from the server's worker threads.
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        return db

    def lock(self, game_id):
        """The lock a change to game ``game_id`` holds, so that one tab's bot thinks
        while another request for the same game waits and then finds itself stale."""
        with self._locks_lock:
            return self._locks.setdefault(game_id, threading.Lock())

    def create(self, match):
        """Store a new game; returns its id, unguessable so that no page reaches a
        game it was not given."""
        game_id = secrets.token_urlsafe(12)
        now = time.time()
        with self._connect() as db:
            db.execute("INSERT INTO sparring VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                       (game_id, str(match.game), match.bot, match.seat, match.seed,
                        json.dumps(match.history), match.state.is_terminal(), now, now))
        return game_id

    def load(self, game_id):
        """``(match, version)`` of the game ``game_id``."""
        with self._connect() as db:
            row = db.execute("SELECT * FROM sparring WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(f"no game {game_id!r} here; start one on the front page")
        match = Match(row["game"], row["bot"], row["seat"], row["seed"],
                      json.loads(row["history"]))
        return match, row["version"]

    def save(self, game_id, match, version):
        """Store ``match`` as the next version of game ``game_id``, if ``version`` is
        still its latest; returns the new version."""
        with self._connect() as db:
            cursor = db.execute(
                "UPDATE sparring SET history = ?, version = ?, over = ?, updated = ? "
                "WHERE id = ? AND version = ?",
                (json.dumps(match.history), version + 1, match.state.is_terminal(),
                 time.time(), game_id, version))
        if cursor.rowcount != 1:
            raise StaleError("the game has moved on since; the page shows it again")
        return version + 1

    def games(self, limit=50):
        """The latest games changed, newest first, as dicts."""
        with self._connect() as db:
            rows = db.execute("SELECT id, game, bot, seat, seed, over, updated, "
                              "json_array_length(history) AS steps FROM sparring "
                              "ORDER BY updated DESC LIMIT ?", (limit,)).fetchall()
        return [dict(r) for r in rows]


def waiting_for(match):
    """Who the game waits for: ``"you"`` to choose, ``"over"``, or else what the
    server plays next without asking (``"chance"``, ``"player N"``, or ``"forced"``
    for the person's only move)."""
    state = match.state
    if state.is_terminal():
        return "over"
    if state.is_chance_node():
        return "chance"
    if state.current_player() != match.seat:
        return f"player {state.current_player()}"
    return "forced" if match.forced() else "you"


def advance(match):
    """Play what needs no choice of the person's, up to and including one move of a
    bot's or a forced move of theirs: a run of chance outcomes alone when the person
    chooses next.  Returns whether anything was played."""
    played = False
    while match.state.is_chance_node():
        match.apply(match.chance_outcome())
        played = True
    who = waiting_for(match)
    if who.startswith("player"):
        match.apply(match.bot_action())
    elif who == "forced":
        match.apply(match.state.legal_actions()[0])
    else:
        return played
    return True


def told(match):
    """Every step so far as the person's seat saw it, one line each, a run of chance
    events of one kind on one line, as ``cardarena play`` tells them."""
    lines = []
    chance = ChanceRuns(_Lines(lines))
    state = match.game.new_initial_state()
    for action in match.history:
        if state.is_chance_node():
            chance.tell(describe(state, action, match.seat))
        else:
            chance.flush()
            player = state.current_player()
            if player != match.seat:
                lines.append(f"player {player}: {describe(state, action, match.seat)}")
            elif len(state.legal_actions()) == 1:
                lines.append(f"you: {state.action_to_string(action)} (your only move)")
            else:
                lines.append(f"you: {state.action_to_string(action)}")
        state.apply_action(action)
    chance.flush()
    return lines


class _Lines:
    """A stream for ``ChanceRuns`` that keeps each line it writes, unwrapped."""

    def __init__(self, lines):
        self.lines = lines

    def write(self, text):
        self.lines.append(" ".join(text.split()))


def position(state, seat):
    """What ``seat`` may see of ``state``: its observation as data, the game's text of
    it, and its legal moves by id and name when it is to move."""
    board = state.observation_dict(seat)
    choosing = not state.is_terminal() and state.current_player() == seat
    return {"board": board, "layout": state.game.layout, "text": state.game.render(board),
            "legal": [{"action": a, "name": state.action_to_string(a)}
                      for a in state.legal_actions()] if choosing else []}


def view(game_id, match, version):
    """Everything the page shows of a game, as JSON-ready data."""
    return {"id": game_id, "version": version, "game": str(match.game),
            "long_name": match.game.long_name, "bot": match.bot, "seat": match.seat,
            "seed": match.seed, "players": match.game.num_players,
            "waiting": waiting_for(match), "log": told(match),
            "result": match.result(), **position(match.state, match.seat)}

