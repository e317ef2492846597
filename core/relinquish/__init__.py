"""Relinquish: build a tableau of Commons with Courts, Tarots and the abilities of
matching cards, and capture your opponents'.  The rules, the position format and every
ruling: docs/rules/relinquish.md; the engine: ``engine.pyx``; names, kinds, views,
reading a position and the Game class: ``game.pyx``."""
from core.relinquish.engine import RelinquishState
from core.relinquish.game import CARD_NAMES, KINDS, RelinquishGame

GAME = RelinquishGame

__all__ = ["CARD_NAMES", "GAME", "KINDS", "RelinquishGame", "RelinquishState"]
