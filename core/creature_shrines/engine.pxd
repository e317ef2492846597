# cython: language_level=3, cdivision=True
"""Creature Shrines: the position as one flat struct, each card design as a static C
record compiled from the card data at import, and what both halves of the ruleset read
of them: the engine (``engine.pyx``: the rules, chance, knowledge, the tensor) and the
game (``game.pyx``: names, views, reading and checking a position).  See
docs/rules/creature-shrines.md for the rules and the dictionary form of a position."""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t

from core.kit.effects cimport Span, Stack
from core.kit.piles cimport pile_size
from core.state cimport GameState

cdef enum:
    MAX_DESIGNS = 80      # card designs in a set; a larger set is refused at import; a
                          # multiple of 8, for kinds_held reads a hand eight counts at a
                          # time, and below 1 << ORIGIN_SHIFT, for lib_card
    MAX_UNITS = 48        # permanents on the region at once
    ROWS = 5
    NEUTRAL_ROW = 2       # the middle row, which King of the Hill scores (C8)
    PATHWAYS = 3
    SITES = 15
    COLOURS = 5
    MAX_BOTTOM = 8        # known cards under a library: a mulligan's, a Swap's (C10)
    MAX_TOP = 3           # known cards on top of a library, kept there by a Swap
    MAX_EFFECTS = 256     # effects of the whole card set
    EVENTS = 5            # play, upkeep, tap, deathwish, spring: cards.EVENTS
    PRIMARY = 0           # the libraries, and where a card in hand came from
    SECONDARY = 1
    ORIGIN_SHIFT = 7      # a known card's library of origin, above its design (below)

cdef enum:
    NONE = -1
    HIDDEN = -2               # a frame's card the viewer cannot see
    DRAW = 2                  # CSData.winner when max_turns ends level (C9)
    FACE = 100                # Unit.target: the opposing player's zone
    SITE_LIMIT = 4            # non-tool, non-token permanents on a site
    OPENING_HAND = 3          # cards drawn from each library before the first turn
    MAX_TRAVEL = 4            # the most sites one travel may cover
    MOUNT_COST = 2            # mana to mount two creatures already on the region
    X_AMOUNT = -1             # an effect's amount written X: its card's X (C40)
    NUMBERS = 32              # the numbers a decision offers: an X, a share of damage

# Where a card that leaves the region goes: card_home
cdef enum:
    HOME_GRAVE = 0
    HOME_HAND = 1             # bounced
    HOME_BANISH = 2           # banished (C42)

# Card types, subtypes, areas and Trap requirements: the orders of cards.py (checked at
# import, as every enum mirroring cards.py is: MIRRORS in engine.pyx)
cdef enum:
    T_CREATURE = 0
    T_STRUCTURE = 1
    T_RELIC = 2
    T_AREA = 3
    T_SOURCE = 4
    T_SPELL = 5

cdef enum:
    SUB_TOOL = 1
    SUB_IDOL = 2
    SUB_TRAP = 5
    SUB_INERT = 6
    SUB_BURST = 7

cdef enum:
    AR_SITE = 1
    AR_ROW = 2
    AR_PATHWAY = 3

cdef enum:
    TR_ENTERS = 1
    TR_ATTACKS = 2

# Events, effect words and their targets: the orders of cards.EVENTS, the vocabulary
# and cards.TARGETS (checked at import)
cdef enum:
    EV_PLAY = 0
    EV_UPKEEP = 1
    EV_TAP = 2
    EV_DEATHWISH = 3
    EV_SPRING = 4

cdef enum:
    OP_DAMAGE = 0
    OP_DRAW = 1
    OP_MOVE = 2
    OP_BOUNCE = 3
    OP_FREEZE = 4
    OP_GROUND = 5
    OP_POISON = 6
    OP_WEAKEN = 7
    OP_SWAP = 8
    OP_MANA = 9
    OP_TOKEN = 10
    OP_ARMOR = 11
    OP_LIFE = 12
    OP_PUMP = 13
    OP_DESTROY = 14
    OP_BANISH = 15

