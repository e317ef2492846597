# cython: language_level=3
"""Card Duel's Python half: the names of actions, a position as plain data and as text,
reading and checking a position, and :class:`CardDuelGame`.  The rules, chance and
knowledge are the engine's (``engine.pyx``), whose struct this module reads through
``engine.pxd``.  The engine never imports this module: a state reaches its names and
views through ``state.game``, the :class:`CardDuelGame` that made it.
"""
from libc.stdint cimport uint8_t
from libc.string cimport memcpy, memset

from core.card_duel.engine cimport (A_DECK, A_KEEP, DRAW, MAX_POINTS, NONE, NUM_ACTIONS,
                                    NUM_CLASSES, PH_ATTACK, PH_BUILD, PH_DAMAGE, PH_DEAL,
                                    PH_DEFEND, PH_DRAW, PH_OVER, POOL, CardDuelState,
                                    DuelData, actor, can_play, cards, lowest, next_class,
                                    points, size_secret, value_of)
from core.card_duel.engine import DECK_COUNTS, LAYOUT
from core.errors import StateFormatError
from core.kit import Cards, read_bool, read_int, read_name, read_players, read_winner
from core.state import Game

CARDS = Cards(["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"],
              "cards are 2, 3, 4, 5, 6, 7, 8, 9, 10, A; a 10 stands for 10, J, Q or K")
CARD_NAMES = CARDS.names
CARD_CLASSES = CARDS.kinds
PHASES = ["deal", "build", "attack", "defend", "damage", "draw", "over"]
ROLES = {PH_ATTACK: "attack", PH_DEFEND: "defense", PH_DAMAGE: "damage"}


# --- names -----------------------------------------------------------------------------

VERBS = {PH_ATTACK: "attack with", PH_DEFEND: "defend with", PH_DAMAGE: "damage with"}


def _label(CardDuelState st, int a):
    """The readable name of action (or chance outcome) ``a`` in ``st``."""
    cdef int ph = st.s.phase, p
    if ph == PH_DEAL:
        return f"deal {CARD_NAMES[a]} to player 0" if a < NUM_CLASSES else f"chance {a}"
    if ph == PH_DRAW:
        return f"turn up {CARD_NAMES[a]}" if a < NUM_CLASSES else f"chance {a}"
    if a >= A_KEEP:
        n = a - A_KEEP
        if ph != PH_BUILD:
            return f"keep {n} cards of the class being built"
        name = CARD_NAMES[st.s.build_class]
        return f"keep {n or 'no'} {name}{'' if n == 1 else 's'}"
    verb = VERBS.get(ph, "play")
    if a == A_DECK:
        if ph in VERBS:
            p = actor(&st.s)
            if not cards(st.s.deck[p]) and cards(st.s.discard[p]):
                return f"{verb} top of deck (reshuffle discard pile)"
        return f"{verb} top of deck"
    return f"{verb} {CARD_NAMES[a]} from hand"


# --- plain data ------------------------------------------------------------------------

cdef list _counted(const uint8_t* pile):
    return CARDS.named([pile[c] for c in range(NUM_CLASSES)])


def _view(CardDuelState st, viewer):
    """The position as plain data; with a ``viewer``, what that player sees."""
    cdef DuelData* s = &st.s
    cdef int p
    players = []
    for p in range(2):
        hand, deck = _counted(s.hand[p]), _counted(s.deck[p])
        player = {"hand": hand, "deck": deck, "discard": _counted(s.discard[p]),
                  "damage": _counted(s.damage[p]), "hand_points_spent": s.hand_spent[p],
                  "hand_known": bool(s.hand_known[p])}
        if viewer is not None and viewer != p and s.phase != PH_DEAL:
            player["unseen"] = sorted(hand + deck, key=CARD_CLASSES.get)
            if size_secret(s, p):
                player["hand"] = player["deck"] = None
            elif not s.hand_known[p]:
                player["hand"] = ["??"] * len(hand)
                player["deck"] = ["??"] * len(deck)
        players.append(player)
    d = {
        "exchange": s.exchange,
        "phase": PHASES[s.phase],
        "current_player": st.c_current_player(),
        "offense": s.offense,
        "winner": None if s.winner == NONE else ("draw" if s.winner == DRAW else s.winner),
        "players": players,
        "table": {"attack": None if s.attack == NONE else CARD_NAMES[s.attack],
                  "defense": None if s.defense == NONE else CARD_NAMES[s.defense]},
    }
    if s.phase == PH_DEAL:
        d["stock"] = _counted(s.stock)
    if s.phase == PH_BUILD:
        d["builder"] = s.builder
        d["building"] = CARD_NAMES[s.build_class]
    if s.phase == PH_DRAW:
        d["drawing_for"] = ROLES[s.draw_for]
    return d


