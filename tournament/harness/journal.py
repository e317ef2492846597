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
"""
import json
import os

from core.errors import CardArenaError
from tournament.harness.row import GameRow

HEADER = {"format": "cardarena journal", "version": 1}


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
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            self._write(HEADER)
            return
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    self._read(number, line)

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
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(data) + "\n")

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