cdef enum:
    TG_SELF = 0
    TG_ALLY = 1
    TG_ENEMY = 2
    TG_PERMANENT = 3
    TG_OPPONENT = 4
    TG_AREA = 5

# Where an effect moves a permanent, seen from its controller: cards.DIRECTIONS
cdef enum:
    DIR_FORWARD = 0
    DIR_BACK = 1
    DIR_LEFT = 2
    DIR_RIGHT = 3

# Keyword bits: the order of cards.KEYWORDS (checked at import)
cdef enum:
    K_ARMOR = 1 << 0
    K_BLOODLESS = 1 << 1
    K_CLEAVE = 1 << 2
    K_HASTE = 1 << 4
    K_FLYING = 1 << 5
    K_GUARD = 1 << 6
    K_IMMOVEABLE = 1 << 7
    K_LUNGE = 1 << 8
    K_PROTECTION = 1 << 9
    K_REACH = 1 << 10
    K_SADDLE = 1 << 11
    K_MOUNT = 1 << 12
    K_STATIONARY = 1 << 13
    K_STOMP = 1 << 14
    K_QUICK = 1 << 15
    K_UNSTOPPABLE = 1 << 16
    K_DOUBLE = 1 << 17        # Double Attack (C41)

# Unit.flags
cdef enum:
    U_TAPPED = 1
    U_NEW = 2                 # came onto the region this turn
    U_TRAVELLED = 4           # declared to travel in this Travel Act
    U_ATTACKING = 8
    U_FROZEN = 16             # the conditions: they last while it stays on the region
    U_GROUNDED = 32
    U_POISONED = 64
    U_WEAKENED = 128
    U_UNPROTECTED = 256       # its Protection is spent
    U_FACE_DOWN = 512         # a Trap not yet flipped
    U_SECONDARY = 1024        # the card came from its owner's Secondary Library
    U_DYING = 2048            # destroyed: proceed buries it
    U_RIDER_SECONDARY = 4096  # its rider's card came from the Secondary Library

# Modes (C8): the order of game.pyx's MODES
cdef enum:
    M_STANDARD = 0
    M_RUSH = 1
    M_HILL = 2
    M_IMPERIAL = 3
    M_CONQUEST = 4

# Acts of a turn
cdef enum:
    ACT_FIRST = 0
    ACT_TRAVEL = 1
    ACT_COMBAT = 2
    ACT_FINAL = 3

# What the game waits on when no frame is on the stack: CSData.step
cdef enum:
    ST_DRAW = 0               # chance: the top card of a library
    ST_MULLIGAN = 1           # mull_player puts a card at the bottom, or keeps
    ST_DRAW_CHOICE = 2        # draw_player picks the library to draw from
    ST_ACT = 3                # the active player acts, or passes the act
    ST_PRIORITY = 4           # CSData.priority may act at Burst speed, or passes (C7, C28)
    ST_BLOCK = 5              # the defender picks a blocker, or is done
    ST_OVER = 6

# What follows a run of draws: CSData.after_draws
cdef enum:
    AFTER_MULLIGAN = 0        # back to the mulligan
    AFTER_SETUP = 1           # a player's opening hand is complete
    AFTER_TURN_DRAW = 2       # the First Act begins
    AFTER_END_DRAW = 3        # the first player's delayed draw: the turn ends

# Once a priority exchange ends: CSData.resume
cdef enum:
    RESUME_ACT = 0            # the active player's act goes on
    RESUME_NEXT_ACT = 1       # the act ends
    RESUME_TRAVEL = 2         # the declared travellers travel (C29)
    RESUME_TRIGGER = 3        # a trigger during travel: the travelling player's pass
                              #   gives the opponent priority, then the act ends (C29)
    RESUME_BLOCKED = 4        # blockers are declared: the attacking player's pass gives
                              #   the defender priority, then combat damage (C33)
    RESUME_STRIKE = 5         # the defender's window after the blocks: combat damage

