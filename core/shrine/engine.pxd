# cython: language_level=3, cdivision=True
"""Shrine: the position as one flat struct, and what both halves of the ruleset read
of it: the engine (``engine.pyx``: the rules, chance, knowledge, the tensor) and the
game (``game.pyx``: names, views, reading and checking a position).  See
docs/rules/shrine.md for the rules and docs/rules/shrine-position.md for the
dictionary form of a position."""
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

cdef enum:
    NONE = -1
    DRAW = 2                  # ShrineData.winner when max_turns ends the game
    HAND_LIMIT = 7
    BASE_CAPACITY = 5
    TRIAD_CAPACITY = 7
    DEAL_CARDS = 20           # 5 to each Shrine, then 5 to each hand
    NUM_MULTISETS = 245       # same-colour card multisets whose values sum to at most 14

# Field slots
cdef enum:
    F_JACK = 0
    F_QUEEN = 1
    F_KING = 2
    F_DAGGER = 3
    T_SHRINE = 4              # a Dagger's fifth target: the top of the Shrine

# Powers used this turn
cdef enum:
    USED_JACK = 1
    USED_QUEEN = 2
    USED_KING = 4

# Decisions and chance: ShrineData.phase
cdef enum:
    PH_CHANCE = 0
    PH_START = 1              # draw from the Library, or take the Graveyard's top card
    PH_ACTION = 2
    PH_RES_USE = 3            # how a Resurrection uses the Graveyard card
    PH_JACK_DISCARD = 4
    PH_RESPONSE = 5
    PH_FIZZLE_PICK = 6        # alt_fizzle: the responder picks the three cards
    PH_COUNTER = 7
    PH_COUNTER_PICK = 8
    PH_DISCARD = 9            # end of turn, down to the hand limit
    PH_BAL_DISCARD = 10       # matching the Balance card's player's hand size
    PH_OVER = 11
    NUM_PHASES

# Where the turn resumes: ShrineData.step
cdef enum:
    ST_DEAL = 0
    ST_TURN_START = 1
    ST_DRAWING = 2
    ST_CHOOSE = 3
    ST_ACTION = 4
    ST_RESPOND = 5
    ST_RESOLVE = 6
    ST_FIZZLED = 7
    ST_AFTER = 8
    ST_END = 9
    ST_BAL_FIELD = 10
    ST_BAL_SHRINE = 11
    ST_BAL_HAND = 12
    ST_BAL_FINISH = 13
    ST_WAIT = 14              # a decision is pending; its action sets the next step

# What a chance event draws: ShrineData.chance
cdef enum:
    CH_NONE = 0
    CH_DEAL = 1
    CH_HAND = 2               # a Library card into a hand
    CH_FLIP = 3               # a Library card face up onto a Shrine (Heal)
    CH_HIDDEN = 4             # a Library card face down onto a Shrine (Balance)
    CH_TOKEN = 5              # a Token of one rank out of the Library (Balance)
    CH_STEAL = 6              # the card a Jack takes from the opponent's hand
    NOTHING_FOUND = 27        # the chance outcome of a Balance's search finding no card

# Action ids: each family of actions (see FAMILIES) starts at its id here.  Replays,
# perft files and stored tournaments hold these ids, so they never change.
cdef enum:
    A_PASS = 0
    A_DRAW = 1
    A_TAKE = 2
    A_NO_RESPONSE = 3
    A_FIZZLE = 4
    A_NO_COUNTER = 5
    A_COUNTER = 6
    A_JACK = 7
    A_BLOCK = 8               # + field slot (Jack, Queen, King)
    A_DISCARD = 11            # + kind
    A_DAGGER_BLOCK = 37       # + colour * 13 + payment rank - 1
    A_TOKEN = 63              # + (token rank - 11) * 26 + colour * 13 + payment rank - 1
    A_DAGGER = 141            # + target * 26 + colour * 13 + payment rank - 1
    A_DAGGER_TOKEN = 271      # + colour * 13 + payment rank - 1
    A_TRIPLET = 297           # + (rank - 1) * 2 + the colour with two cards
    A_QUAD = 323              # + rank - 1
    A_RESURRECT = 336         # + (first rank - 1) * 8 + colour bits of the three cards
    A_RES_SHRINE = 440
    A_RES_TOKEN = 441
    A_RES_DAGGER_TOKEN = 442
    A_RES_DAGGER = 443        # + target
    A_HEAL = 448              # + (rank - 1) * 3 + pair colours (0 BB, 1 BR, 2 RR)
    A_PAIR_ATTACK = 487       # + (rank - 1) * 3 + pair colours
    A_RES_PAIR = 526          # + kind of the hand card matching the resurrected card
    A_ATTACK = 552            # + multiset index - 1
    A_ALT_HEAL = 796          # + multiset index - 1
    A_RES_ATTACK = 1040       # + multiset index (0, no hand card, allowed)
    A_DAGGER_TOKEN_BLOCK = 1285   # R30: a Token block with the Dagger token
    NUM_ACTIONS = 1286


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
    int8_t chance               # what is drawn: see CH_* above
    int8_t draw_to              # whose hand, Shrine or Field receives it
    uint8_t draws_left
    int8_t after_draws          # the step that follows the draws

    # the Balance card being resolved
    int8_t bal_player           # who played it; the other player matches them
    int8_t bal_index            # which token kind is being matched
    int8_t bal_return           # the step to resume once it is resolved


