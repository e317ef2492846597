"""The SQLite store: one row per finished game, written as soon as a worker hands it
back.

A game is keyed by its tournament (the config's ``key``), its deal, its seating and the
rotation of the deal's cards, so a rerun plays only what is missing and can never store
a game twice.  A store written before rotations is brought up to date, its games as
dealt, when it is opened to write.  Each batch of rows
is committed in one transaction in write-ahead-log mode: a process killed at any point
loses no stored game.

One process at a time may write a store: it holds a lock on the file ``DB.lock``
beside it, which the system lets go of when the process ends, however it ends.

A store opened with a journal (``tournament.harness.journal``) keeps a text copy of
itself there as it grows, having first taken in the games the journal holds."""
import contextlib
import dataclasses
import fcntl
import json
import os
import pathlib
import shlex
import sqlite3
import sys
import time

from core.errors import CardArenaError
from tournament.harness.journal import Journal
from tournament.harness.row import GameRow

GAMES = """
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
    rotation INTEGER NOT NULL DEFAULT 0,  -- GameRow.rotation
    UNIQUE (tournament, deal, seating, rotation)
);
"""
SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    key TEXT PRIMARY KEY,      -- Config.key
    game TEXT NOT NULL,
    config TEXT NOT NULL,      -- the config as JSON
    created REAL NOT NULL
);
""" + GAMES

JSON_COLUMNS = ("seating", "specs", "returns", "history", "seconds")
# Columns added since the first stores: a store without them is read as if each held
# its default.
ADDED = {"games": {"rotation"}}


def _columns(db, table):
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _schema_columns():
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    columns = {table: _columns(db, table) for table in ("tournaments", "games")}
    db.close()
    return columns


# Each table's columns, which a database must have to be a store.
COLUMNS = {table: columns - ADDED.get(table, set())
           for table, columns in _schema_columns().items()}


class StoreError(Exception):
    """A store that cannot be used: :class:`StoreFileError` or :class:`StoreContentError`."""


class StoreFileError(StoreError, OSError):
    """A file that cannot be opened, created or locked as a store: a missing folder, no
    leave to write, or another process writing it."""


class StoreContentError(StoreError, CardArenaError):
    """A database that is not a cardarena store, or a game or tournament it lacks."""


class Store:
    """A tournament database file, created if need be; ``readonly`` opens an existing
    one to read, changing nothing in it and needing no leave to write it.  A store
    opened to write is the only one, in any process, until it is closed: opening a
    second raises StoreError naming the process that holds the first.  A file it
    created is removed when it is closed with no tournament in it.  ``journal``, a
    file, is the store's text copy: the games it holds that the store lacks are stored,
    those the store holds that it lacks are written to it, and every game stored after
    is written to it too; a file that is not a journal raises JournalError."""

    def __init__(self, path, readonly=False, journal=None):
        self.path, self.lock, self.db, self.journal = path, None, None, None
        if os.path.isdir(path):
            raise StoreFileError(f"{path}: a folder, not a database file; name a file, "
                                 f"e.g. {os.path.join(path, 'games.db')}")
        if readonly and journal is not None:
            raise ValueError("a store opened to read writes no journal")
        self.created = not readonly and not os.path.exists(path)
        try:
            self._open(readonly)
            self.db.row_factory = sqlite3.Row
            if journal is not None:
                self.journal = Journal(journal)
                self._sync()
        except (StoreError, CardArenaError, OSError):
            self.close()
            raise

    def _open(self, readonly):
        try:
            if readonly:
                self.db = _open_to_read(self.path)
                self._check(empty_ok=False)
                return
            self.db = sqlite3.connect(self.path)
            self._check(empty_ok=True)
            self.db.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives a killed process; only a power cut can lose
            # the last commits.
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.lock = _lock(self.path)
            self._add_rotations()
            # At once, so that a process killed midway leaves no half a store.
            self.db.executescript(f"BEGIN; {SCHEMA} COMMIT;")
        except sqlite3.OperationalError as e:
            raise StoreFileError(f"{self.path}: cannot open: {e}") from None
        except sqlite3.DatabaseError as e:
            raise StoreContentError(f"{self.path}: not a cardarena database: {e}") from None

    def _add_rotations(self):
        """Give a store written before rotations its ``rotation`` column, 0 for every
        game, in one transaction.  A column alone would not do: the games' key, which
        SQLite cannot change in place, must hold it too."""
        found = _columns(self.db, "games")
        if not found or "rotation" in found:
            return
        kept = ", ".join(sorted(found))
        self.db.executescript(f"BEGIN; ALTER TABLE games RENAME TO games_before_rotations;"
                              f"{GAMES} INSERT INTO games ({kept}) SELECT {kept} "
                              "FROM games_before_rotations; DROP TABLE "
                              "games_before_rotations; COMMIT;")

    def _check(self, empty_ok):
        """Refuse a database whose tables are not a store's: another program's, which
        the queries would fail on and which must not have a store's tables added to it,
        or (to read) an empty one."""
        if empty_ok and not self.db.execute("SELECT 1 FROM sqlite_master").fetchall():
            return
        for table, columns in COLUMNS.items():
            found = _columns(self.db, table)
            if not columns <= found:
                what = f"no {table} table" if not found else \
                    f"its {table} table lacks {', '.join(sorted(columns - found))}"
                raise StoreContentError(f"{self.path}: not a cardarena database: {what}")

    def _sync(self):
        """Give the store and its journal each what the other lacks."""
        mine = {t["key"]: t for t in self._tournament_records()}
        with self.db:
            for key, record in self.journal.tournaments.items():
                if key not in mine:
                    self.db.execute("INSERT INTO tournaments VALUES (?, ?, ?, ?)",
                                    (key, record["game"], json.dumps(record["config"]),
                                     record["created"]))
                elif _deals(record["config"]) > _deals(mine[key]["config"]):
                    # A store copied from before its run was given more deals: it
                    # takes the journal's, as ``begin`` never lowers a record's.
                    self.db.execute("UPDATE tournaments SET config = ? WHERE key = ?",
                                    (json.dumps(record["config"]), key))
            for key, row in self.journal.take():
                self._insert(key, self.journal.tournaments[key]["game"], row,
                             row.finished or time.time())
        for record in self._tournament_records():
            self.journal.tournament(record)
            for row in self.games(record["key"]):
                self.journal.game(record["key"], dataclasses.replace(row, id=None))
        self.journal.flush()

    def _tournament_records(self, key=None):
        """The ``tournaments`` table's rows (only ``key``'s if given), as dicts."""
        where, params = ("WHERE key = ? ", (key,)) if key is not None else ("", ())
        return [dict(r, config=json.loads(r["config"])) for r in
                self._rows("SELECT key, game, config, created FROM tournaments "
                           f"{where}ORDER BY created", params)]

    def close(self):
        """Close the database, which clears its write-ahead log away, and let go of
        the lock.  A run that could not start (its scheduler out of reach, say) so
        leaves no new file behind."""
        if self.journal is not None:
            self.journal.flush()
        unused = self.lock is not None and self.created and self._empty()
        if getattr(self, "db", None) is not None:
            self.db.close()
        if self.lock is not None:
            if unused:
                os.unlink(self.path)
                if self.journal is not None and self.journal.created:
                    os.unlink(self.journal.path)
            # Removed while still held: a process waiting on this file then finds it
            # gone and locks a new one (see _lock).
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.lock.name)
            self.lock.close()
            self.lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def begin(self, config):
        """Record ``config`` as a tournament of this store, or, if it is one already,
        the most deals it has been given.  A run asking fewer deals than stored (an
        analysis written again from its journal asks for 40, then 80, and on) leaves
        the record as it is, and writes no new line to the journal."""
        asked = _config_dict(config)
        stored = [r["config"] for r in self._tournament_records(config.key)]
        if stored:
            # Another command asking for the same games (an SPRT on a tournament's
            # pair, say) relabels the record, never with fewer deals.
            asked["deals"] = max(asked["deals"], _deals(stored[0]))
            if asked == stored[0]:
                return
        with self.db:
            self.db.execute(
                "INSERT INTO tournaments VALUES (?, ?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET config = excluded.config",
                (config.key, config.game, json.dumps(asked), time.time()))
        if self.journal is not None:
            self.journal.tournament(self._tournament_records(config.key)[0])

    def done(self, config):
        """The games of ``config`` already stored, as ``(deal, seating, rotation)``."""
        rotation = "rotation" if "rotation" in _columns(self.db, "games") else "0"
        rows = self._rows(f"SELECT deal, seating, {rotation} FROM games "
                          "WHERE tournament = ?", (config.key,))
        return {(deal, tuple(json.loads(seating)), rotation)
                for deal, seating, rotation in rows}

    def _empty(self):
        """Whether no tournament is stored."""
        try:
            return not self._rows("SELECT 1 FROM tournaments LIMIT 1")
        except sqlite3.OperationalError:  # its tables never made
            return True

    def _rows(self, query, params=()):
        """Every row of ``query``, read at once.  A statement left part read (by
        Ctrl-C, say) would keep the connection from closing, and its write-ahead log
        files would stay beside the database."""
        with contextlib.closing(self.db.execute(query, params)) as cursor:
            return cursor.fetchall()

    def add_all(self, config, rows):
        """Store finished games (GameRows as ``runner.play`` returns them) in one
        transaction; a game already stored is left as it is.  Returns the rows that
        were new."""
        new = []
        finished = time.time()
        with self.db:
            for row in rows:
                if self._insert(config.key, config.game, row, finished):
                    new.append(row)
        if self.journal is not None:
            for row in new:
                self.journal.game(config.key, dataclasses.replace(
                    row, id=None, tournament=config.key, finished=finished))
        return new

    def _insert(self, key, game, row, finished):
        """Store ``row`` in tournament ``key`` unless a game stands in its place; say
        whether it was stored."""
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO games (tournament, game, deal, deal_seed, "
            "seating, specs, returns, length, history, status, failed, message, "
            "seconds, finished, rotation) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, game, row.deal, row.deal_seed,
             *(json.dumps(x) for x in (row.seating, row.specs, row.returns)),
             row.length, json.dumps(row.history), row.status,
             row.failed, row.message, json.dumps(row.seconds), finished,
             row.rotation))
        return cursor.rowcount == 1

    def tournaments(self):
        """Every tournament stored, oldest first, as dicts with ``key``, ``game``,
        ``config`` and ``games`` (how many are stored)."""
        rows = self._rows(
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
            raise StoreContentError(f"{self.path}: no tournament" +
                                    (f" with a key starting {key!r}" if key else "") +
                                    "; run cardarena tournament first")
        if key is not None and len(found) > 1:
            raise StoreContentError(f"{self.path}: {len(found)} tournaments have keys "
                                    f"starting {key!r}; give more of the key")
        return found[-1]

    def games(self, key, deals=None):
        """Every stored game (a GameRow) of tournament ``key`` (of the deals in the range ``deals``
        if given), by deal, each deal's games in the order they were stored (the order
        they ended, with several workers)."""
        query, params = "SELECT * FROM games WHERE tournament = ?", [key]
        if deals is not None:
            query += " AND deal >= ? AND deal < ?"
            params += [deals.start, deals.stop]
        return [_decode(r) for r in self._rows(query + " ORDER BY deal, id", params)]

    def game(self, game_id):
        try:
            rows = self._rows("SELECT * FROM games WHERE id = ?", (game_id,))
        except OverflowError:  # beyond SQLite's 64-bit ids
            rows = []
        if not rows:
            raise StoreContentError(f"{self.path}: no game {game_id}")
        return _decode(rows[0])


def _lock(path):
    """The lock of the one process that may write the store at ``path``: the file
    ``path.lock``, open and locked, holding the process's id and command.  The lock
    goes with the process however it ends, though the file stays if it is killed.
    Raises StoreError naming the process that holds it."""
    # Beside the file itself, so that a store opened by another name (a link, another
    # relative path) is the same store.
    name = f"{os.path.realpath(path)}.lock"
    try:
        while True:
            lock = open(name, "a+")
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                lock.seek(0)
                holder = lock.read().strip() or "another process"
                lock.close()
                raise StoreFileError(f"{path}: in use by process {holder}; wait for it "
                                     "to end, or stop it") from None
            # The holder may have removed the file between our opening and locking it.
            if _same_file(lock, name):
                break
            lock.close()
    except StoreFileError:
        raise
    except OSError as e:
        raise StoreFileError(f"{path}: cannot lock {name}: {e.strerror}") from None
    lock.truncate(0)
    command = shlex.join([os.path.basename(sys.argv[0]), *sys.argv[1:]])
    lock.write(f"{os.getpid()} ({command})\n")
    lock.flush()
    return lock


def _same_file(file, name):
    try:
        return os.path.samestat(os.fstat(file.fileno()), os.stat(name))
    except FileNotFoundError:
        return False


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
    return GameRow.from_dict(game)


def _deals(config):
    """The deals a stored tournament config asks for: a key holds everything else of
    its games, so a record of it can differ only in these and in who asked."""
    return config.get("deals", 0)


def _config_dict(config):
    # ``rotations`` only when on, as the config's key has it.
    return {"game": config.game, "bots": config.bots, "deals": config.deals,
            "seed": config.seed, "seconds_per_move": config.seconds_per_move,
            "max_length": config.max_length, "kind": config.kind,
            **({"rotations": True} if config.rotations else {})}
