# cython: language_level=3
"""Relinquish: the position as one flat struct, and what both halves of the ruleset
read of it: the engine (``engine.pyx``: the rules, chance, knowledge, the tensor) and
the game (``game.pyx``: names, views, reading and checking a position).  See
docs/rules/relinquish.md for the rules, the rulings and the dictionary form of a
position."""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t

from core.state cimport GameState

cdef enum:
    NUM_CARDS = 78        # 4 suits x (Commons 1-10, Page, Knight, King, Queen), 22 Tarots
    MAX_PLAYERS = 4
    MAX_NEGATES = 8       # Negates standing at once in one Enchant's chain (R6)

cdef enum:
    NONE = -1
    NO_VALUE = -1000          # below any value a Bounty can make (L15)
    HAND_CARDS = 13           # dealt to each player (L3)
    SHORT_SCRY = 16           # the Scry pile of a short game (L3)
    TAROT0 = 56
    COURT0 = 10               # the rank of the Page within a suit
    MAX_TURNS = 2000

# Where a card lies: RelData.where, with RESTING set on a resting tableau card.
cdef enum:
    LOC_HAND = 0              # + seat
    LOC_TABLEAU = 4           # + seat
    LOC_SCRY = 8
    LOC_DISCARD = 9
    LOC_EXILE = 10
    LOC_UNDEALT = 11
    LOC_DRAWN = 12            # drawn by a Scry, not yet kept or discarded
    LOC_ASIDE = 13            # set aside face down in exile by a short game's deal (L16)
    NUM_LOCS = 14
    RESTING = 0x80
    LOC_MASK = 0x7F

# What the game waits on: RelData.phase
cdef enum:
    PH_DEAL = 0               # chance: where the next card of the deal goes
    PH_FLIP = 1               # chance: a tied player's next flip, from the Scry pile
    PH_MAIN = 2               # the active player's maneuvers, or the end of the turn
    PH_PAY = 3                # the active player rests Commons for a Summon
    PH_DRAW = 4               # chance: a card of the Scry pile
    PH_KEEP = 5               # the scrying player discards one of the two drawn
    PH_OVER = 6
    PH_PICK = 7               # a Magick's targets, picked one by one
    PH_COUNTER = 8            # a seat may counter the Magick, or pass
    PH_DECLARE = 9            # the active player declares more attackers, or clashes
    PH_ORDER = 10             # the active player picks the opponent to clash with next
    PH_MEET = 11              # the defender picks the attacker its next clash answers
    PH_BLOCK = 12             # the defender defends with a standing Court, or declines
    PH_RALLY = 13             # a clashing seat (or its partner) chooses a hidden Rally
    PH_CAPTURE = 14           # the attacker picks among equal Commons to capture
    PH_REVEAL = 15            # chance, one outcome: the Rallies are shown (R9)
    PH_SPEND = 16             # the active player rests the cards paying for an ability
    PH_TARGET = 17            # the card an Arcana acts on
    PH_BOUNTY = 18            # what a Bounty adds to its target

# Special abilities: an Arcana is its suit's number (L9).
cdef enum:
    GLAMOUR = 0
    LAVISH = 1
    COERCE = 2
    BOUNTY = 3
    CONGREGATE = 4
    CONSCRIPT = 5

cdef enum:
    SPELL_ENCHANT = 0
    SPELL_MURDER = 1
    MURDER_LEAST = 13         # the lowest Tarot that murders; lower ones Augur (L6)

# Action ids: each + a card.  Chance outcomes are cards, or during the deal a
# destination (DEST_*).
cdef enum:
    A_END = 0
    A_POPULATE = 1
    A_SUMMON = A_POPULATE + NUM_CARDS
    A_PAY = A_SUMMON + NUM_CARDS
    A_FORTIFY = A_PAY + NUM_CARDS
    A_DISCARD = A_FORTIFY + NUM_CARDS
    A_ENCHANT = A_DISCARD + NUM_CARDS     # + 4 value + target seat (the active seat:
                                          # every opponent, under enchant_any)
    A_AUGUR = A_ENCHANT + 22 * MAX_PLAYERS    # + value
    A_MURDER = A_AUGUR + 22                   # + value
    A_PICK = A_MURDER + 22                    # + card
    A_COUNTER = A_PICK + NUM_CARDS            # + value: Negate, its cancel, or Foil
    A_PASS = A_COUNTER + 22
    A_ATTACK = A_PASS + 1                     # + MAX_PLAYERS Court + the opponent
    A_CLASH = A_ATTACK + MAX_PLAYERS * TAROT0  # every attacker is declared
    A_FACE = A_CLASH + 1                      # + the opponent to clash with next
    A_MEET = A_FACE + MAX_PLAYERS             # + the attacker answered
    A_DEFEND = A_MEET + TAROT0                # + the defending Court
    A_DECLINE = A_DEFEND + TAROT0
    A_RALLY = A_DECLINE + 1                   # + a Common from hand
    A_NO_RALLY = A_RALLY + TAROT0
    A_CAPTURE = A_NO_RALLY + 1                # + the Common captured
    A_ARCANA = A_CAPTURE + TAROT0             # + the suit, which names the ability
    A_CONGREGATE = A_ARCANA + 4               # + the Common placed
    A_CONSCRIPT = A_CONGREGATE + TAROT0       # + the Court placed
    A_BOUNTY = A_CONSCRIPT + TAROT0           # + 10 + the change of value
    NUM_ACTIONS = A_BOUNTY + 21

cdef enum:
    DEST_HAND = 0             # + seat
    DEST_FLIP = 4             # + seat
    DEST_SCRY = 8
    DEST_EXILE = 9
    NUM_DESTS = 10