# What follows once the stack empties: CSData.pending
cdef enum:
    P_NONE = 0
    P_ACTION = 1              # the active player acted: the opponent's priority (C7)
    P_PRIORITY = 2            # the opponent acted in their priority window
    P_UPKEEP = 3              # the next upkeep effect, then the turn's draw
    P_COMBAT = 4              # combat is over: the Final Act
    P_BLOCK = 5               # a blocker was declared: more blocks, or combat
    P_STRIKE = 6              # regular combat's damage is assigned: its blows (C43)
    P_TRAVEL = 7              # the travellers have arrived: the Combat Act (C36)
    P_TRAVEL_SPRUNG = 8       # the same, a Trap having sprung as they arrived (C29)
    P_QUICK = 9               # the Precombat Act's damage is assigned: its blows, then
                              #   regular combat's assignment

# Frames on the decision stack (kind 0 is the kit's running effects; their data[0] is
# the card's slot on the region or -1, data[1] the site it acts from or -1, data[2] the
# X paid for the card, C40)
cdef enum:
    FR_SITE = 1               # data[0]: the design being played (-1: the Shrine), [1] its
                              #   library, [2] a Trap's: the mana it took (Unit.paid); a
                              #   creature's may instead mount with a unit (C30)
    FR_DISTANCE = 2           # data[0]: the traveller
    FR_TARGET = 3             # data[0]: the attacker
    FR_BLOCK = 4              # data[0]: the blocker
    FR_SACRIFICE = 5          # data[0]: the site over its limit, [1] the player whose
                              #   permanents arrived (C45)
    FR_AIM = 6                # pc: the effect whose target is picked; data: its card's
                              #   (data[2]: its X)
    FR_LIBRARY = 7            # the library an effect draws from; data[0]: how many
    FR_DRAW = 8               # chance: data[0] cards left, [1] the library, [2] 1: to a Swap
    FR_SWAP = 9               # data[0]: the library, [1..3] the cards looked at (-1: none)
    FR_HOST = 10              # the creature a Tool attaches to; data[0] the Tool's slot
                              # (-1: from hand, [1] its design, [2] its library)
    FR_SADDLE = 11            # data[0]: the creature that mounts
    FR_SPAWN = 12             # pc: a token effect of a spell; the site its tokens take
    FR_ASSIGN = 13            # data[0]: an attacker, [1] the blocker whose share of its
                              #   damage is chosen, [2] the damage left, [3] 1 once a
                              #   blocker on that site got less than lethal (C43)
    FR_XCOST = 14             # data[0]: a spell being played, [1] its library: its X (C40)

