"""One finished game as the harness plays it and the store keeps it.

Every figure a tournament, an SPRT or a skill analysis gives is read from these rows.
A row built by hand, as a test or an example does, needs only a deal, a seating and
the returns: it is a game that ended, and every other field has a plain default.

>>> row = GameRow(deal=0, seating=["a", "b"], returns=[1.0, -1.0])
>>> row.status, row.failed, GameRow.from_dict(row.to_dict()) == row
('ok', None, True)
"""
import dataclasses

STATUSES = ("ok", "length", "error", "timeout", "illegal")
"""How a game ended: played out, stopped at the length limit, or lost by a bot that
raised, ran out of time or played an illegal move."""


@dataclasses.dataclass(frozen=True)
class GameRow:
    """One game: who sat where, how it went and how it ended."""

    deal: int
    """The deal's number in its tournament, from 0."""
    seating: list
    """The bot's name in each seat."""
    returns: list
    """Each seat's return; a failed bot's seat gets the game's least utility and
    every other seat the most."""
    status: str = "ok"
    """How the game ended, one of ``STATUSES``."""
    failed: str | None = None
    """The name of the bot that failed, or None."""
    message: str | None = None
    """What went wrong, when a bot failed."""
    length: int = 0
    """Decisions taken (chance outcomes not counted)."""
    history: list = dataclasses.field(default_factory=list)
    """Every action, chance outcomes included, in the order played."""
    seconds: list | None = None
    """Each seat's thinking time over the game; the harness always records it, a row
    built by hand may leave it None."""
    game: str | None = None
    """The game string the harness loaded."""
    deal_seed: int | None = None
    """The seed every chance outcome of the deal is drawn from."""
    rotation: int = 0
    """The seats the deal's cards were rotated by (``Config.rotations``): seat
    ``(p + rotation) % seats`` held what seat ``p`` was dealt.  0 for a game as dealt;
    a replay rotates the deal as the game did (``tournament.harness.deals``)."""
    specs: list = dataclasses.field(default_factory=list)
    """The bot's spec in each seat."""
    id: int | None = None
    """The store's number for the game (``cardarena replay`` takes it); None until
    stored."""
    tournament: str | None = None
    """The key of the tournament the store holds it under; None until stored."""
    finished: float | None = None
    """When the store wrote it, in seconds since the epoch; None until stored."""

    def to_dict(self):
        """The row as plain data, every field by name."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data):
        """The row of ``data``, as ``to_dict`` gives it or the store reads it."""
        return cls(**data)
