"""A deal as the harness plays it: its chance outcomes, drawn from the deal's seed, and,
under ``Config.rotations``, its dealt cards rotated through the seats.

A rotated deal is played as duplicate bridge plays a board, with the cards in other
seats: the game is dealt as it would be unrotated, then, where it says it has just been
dealt (``GameState.just_dealt``), what seat p was dealt moves to seat p + k
(``GameState.rotate_deal``).  The draws that follow come from one stream of random
numbers per pile (``GameState.chance_source``), so each pile's cards come in one order,
as a shuffled deck's would; a seat's own piles (its deck, its libraries) keep the
stream of the seat they were dealt to, and so go with the cards.  The runner plays by a
:class:`Deal`, and whatever replays a stored game rotates it as the runner did."""
import random

from core.errors import RotationError


class Deal:
    """The chance of one game: ``seed``, the deal's, and ``rotation``, the seats its
    cards are rotated by, or None for a game played as dealt from one stream.  Call
    ``step(state)`` before each step of the game, and ``draw(state)`` for a chance
    outcome; ``state`` is a core state or the pyspiel state of one of ours."""

    def __init__(self, seed, rotation=None):
        self.seed, self.rotation = seed, rotation
        self.rotated = not rotation  # nothing (left) to rotate
        self._stream = random.Random(seed)
        self._piles = {}

    def step(self, state):
        """Rotate ``state``'s deal if it has just been dealt and is not yet rotated;
        returns whether it did so now."""
        if self.rotated:
            return False
        engine = _engine(state)
        if engine.just_dealt():
            engine.rotate_deal(self.rotation)
            self.rotated = True
            return True
        if not engine.is_chance_node():
            raise RotationError(f"{engine.game} came to a decision before its deal was "
                                "over: the deal cannot be rotated")
        return False

    def told(self):
        """The rotation in words, for a replay to tell where it happens."""
        seats = "seat" if self.rotation == 1 else "seats"
        return f"the cards dealt move {self.rotation} {seats} on"

    def draw(self, state):
        """A chance outcome of ``state``, drawn with its probability from the stream of
        its pile (or the deal's one stream, for a game played as dealt)."""
        actions, probs = zip(*state.chance_outcomes())
        return self._source(state).choices(actions, probs)[0]

    def _source(self, state):
        if self.rotation is None:
            return self._stream
        engine = _engine(state)
        seat, pile = engine.chance_source()
        if seat >= 0 and self.rotated:
            # The seat holds the cards seat - rotation was dealt, and draws as it would.
            seat = (seat - self.rotation) % engine.game.num_players
        stream = self._piles.get((seat, pile))
        if stream is None:
            stream = self._piles[seat, pile] = random.Random(f"{self.seed}/{seat}/{pile}")
        return stream


def _engine(state):
    """The core state of ``state``, a core state or the pyspiel state of one of ours."""
    return getattr(state, "core", state)
