# cython: language_level=3
"""Creature Shrines: the position as one flat struct, and each card design as a static
C record compiled from the card data at import.  See docs/rules/creature-shrines.md for
the rules and the dictionary form of a position."""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t

from core.kit.effects cimport Span, Stack
from core.state cimport GameState

cdef enum:
    MAX_DESIGNS = 80      # card designs in a set; a larger set is refused at import
    MAX_UNITS = 48        # permanents on the region at once
    ROWS = 5
    PATHWAYS = 3
    SITES = 15
    COLOURS = 5
    MAX_BOTTOM = 8        # known cards under a library: a mulligan's, a Swap's (C10)
    MAX_TOP = 3           # known cards on top of a library, kept there by a Swap
    MAX_EFFECTS = 256     # effects of the whole card set
    EVENTS = 5            # play, upkeep, tap, deathwish, spring: cards.EVENTS
    PRIMARY = 0           # the libraries, and where a card in hand came from
    SECONDARY = 1


ctypedef struct Design:
    uint8_t type              # the index of cards.TYPES
    uint8_t subtype           # the index of cards.SUBTYPES
    uint8_t area              # an Area Effect's: the index of cards.AREAS
    uint8_t trigger           # a Trap's requirement: the index of cards.TRIGGERS
    uint8_t token
    uint8_t colour            # a basic Source's colour, else 0
    int8_t cost[6]            # generic, then each colour
    int8_t cmc                # converted mana cost: the time marks of a Shrine that dies
    uint8_t x                 # (X) in its cost: X generic more, chosen when paying (C40)
    int8_t strength
    int8_t resilience
    int8_t sprint             # Sprint (X)
    int8_t range              # Range (X)
    int8_t attach_cost        # a Tool's
    uint32_t keywords         # bit k: cards.KEYWORDS[k]
    Span events[EVENTS]       # its effects in the effect table, per event


ctypedef struct Unit:
    # a card on the region (or beside it: an Idol), an Area Effect or a face-down Trap
    int8_t owner              # -1: a free slot
    uint8_t design
    int8_t site               # row * PATHWAYS + pathway, rows counted from player 0's side;
                              # an Area Effect's anchor; -1 beside the region (an Idol)
    int8_t damage
    uint16_t flags            # U_* in engine.pyx
    int8_t target             # while attacking: a unit's slot, or FACE
    int8_t blocks             # while blocking: the attacker's slot, else -1
    uint8_t assigned          # while blocking: the combat damage its attacker assigned
                              #   it for the coming blows (C43)
    int8_t host               # a Tool: the creature it is attached to, else -1
    uint8_t rider             # a mounted creature's design + 1, else 0
    int8_t pump               # +N strength and resilience until the turn ends
    uint8_t armor             # instances of damage its Armor still absorbs
    uint8_t travel            # sites it is declared to travel, until the declared travel
    uint16_t age              # when it arrived: the newest Area Effect wins an overlap
    uint16_t paid             # a Trap: the mana its cost took, 3 bits a colour (C31)
    # what it is now, from its design, rider, Tools, pump and conditions (refresh)
    int8_t strength
    int8_t resilience
    int8_t sprint
    int8_t range
    uint32_t keywords


ctypedef struct CSData:
    # the rules in force, copied from the game so the hot path never asks Python
    int8_t mode
    int16_t max_turns         # per player (C9)
    uint8_t shrine[2]         # each player's Shrine design

    # where the game stands
    int16_t turn              # turns begun, both players counted
    int8_t active
    int8_t step               # what the game waits on when no frame is on the stack
    int8_t act                # the active player's act
    int8_t winner             # -1 playing, 0 or 1, 2 a draw
    int8_t resume             # once a priority exchange ends: RESUME_* in engine.pyx
    int8_t priority           # who holds priority in a priority window
    int8_t mull_player        # who is taking their mulligan
    uint8_t mulligans_left
    int8_t draw_player        # a draw: whose, from which library, how many, then what
    int8_t draw_library
    uint8_t draws_left
    int8_t after_draws
    uint8_t source_played     # a Source played this turn
    int8_t pending            # what follows once the decision stack empties: P_*
    int8_t cursor             # the next slot the upkeep looks at, 0 when no upkeep is
                              #   pending (nothing stale in a position)
    uint16_t age              # arrivals so far: Unit.age

    int16_t life[2]
    int16_t points[2]
    uint8_t shrine_home[2]    # the Shrine is in its Shrine Zone
    uint8_t marks[2]          # time marks on it (C6)
    uint8_t sources[2][COLOURS]      # Sources in play, by colour
    uint8_t tapped[2][COLOURS]       # of which tapped
    uint8_t pool[2][COLOURS]         # mana in the pool

    # the cards, by design: piles nobody sees keep no order, so they are counts
    uint8_t library[2][2][MAX_DESIGNS]   # [player][PRIMARY or SECONDARY]
    uint8_t hand[2][2][MAX_DESIGNS]      # [player][the library it came from]
    uint8_t grave[2][MAX_DESIGNS]
    uint8_t banished[2][MAX_DESIGNS]     # the Banishment pile: public, out of the game (C42)
    uint8_t hand_known[2][2][MAX_DESIGNS]  # of the hand, cards both players know (bounced)
    uint8_t bottom[2][2][MAX_BOTTOM]     # under a library, known to its owner, the last
    uint8_t bottom_len[2][2]             #   the deepest
    uint8_t top[2][2][MAX_TOP]           # on top of a library, known to its owner, the
    uint8_t top_len[2][2]                #   last drawn first

    Unit units[MAX_UNITS]
    Stack stack               # running effects and pending choices (FR_* in engine.pyx)


cdef class CreatureShrinesState(GameState):
    cdef CSData s
    cdef uint8_t* chance_pile(self) noexcept nogil
