"""The errors cardarena raises: each a ValueError, so callers that expect bad input
from people can catch one type."""


class CardArenaError(ValueError):
    """Base class of every cardarena error."""


class IllegalActionError(CardArenaError):
    """An action id that is not legal in this state; the state is unchanged."""


class GameOverError(IllegalActionError):
    """An action applied to a finished game; the state is unchanged."""


class PlayerError(CardArenaError):
    """A player id that is not a seat of this game."""


class ParameterError(CardArenaError):
    """An unknown game, an unknown game parameter, or a parameter value that makes no
    sense."""


class StateFormatError(CardArenaError):
    """A position description or serialized state that does not describe a legal
    position of the game."""


class RotationError(CardArenaError):
    """A deal that cannot be rotated: a game that does not say what its seats are
    dealt, or a position that is not just dealt."""


class CardDataError(CardArenaError):
    """A card set or deck file that cannot be read: the message names the file, the card
    and the field at fault, and why."""