# --- text --------------------------------------------------------------------------------

def render(view):
    """A few lines of text for a position dict (``to_dict`` or ``observation_dict``)."""
    def pile(cards_):
        if cards_ is None:
            return "?"
        return f"{len(cards_)}: {' '.join(cards_)}" if cards_ else "0"

    def deck(cards_):
        # While hands are built, a deck is still the pool a hand is chosen from.
        if cards_ is None:
            return "?"
        return pile(cards_) if view["phase"] == "build" else str(len(cards_))

    lines = []
    for p, pl in enumerate(view["players"]):
        taken = sum(11 if c == "A" else int(c) for c in pl["damage"])
        role = "offense" if p == view["offense"] else "defense"
        lines.append(f"  player {p} ({role}): hand {pile(pl['hand'])} | deck "
                     f"{deck(pl['deck'])} | discard "
                     f"{pile(pl['discard'])} | damage {taken} ({' '.join(pl['damage']) or '-'})")
    table = view["table"]
    lines.append(f"  exchange {view['exchange'] + 1}: attack {table['attack'] or '-'}, "
                 f"defense {table['defense'] or '-'}")
    return "\n".join(lines)


def status(view):
    """The exchange and what happens in it, in a player's words (exchanges from 1)."""
    if view.get("winner") is not None:
        return "game over: a draw" if view["winner"] == "draw" \
            else f"game over: player {view['winner']} wins"
    phase, offense = view["phase"], view["offense"]
    if phase == "deal":
        return "dealing the pools"
    if phase == "build":
        return f"player {view['builder']} builds a hand: how many {view['building']}s to keep"
    doing = {"attack": f"player {offense} attacks",
             "defend": f"player {1 - offense} defends",
             "damage": f"player {offense} deals damage",
             "draw": "drawing"}.get(phase, phase)
    return f"exchange {view['exchange'] + 1}: {doing}"


# --- building positions ------------------------------------------------------------------

_KNOWN_KEYS = ("exchange", "phase", "current_player", "offense", "winner", "players",
               "table", "stock", "builder", "building", "drawing_for")
_PLAYER_KEYS = ("hand", "deck", "discard", "damage", "hand_points_spent", "hand_known",
                "unseen")
PILES = ("hand", "deck", "discard", "damage")


def _from_dict(game, desc):
    """Build a position from ``desc`` (the format of ``to_dict``; most keys optional)."""
    cdef CardDuelState st = CardDuelState.__new__(CardDuelState)
    cdef DuelData* s = &st.s
    _reset(st, game)
    winner = read_winner(desc, 2)
    s.winner = NONE if winner is None else DRAW if winner == "draw" else winner
    phase = desc.get("phase", "attack" if winner is None else "over")
    s.phase = read_name(phase, PHASES, "phase")
    s.exchange = read_int(desc, "exchange", 0, s.max_exchanges, 0)
    s.offense = read_int(desc, "offense", 0, 1, 0)
    for key in ("builder", "building"):
        if key in desc and s.phase != PH_BUILD:
            raise StateFormatError(f"{key} is only for phase 'build', not {phase!r}")
    s.builder = read_int(desc, "builder", 0, 1, 0)
    if "drawing_for" in desc and s.phase != PH_DRAW:
        raise StateFormatError(f"drawing_for is only for phase 'draw', not {phase!r}")
    if s.phase == PH_DRAW:
        role = desc.get("drawing_for")
        if role not in ROLES.values():
            raise StateFormatError(f"phase 'draw' needs drawing_for: one of attack, "
                                   f"defense, damage; not {role!r}")
        s.draw_for = {name: ph for ph, name in ROLES.items()}[role]
    total = _read_players(s, read_players(desc, 2, _PLAYER_KEYS))
    if s.phase == PH_BUILD:
        s.build_class = CARDS.kind(desc["building"], "building") if "building" in desc \
            else next_class(s, s.builder, NUM_CLASSES)
    table = desc.get("table", {})
    if not isinstance(table, dict) or set(table) - {"attack", "defense"}:
        raise StateFormatError("table must be a dict with attack and defense: a card or null")
    s.attack = NONE if table.get("attack") is None else CARDS.kind(table["attack"], "table.attack")
    s.defense = NONE if table.get("defense") is None \
        else CARDS.kind(table["defense"], "table.defense")
    for c in (s.attack, s.defense):
        if c != NONE:
            total[c] += 1
    if "stock" in desc and s.phase != PH_DEAL:
        raise StateFormatError(f"stock is only for phase 'deal', not {phase!r}")
    stock = CARDS.counts(desc.get("stock", []), "stock")
    for c in range(NUM_CLASSES):
        s.stock[c] = stock[c]
        total[c] += stock[c]
    CARDS.check_all(total, DECK_COUNTS, "it holds 16 of class 10, 4 of each other")
    _check_flow(st)
    return st


