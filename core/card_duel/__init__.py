"""Card Duel: two players build a hand from a dealt pool, then trade attacks, defences
and damage until one has taken their life in damage.  The rules, the position format
and every ruling: docs/rules/card-duel.md; the engine: ``engine.pyx``; names, views,
reading a position and the Game class: ``game.pyx``."""
from core.card_duel.engine import DECK_COUNTS, CardDuelState
from core.card_duel.game import CARD_CLASSES, CARD_NAMES, CardDuelGame

GAME = CardDuelGame

__all__ = ["CARD_CLASSES", "CARD_NAMES", "DECK_COUNTS", "CardDuelGame", "CardDuelState",
           "GAME"]