# Action ids.  Chance outcomes are designs.
cdef enum:
    A_PASS = 0                # pass the act or priority, keep a hand, stop blocking
    A_PRIMARY = 1             # draw from the Primary Library
    A_SECONDARY = 2
    A_SHRINE = 3              # play the Shrine from its Shrine Zone
    A_MARK = 4                # pay 2 to take a time mark off the Shrine
    A_PLAY = 5                # + library * MAX_DESIGNS + design: play a card from hand,
                              # the copy that came from that library (C18)
    A_BOTTOM = A_PLAY + 2 * MAX_DESIGNS   # + design: mulligan it, or a Swap puts it under
    A_TOP = A_BOTTOM + MAX_DESIGNS        # + design: a Swap keeps it on top
    A_SITE = A_TOP + MAX_DESIGNS          # + site
    A_UNIT = A_SITE + SITES               # + slot: a traveller, attacker, blocker, sacrifice,
                                          # the creature a Tool joins, a saddle
    A_DISTANCE = A_UNIT + MAX_UNITS       # + sites - 1
    A_TARGET = A_DISTANCE + MAX_TRAVEL    # + slot: what an attacker or an effect aims at
    A_FACE = A_TARGET + MAX_UNITS         # the opposing player
    A_BLOCK = A_FACE + 1                  # + the attacker's slot
    A_TAP = A_BLOCK + MAX_UNITS           # + slot: tap a permanent for its effects
    A_ATTACH = A_TAP + MAX_UNITS          # + slot: pay a Tool's attach cost
    A_MOUNT = A_ATTACH + MAX_UNITS        # + slot: pay 2 for this creature to mount
    A_NUMBER = A_MOUNT + MAX_UNITS        # + n: X is n (C40), or a blocker's share of
                                          # combat damage is n (C43)
    NUM_ACTIONS = A_NUMBER + NUMBERS


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
    uint16_t flags            # U_* above
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
    int8_t resume             # once a priority exchange ends: RESUME_* above
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
    uint8_t burial            # set when a unit is marked destroyed (U_DYING), cleared
                              #   once the destroyed are buried: while clear, nothing
                              #   need look for them slot by slot
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
    uint8_t bottom_len[2][2]             #   the deepest; each a lib_card
    uint8_t top[2][2][MAX_TOP]           # on top of a library, known to its owner, the
    uint8_t top_len[2][2]                #   last drawn first; each a lib_card

    Unit units[MAX_UNITS]
    Stack stack               # running effects and pending choices (FR_* above)


cdef class CreatureShrinesState(GameState):
    cdef CSData s
    cdef uint8_t* chance_pile(self) noexcept nogil


# The card set, compiled by engine.pyx at import and read by every state.
cdef Design DESIGNS[MAX_DESIGNS]
cdef int NUM_DESIGNS
cdef uint8_t TRAPS[MAX_DESIGNS]   # 1: a Trap, dealt afresh by determinize
cdef int BURSTS[MAX_DESIGNS]      # the Burst designs, in design order
cdef int NUM_BURSTS


# --- what both halves ask of a position ------------------------------------------------
# Inline: the engine's hot path asks them at every step.

cdef inline int row_of(int site) noexcept nogil:
    return site // PATHWAYS

cdef inline int path_of(int site) noexcept nogil:
    return site % PATHWAYS

cdef inline bint is_type(CSData* s, int u, int t) noexcept nogil:
    return DESIGNS[s.units[u].design].type == t

cdef inline int lib_card(int lib, int d) noexcept nogil:
    """A card its owner knows on top of or under a library, or in a Swap: its design
    and the library it was dealt from.  Both sides know that library, and a hidden card
    is dealt again from its unseen cards: a Swap of the Primary puts cards under the
    Secondary (C35), and the Secondary's unseen cards are not what they may be."""
    return d | (lib << ORIGIN_SHIFT)

cdef inline int card_design(int c) noexcept nogil:
    return c & ((1 << ORIGIN_SHIFT) - 1)

cdef inline int card_origin(int c) noexcept nogil:
    return c >> ORIGIN_SHIFT

cdef inline int shuffled(CSData* s, int p, int lib) noexcept nogil:
    """The cards of a library in no known order: between its known top and bottom."""
    return pile_size(&s.library[p][lib][0], 0, MAX_DESIGNS)

cdef inline int library_size(CSData* s, int p, int lib) noexcept nogil:
    return shuffled(s, p, lib) + s.top_len[p][lib] + s.bottom_len[p][lib]

cdef inline bint uses_life(CSData* s) noexcept nogil:
    return s.mode != M_HILL

cdef inline bint uses_points(CSData* s) noexcept nogil:
    return s.mode == M_HILL or s.mode == M_IMPERIAL

# Defined with the rules in engine.pyx; reading a position and starting a game ask them.
cdef int hand_size(CSData* s, int p) noexcept nogil
cdef void refresh(CSData* s, int u) noexcept nogil
cdef void begin_mulligan(CSData* s, int p) noexcept nogil
cdef bint mulligan_pending(CSData* s) noexcept nogil
cdef int decisions(CSData* s, int* out) noexcept nogil
