"""Sparring games of the web page, kept in SQLite: each is a ``play.Match`` (game, bot,
seat, seed and history) under an id of its own, so a server restart loses none and two
tabs' games never mix.

A web game's seed is a secret the server draws and keeps: chance and the bots' streams
derive from it, so whoever knows it knows every card still to come.  It leaves the
server only once the game is over, when it lets the record be replayed exactly.

What the page is sent of a game is ``view``: the person's observation, their legal
moves when they are to choose, and every step told as their seat sees it, the very
words of ``cardarena play``.  Nothing else about the position leaves the server.
"""
import json
import os
import secrets
import sqlite3
import threading
import time

import core
from tournament.harness import store
from tournament.sparring.narrate import ChanceRuns, describe
from tournament.sparring.session import Match

SCHEMA = """
CREATE TABLE IF NOT EXISTS sparring (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    bot TEXT NOT NULL,
    seat INTEGER NOT NULL,
    seed INTEGER NOT NULL,     -- the game's secret: sent to no page before the game is over
    history TEXT NOT NULL,     -- JSON: every action, chance outcomes included
    version INTEGER NOT NULL,  -- one more at every change: a move sent for an older one is stale
    over INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
"""


class WebError(core.CardArenaError):
    """A request the server refuses, with the HTTP status that says why."""

    status = 400


class UnknownGameError(WebError):
    """No sparring game has this id."""

    status = 404


class BusyError(WebError):
    """A request for a game whose bot is thinking (or hint searching): answered at
    once, so that no game holds more than one of the server's worker threads."""

    status = 409


class StoppingError(WebError):
    """The server is shutting down: what the request would have changed is dropped."""

    status = 503


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
        if os.path.isdir(path):
            raise store.StoreFileError(f"{path}: a folder, not a database file; name a "
                                       f"file, e.g. {os.path.join(path, 'web.db')}")
        try:
            with self._connect() as db:
                tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
                if not tables:
                    db.executescript(store.SCHEMA)
                elif not set(store.COLUMNS) <= tables:
                    raise store.StoreContentError(f"{path}: not a cardarena database: it "
                                                  "has no tournaments and games tables")
                db.executescript(SCHEMA)
                # As the tournament store does: readers never wait for a writer.
                db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as e:
            raise store.StoreFileError(f"{path}: cannot open: {e}") from None
        except sqlite3.DatabaseError as e:
            raise store.StoreContentError(f"{path}: not a cardarena database: {e}") from None

    def _connect(self):
        # One connection per call: calls come from the server's worker threads.
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        # As the tournament store: in WAL mode a killed server loses no move; only a
        # power cut can lose the last, where a full sync on every move would cost more
        # than the rest of the request.
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def claim(self, game_id):
        """Take the lock of game ``game_id`` for a change or a hint, or raise
        :class:`BusyError` at once if another request holds it; :meth:`release` lets
        it go."""
        with self._locks_lock:
            lock = self._locks.setdefault(game_id, threading.Lock())
            if not lock.acquire(blocking=False):
                raise BusyError("the bot is thinking: this game answers again once its "
                                "move is made")

    def release(self, game_id):
        """Let go of game ``game_id``'s lock.  Only locks held are kept, so requests
        for ids no game has leave nothing behind."""
        with self._locks_lock:
            self._locks.pop(game_id).release()

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
            rows = db.execute("SELECT id, game, bot, seat, over, updated, "
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


def advance(match, deadline=None):
    """Play what needs no choice of the person's, up to and including one move of a
    bot's (by ``deadline``) or a forced move of theirs: a run of chance outcomes alone
    when the person chooses next.  Returns whether anything was played."""
    played = False
    while match.state.is_chance_node():
        match.apply(match.chance_outcome())
        played = True
    who = waiting_for(match)
    if who.startswith("player"):
        match.apply(match.bot_action(deadline))
    elif who == "forced":
        match.apply(match.state.legal_actions()[0])
    else:
        return played
    return True


def told(match):
    """Every step so far as the person's seat saw it, one line each, a run of chance
    events of one kind on one line, as ``cardarena play`` tells them."""
    lines = []
    chance = ChanceRuns(Lines(lines), width=None)
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


class Lines:
    """A stream for ``ChanceRuns(width=None)`` that keeps each line it writes."""

    def __init__(self, lines):
        self.lines = lines

    def write(self, text):
        self.lines.append(text)


def position(state, seat):
    """What ``seat`` may see of ``state``: its observation as data, the game's line of
    where it stands, what the cards it shows say, the game's text of it, and its legal
    moves by id and name when it is to move."""
    board = state.observation_dict(seat)
    choosing = not state.is_terminal() and state.current_player() == seat
    return {"board": board, "layout": state.game.layout, "status": state.game.status(board),
            "cards": card_texts(state.game, board), "text": state.game.render(board),
            "legal": [{"action": a, "name": state.action_to_string(a)}
                      for a in state.legal_actions()] if choosing else []}


def card_texts(game, board):
    """What is printed on each card ``board`` names, by the name it writes: the card
    list is public, and only the cards the seat sees are told."""
    known = game.cards.kinds if game.cards is not None else {}
    texts = {}

    def walk(value):
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and value in known and value not in texts:
            text = game.card_text(value)
            if text is not None:
                texts[value] = text

    walk(board)
    return texts


def view(game_id, match, version):
    """Everything the page shows of a game, as JSON-ready data: the seed only once the
    game is over."""
    over = {"seed": match.seed} if match.state.is_terminal() else {}
    return {"id": game_id, "version": version, "game": str(match.game),
            "long_name": match.game.long_name, "bot": match.bot, "seat": match.seat,
            "players": match.game.num_players, "waiting": waiting_for(match),
            "log": told(match), "result": match.result(), **over,
            **position(match.state, match.seat)}


def record(match):
    """The game as ``cardarena play --load`` reads it.  Before the game is over it
    holds no seed, which would tell every card still to come: the terminal goes on
    from it with a seed of its own."""
    data = match.to_dict()
    if not match.state.is_terminal():
        del data["seed"]
    return data


def record_name(match):
    """The file name a record is downloaded under: the terminal's save name, with the
    seed only once the game is over."""
    if match.state.is_terminal():
        return match.save_path
    return f"cardarena-{match.game}-{match.bot}-seat{match.seat}.json"

