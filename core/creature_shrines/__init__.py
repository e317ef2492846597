"""Creature Shrines: a trading-card game on a region of 5 rows by 3 pathways, each
player led by a Shrine.  The card set and decks are data (``data/``, read and checked by
``cards.py``, listed in docs/creature-shrines-cards.md); the rules and every ruling:
docs/rules/creature-shrines.md; the engine: ``engine.pyx``; names, views, reading a
position and the Game class: ``game.pyx``."""
from core.creature_shrines.cards import CARDSET, CardSet, Deck
from core.creature_shrines.engine import CreatureShrinesState
from core.creature_shrines.game import CARD_NAMES, SITE_NAMES, CreatureShrinesGame

GAME = CreatureShrinesGame

__all__ = ["CARDSET", "CARD_NAMES", "CardSet", "CreatureShrinesGame", "CreatureShrinesState",
           "Deck", "GAME", "SITE_NAMES"]
