# cython: language_level=3
"""Card Duel: the position as one flat struct, and what both halves of the ruleset read
of it: the engine (``engine.pyx``: the rules, chance, knowledge, the tensor) and the
game (``game.pyx``: names, views, reading and checking a position).  See
docs/rules/card-duel.md for the rules and the dictionary form of a position."""
from libc.stdint cimport int8_t, int16_t, uint8_t

from core.kit.piles cimport pile_size
from core.state cimport GameState

cdef enum:
    NUM_CLASSES = 10          # values 2..9, 10 (10, J, Q, K) and the Ace (11)
    NONE = -1
    DRAW = 2                  # DuelData.winner when max_exchanges ends the game
    POOL = 26                 # cards dealt to each player
    TEN = 8                   # the class of 10, J, Q and K: 16 cards
    ACE = 9
    MAX_COPIES = 16
    MAX_POINTS = 256          # the most any pool is worth: 4 Aces, 16 tens, 4 nines, 2 eights

# What the game waits on: DuelData.phase
cdef enum:
    PH_DEAL = 0               # chance: a card into player 0's pool
    PH_BUILD = 1
    PH_ATTACK = 2
    PH_DEFEND = 3
    PH_DAMAGE = 4
    PH_DRAW = 5               # chance: the top card of a deck
    PH_OVER = 6
    NUM_PHASES

# Action ids.  Chance outcomes are card classes, 0 .. 9.
cdef enum:
    A_HAND = 0                # + class: play that card from hand
    A_DECK = 10               # play the top of the deck (reshuffling the discards first)
    A_KEEP = 11               # + n: keep n cards of the class being built in the hand
    NUM_ACTIONS = A_KEEP + MAX_COPIES + 1


ctypedef struct DuelData:
    # the rules in force, copied from the game so the hot path never asks Python
    int16_t hand_points
    int16_t life
    int16_t max_exchanges

    # where the game stands
    int16_t exchange            # exchanges completed
    int8_t phase                # the decision or chance event the game waits on
    int8_t builder              # who builds a hand, in the build phase
    int8_t build_class          # the class the builder chooses how many to keep of, or -1
    int8_t offense              # who attacks in this exchange
    int8_t draw_for             # at a draw: the phase whose card is drawn, else -1
    int8_t winner               # -1 playing, 0 or 1, 2 a draw
    int8_t attack               # the card classes on the table, or -1
    int8_t defense
    uint8_t hand_known[2]       # the deck ran out once, so the opponent knows the hand
    int16_t hand_spent[2]       # points of the cards played from hand so far

    # the cards, as counts by value class: a deck keeps no order, drawing is chance
    uint8_t stock[NUM_CLASSES]  # not yet dealt
    uint8_t hand[2][NUM_CLASSES]
    uint8_t deck[2][NUM_CLASSES]
    uint8_t discard[2][NUM_CLASSES]
    uint8_t damage[2][NUM_CLASSES]  # lying in front of each player: the damage taken


cdef class CardDuelState(GameState):
    cdef DuelData s


# --- what both halves ask of a position ------------------------------------------------
# Inline: the engine's hot path asks them at every step.

cdef inline int value_of(int c) noexcept nogil:
    return c + 2

cdef inline int cards(const uint8_t* pile) noexcept nogil:
    return pile_size(pile, 0, NUM_CLASSES)

cdef inline int points(const uint8_t* pile) noexcept nogil:
    cdef int c, n = 0
    for c in range(NUM_CLASSES):
        n += pile[c] * value_of(c)
    return n

cdef inline int lowest(const uint8_t* pile) noexcept nogil:
    """The lowest class in ``pile``, or the Ace's class if it is empty."""
    cdef int c
    for c in range(NUM_CLASSES):
        if pile[c]:
            return c
    return ACE

cdef inline int actor(DuelData* s) noexcept nogil:
    """Who plays in a play phase (or whose card a draw is for)."""
    cdef int ph = s.draw_for if s.phase == PH_DRAW else s.phase
    if ph == PH_DEFEND:
        return 1 - s.offense
    return s.offense

cdef inline bint can_play(DuelData* s, int p) noexcept nogil:
    return cards(s.hand[p]) + cards(s.deck[p]) + cards(s.discard[p]) > 0

cdef inline bint size_secret(DuelData* s, int q) noexcept nogil:
    """Whether the other player cannot know how many cards ``q`` holds: while hands are
    built, once ``q`` has begun (C1)."""
    return s.phase == PH_BUILD and q <= s.builder

# Defined with hand building in engine.pyx; a position read without ``building``
# takes its class from it.
cdef int next_class(DuelData* s, int p, int above) noexcept nogil
