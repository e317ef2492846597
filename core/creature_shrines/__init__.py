"""Creature Shrines: a trading-card game on a region of 5 rows by 3 pathways, each
player led by a Shrine.  The card set and decks are data (``data/``, read and checked by
``cards.py``); docs/creature-shrines-cards.md lists them."""
from core.creature_shrines.cards import CARDSET, CardSet, Deck

__all__ = ["CARDSET", "CardSet", "Deck"]
