"""The SQLite store: one row per finished game, written as soon as a worker hands it
back.

A game is keyed by its tournament (the config's ``key``), its deal and its seating, so a
rerun plays only what is missing and can never store a game twice.  Each batch of rows
is committed in one transaction in write-ahead-log mode: a process killed at any point
loses no stored game."""
import json
import os
import pathlib
import sqlite3
import time

from core.errors import CardArenaError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    key TEXT PRIMARY KEY,      -- Config.key
    game TEXT NOT NULL,
    config TEXT NOT NULL,      -- the config as JSON
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments(key),
    game TEXT NOT NULL,
    deal INTEGER NOT NULL,
    deal_seed INTEGER NOT NULL,
    seating TEXT NOT NULL,     -- JSON: the bot's name in each seat
    specs TEXT NOT NULL,       -- JSON: the bot's spec in each seat
    returns TEXT NOT NULL,     -- JSON: each seat's return
    length INTEGER NOT NULL,   -- decisions taken
    history TEXT NOT NULL,     -- JSON: every action, chance outcomes included
    status TEXT NOT NULL,      -- ok, length, error, timeout or illegal
    failed TEXT,               -- the name of the bot that failed
    message TEXT,              -- what went wrong
    seconds TEXT NOT NULL,     -- JSON: each seat's thinking time
    finished REAL NOT NULL,
    UNIQUE (tournament, deal, seating)
);
"""

JSON_COLUMNS = ("seating", "specs", "returns", "history", "seconds")


def _columns(db, table):
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _schema_columns():
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    columns = {table: _columns(db, table) for table in ("tournaments", "games")}
    db.close()
    return columns


# Each table's columns, which a database must have to be a store.
COLUMNS = _schema_columns()


class StoreError(CardArenaError):
    """A database that is not a cardarena store, or a game or tournament it lacks."""


class Store:
    """A tournament database file, created if need be; ``readonly`` opens an existing
    one to read, changing nothing in it and needing no leave to write it."""

    def __init__(self, path, readonly=False):
        self.path = path
        try:
            if readonly:
                self.db = _open_to_read(path)
                self._check(missing_ok=False)
            else:
                self.db = sqlite3.connect(path)
                self._check(missing_ok=True)
                self.db.execute("PRAGMA journal_mode=WAL")
                # In WAL mode NORMAL survives a killed process; only a power cut can
                # lose the last commits.
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.executescript(SCHEMA)
        except sqlite3.OperationalError as e:
            raise StoreError(f"{path}: cannot open: {e}") from None
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{path}: not a cardarena database: {e}") from None
        self.db.row_factory = sqlite3.Row

    def _check(self, missing_ok):
        """Refuse a database whose tables are not a store's: another program's, which
        the queries would fail on, or (to read) one without them."""
        for table, columns in COLUMNS.items():
            found = _columns(self.db, table)
            if not found and missing_ok:
                continue
            if not columns <= found:
                self.db.close()
                what = f"no {table} table" if not found else \
                    f"its {table} table lacks {', '.join(sorted(columns - found))}"
                raise StoreError(f"{self.path}: not a cardarena database: {what}")

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def begin(self, config):
        """Record ``config`` as a tournament of this store, or its new number of deals
        if it is one already."""
        with self.db:
            self.db.execute(
                "INSERT INTO tournaments VALUES (?, ?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET config = excluded.config",
                (config.key, config.game, json.dumps(_config_dict(config)), time.time()))

    def done(self, config):
        """The ``(deal, seating)`` pairs of ``config`` already stored."""
        rows = self.db.execute("SELECT deal, seating FROM games WHERE tournament = ?",
                               (config.key,))
        return {(deal, tuple(json.loads(seating))) for deal, seating in rows}

    def add_all(self, config, rows):
        """Store finished games (dicts as ``runner.play`` returns them) in one
        transaction; a game already stored is left as it is.  Returns the rows that
        were new."""
        new = []
        with self.db:
            for row in rows:
                cursor = self.db.execute(
                    "INSERT OR IGNORE INTO games (tournament, game, deal, deal_seed, "
                    "seating, specs, returns, length, history, status, failed, message, "
                    "seconds, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (config.key, config.game, row["deal"], row["deal_seed"],
                     *(json.dumps(row[c]) for c in ("seating", "specs", "returns")),
                     row["length"], json.dumps(row["history"]), row["status"],
                     row["failed"], row["message"], json.dumps(row["seconds"]), time.time()))
                if cursor.rowcount == 1:
                    new.append(row)
        return new

    def tournaments(self):
        """Every tournament stored, oldest first, as dicts with ``key``, ``game``,
        ``config`` and ``games`` (how many are stored)."""
        rows = self.db.execute(
            "SELECT t.key, t.game, t.config, t.created, COUNT(g.id) AS games "
            "FROM tournaments t LEFT JOIN games g ON g.tournament = t.key "
            "GROUP BY t.key ORDER BY t.created")
        return [dict(r, config=json.loads(r["config"])) for r in rows]

    def tournament(self, key=None):
        """The tournament whose key starts with ``key`` (the latest if None)."""
        found = self.tournaments()
        if key is not None:
            found = [t for t in found if t["key"].startswith(key)]
        if not found:
            raise StoreError(f"{self.path}: no tournament" +
                             (f" with a key starting {key!r}" if key else "") +
                             "; run cardarena tournament first")
        if key is not None and len(found) > 1:
            raise StoreError(f"{self.path}: {len(found)} tournaments have keys starting "
                             f"{key!r}; give more of the key")
        return found[-1]

    def games(self, key, deals=None):
        """Every stored game of tournament ``key`` (of the deals in the range ``deals``
        if given), by deal, each deal's games in the order they were stored (the order
        they ended, with several workers)."""
        query, params = "SELECT * FROM games WHERE tournament = ?", [key]
        if deals is not None:
            query += " AND deal >= ? AND deal < ?"
            params += [deals.start, deals.stop]
        return [_decode(r) for r in self.db.execute(query + " ORDER BY deal, id", params)]

    def game(self, game_id):
        try:
            row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        except OverflowError:  # beyond SQLite's 64-bit ids
            row = None
        if row is None:
            raise StoreError(f"{self.path}: no game {game_id}")
        return _decode(row)


def _open_to_read(path):
    """A connection to the existing database at ``path`` that nothing is written
    through.  It may write (mode=rw, so that it tidies the log files away when it
    closes, as a read-only one cannot), and SQLite opens it read-only if the file is."""
    path = pathlib.Path(path).absolute()
    db = sqlite3.connect(f"{path.as_uri()}?mode=rw", uri=True)
    try:
        db.execute("SELECT 1 FROM sqlite_master").fetchall()
    except sqlite3.OperationalError:
        # A reader of a database in write-ahead-log mode must create the log's index
        # file beside it unless a writer has.  Where the folder cannot be written to,
        # no writer can be at work, and the file is read as it stands.
        if os.access(path.parent, os.W_OK):
            raise
        db.close()
        db = sqlite3.connect(f"{path.as_uri()}?immutable=1", uri=True)
    return db


def _decode(row):
    game = dict(row)
    for column in JSON_COLUMNS:
        game[column] = json.loads(game[column])
    return game


def _config_dict(config):
    return {"game": config.game, "bots": config.bots, "deals": config.deals,
            "seed": config.seed, "seconds_per_move": config.seconds_per_move,
            "max_length": config.max_length, "kind": config.kind}