# A bound on the steps of one turn: the maneuvers, a Summon's payment, a Battle of up to
# 16 attackers (each clash at most a choice of attacker, a defence, four Rallies, the
# reveal and a capture), the special abilities, an Acceptance.
cdef enum:
    TURN_STEPS = 600


ctypedef struct RelData:
    # the rules in force, copied from the game so the hot path never asks Python
    uint8_t num_players
    uint8_t teams
    uint8_t acceptance
    uint8_t enchant_any
    uint8_t partner_rally
    uint8_t finesse
    uint8_t short_game
    int16_t max_turns

    # where the game stands
    int16_t turn                # turns begun since the first player was found
    int8_t phase                # the decision or chance event the game waits on
    int8_t active               # whose turn it is
    int8_t first                # who took the first turn
    uint8_t used                # maneuvers used this turn (bits: USED_*)
    uint8_t acted               # something was done this turn: it is no pass
    uint8_t passes              # turns in a row in which nothing was done
    uint8_t generation          # reshuffles so far: 0 until the Scry pile first runs out

    # the deal: each card in turn goes to a hand, a flip, the Scry pile or exile
    uint8_t deal_next           # the next card to place
    int8_t flip[MAX_PLAYERS]    # each player's latest flipped card, or -1
    uint8_t tied                # seats that flip again (bits)

    # the cards: where each lies (LOC_* with RESTING on a tableau card), and for a
    # hidden card the Scry pile generation it came from (0 the deal, g the g-th
    # reshuffle): everyone knows a card of generation g > 0 is one of that pile's
    uint8_t where[NUM_CARDS]
    uint8_t gen[NUM_CARDS]
    uint8_t hand_size[MAX_PLAYERS]
    uint8_t scry_size
    int16_t score[MAX_PLAYERS]  # once over: each seat's side's Commons

    # a Scry under way: the cards drawn, what remains to draw and who scries
    int8_t drawn[2]
    uint8_t draws_left
    uint8_t scries_left
    int8_t scry_for
    int8_t scry_ends_turn       # the Scry is an Acceptance: the turn passes after it

    # a Summon being paid for (L5)
    int8_t summon               # the Court, or -1
    uint8_t paid                # Commons rested for it so far
    uint8_t paid_off_suit       # one of them is not of the Court's suit

    # a Magick under way and its chain of counters (L6): cards are picked one by one,
    # in card order, from ``pool`` (bits by card id; every Common's id is below 56)
    int8_t spell                # SPELL_ENCHANT or SPELL_MURDER, or -1
    int8_t picker               # who picks the targets now
    int16_t pick_left           # the value still to pick, Bounties counted (L15)
    uint64_t pool
    uint64_t picked
    uint8_t defenders           # the seats of the side the Magick targets (bits)
    uint8_t defending           # the side whose counter is awaited: 1 the defenders
    uint8_t to_ask              # the seats of that side yet to answer (bits)
    uint8_t counters            # counters played so far
    int8_t last_tarot           # the value of the chain's latest Tarot
    int8_t victim               # a Murder's Court
    uint8_t depth               # Negates standing over the Enchant
    int8_t level_value[MAX_NEGATES + 1]   # the Enchant's Tarot, then each Negate's
    uint64_t level_set[MAX_NEGATES + 1]   # the Commons each would capture

    # a Battle under way (L7): the attackers still to clash, by the opponent each
    # attacks (bits by card id), and the clash being fought
    uint64_t aimed[MAX_PLAYERS]
    int8_t last_declared        # attackers are declared in card order
    int8_t facing               # the opponent whose clashes resolve now, or -1
    int8_t clash_attacker
    int8_t clash_defender
    int8_t taker                # the Court whose rank says which Common is captured
    # the clash's Rallies, chosen hidden one seat after another: the attacker, the
    # defender, then under partner_rally their partners (L7, L12).  A chosen Common
    # stays in hand until all are revealed; -1 is no Rally.
    int8_t rally_seat[MAX_PLAYERS]
    int8_t rally[MAX_PLAYERS]
    uint8_t rallies             # seats that rally in this clash
    uint8_t rallied             # of them, those that have chosen

    # a special ability under way (L9): the cards resting to pay for it, in card order,
    # the card a Finesse places, and a Bounty's target
    int8_t ability              # ABILITY_*, or -1
    int8_t placing
    int8_t ability_target
    uint64_t payers
    # what Bounties have added to each Common's value this turn (L15)
    int8_t bounty[56]


cdef class RelinquishState(GameState):
    cdef RelData s


# --- what both halves ask of a card ----------------------------------------------------
# Inline: the engine's hot path asks them at every step.

# The suited cards of each kind as sets, bit c for card c: the Commons and the Courts
# of the four suits of 14.  A card's kind is then one shift, not c % 14, a division.
cdef extern from *:
    """
    #define RELINQUISH_COMMONS 0xffc3ff0ffc3ffULL
    #define RELINQUISH_COURTS 0xf003c00f003c00ULL
    """
    const uint64_t COMMONS "RELINQUISH_COMMONS"
    const uint64_t COURTS "RELINQUISH_COURTS"

cdef inline bint is_common(int c) noexcept nogil:
    return c < TAROT0 and (COMMONS >> c) & 1

cdef inline bint is_court(int c) noexcept nogil:
    return c < TAROT0 and (COURTS >> c) & 1

cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c

# Defined with the end of a turn in engine.pyx; a position read in phase 'over' is
# scored by it.
cdef void game_over(RelData* s) noexcept nogil
