"""Print the card list, generated from the card data:

    python -m core.energy_deckbuilder > docs/energy-deckbuilder-cards.md
"""
from core.energy_deckbuilder.cards import markdown

print(markdown(), end="")
