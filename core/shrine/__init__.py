"""Shrine: two players each guard a Shrine of cards and win by emptying the other's,
with attacks, heals, Jack, Queen and King tokens and combos.  The rules and every ruling:
docs/rules/shrine.md; the position format: docs/rules/shrine-position.md; the engine:
``engine.pyx``; names, views, reading a position and the Game class: ``game.pyx``."""
from core.shrine.engine import ShrineState
from core.shrine.game import CARD_KINDS, CARD_NAMES, FOUND_NONE, ShrineGame

GAME = ShrineGame

__all__ = ["CARD_KINDS", "CARD_NAMES", "FOUND_NONE", "GAME", "ShrineGame", "ShrineState"]
