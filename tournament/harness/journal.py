"""A store's text copy: its tournaments and games as lines of JSON, appended to as the
store grows, so that a run of many hours can go on from where it stopped on another
machine.  The store is a binary file of the machine it ran on; a journal is text that
can be kept under version control beside the results it backs.

The first line says what the file is.  Each line after it is a tournament, as the
store's ``tournaments`` table holds it (its key, game, config and when it was made), or
a finished game, its tournament's key and its row (``GameRow.to_dict``).  Opening a
store with a journal gives each side what the other lacks, so a game played on either
side is never played again; a tournament given more deals is written again, and the
last line of a key is the one read.

A journal whose name ends in ``.gz`` is the same lines compressed: written
``BATCH`` lines at a time, each batch a gzip member of its own, so that it is only ever
appended to, as the text is.
"""
import gzip
import json
import os
import zlib

from core.errors import CardArenaError
from tournament.harness.row import GameRow

HEADER = {"format": "cardarena journal", "version": 1}

BATCH = 50
"""The lines a compressed journal gathers before it writes them.  A skill analysis's
games compress 2.4 times one to a member and 5.4 times fifty to a member; the lines
still gathered are written when the store closes, or, should the process die first,
from the store the next time it opens with the journal."""


class JournalError(CardArenaError):
    """A file that is not a journal, or a journal line that cannot be read."""


def place(key, row):
    """What makes a game one of a kind in a store: its tournament, deal, seating and
    rotation."""
    return key, row.deal, tuple(row.seating), row.rotation


class Journal:
    """The journal file ``path``, read whole when opened (a missing or empty file is
    started with its header line), then written to a line at a time."""

    def __init__(self, path):
        self.path = path
        self.tournaments = {}
        """Each tournament's record, by key, as its last line gave it."""
        self.places = set()
        """Where each game the journal holds stands (:func:`place`)."""
        self._games = []
        self._pending = []
        self._compressed = path.endswith(".gz")
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            self._write(HEADER)
            self.flush()
            return
        try:
            with self._open("rt") as f:
                for number, line in enumerate(f, 1):
                    if line.strip():
                        self._read(number, line)
        except (gzip.BadGzipFile, zlib.error, UnicodeDecodeError):
            raise JournalError(f"{self.path}: not a {'gzip' if self._compressed else 'text'}"
                               " file; give another file") from None
        except EOFError:
            raise JournalError(f"{self.path}: ends in the middle of a batch of games; "
                               "its last write was cut short") from None

    def _open(self, mode):
        if self._compressed:
            return gzip.open(self.path, mode, encoding="utf-8")
        return open(self.path, mode, encoding="utf-8")

    def _read(self, number, line):
        try:
            data = json.loads(line)
            if number == 1:
                if data != HEADER:
                    raise ValueError
                return
            if "tournament" in data:
                record = data["tournament"]
                self.tournaments[record["key"]] = {
                    k: record[k] for k in ("key", "game", "config", "created")}
                return
            key, row = data["key"], GameRow.from_dict(data["row"])
        except (ValueError, KeyError, TypeError):
            what = "is not a journal of games" if number == 1 \
                else f"line {number} is neither a tournament nor a game"
            raise JournalError(f"{self.path}: {what}; give another file") from None
        if key not in self.tournaments:
            raise JournalError(f"{self.path}: line {number} is a game of a tournament "
                               f"no line before it gives ({key})")
        if place(key, row) not in self.places:
            self.places.add(place(key, row))
            self._games.append((key, row))

    def take(self):
        """The games read from the file, as ``(key, GameRow)``, handed over once: a
        long run's journal then keeps only where its games stand, not the games."""
        games, self._games = self._games, []
        return games

    def _write(self, data):
        self._pending.append(json.dumps(data) + "\n")
        if not self._compressed or len(self._pending) >= BATCH:
            self.flush()

    def flush(self):
        """Write the lines still gathered (a compressed journal's last batch)."""
        if self._pending:
            with self._open("at") as f:
                f.write("".join(self._pending))
            self._pending = []

    def tournament(self, record):
        """Append the tournament ``record`` (key, game, config, created) if it is new
        or changed."""
        if self.tournaments.get(record["key"]) != record:
            self.tournaments[record["key"]] = record
            self._write({"tournament": record})

    def game(self, key, row):
        """Append the game ``row`` of tournament ``key`` if the journal lacks it."""
        if place(key, row) not in self.places:
            self.places.add(place(key, row))
            self._write({"key": key, "row": row.to_dict()})
