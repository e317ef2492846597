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
from tournament.harness.row import STATUSES, GameRow

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
        self.created = not os.path.exists(path) or os.path.getsize(path) == 0
        """Whether this journal began the file (a store that leaves nothing behind
        removes it)."""
        # A file whose last line has no line end, as an editor may leave it: the next
        # line written must not run on from it.
        self._line_open = False
        if self.created:
            self._write(HEADER)
            self.flush()
            return
        try:
            with self._open() as f:
                # Each line is read once the next is in hand: a cut-short line is
                # told as such only where it is the last.
                number, line = 0, None
                for number, following in enumerate(f, 1):
                    if line is not None:
                        self._read(number - 1, line, last=False)
                    line = following
        except (gzip.BadGzipFile, zlib.error, UnicodeDecodeError):
            raise JournalError(f"{self.path}: not a {'gzip' if self._compressed else 'text'}"
                               " file, or a damaged one; give another file") from None
        except EOFError:
            raise JournalError(f"{self.path}: ends in the middle of a batch of games; "
                               "its last write was cut short") from None
        if line is not None:
            self._read(number, line, last=True)
            self._line_open = not line.endswith("\n")

    def _open(self):
        if self._compressed:
            return gzip.open(self.path, "rt", encoding="utf-8")
        return open(self.path, encoding="utf-8")

    def _read(self, number, line, last):
        if not line.strip():
            return
        try:
            data = json.loads(line)
            if number == 1:
                if data != HEADER:
                    raise ValueError
                return
            if "tournament" in data:
                record = _record(data["tournament"])
                self.tournaments[record["key"]] = record
                return
            key, row = _text(data["key"]), _row(data["row"])
        except (ValueError, KeyError, TypeError):
            raise JournalError(f"{self.path}: {_unread(number, line, last)}") from None
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
            text = ("\n" if self._line_open else "") + "".join(self._pending)
            data = text.encode()
            if self._compressed:
                data = gzip.compress(data)
            # One write of a whole gzip member: a stop (Ctrl-C) between the pieces of
            # one written piece by piece would leave a member no reader gets past.
            with open(self.path, "ab") as f:
                f.write(data)
            self._pending, self._line_open = [], False

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


def _unread(number, line, last):
    """Why line ``number`` of a journal cannot be read, and what to do."""
    if number == 1:
        return "is not a journal of games; give another file"
    if last and not line.endswith("\n"):
        return (f"its last line, {number}, is cut short (a write stopped halfway): "
                "remove that line, and its game is played again or taken from the store")
    return f"line {number} is neither a tournament nor a game; give another file"


def _text(value):
    if not isinstance(value, str):
        raise TypeError
    return value


def _record(record):
    """A tournament line's record, checked to have its fields' types."""
    kept = {k: record[k] for k in ("key", "game", "config", "created")}
    if not (isinstance(kept["key"], str) and isinstance(kept["game"], str)
            and isinstance(kept["config"], dict)
            and type(kept["config"].get("deals", 0)) is int
            and type(kept["created"]) in (int, float)):
        raise TypeError
    return kept


def _row(data):
    """A game line's row, checked to have what the store and the figures read."""
    row = GameRow.from_dict(data)
    if not (type(row.deal) is int and row.deal >= 0 and type(row.rotation) is int
            and isinstance(row.seating, list) and all(isinstance(b, str) for b in row.seating)
            and isinstance(row.returns, list) and len(row.returns) == len(row.seating)
            and all(type(r) in (int, float) for r in row.returns)
            and row.status in STATUSES):
        raise ValueError
    return row
