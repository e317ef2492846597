# cython: language_level=3
"""Card Duel: the position as one flat struct.  See docs/rules/card-duel.md for the
rules and the dictionary form of a position."""
from libc.stdint cimport int8_t, int16_t, uint8_t

from core.state cimport GameState

cdef enum:
    NUM_CLASSES = 10      # values 2..9, 10 (10, J, Q, K) and the Ace (11)


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
