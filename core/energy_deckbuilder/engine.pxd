# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The energy deck-builder: the position as one flat struct, the card tables, and what both
halves of the ruleset read of them: the engine (``engine.pyx``: the rules, chance,
knowledge, the tensor) and the game (``game.pyx``: names, views, reading and checking a
position).  See docs/rules/energy-deckbuilder.md for the rules and the dictionary form of
a position.

Every pile is counts per card design: a draw is a chance event over the counts, a
reshuffle moves them.  The card designs themselves live in static tables compiled
from data/cards.toml at import; the struct holds only design ids and what changed."""
from libc.stdint cimport int8_t, int16_t, uint8_t

from core.kit.effects cimport Frame, Span, Stack
from core.kit.piles cimport pile_size
from core.state cimport GameState

cdef enum:
    MAX_DESIGNS = 48        # card designs the tables hold (cards.MAX_DESIGNS); a multiple of
                            # 8, for kinds_held reads a pile eight counts at a time
    MAX_UPGRADE_KINDS = 8   # upgrade designs (cards.MAX_UPGRADE_KINDS)
    SLOTS = 3               # creatures in play per player
    COLOURS = 4             # energy: red, green, blue, black
    STORABLE = 3            # red, green, blue: black is never stored

cdef enum:
    NONE = -1
    DRAW = 2                  # EnergyData.winner when max_turns ends level (E8)
    RED = 0
    GREEN = 1
    BLUE = 2
    BLACK = 3
    WHITE_BIT = 1             # a design's colour bits: white, red, green, blue
    LIVES = 3                 # an attack's target: the opponent's lives, after slots 0-2
    # E19: after this many steps in one turn, stage 3 offers only "end".
    TURN_STEPS = 120
    SPLIT = 13                # a cost in any colour is at most 12 (cards.SCHEMA's buy)
    MAX_CHOICES = SPLIT * SPLIT   # a decision's choices at most: a cost's splits
    EFFECTS_ROOM = MAX_DESIGNS * 3 * 4

# Card kinds and where a design starts (cards.TYPES, cards.DECKS)
cdef enum:
    CREATURE = 0
    UPGRADE = 1
    ACTION = 2
    STARTER = 0
    PILE = 1
    MARKET = 2

# Events: a design's spans of effects (cards.EVENTS)
cdef enum:
    EV_PLAY = 0
    EV_UPKEEP = 1
    EV_PRODUCE = 2

# Effect words, in the order of cards.WORDS
cdef enum:
    OP_DAMAGE = 0
    OP_DESTROY = 1
    OP_LIFE = 2
    OP_DRAW = 3
    OP_GAIN = 4
    OP_STORE = 5
    OP_UNTAP = 6
    OP_BOOST = 7
    OP_KEEP = 8               # not a word: stage 4's storing of what is left (E24)
    AT_CREATURE = 0
    AT_PLAYER = 1
    AT_ALL = 2

# The stages of a turn (E5)
cdef enum:
    STAGE_SETUP = 0           # the market and both hands are dealt
    STAGE_UPKEEP = 1          # stages 1 and 2
    STAGE_MAIN = 2            # stage 3
    STAGE_STORE = 3           # stage 4
    STAGE_DRAW = 4            # stage 5
    STAGE_OVER = 5

# Frames on the stack besides the kit's FRAME_EFFECTS (whose data[0] is the slot of
# the creature the effects belong to, or -1, and data[1] the event).
cdef enum:
    F_TRIGGERS = 1            # walks one event's triggers over creatures and upgrades:
                              # data = event, slot, last slot, unit within the slot
    F_DRAW = 2                # chance: data[0] cards still to draw for ``player``
    F_REFILL = 3              # chance: data[0] market cards still to turn up
    F_PAY = 4                 # how to split a cost among colours: data = left, purpose
    F_REPLACE = 5             # which creature the new one (``source``) replaces
    F_ATTACH = 6              # which creature the upgrade (``source``) goes on
    F_FOE = 7                 # an opponent's creature: data = op, amount
    F_OWN = 8                 # one's own creature: data = op, amount, colour, slot barred
                              # (for stage 4's OP_KEEP: the colour being stored and the
                              # lowest slot still open to it)
    NUM_FRAME_KINDS = 9
    FOR_BUY = 0
    FOR_PLAY = 1

# Action ids.  Chance outcomes are card designs, 0 .. MAX_DESIGNS - 1.
cdef enum:
    A_END = 0
    A_BUY = 1                              # + design
    A_PLAY = A_BUY + MAX_DESIGNS           # + design
    A_DISCARD = A_PLAY + MAX_DESIGNS       # + design * 4 + energy colour
    A_ATTACK = A_DISCARD + MAX_DESIGNS * COLOURS   # + slot * 4 + target (LIVES: lives)
    A_PRODUCE = A_ATTACK + SLOTS * 4       # + slot
    A_PAY = A_PRODUCE + SLOTS              # + red * SPLIT + green, blue the rest
    A_OWN = A_PAY + SPLIT * SPLIT          # + own slot
    A_FOE = A_OWN + SLOTS                  # + opponent's slot
    NUM_ACTIONS = A_FOE + SLOTS


ctypedef struct Creature:
    int8_t design               # -1: the slot is empty
    uint8_t tapped
    uint8_t damage              # taken this turn (E6)
    uint8_t boost               # power added this turn
    uint8_t stored[STORABLE]    # energy stored on a white creature
    uint8_t upgrades[MAX_UPGRADE_KINDS]   # attached, by upgrade kind: they stack


ctypedef struct Side:
    int16_t lives
    uint8_t energy[COLOURS]     # the player's supply
    uint8_t hand[MAX_DESIGNS]
    uint8_t draw[MAX_DESIGNS]
    uint8_t discard[MAX_DESIGNS]
    # The cards of the hand the other player knows are there: the whole hand when the
    # draw pile was reshuffled, less the cards that have left it since (E18).
    uint8_t known[MAX_DESIGNS]
    Creature creatures[SLOTS]


ctypedef struct EnergyData:
    # the rules in force, copied from the game so the hot path never asks Python
    uint8_t hand_size
    uint8_t second_player_energy
    int16_t max_turns
    int16_t start_lives

    # where the game stands
    int16_t turn                # the turn under way, from 1
    int16_t steps               # steps taken in this turn (E19)
    int8_t active               # whose turn it is
    int8_t stage                # STAGE_*
    int8_t winner               # -1 playing, 0 or 1, 2 a draw
    uint8_t bought              # the turn's one buy is spent

    uint8_t common[COLOURS]     # the common supply
    # The face-up market: one for each face-up card (all distinct), and the cards left
    # in each zero-cost pile (E7).  The market deck nobody has seen: counts.
    uint8_t market[MAX_DESIGNS]
    uint8_t market_deck[MAX_DESIGNS]
    Side sides[2]
    Stack stack                 # effects under way and the decisions they wait on


cdef class EnergyState(GameState):
    cdef EnergyData s


# --- the card set: engine.pyx compiles it once, at import ---------------------------------

ctypedef struct Design:
    uint8_t kind
    uint8_t deck
    uint8_t copies
    uint8_t in_game           # copies in a game: a starter's for both players
    uint8_t colours           # bits: white, red, green, blue
    uint8_t discard           # bits: red, green, blue, black
    uint8_t cost[4]           # red, green, blue, any
    uint8_t buy
    int8_t power
    int8_t toughness
    uint8_t energy[COLOURS]
    int8_t upgrade            # its upgrade kind, or -1
    Span events[3]
    float worth               # the heuristic's value of owning one
    float effect_worth        # ... of its play effects

cdef Design DESIGNS[MAX_DESIGNS]
cdef int N_DESIGNS
cdef int N_UPGRADES
cdef int UPGRADE_DESIGN[MAX_UPGRADE_KINDS]


# --- what both halves ask of a position -------------------------------------------------

cdef inline int cards(const uint8_t* pile) noexcept nogil:
    return pile_size(pile, 0, N_DESIGNS)

cdef inline bint alive(const Creature* c) noexcept nogil:
    return c.design >= 0

cdef inline bint is_white(const Creature* c) noexcept nogil:
    return c.design >= 0 and DESIGNS[c.design].colours & WHITE_BIT

# Defined with the rules in engine.pyx: a position read from a dict is checked with the
# toughness and choices play uses, and a new game's deal is pushed as play pushes frames.
cdef int toughness(const Creature* c) noexcept nogil
cdef int choices(EnergyData* s, Frame* f, int* out) noexcept nogil
cdef Frame* push_frame(EnergyData* s, int kind, int p, int source, int d0, int d1, int d2,
                       int d3) noexcept nogil
