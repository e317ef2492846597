# cython: language_level=3
"""Shrine: the position as one flat struct.  See docs/rules/shrine.md for the rules and
docs/rules/shrine-position.md for the dictionary form of a position."""
from libc.stdint cimport int8_t, int16_t, uint8_t

from core.state cimport GameState, Rng

cdef enum:
    NUM_KINDS = 27        # 13 ranks x 2 colours, then the Joker
    JOKER = 26
    SHRINE_SLOTS = 8      # a Shrine holds at most 7 cards; one spare keeps pushes simple
    GRAVE_SLOTS = 54
    PEND_SLOTS = 16
    SEEN = 0x80           # on a Shrine card: it has been face up, so both players know it
    MAX_PILES = 4         # piles a hidden card may come from (R32); more are merged


ctypedef struct ShrineData:
    # the rules in force, copied from the game so the hot path never asks Python
    uint8_t balance             # 0 off, 1 the Joker leaves after play, 2 it returns
    uint8_t alt_heal
    uint8_t alt_fizzle
    int16_t max_turns

    # where the game stands
    int16_t turn                # turns completed
    int8_t active               # whose turn it is
    int8_t phase                # the decision or chance event the game waits on
    int8_t step                 # where the turn resumes once that is settled
    int8_t winner               # -1 playing, 0 or 1, 2 a draw
    uint8_t actions_left        # main actions left this turn
    uint8_t powers_used         # token powers used this turn (bits: Jack, Queen, King)
    uint8_t deal_n              # cards dealt so far during set-up

    # the cards
    uint8_t hand[2][NUM_KINDS]  # counts by kind
    uint8_t seen[2][NUM_KINDS]  # of hand[p], how many of each kind the opponent knows
    uint8_t hand_len[2]
    uint8_t shrine[2][SHRINE_SLOTS]  # kind | SEEN, bottom first
    uint8_t shrine_len[2]
    int8_t field[2][4]          # the Jack, Queen and King tokens and the Dagger token: kind or -1
    uint8_t grave[GRAVE_SLOTS]  # bottom first
    uint8_t grave_len
    uint8_t library[NUM_KINDS]  # counts by kind: drawing is a chance event, so no order is kept
    uint8_t library_len
    uint8_t joker_out           # the Joker is being played or has left the game

    # R32: every card nobody can see belongs to a pile both players can name: the cards
    # never seen, or a shuffled Graveyard.  The piles are public knowledge; which pile a
    # player's own hidden card came from, only that player knows.
    uint8_t pile[MAX_PILES][NUM_KINDS]      # each pile's cards not seen since, by kind
    uint8_t hand_pile[2][MAX_PILES][NUM_KINDS]  # hand[p] minus seen[p], by the pile it came from
    uint8_t shrine_pile[2][SHRINE_SLOTS]    # the pile of each face-down Shrine card
    uint8_t library_pile                    # the pile the Library's cards belong to

    # the declared action, between its declaration and its resolution
    int16_t pending             # its action id, or -1
    uint8_t pend[PEND_SLOTS]    # the cards it pays with, out of the hand meanwhile
    uint8_t pend_len
    int8_t res_card             # Resurrection: the Graveyard card it uses
    uint8_t res_index           #   and where in the Graveyard that card lies
    uint8_t picks_left          # cards still to discard one by one in this phase

    # the chance event being waited on
    int8_t chance               # what is drawn: see CH_* in engine.pyx
    int8_t draw_to              # whose hand, Shrine or Field receives it
    uint8_t draws_left
    int8_t after_draws          # the step that follows the draws

    # the Balance card being resolved
    int8_t bal_player           # who played it; the other player matches them
    int8_t bal_index            # which token kind is being matched
    int8_t bal_return           # the step to resume once it is resolved


cdef class ShrineState(GameState):
    cdef ShrineData s
