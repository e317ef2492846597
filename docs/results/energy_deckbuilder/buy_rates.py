"""Which market cards each rung of the skill ladder buys when it can, from the games a
`cardarena skill energy_deckbuilder` run stored:

    python docs/results/energy_deckbuilder/buy_rates.py GAMES.db > docs/results/energy_deckbuilder/buy-rates.md

A card is *offered* to a player in a game when, at one of that player's decisions,
buying it is legal (it lies face up, or on its pile, and the player's energy covers its
price, and the turn's buy is unspent). Its buy rate is the share of those games in
which the player bought it, with the 95% Wilson interval; games of every variant of the
run are pooled, and each seat a rung held in a game is one sample.  The skill report's
move tables count buys per game whether or not the card was there to buy; this asks
what a player does when it is.
"""
import collections
import sys

import core
from core.energy_deckbuilder import CARD_NAMES
from core.energy_deckbuilder.cards import CARDS, DECKS
from tournament.ratings import wilson
from tournament.store import Store

RUNGS = ("greedy", "ismcts-64", "ismcts-512")
BUYS = range(1, 1 + len(CARD_NAMES))     # action ids of "buy <design>" in stage 3


def tally(path):
    """``{rung: {card: [games offered, games bought]}}`` and games per rung."""
    offered = {r: collections.defaultdict(lambda: [0, 0]) for r in RUNGS}
    games = collections.Counter()
    store = Store(path, readonly=True)
    for t in store.tournaments():
        game = core.load_game(t["game"])
        for row in store.games(t["key"]):
            if row["status"] != "ok":
                continue
            seats = [p for p, bot in enumerate(row["seating"]) if bot in RUNGS]
            if not seats:
                continue
            seen = {p: set() for p in seats}
            took = {p: set() for p in seats}
            state = game.new_initial_state()
            for action in row["history"]:
                p = state.current_player()
                if p in seen:
                    legal = state.legal_actions()
                    # "end" (id 0) is legal exactly when stage 3 waits on nothing else.
                    if legal[0] == 0:
                        seen[p].update(a - 1 for a in legal if a in BUYS)
                        if action in BUYS:
                            took[p].add(action - 1)
                state.apply_action(action)
            for p in seats:
                rung = row["seating"][p]
                games[rung] += 1
                for d in seen[p]:
                    offered[rung][d][0] += 1
                    offered[rung][d][1] += d in took[p]
    return offered, games


def table(offered, games):
    market = [c for c in CARDS if DECKS[c.deck] != "starter"]
    top = RUNGS[-1]

    def rate(rung, card):
        n, k = offered[rung][card.id]
        return (k / n, n) if n else (None, 0)

    rows = sorted(market, key=lambda c: -(rate(top, c)[0] or 0))
    head = ["Card", "Buy"] + [f"{r}: bought when offered" for r in RUNGS]
    lines = ["| " + " | ".join(head) + " |", "|:---|---:|" + "---:|" * len(RUNGS)]
    for c in rows:
        cells = [c.name + (" (pile)" if DECKS[c.deck] == "pile" else ""), str(c.buy)]
        for r in RUNGS:
            share, n = rate(r, c)
            if not n:
                cells.append("-")
                continue
            low, high = wilson(share, n)
            cells.append(f"{100 * share:.0f}% [{100 * low:.0f}, {100 * high:.0f}] of {n}")
        lines.append("| " + " | ".join(cells) + " |")
    sizes = ", ".join(f"{r} {games[r]}" for r in RUNGS)
    return (f"Games (seats) per rung, all variants pooled: {sizes}. Sorted by the top "
            f"rung's rate.\n\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(table(*tally(sys.argv[1])), end="")