cdef class ShrineState(GameState):
    cdef ShrineData s


# --- the action families -----------------------------------------------------------
# The table the engine fills, family by family, at its load (see engine.pyx): the game
# reads a family's name and flags, and labels it by its first id.

ctypedef int (*CardsFn)(ShrineData* s, int a, uint8_t* out) noexcept nogil
ctypedef void (*ActFn)(ShrineData* s, int a) noexcept nogil

cdef enum:
    NUM_FAMILIES = 28
    FL_TOKEN_BLOCKED = 1      # an attack paid with hand cards (R16, S7)
    FL_DAGGER_BLOCKED = 2     # a Dagger (R20, S8)
    FL_RES_USE = 4            # a use of a Resurrection's card (R23)
    FL_ANSWERED = 8           # declared, it waits on the response and then resolves (R24)
    FL_DECLARED = 16          # it can be the pending action

ctypedef struct Family:
    const char* name
    int base                  # its first action id
    int size                  # how many ids it holds
    int flags                 # FL_*
    int declared              # its place in the tensor's "declared" block, or -1
    CardsFn cards             # the hand cards declaring an action pays with
    ActFn decide              # what choosing an action does
    ActFn resolve             # what a declared action does once nothing stopped it

cdef Family FAMILIES[NUM_FAMILIES]
cdef uint8_t FAMILY_OF[NUM_ACTIONS]

cdef inline Family* family_of(int a) noexcept nogil:
    return &FAMILIES[FAMILY_OF[a]]


# --- what both halves ask of a position ------------------------------------------------
# Inline: the engine's hot path asks them at every step.

cdef inline int kind_of(int rank, int colour) noexcept nogil:
    return (rank - 1) * 2 + colour

cdef inline int rank_of(int kind) noexcept nogil:
    return kind // 2 + 1

cdef inline int colour_of(int kind) noexcept nogil:
    return kind & 1

cdef inline int capacity(ShrineData* s, int p) noexcept nogil:
    # R21: a Triad raises the capacity to seven.
    if s.field[p][F_JACK] >= 0 and s.field[p][F_QUEEN] >= 0 \
            and s.field[p][F_KING] >= 0:
        return TRIAD_CAPACITY
    return BASE_CAPACITY

cdef inline bint triad(ShrineData* s, int p) noexcept nogil:
    return capacity(s, p) == TRIAD_CAPACITY

cdef inline int shrine_top(ShrineData* s, int p) noexcept nogil:
    return s.shrine[p][s.shrine_len[p] - 1] & ~SEEN

cdef inline bint pile_empty(ShrineData* s, int q) noexcept nogil:
    cdef int k
    for k in range(NUM_KINDS):
        if s.pile[q][k]:
            return False
    return True

cdef inline int hand_pile_len(ShrineData* s, int p, int q) noexcept nogil:
    cdef int k, n = 0
    for k in range(JOKER):
        n += s.hand_pile[p][q][k]
    return n

cdef inline int block_slot(int a) noexcept nogil:
    return F_DAGGER if a == A_DAGGER_TOKEN_BLOCK else a - A_BLOCK

cdef inline void to_grave(ShrineData* s, int kind) noexcept nogil:
    s.grave[s.grave_len] = kind
    s.grave_len += 1

cdef inline int token_rank(int slot) noexcept nogil:
    return 1 if slot == F_DAGGER else 11 + slot

cdef inline int wrap_rank(int rank) noexcept nogil:
    return (rank - 1) % 13 + 1


# Defined in engine.pyx, where they are explained; the game asks them to name actions
# and to build and check a position.
cdef void advance(ShrineData* s) noexcept nogil
cdef int decider(ShrineData* s) noexcept nogil
cdef bint response_possible(ShrineData* s) noexcept nogil
cdef int main_actions(ShrineData* s, int* out) noexcept nogil
cdef int res_uses(ShrineData* s, int* out) noexcept nogil
cdef int action_cards(ShrineData* s, int a, uint8_t* out) noexcept nogil
cdef int ace_payment_cards(int x, uint8_t* out) noexcept nogil