cdef list _read_players(DuelData* s, players):
    """Each player's piles and flags into ``s``; returns the cards they hold, by class."""
    cdef int p, c
    total = [0] * NUM_CLASSES
    for p in range(2):
        pl = players[p]
        if "unseen" in pl:
            raise StateFormatError(f"players[{p}].unseen: an observation is not a position; "
                                   "give the whole truth, as to_dict does")
        for key in PILES:
            pile = CARDS.counts(pl.get(key, []), f"players[{p}].{key}")
            for c in range(NUM_CLASSES):
                total[c] += pile[c]
                if key == "hand":
                    s.hand[p][c] = pile[c]
                elif key == "deck":
                    s.deck[p][c] = pile[c]
                elif key == "discard":
                    s.discard[p][c] = pile[c]
                else:
                    s.damage[p][c] = pile[c]
        s.hand_spent[p] = read_int(pl, "hand_points_spent", 0, s.hand_points, 0,
                                   f"players[{p}].")
        s.hand_known[p] = read_bool(pl, "hand_known", False, f"players[{p}].")
    return total


def _check_flow(CardDuelState st):
    """Check that the parts of a position built from a dict fit together as play leaves
    them, so that playing on from it follows the rules."""
    cdef DuelData* s = &st.s
    cdef int p
    phase = PHASES[s.phase]
    if s.winner == NONE and s.phase == PH_OVER:
        raise StateFormatError("phase 'over' needs a winner")
    if s.winner != NONE and s.phase != PH_OVER:
        raise StateFormatError(f"a game with a winner is in phase 'over', not {phase!r}")
    if s.phase == PH_DEAL or s.phase == PH_BUILD:
        if played(s):
            raise StateFormatError(f"in phase {phase!r} no card has been played yet: "
                                   "exchange and offense 0, the table, discard and damage "
                                   "piles empty, no hand points spent or hand known")
    if s.phase == PH_DEAL:
        if cards(s.hand[0]) or cards(s.hand[1]) or cards(s.deck[1]) \
                or cards(s.deck[0]) >= POOL:
            raise StateFormatError(f"during the deal, player 0's deck holds the fewer than "
                                   f"{POOL} cards dealt so far and the stock the rest")
        return
    _check_pools(s)
    if s.phase == PH_BUILD:
        _check_building(s)
        return
    for p in range(2):
        if not cards(s.deck[p]) and not s.hand_known[p]:
            raise StateFormatError(f"players[{p}].hand_known: a player whose deck has run "
                                   "out holds a hand the opponent knows")
    _check_table(s, phase)
    if s.winner == NONE:
        _check_playing(s)
    else:
        _check_winner(s)


cdef bint played(DuelData* s) noexcept nogil:
    """Whether play has begun: an exchange under way or done, a card discarded or dealt
    as damage, a hand point spent or a hand known."""
    cdef int p
    if s.exchange or s.offense or s.attack != NONE or s.defense != NONE:
        return True
    for p in range(2):
        if cards(s.discard[p]) or cards(s.damage[p]) or s.hand_spent[p] or s.hand_known[p]:
            return True
    return False


cdef int owned(DuelData* s, int p) noexcept nogil:
    """The cards of ``p``'s pool: hand, deck, discard pile, the damage dealt with them
    and any on the table."""
    cdef int n = cards(s.hand[p]) + cards(s.deck[p]) + cards(s.discard[p]) \
        + cards(s.damage[1 - p])
    if s.attack != NONE and p == s.offense:
        n += 1
    if s.defense != NONE and p != s.offense:
        n += 1
    return n


cdef _check_pools(DuelData* s):
    """Once the deal is over: the stock is empty, and each player's cards are the whole
    pool, with a hand within hand_points."""
    cdef int p, n
    if cards(s.stock):
        raise StateFormatError("the stock is empty once the deal is over")
    for p in range(2):
        n = owned(s, p)
        if n != POOL:
            raise StateFormatError(f"player {p}'s cards (hand, deck, discard pile, damage "
                                   f"dealt and any on the table) number {n}, not {POOL}")
        if points(s.hand[p]) + s.hand_spent[p] > s.hand_points:
            raise StateFormatError(
                f"players[{p}]: the hand ({points(s.hand[p])} points) and the points "
                f"played from it ({s.hand_spent[p]}) exceed hand_points {s.hand_points}")


