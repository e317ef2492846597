"""The energy deck-builder: two players buy cards from a market with energy cubes,
play creatures, upgrades and actions, and attack until one is out of lives.  The rules,
the position format and every ruling: docs/rules/energy-deckbuilder.md; the card set:
``data/cards.toml`` (listed in docs/energy-deckbuilder-cards.md); the engine:
``engine.pyx``; names, views, reading a position and the Game class: ``game.pyx``."""
from core.energy_deckbuilder.engine import EnergyState
from core.energy_deckbuilder.game import CARD_NAMES, EnergyDeckbuilderGame

GAME = EnergyDeckbuilderGame

__all__ = ["CARD_NAMES", "EnergyDeckbuilderGame", "EnergyState", "GAME"]