cdef _check_building(DuelData* s):
    """While hands are built: player 1 after player 0, and the builder choosing a class
    of its pool that fits in hand_points, below every class its hand holds."""
    cdef int p = s.builder, c = s.build_class
    if s.builder == 0 and cards(s.hand[1]):
        raise StateFormatError("players[1].hand: player 1 builds after player 0")
    if c == NONE:
        raise StateFormatError(f"phase 'build': player {p} holds no card worth at most "
                               f"hand_points ({s.hand_points}), so has nothing to choose")
    if not s.deck[p][c] or value_of(c) > s.hand_points:
        raise StateFormatError(f"building: player {p} chooses how many of a class to "
                               f"keep only if their deck holds one worth at most "
                               f"hand_points ({s.hand_points}); not {CARD_NAMES[c]}")
    if cards(s.hand[p]) and lowest(s.hand[p]) <= c:
        raise StateFormatError(f"players[{p}].hand: classes are chosen from the Ace down, "
                               f"so while {CARD_NAMES[c]} is chosen the hand holds "
                               "only higher ones")


cdef _check_table(DuelData* s, phase):
    """The cards on the table are those the phase has seen played."""
    cdef int role = s.draw_for if s.phase == PH_DRAW else s.phase
    attack, defense = s.attack != NONE, s.defense != NONE
    if role == PH_OVER:
        ok = not defense or attack
    else:
        ok = (attack, defense) == (role != PH_ATTACK, role == PH_DAMAGE)
    if not ok:
        raise StateFormatError(f"table: in phase {phase!r} the table holds "
                               + {PH_ATTACK: "no card", PH_DEFEND: "the attack card only",
                                  PH_DAMAGE: "the attack and defense cards"}.get(
                                      role, "an attack card under any defense card"))
    if defense and s.defense >= s.attack:
        raise StateFormatError("table: a defense card as high as the attack stops it, so "
                               "no damage is due")


cdef _check_playing(DuelData* s):
    """A game under way: nothing that ends it has happened, and the player to move has a
    card to play."""
    cdef int p
    if s.exchange >= s.max_exchanges:
        raise StateFormatError(f"exchange {s.exchange} is at max_exchanges, but the "
                               "game has no winner")
    for p in range(2):
        if points(s.damage[p]) >= s.life:
            raise StateFormatError(f"players[{p}] has taken {points(s.damage[p])} damage, "
                                   f"at least life ({s.life}), but the game has no winner")
    if s.phase != PH_DRAW and not can_play(s, actor(s)):
        raise StateFormatError(f"player {actor(s)} must play but has no card: the game "
                               "would be over")
    if s.phase == PH_DRAW and not cards(s.deck[actor(s)]):
        raise StateFormatError(f"phase 'draw': player {actor(s)}'s deck is empty (a "
                               "discard pile is shuffled in as the deck is chosen)")


cdef _check_winner(DuelData* s):
    """A game over: a draw at max_exchanges with both players alive, else a loser who
    has taken life in damage or has no card to play."""
    cdef int p
    if s.winner == DRAW:
        if s.exchange != s.max_exchanges or points(s.damage[0]) >= s.life \
                or points(s.damage[1]) >= s.life:
            raise StateFormatError(f"winner: a draw comes only at max_exchanges "
                                   f"({s.max_exchanges}), with both players alive")
        return
    p = 1 - s.winner
    if points(s.damage[p]) < s.life and can_play(s, p) or points(s.damage[s.winner]) >= s.life:
        raise StateFormatError(f"winner: player {s.winner} wins only once player {p} "
                               "has taken life in damage or has no card to play")


# --- the deal, rotated through the seats --------------------------------------------------

def _just_dealt(CardDuelState st):
    """Whether the pools are dealt and nothing else has happened: no card kept, played
    or drawn, and the first choice of hand building (or, if no class can be kept, the
    first attack) is awaited."""
    cdef DuelData* s = &st.s
    if s.phase not in (PH_BUILD, PH_ATTACK) or played(s) \
            or cards(s.hand[0]) or cards(s.hand[1]):
        return False
    if s.phase == PH_ATTACK:
        return next_class(s, 0, NUM_CLASSES) == NONE and next_class(s, 1, NUM_CLASSES) == NONE
    return (s.builder, s.build_class) == _first_choice(s)


cdef tuple _first_choice(DuelData* s):
    """The builder and the class of hand building's first choice: player 0's highest
    class that it may keep, else player 1's."""
    cdef int c = next_class(s, 0, NUM_CLASSES)
    if c != NONE:
        return 0, c
    return 1, next_class(s, 1, NUM_CLASSES)


def _rotate_deal(CardDuelState st, int k):
    """The pools change hands: in two seats, a rotation is a swap."""
    cdef DuelData* s = &st.s
    cdef uint8_t pool[NUM_CLASSES]
    memcpy(pool, s.deck[0], NUM_CLASSES)
    memcpy(s.deck[0], s.deck[1], NUM_CLASSES)
    memcpy(s.deck[1], pool, NUM_CLASSES)
    if s.phase == PH_BUILD:
        s.builder, s.build_class = _first_choice(s)


def _chance_source(CardDuelState st):
    """The deal draws from the stock; a draw, from the top of its player's deck."""
    if st.s.phase == PH_DEAL:
        return (-1, "stock")
    return (actor(&st.s), "deck")


def _reset(CardDuelState st, game):
    """An empty table under ``game``'s rules: no card anywhere, nobody to play."""
    st.game = game
    memset(&st.s, 0, sizeof(DuelData))
    params = game.params
    st.s.hand_points = params["hand_points"]
    st.s.life = params["life"]
    st.s.max_exchanges = params["max_exchanges"]
    st.s.winner = NONE
    st.s.build_class = NONE
    st.s.draw_for = NONE
    st.s.attack = NONE
    st.s.defense = NONE


class CardDuelGame(Game):
    """Card Duel, with its numbers as parameters.

    >>> game = CardDuelGame(life=30)
    >>> str(game)
    'card_duel(life=30)'
    >>> game.new_initial_state().chance_outcomes()[-1]
    (9, 0.07692307692307693)
    """

    name = "card_duel"
    long_name = "Card Duel"
    parameters = {"hand_points": 30, "life": 22, "max_exchanges": 300}
    limits = {
        "hand_points": (0, MAX_POINTS, "the most a pool of 26 cards is worth"),
        "life": (1, MAX_POINTS, "the most damage a pool of 26 cards can deal"),
        "max_exchanges": (1, 30000, "a cap on the game's length"),
    }
    num_players = 2
    num_distinct_actions = NUM_ACTIONS
    max_chance_outcomes = NUM_CLASSES
    cards = CARDS
    tensor_layout = LAYOUT
    position_keys = _KNOWN_KEYS
    # The pools are what the seats are dealt (docs/rules/card-duel.md).
    rotation_refusal = None
    layout = {"status": ("exchange", "phase", "offense", "builder", "building", "winner"),
              "player": ("hand", "deck", "discard", "damage", "hand_points_spent"),
              "table": ("table",),
              "glossary": {
                  "hand": "the cards picked from the pool, worth at most hand_points "
                          "together: a play may take one instead of the deck's top card",
                  "deck": "the pool's other cards, face down: a play may take its top card",
                  "discard": "each exchange's own card, face up: shuffled into a new deck "
                             "once the deck is empty",
                  "damage": "the cards that hit this player, face up: their total "
                            "reaching life loses the game",
                  "hand_points_spent": "what the hand picked so far is worth, of "
                                       "hand_points",
                  "table": "this exchange's attack and defence, out of every pile until "
                           "the exchange ends"}}
    render = staticmethod(render)
    status = staticmethod(status)

    @property
    def max_game_length(self):
        # The deal, each hand built with a choice per class, then at most an attack, a
        # defence and a damage card per exchange, each of them maybe drawn.
        return POOL + 2 * NUM_CLASSES + 6 * self.params["max_exchanges"]

    def new_initial_state(self):
        """A game about to be dealt: the first events are chance deals."""
        cdef CardDuelState st = CardDuelState.__new__(CardDuelState)
        cdef int c
        _reset(st, self)
        for c in range(NUM_CLASSES):
            st.s.stock[c] = DECK_COUNTS[c]
        st.s.phase = PH_DEAL
        return st

    def _action_name(self, state, action):
        return _label(state, action)

    def _view(self, state, viewer):
        # An observation shows the opponent's unseen cards as one multiset (``unseen``)
        # and ``??`` in hand and deck, or ``None`` for both while the hand's size is
        # secret (C1).
        return _view(state, viewer)

    def _from_dict(self, desc):
        return _from_dict(self, desc)

    def _just_dealt(self, state):
        return _just_dealt(state)

    def _rotate_deal(self, state, k):
        _rotate_deal(state, k)

    def _chance_source(self, state):
        return _chance_source(state)
